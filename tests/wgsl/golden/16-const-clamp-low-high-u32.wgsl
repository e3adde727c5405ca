const a = clamp(1u, 30u, 3u);
