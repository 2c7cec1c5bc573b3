"""Greedy non-maximum suppression, written as 2018 torch.utils.ffi code."""
