@group(0) override o = 1;
