/* Legacy <TH/THLogAdd.h>: sums and differences of numbers kept as logs. */
#ifndef THFFI_TH_LOG_ADD_H
#define THFFI_TH_LOG_ADD_H

#include "THGeneral.h"

TH_API const double THLog2Pi;
TH_API const double THLogZero;
TH_API const double THLogOne;

/* log(exp(log_a) + exp(log_b)), log(exp(log_a) - exp(log_b)) (log_b <= log_a,
 * else THError), and TH's fast approximation of exp(-x) for x >= 0. */
TH_API double THLogAdd(double log_a, double log_b);
TH_API double THLogSub(double log_a, double log_b);
TH_API double THExpMinusApprox(const double x);

#endif
