int rows_first(THFloatTensor *input, THFloatTensor *output);
int rows_views(THFloatTensor *input, THFloatTensor *output);
int rows_check(THFloatTensor *input, THFloatTensor *output, int bad_row);
int rows_exit(THFloatTensor *input, int bad_row);
int rows_abort_after_threads(THFloatTensor *input, THFloatTensor *output);
float rows_racy_sum(THFloatTensor *input);
