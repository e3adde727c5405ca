const a = 1;
*/
