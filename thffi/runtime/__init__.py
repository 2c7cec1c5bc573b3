"""What code thffi built or ported loads at run time, apart from its own files:
extension_runtime.py, which every extension package imports from here
(the slow path of each function, the CUDA callbacks),
thmath.py, the TH/THC math that thffi's C hands to PyTorch,
python2.py, Python 2's `/` for the code port rewrote, and scipy_images.py,
scipy.misc's image functions as SciPy 1.0 had them (port and run give them
back).  Nothing
here imports the build: a process that only runs an extension loads torch,
cffi's backend and these."""
