const a = extractBits(1u, 30u, 3u);
