const a = 1__;
