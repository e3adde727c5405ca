const ́x = 1;
