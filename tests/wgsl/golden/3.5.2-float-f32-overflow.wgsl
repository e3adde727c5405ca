const x = 3.4028236e38f;
