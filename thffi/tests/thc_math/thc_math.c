/* THC math calls as legacy GPU code wrote them (state first), checked
 * against PyTorch by tests/test_th_math.py where a GPU is lent; built (so
 * linked: every name resolved) wherever a CUDA toolkit is. */
#include <THC/THC.h>

extern THCState *state;

/* r_mul = 2 a, r_sum = a summed over dimension 1, on a's device. */
void thc_math_mul_sum(THCudaTensor *a, THCudaTensor *r_mul, THCudaTensor *r_sum) {
  THCudaTensor_mul(state, r_mul, a, 2);
  THCudaTensor_sum(state, r_sum, a, 1, 0);
}

/* The top 2 of each row of a, and where they are. */
void thc_math_long_topk(THCudaLongTensor *a, THCudaLongTensor *r_topk,
                        THCudaLongTensor *r_idx) {
  THCudaLongTensor_topk(state, r_topk, r_idx, a, 2, 1, 1, 1);
}

/* LU factors of the n x n matrices whose device addresses are in the device
 * array `matrices` (cuBLAS through legacy THC's wrapper). */
void thc_math_getrf(THCudaLongTensor *matrices, THCudaIntTensor *pivots, THCudaIntTensor *info,
                    int n) {
  THCudaBlas_Sgetrf(state, n, (float **)THCudaLongTensor_data(state, matrices), n,
                    THCudaIntTensor_data(state, pivots), THCudaIntTensor_data(state, info),
                    (int)THCudaLongTensor_nElement(state, matrices));
}
