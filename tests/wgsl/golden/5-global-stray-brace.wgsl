fn f() {
}
}
