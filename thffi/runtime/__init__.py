"""What a built extension loads at run time, apart from its own files:
extension_runtime.py, which the build copies into every extension package
as _thffi_runtime.py (the slow path of each function, the CUDA callbacks),
and thmath.py, the TH/THC math that thffi's C hands to PyTorch.  Nothing
here imports the build: a process that only runs an extension loads torch,
cffi's backend and these."""
