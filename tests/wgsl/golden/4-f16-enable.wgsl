enable f16;
var<private> x: f16 = 1.5h;
var<private> y: vec3h;
