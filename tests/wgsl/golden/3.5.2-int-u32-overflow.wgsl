const x = 4294967296u;
