#ifdef __cplusplus
extern "C" {
#endif
int shift_launcher(float *data, int n, float by, cudaStream_t stream);
#ifdef __cplusplus
}
#endif
