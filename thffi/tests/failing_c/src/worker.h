int exit_from_worker(int status);
