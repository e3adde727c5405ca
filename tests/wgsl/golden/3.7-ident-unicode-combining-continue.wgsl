const x́ = 1;
