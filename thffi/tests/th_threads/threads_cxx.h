int cxx_rows_first(THFloatTensor *input, THFloatTensor *output, int nthreads);
int cxx_rows_throw(THFloatTensor *input, int nthreads, int bad_thread);
int cxx_async_first(THFloatTensor *input, int row);
int cxx_pthread_throw(int status);
