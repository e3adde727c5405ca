var<private x> a: i32;
