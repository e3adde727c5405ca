// commentconst a = 1;
