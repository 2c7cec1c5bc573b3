#ifdef __cplusplus
extern "C" {
#endif

int workspace_forward(THFloatTensor *input, THFloatTensor *output, long workspace_size);
int check_kernel_size(int kernel_size);
int throw_box_error(int index);
int abort_on_empty(THFloatTensor *input);
int workspaces_destroyed(void);

#ifdef __cplusplus
}
#endif
