/* /* */
const a = 1;
