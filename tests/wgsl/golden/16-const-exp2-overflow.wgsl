const a = exp2(200.0f);
