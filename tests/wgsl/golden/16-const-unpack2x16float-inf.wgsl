const a = unpack2x16float(0x7c00u);
