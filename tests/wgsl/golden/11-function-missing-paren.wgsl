fn f {
}
