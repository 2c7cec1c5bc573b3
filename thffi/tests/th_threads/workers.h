int workers_views(THFloatTensor *input, THFloatTensor *output, int nthreads);
int workers_check(THFloatTensor *input, int nthreads, int bad_thread);
int workers_exit(int status);
int workers_leave_running(void);
int workers_release(int fail);
