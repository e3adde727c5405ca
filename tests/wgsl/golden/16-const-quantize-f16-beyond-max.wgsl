const a = quantizeToF16(65519f);
