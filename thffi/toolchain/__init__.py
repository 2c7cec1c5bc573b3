"""What the compilers and libraries of 2017-2018 accepted and today's refuse
or renamed, kept as data: one table per tool, each row the old form, the new
form and why.  The builder (the fallback compiles, the link check's
messages) and `python -m thffi port` (make.sh, Makefiles, CMake files, nvcc
run from Python) read the same rows, so a new legacy case is a row and a
test, not a branch in either.

- nvcc.py: nvcc's command line (C++ standard, renamed options, the GPU
  architectures today's nvcc cannot target).
- cc.py: C as gcc 5 compiled it (what gcc 14 and 15 refuse, C99 inline
  helpers nothing defines out of line) and the flags gcc takes for C or
  C++ only.
- ptx.py: inline PTX without `.sync` (shfl, vote), which ptxas refuses for
  sm_70 and later.
- warp.py: the warp intrinsics without a mask (`__shfl_down`, `__ballot`...)
  and their `_sync` forms with the full-warp mask, which port writes and
  `thffi run`'s nvcc compiles in flight.
- compilers.py: compilers 2018's build files named by a path this machine
  lacks (/usr/local/cuda-8.0/bin/nvcc, /usr/bin/gcc-5), and today's of
  their kind, which `thffi run` starts and port writes in their place.
- std_headers.py: standard C++ headers 2018's libstdc++ included through
  others (<limits> for std::numeric_limits, <string>), which a compile
  the compiler refuses for one gets included first (builder, `thffi
  run`) and port writes where g++'s verdict is the same.
- includes.py: the include folders of PyTorch 0.4 and 1.x's TH and THC
  (torch/lib/include/TH...), which thffi's headers replace.
- torch_folder.py: what 2018 build files looked up in PyTorch 0.4's torch
  folder (lib/include, libATen.so, libTH.so.1), which thffi's headers and
  shared TH library stand in for: CMake's find_* and links under `thffi
  run`, port's find_path/find_library.
- vendored.py: library copies 2018 repositories carried (CUB 1.x, thrust,
  moderngpu) and whether the toolkit ships them.
- cuda_api.py: the CUDA runtime and library names CUDA 10.1-13.0 removed
  (the launch sequence, texture references, cuSPARSE's legacy API...),
  each with its release and replacement, and the pip wheels that bring a
  CUDA library's headers.
- cuda_fields.py: fields of the CUDA runtime's structs renamed since 2018
  (cudaPointerAttributes::memoryType, now .type), written by port and
  compiled so by `thffi run`.
- libraries.py: CUDA's libraries on the link line (-lcurand, FindCUDA's
  ${CUDA_curand_LIBRARY}), which pip's wheels ship under names and in
  folders the linker does not look for.
- warnings.py: what today's toolkits warn of in 2018 code that is not
  the code's to fix (CUDA 13's deprecated long4), with the toolkit's
  switch that silences it alone.
- pyremoved.py: the Python of 2017-2018 today's Python, NumPy, SciPy and
  PyTorch removed (Python 2's idioms, each with its 2to3 fixer; removed
  names, rewritten or reported by port).
- tensor_behaviours.py: what PyTorch 0.x's tensors did that today's do
  otherwise with no error (a conversion of a view was contiguous), reported
  by port and given back by thffi run where it can be."""
