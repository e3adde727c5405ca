@vertex fn f() -> @location(0) vec4f { return vec4f(); }
