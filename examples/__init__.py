"""Examples of legacy torch.utils.ffi code, built with thffi."""
