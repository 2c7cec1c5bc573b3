#!/usr/bin/env bash
cd src/cuda
echo "Compiling shift kernels by nvcc..."
nvcc -c -o shift_kernel.cu.o shift_kernel.cu -x cu -Xcompiler -fPIC -arch=sm_52
cd ../..
python build.py
