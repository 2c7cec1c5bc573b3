#include <cuda_runtime_api.h>
#ifdef __cplusplus
extern "C"
#endif
cudaError_t launch_with_too_many_threads(float *data, cudaStream_t stream);
