int pool_make(int fail);
