const a = quantizeToF16(1e5f);
