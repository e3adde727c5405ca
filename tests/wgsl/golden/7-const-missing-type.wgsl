const x: = 1;
