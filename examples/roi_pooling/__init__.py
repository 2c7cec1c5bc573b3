"""RoI max pooling (Fast R-CNN), written as 2018 torch.utils.ffi code."""
