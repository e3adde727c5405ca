var<private> x: f16;
