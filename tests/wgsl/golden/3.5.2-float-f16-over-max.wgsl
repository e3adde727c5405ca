enable f16;
const x = 65505.0h;
