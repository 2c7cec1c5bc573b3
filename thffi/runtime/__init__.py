"""What code thffi built or ported loads at run time, apart from its own files:
extension_runtime.py, which every extension package imports from here
(the slow path of each function, the CUDA callbacks),
thmath.py, the TH/THC math that thffi's C hands to PyTorch, and
python2.py, Python 2's `/` for the code port rewrote.  Nothing
here imports the build: a process that only runs an extension loads torch,
cffi's backend and these."""
