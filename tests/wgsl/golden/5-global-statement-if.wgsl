const a = 1;
if true {
}
