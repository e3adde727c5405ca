/* block */ const a = /* inside */ 1;
/**/
