/*
 * doc
 * /* nested
 */
 */
const a = 1;
