#include <math.h>
#include <TH/TH.h>

/* The float and double versions from one generic file, in TH's way (real,
 * accreal, Real and THTensor_(NAME) name the type):
 * roi_pooling_forward / roi_pooling_forward_double, and the backwards. */
#define roi_pooling_(NAME) TH_CONCAT_3(roi_pooling_, NAME, ROI_SUFFIX)

#define ROI_SUFFIX
#define real float
#define accreal double
#define Real Float
#include "generic/roi_pooling.c"
#undef ROI_SUFFIX
#undef real
#undef accreal
#undef Real

#define ROI_SUFFIX _double
#define real double
#define accreal double
#define Real Double
#include "generic/roi_pooling.c"
#undef ROI_SUFFIX
#undef real
#undef accreal
#undef Real
