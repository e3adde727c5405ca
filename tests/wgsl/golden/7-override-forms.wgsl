override a: f32;
override b = 1.0;
@id(7) override c: u32 = 3u;
