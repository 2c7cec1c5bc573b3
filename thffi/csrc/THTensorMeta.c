/* TH tensor functions every type has but the element-wise ops. */
#include "TH/TH.h"
#include "thffi_private.h"

#define THFFI_T THTensor
#define THFFI_S THStorage
#define THFFI_F(NAME) THTensor_(NAME)
#define THFFI_SF(NAME) THStorage_(NAME)
#define THFFI_STATE
#define THFFI_NEW_DEVICE -1
#define THFFI_STATE_ONLY void
#define THFFI_ST
#define THFFI_TYPE_NAME "torch." TH_CONCAT_STRING_2(Real, Tensor)
#define TH_GENERIC_FILE "generic/THTensorMeta.c"
#include "TH/THGenerateAllTypes.h"
#define TH_GENERIC_FILE "generic/THTensorMeta.c"
#include "TH/THGenerateHalfType.h"
