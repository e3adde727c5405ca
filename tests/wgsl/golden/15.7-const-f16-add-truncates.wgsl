enable f16;
const_assert (1.0h + 0.00146484375h) == 1.0009765625h;
