"""What the compilers and libraries of 2017-2018 accepted and today's refuse
or renamed, kept as data: one table per tool, each row the old form, the new
form and why.  The builder (the fallback compiles, the link check's
messages) and `python -m thffi port` (make.sh, Makefiles, CMake files, nvcc
run from Python) read the same rows, so a new legacy case is a row and a
test, not a branch in either.

- nvcc.py: nvcc's command line (C++ standard, renamed options, the GPU
  architectures today's nvcc cannot target).
- libraries.py: CUDA's libraries on the link line (-lcurand, FindCUDA's
  ${CUDA_curand_LIBRARY}), which pip's wheels ship under names and in
  folders the linker does not look for."""
