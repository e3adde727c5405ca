const x = 1..3;
