const a = smoothstep(-3e38f, 3e38f, 2f);
