alias NULL = i32;
