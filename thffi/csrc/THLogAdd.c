/* TH/THLogAdd.h, as TH computed it. */
#include "TH/TH.h"
#include "thffi_private.h"

const double THLog2Pi = 1.83787706640934548356;
const double THLogZero = -INFINITY;
const double THLogOne = 0;

/* Below this difference the smaller term is lost in the sum, as in TH. */
static const double thffi_min_log = -39.14;

double THLogAdd(double log_a, double log_b) {
  double diff;
  if (log_a < log_b) {
    double t = log_a;
    log_a = log_b;
    log_b = t;
  }
  diff = log_b - log_a;
  if (diff < thffi_min_log) return log_a;
  return log_a + log1p(exp(diff));
}

double THLogSub(double log_a, double log_b) {
  double diff;
  if (log_a < log_b) THError("LogSub: log_a (%f) should be greater than log_b (%f)", log_a, log_b);
  diff = log_b - log_a;
  if (diff < thffi_min_log) return log_a;
  return log_a + log1p(-exp(diff));
}

/* TH's approximation of exp(-x) for x >= 0: 1 / p(x)^8 with p a quartic
 * close to exp(x/8), 0 from x = 13 on (exp(-x) itself for x < 0). */
double THExpMinusApprox(const double x) {
  double y;
  if (x < 0) return exp(-x);
  if (x < 13.0) {
    y = 1.0 + x * (0.125 + x * (0.0078125 + x * (0.00032552083 + x * 1.0172526e-5)));
    y *= y;
    y *= y;
    y *= y;
    return 1.0 / y;
  }
  return 0.0;
}
