@id(1) override a: i32;
@id(1) override b: i32;
