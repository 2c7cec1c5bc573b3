// The overlap masks of greedy NMS: block (x, y) compares the 64 boxes of
// column block x with the 64 of row block y, one row box per thread.
#include "nms_kernel.h"

namespace {

const int kBoxesPerBlock = 64;

__device__ float iou(const float *a, const float *b) {
  float w = fminf(a[2], b[2]) - fmaxf(a[0], b[0]);
  float h = fminf(a[3], b[3]) - fmaxf(a[1], b[1]);
  float inter = fmaxf(w, 0.f) * fmaxf(h, 0.f);
  float area_a = (a[2] - a[0]) * (a[3] - a[1]), area_b = (b[2] - b[0]) * (b[3] - b[1]);
  return inter / (area_a + area_b - inter);
}

__global__ void mask_kernel(const float *boxes, int64_t n, float threshold, uint64_t *mask) {
  const int64_t row_block = blockIdx.y, col_block = blockIdx.x;
  const int64_t words = (n + kBoxesPerBlock - 1) / kBoxesPerBlock;
  const int rows = (int)min(n - row_block * kBoxesPerBlock, (int64_t)kBoxesPerBlock);
  const int cols = (int)min(n - col_block * kBoxesPerBlock, (int64_t)kBoxesPerBlock);
  __shared__ float block_boxes[kBoxesPerBlock * 4];
  if (threadIdx.x < cols)
    for (int k = 0; k < 4; k++)
      block_boxes[threadIdx.x * 4 + k] = boxes[(col_block * kBoxesPerBlock + threadIdx.x) * 4 + k];
  __syncthreads();
  if (threadIdx.x >= rows) return;
  const int64_t i = row_block * kBoxesPerBlock + threadIdx.x;
  uint64_t bits = 0;
  for (int k = 0; k < cols; k++) {
    const int64_t j = col_block * kBoxesPerBlock + k;
    if (j > i && iou(boxes + i * 4, block_boxes + k * 4) > threshold) bits |= 1ULL << k;
  }
  mask[i * words + col_block] = bits;
}

}  // namespace

extern "C" cudaError_t nms_mask_launch(const float *boxes, int64_t n, float overlap_threshold,
                                       uint64_t *mask, cudaStream_t stream) {
  const int64_t blocks = (n + kBoxesPerBlock - 1) / kBoxesPerBlock;
  if (blocks > 65535) return cudaErrorInvalidValue;  // gridDim.y limit
  dim3 grid((unsigned)blocks, (unsigned)blocks);
  mask_kernel<<<grid, kBoxesPerBlock, 0, stream>>>(boxes, n, overlap_threshold, mask);
  return cudaGetLastError();
}
