#!/usr/bin/env bash

TORCH=$(python -c "import os; import torch; print(os.path.dirname(torch.__file__))")

cd src/cuda
echo "Compiling scale_mul kernels by nvcc..."
nvcc -c -o scale_mul_kernel.cu.o scale_mul_kernel.cu -x cu -Xcompiler -fPIC \
    -gencode arch=compute_30,code=sm_30 \
    -gencode arch=compute_35,code=sm_35 \
    -gencode arch=compute_52,code=sm_52 \
    -gencode arch=compute_61,code=sm_61 \
    -I $TORCH/lib/include -I $TORCH/lib/include/TH -I $TORCH/lib/include/THC

cd ../../
python build.py
