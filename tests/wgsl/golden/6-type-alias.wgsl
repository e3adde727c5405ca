alias V = vec4<f32>;
alias A = array<V, 2>;
var<private> a: A;
