enable f16;
var<private> h: f16;
