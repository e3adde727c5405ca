var<private> m: vec2<vec2<f32>>;
