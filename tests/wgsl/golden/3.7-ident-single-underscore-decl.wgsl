const _ = 1;
