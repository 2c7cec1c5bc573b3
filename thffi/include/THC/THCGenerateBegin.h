/* Shared opening of the single-type THC generators (THCGenerate<Type>Type.h):
 * THCFFI_GENERIC_FILE names the file to include.  Legacy THC code names it
 * THC_GENERIC_FILE; thffi's own and the TH idiom use TH_GENERIC_FILE: either
 * works, THC_GENERIC_FILE first. */
#undef THCFFI_GENERIC_FILE
#if defined(THC_GENERIC_FILE)
#define THCFFI_GENERIC_FILE THC_GENERIC_FILE
#elif defined(TH_GENERIC_FILE)
#define THCFFI_GENERIC_FILE TH_GENERIC_FILE
#else
#error "You must define THC_GENERIC_FILE before including a THCGenerate*Type.h header"
#endif
#include <float.h>
#include <limits.h>
#include <stdint.h>
