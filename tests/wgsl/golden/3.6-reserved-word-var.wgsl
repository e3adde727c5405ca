var<private> volatile: i32;
