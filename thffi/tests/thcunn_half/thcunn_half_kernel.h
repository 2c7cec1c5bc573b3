/* thcunn_half_kernel.cu, for C. */
#ifndef THCUNN_HALF_KERNEL_H
#define THCUNN_HALF_KERNEL_H
#include <THC/THC.h>
#define THNN_(NAME) TH_CONCAT_3(THNN_, CReal, NAME)
#endif
