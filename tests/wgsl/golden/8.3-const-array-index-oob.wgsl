const a = array(1, 2, 3)[3];
