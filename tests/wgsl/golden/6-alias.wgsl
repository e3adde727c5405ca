alias F = f32;
alias V = vec3<F>;
fn f() -> V { return V(1.0); }
