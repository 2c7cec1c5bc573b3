from .loss import L1Loss
