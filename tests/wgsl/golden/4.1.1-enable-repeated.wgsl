enable f16;
enable f16;
