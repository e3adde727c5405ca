const a = acosh(0.5);
