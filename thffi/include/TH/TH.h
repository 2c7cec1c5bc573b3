/* thffi: drop-in replacement for the legacy <TH/TH.h> (PyTorch 0.3/0.4). */
#ifndef THFFI_TH_H
#define THFFI_TH_H

#include "THGeneral.h"
#include "THStorage.h"
#include "THTensor.h"
#include "THTensorCopy.h"
#include "THTensorDimApply.h"

#endif
