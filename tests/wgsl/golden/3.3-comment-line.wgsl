// a line comment
const a = 1; // trailing
//
