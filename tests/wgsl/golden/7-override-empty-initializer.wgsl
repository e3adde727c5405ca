override x: i32 = ;
