const a = insertBits(1u, 2u, 30u, 3u);
