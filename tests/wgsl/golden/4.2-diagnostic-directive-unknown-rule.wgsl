diagnostic(info, my.rule);
