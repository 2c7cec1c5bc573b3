/* TH tensor functions for every type (generic/THTensor.c once per type). */
#include "TH/TH.h"
#include "thffi_callbacks.h"

/* Every function checks its tensor arguments for NULL (a None from Python),
 * so a missing argument is an error rather than a crash. */
#define THFFI_NONNULL(t, argn) \
  THArgCheck((t) != NULL, argn, "expected a tensor, got NULL (None)")

#define TH_GENERIC_FILE "generic/THTensor.c"
#include "TH/THGenerateFloatTypes.h"
