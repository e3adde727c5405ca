var<private> x: i32 = 1;
var<private> y = 2.0;
