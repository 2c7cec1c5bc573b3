/* thffi: the names of Thrust 2 (CUDA 12's CCCL and older) that 2018 CUDA
 * code used and Thrust 3 (CUDA 13's CCCL) removed, given back as Thrust 2
 * defined them (toolchain/cuda_api.py, the rows of library 'cccl').
 *
 * thffi's nvcc compiles of the user's CUDA sources include it first
 * (nvcc -include), under create_extension and under `thffi run`: the
 * 2018 sources that use them include thrust's headers, not THC's.  Where
 * the toolkit's Thrust still has them, it defines nothing. */
#ifndef THFFI_CCCL_LEGACY_H
#define THFFI_CCCL_LEGACY_H

#if defined(__cplusplus) && defined(__CUDACC__)
#include <thrust/version.h>

#if THRUST_VERSION >= 300000
THRUST_NAMESPACE_BEGIN
/* The base classes of 2018's functors (`struct op : public
 * thrust::binary_function<float, float, float>`), which only named the
 * argument and result types. */
template <typename Argument, typename Result>
struct unary_function {
  typedef Argument argument_type;
  typedef Result result_type;
};

template <typename Argument1, typename Argument2, typename Result>
struct binary_function {
  typedef Argument1 first_argument_type;
  typedef Argument2 second_argument_type;
  typedef Result result_type;
};
THRUST_NAMESPACE_END
#endif
#endif

#endif
