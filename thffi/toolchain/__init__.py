"""What the compilers and libraries of 2017-2018 accepted and today's refuse
or renamed, kept as data: one table per tool, each row the old form, the new
form and why.  The builder (the fallback compiles, the link check's
messages) and `python -m thffi port` (make.sh, Makefiles, CMake files, nvcc
run from Python) read the same rows, so a new legacy case is a row and a
test, not a branch in either.

- nvcc.py: nvcc's command line (C++ standard, renamed options, the GPU
  architectures today's nvcc cannot target).
- cuda_api.py: the CUDA runtime and library names CUDA 10.1-13.0 removed
  (the launch sequence, texture references, cuSPARSE's legacy API...),
  each with its release and replacement, and the pip wheels that bring a
  CUDA library's headers."""
