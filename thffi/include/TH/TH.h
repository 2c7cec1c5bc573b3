/* thffi: drop-in replacement for the legacy <TH/TH.h> (PyTorch 0.3/0.4). */
#ifndef THFFI_TH_H
#define THFFI_TH_H

#include "THGeneral.h"
#include "THBlas.h"
#include "THLapack.h"
#include "THHalf.h"
#include "THSize.h"
#include "THAtomic.h"
#include "THStorage.h"
#include "THTensor.h"
#include "THTensorCopy.h"
#include "THTensorApply.h"
#include "THTensorDimApply.h"
#include "THLogAdd.h"
#include "THRandom.h"
#include "THVector.h"
#include "THTensorMath.h"
#include "THTensorRandom.h"
#include "THTensorLapack.h"

#endif
