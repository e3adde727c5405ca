fn f(p : ptr<function, vec4f>) {
  p.xyz[1] = 2;
  p.xy[0] = vec2f();
}
