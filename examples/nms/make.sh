#!/usr/bin/env bash
# As 2018 ffi projects did it: compile the CUDA kernels with nvcc into an
# object, then build the extension, which links it (extra_objects).
# -arch=sm_75 embeds sm_75 code and compute_75 PTX, which newer GPUs compile.
set -e
cd "$(dirname "$0")"
if [ -n "$(python -c 'from thffi import cuda_enabled; print(cuda_enabled() or "")')" ]; then
  cd src/cuda
  echo "Compiling nms kernels by nvcc..."
  nvcc -c -o nms_kernel.cu.o nms_kernel.cu -x cu -Xcompiler -fPIC -arch=sm_75
  cd ../..
fi
python build.py
