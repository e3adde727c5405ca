var<private> p: i32;
override o: i32 = p;
