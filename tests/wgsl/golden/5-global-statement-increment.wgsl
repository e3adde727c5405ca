var<private> x: i32;
x++;
