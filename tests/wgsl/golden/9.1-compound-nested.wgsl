fn f() {
  {
    {
      let a = 1;
      _ = a;
    }
  }
  ;
  ;;
}
