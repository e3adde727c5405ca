fn f() { let v = vec3<f32>(1.0); let a = normalize(v); let b = length(v); let c = mix(v, v, 0.5); let d = fma(v, v, v); let e = smoothstep(0.0, 1.0, v); let g = step(v, v); }
