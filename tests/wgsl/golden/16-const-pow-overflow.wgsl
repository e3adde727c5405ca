const a = pow(10.0f, 40.0f);
