fn f() { let x = extractBits(5u, 1u, 2u); let y = insertBits(5i, 1i, 0u, 3u); }
