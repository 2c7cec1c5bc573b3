"""What the compilers and libraries of 2017-2018 accepted and today's refuse
or renamed, kept as data: one table per tool, each row the old form, the new
form and why.  The builder (the fallback compiles, the link check's
messages) and `python -m thffi port` (make.sh, Makefiles, CMake files, nvcc
run from Python) read the same rows, so a new legacy case is a row and a
test, not a branch in either.

- nvcc.py: nvcc's command line (C++ standard, renamed options, the GPU
  architectures today's nvcc cannot target).
- pyremoved.py: the Python of 2017-2018 today's Python, NumPy, SciPy and
  PyTorch removed (Python 2's idioms, each with its 2to3 fixer; removed
  names, rewritten or reported by port)."""
