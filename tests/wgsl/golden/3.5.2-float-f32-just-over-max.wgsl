const x = 3.4028235e38f;
