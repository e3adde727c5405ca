@vertex fn f() -> vec4f { return vec4f(); }
