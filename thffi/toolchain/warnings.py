"""Warnings today's toolkits print for 2018 code that are not the code's to
fix, and the toolkit's own switch that silences each alone.

CUDA 13 deprecated the vector types long4, ulong4, longlong4, ulonglong4
and double4 for their _16a and _32a forms (vector_types.h: "'long4' is
deprecated: use long4_16a or long4_32a"): a 2018 CUDA build that used them
printed 202 such warnings.  __NV_NO_VECTOR_DEPRECATION_DIAG, the toolkit's
macro, silences that deprecation and no other: a name of the user's
declared deprecated, or a call CUDA deprecated, still warns.  (cuSPARSE's
header's own deprecations are silenced where thffi includes it,
include/THC/THCGeneral.h.)"""

# define_macros entries for every compile of the user's code where the CUDA
# toolkit's headers are on the include path.
QUIET_DEPRECATIONS = [('__NV_NO_VECTOR_DEPRECATION_DIAG', None)]
