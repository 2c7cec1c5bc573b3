// Legacy <THC/THCDeviceTensor.cuh> (PyTorch 0.3/0.4): THCDeviceTensor<T,
// Dim, IndexT, PtrTraits>, a view of device memory with Dim sizes and
// strides of type IndexT, passed to kernels by value and indexed there as
// t[i][j][k] (each [] but the last a sub-tensor, the last the element).
// THC/THCDeviceTensorUtils.cuh makes one from a THC tensor.
#ifndef THFFI_THC_DEVICE_TENSOR_CUH
#define THFFI_THC_DEVICE_TENSOR_CUH

#include <assert.h>
#include <stddef.h>
#include <cuda_runtime.h>

// Compile-time assertion: THCStaticAssert<false> is incomplete.
template <bool>
struct THCStaticAssert;
template <>
struct THCStaticAssert<true> {};
#define thc_static_assert(exp) (THCStaticAssert<(exp)>())

// The pointer type a THCDeviceTensor holds: plain, or __restrict__.
template <typename T>
struct DefaultPtrTraits {
  typedef T *PtrType;
};
template <typename T>
struct RestrictPtrTraits {
  typedef T *__restrict__ PtrType;
};

namespace detail {
template <typename TensorType, int SubDim, template <typename U> class PtrTraits>
class THCDeviceSubTensor;
}

template <typename T, int Dim, typename IndexT = int,
          template <typename U> class PtrTraits = DefaultPtrTraits>
class THCDeviceTensor {
 public:
  enum { NumDim = Dim };
  typedef T DataType;
  typedef IndexT IndexType;
  typedef typename PtrTraits<T>::PtrType DataPtrType;
  typedef THCDeviceTensor<T, Dim, IndexT, PtrTraits> TensorType;

  // An empty tensor (no data, sizes 0).
  __host__ __device__ THCDeviceTensor() : data_(NULL) {
    thc_static_assert(Dim > 0);
    for (int i = 0; i < Dim; ++i) size_[i] = stride_[i] = 0;
  }

  // Contiguous (row-major) over data.
  __host__ __device__ THCDeviceTensor(DataPtrType data, const IndexT sizes[Dim]) : data_(data) {
    thc_static_assert(Dim > 0);
    for (int i = 0; i < Dim; ++i) size_[i] = sizes[i];
    stride_[Dim - 1] = 1;
    for (int i = Dim - 2; i >= 0; --i) stride_[i] = stride_[i + 1] * sizes[i + 1];
  }

  __host__ __device__ THCDeviceTensor(DataPtrType data, const IndexT sizes[Dim],
                                      const IndexT strides[Dim])
      : data_(data) {
    thc_static_assert(Dim > 0);
    for (int i = 0; i < Dim; ++i) {
      size_[i] = sizes[i];
      stride_[i] = strides[i];
    }
  }

  // Same sizes and strides as rhs (of any number of dimensions: the extra
  // ones of the larger must be 1).
  template <int OtherDim>
  __host__ __device__ bool isSameSizeAndStride(
      const THCDeviceTensor<T, OtherDim, IndexT, PtrTraits> &rhs) const {
    if (Dim != OtherDim) return false;
    for (int i = 0; i < Dim; ++i)
      if (size_[i] != rhs.getSize(i) || stride_[i] != rhs.getStride(i)) return false;
    return true;
  }

  // The same memory as elements of type U (of the same size).
  template <typename U>
  __host__ __device__ THCDeviceTensor<U, Dim, IndexT, PtrTraits> cast() {
    thc_static_assert(sizeof(U) == sizeof(T));
    return THCDeviceTensor<U, Dim, IndexT, PtrTraits>(
        reinterpret_cast<typename PtrTraits<U>::PtrType>(data_), size_, stride_);
  }
  template <typename U>
  __host__ __device__ const THCDeviceTensor<U, Dim, IndexT, PtrTraits> cast() const {
    thc_static_assert(sizeof(U) == sizeof(T));
    return THCDeviceTensor<U, Dim, IndexT, PtrTraits>(
        reinterpret_cast<typename PtrTraits<U>::PtrType>(data_), size_, stride_);
  }

  __host__ __device__ __forceinline__ DataPtrType data() { return data_; }
  __host__ __device__ __forceinline__ const DataPtrType data() const { return data_; }
  template <typename U>
  __host__ __device__ __forceinline__ typename PtrTraits<U>::PtrType dataAs() {
    return reinterpret_cast<typename PtrTraits<U>::PtrType>(data_);
  }
  template <typename U>
  __host__ __device__ __forceinline__ const typename PtrTraits<const U>::PtrType dataAs() const {
    return reinterpret_cast<typename PtrTraits<const U>::PtrType>(data_);
  }

  __host__ __device__ __forceinline__ IndexT getSize(int i) const { return size_[i]; }
  __host__ __device__ __forceinline__ IndexT getStride(int i) const { return stride_[i]; }
  __host__ __device__ __forceinline__ const IndexT *sizes() const { return size_; }
  __host__ __device__ __forceinline__ const IndexT *strides() const { return stride_; }

  __host__ __device__ ptrdiff_t numElements() const {
    ptrdiff_t n = 1;
    for (int i = 0; i < Dim; ++i) n *= size_[i];
    return n;
  }

  // Row-major without gaps (dimensions of size 1 may have any stride).
  __host__ __device__ bool isContiguous() const {
    IndexT expected = 1;
    for (int i = Dim - 1; i >= 0; --i) {
      if (size_[i] != 1 && stride_[i] != expected) return false;
      expected *= size_[i];
    }
    return true;
  }
  __host__ __device__ bool isConsistentlySized(int i) const {
    if (i == 0 && size_[i] > 0 && stride_[i] > 0) return true;
    return i > 0 && i < Dim && stride_[i] > 0 &&
           stride_[i - 1] / stride_[i] >= size_[i];
  }
  __host__ __device__ bool isConsistentlySized() const {
    for (int i = 0; i < Dim; ++i)
      if (!isConsistentlySized(i)) return false;
    return true;
  }
  // Dimension i has stride 1.
  __host__ __device__ bool isContiguousDim(int i) const { return i == Dim - 1 && stride_[i] == 1; }

  // The same memory with dimensions dim1 and dim2 exchanged.
  __host__ __device__ THCDeviceTensor<T, Dim, IndexT, PtrTraits> transpose(int dim1,
                                                                           int dim2) const {
    IndexT newSize[Dim], newStride[Dim];
    for (int i = 0; i < Dim; ++i) {
      newSize[i] = size_[i];
      newStride[i] = stride_[i];
    }
    IndexT s = newSize[dim1], t = newStride[dim1];
    newSize[dim1] = newSize[dim2];
    newStride[dim1] = newStride[dim2];
    newSize[dim2] = s;
    newStride[dim2] = t;
    return THCDeviceTensor<T, Dim, IndexT, PtrTraits>(data_, newSize, newStride);
  }

  // NewDim > Dim dimensions: size-1 dimensions added outermost (upcastOuter)
  // or innermost (upcastInner).
  template <int NewDim>
  __host__ __device__ THCDeviceTensor<T, NewDim, IndexT, PtrTraits> upcastOuter() {
    thc_static_assert(NewDim > Dim);
    IndexT newSize[NewDim], newStride[NewDim];
    int shift = NewDim - Dim;
    for (int i = 0; i < NewDim; ++i) {
      if (i < shift) {
        newSize[i] = 1;
        newStride[i] = size_[0] * stride_[0];
      } else {
        newSize[i] = size_[i - shift];
        newStride[i] = stride_[i - shift];
      }
    }
    return THCDeviceTensor<T, NewDim, IndexT, PtrTraits>(data_, newSize, newStride);
  }
  template <int NewDim>
  __host__ __device__ THCDeviceTensor<T, NewDim, IndexT, PtrTraits> upcastInner() {
    thc_static_assert(NewDim > Dim);
    IndexT newSize[NewDim], newStride[NewDim];
    for (int i = 0; i < NewDim; ++i) {
      if (i < Dim) {
        newSize[i] = size_[i];
        newStride[i] = stride_[i];
      } else {
        newSize[i] = 1;
        newStride[i] = 1;
      }
    }
    return THCDeviceTensor<T, NewDim, IndexT, PtrTraits>(data_, newSize, newStride);
  }

  // NewDim < Dim dimensions: the outermost (downcastOuter) or innermost
  // (downcastInner) Dim - NewDim + 1 merged into one; they must be
  // contiguous with each other.
  template <int NewDim>
  __host__ __device__ THCDeviceTensor<T, NewDim, IndexT, PtrTraits> downcastOuter() {
    thc_static_assert(NewDim < Dim);
    IndexT newSize[NewDim], newStride[NewDim];
    int merged = Dim - NewDim + 1;
    for (int i = 0; i < merged - 1; ++i)
      assert(stride_[i] == stride_[i + 1] * size_[i + 1] || size_[i] == 1);
    newSize[0] = 1;
    for (int i = 0; i < merged; ++i) newSize[0] *= size_[i];
    newStride[0] = stride_[merged - 1];
    for (int i = 1; i < NewDim; ++i) {
      newSize[i] = size_[i + merged - 1];
      newStride[i] = stride_[i + merged - 1];
    }
    return THCDeviceTensor<T, NewDim, IndexT, PtrTraits>(data_, newSize, newStride);
  }
  template <int NewDim>
  __host__ __device__ THCDeviceTensor<T, NewDim, IndexT, PtrTraits> downcastInner() {
    thc_static_assert(NewDim < Dim);
    IndexT newSize[NewDim], newStride[NewDim];
    int first = NewDim - 1;
    for (int i = first; i < Dim - 1; ++i)
      assert(stride_[i] == stride_[i + 1] * size_[i + 1] || size_[i] == 1);
    for (int i = 0; i < first; ++i) {
      newSize[i] = size_[i];
      newStride[i] = stride_[i];
    }
    newSize[first] = 1;
    for (int i = first; i < Dim; ++i) newSize[first] *= size_[i];
    newStride[first] = stride_[Dim - 1];
    return THCDeviceTensor<T, NewDim, IndexT, PtrTraits>(data_, newSize, newStride);
  }

  // The innermost SubDim dimensions, from `at` (default: the first element).
  template <int SubDim>
  __host__ __device__ THCDeviceTensor<T, SubDim, IndexT, PtrTraits> view(DataPtrType at) {
    thc_static_assert(SubDim >= 1 && SubDim < Dim);
    return THCDeviceTensor<T, SubDim, IndexT, PtrTraits>(at, size_ + Dim - SubDim,
                                                         stride_ + Dim - SubDim);
  }
  template <int SubDim>
  __host__ __device__ THCDeviceTensor<T, SubDim, IndexT, PtrTraits> view() {
    return view<SubDim>(data_);
  }

  // Sets every element to 0 on `stream`: one cudaMemsetAsync when
  // contiguous (the only case legacy THC handled).
  __host__ void zero(cudaStream_t stream = 0) {
    assert(isContiguous());
    cudaMemsetAsync(data(), 0, numElements() * sizeof(T), stream);
  }

  // t[i]: the sub-tensor of the outer index i (for Dim == 1, the element).
  __host__ __device__ __forceinline__
      detail::THCDeviceSubTensor<TensorType, Dim - 1, PtrTraits>
      operator[](IndexT index) {
    return detail::THCDeviceSubTensor<TensorType, Dim - 1, PtrTraits>(
        *this, data_ + index * stride_[0]);
  }
  __host__ __device__ __forceinline__
      const detail::THCDeviceSubTensor<TensorType, Dim - 1, PtrTraits>
      operator[](IndexT index) const {
    return detail::THCDeviceSubTensor<TensorType, Dim - 1, PtrTraits>(
        const_cast<TensorType &>(*this), data_ + index * stride_[0]);
  }

 protected:
  DataPtrType data_;
  IndexT stride_[Dim];
  IndexT size_[Dim];
};

namespace detail {

// SubDim dimensions of a tensor left to index, at data_.
template <typename TensorType, int SubDim, template <typename U> class PtrTraits>
class THCDeviceSubTensor {
 public:
  typedef typename TensorType::DataType T;
  typedef typename TensorType::IndexType IndexT;
  typedef typename TensorType::DataPtrType DataPtrType;

  __host__ __device__ __forceinline__ THCDeviceSubTensor<TensorType, SubDim - 1, PtrTraits>
  operator[](IndexT index) {
    return THCDeviceSubTensor<TensorType, SubDim - 1, PtrTraits>(
        tensor_, data_ + index * tensor_.getStride(TensorType::NumDim - SubDim));
  }
  __host__ __device__ __forceinline__ const THCDeviceSubTensor<TensorType, SubDim - 1, PtrTraits>
  operator[](IndexT index) const {
    return THCDeviceSubTensor<TensorType, SubDim - 1, PtrTraits>(
        tensor_, data_ + index * tensor_.getStride(TensorType::NumDim - SubDim));
  }
  __host__ __device__ __forceinline__ T *operator&() { return data_; }
  __host__ __device__ __forceinline__ DataPtrType data() { return data_; }
  // These SubDim dimensions as a tensor of their own.
  __host__ __device__ THCDeviceTensor<T, SubDim, IndexT, PtrTraits> view() {
    return tensor_.template view<SubDim>(data_);
  }

 protected:
  friend class THCDeviceSubTensor<TensorType, SubDim + 1, PtrTraits>;
  friend class THCDeviceTensor<T, TensorType::NumDim, IndexT, PtrTraits>;
  __host__ __device__ __forceinline__ THCDeviceSubTensor(TensorType &t, DataPtrType data)
      : tensor_(t), data_(data) {}
  TensorType &tensor_;
  DataPtrType const data_;
};

// No dimension left: the element itself.
template <typename TensorType, template <typename U> class PtrTraits>
class THCDeviceSubTensor<TensorType, 0, PtrTraits> {
 public:
  typedef typename TensorType::DataType T;
  typedef typename TensorType::DataPtrType DataPtrType;

  __host__ __device__ __forceinline__ THCDeviceSubTensor &operator=(typename TensorType::DataType val) {
    *data_ = val;
    return *this;
  }
  __host__ __device__ __forceinline__ operator T &() { return *data_; }
  __host__ __device__ __forceinline__ operator const T &() const { return *data_; }
  __host__ __device__ __forceinline__ T *operator&() { return data_; }
  __host__ __device__ __forceinline__ const T *operator&() const { return data_; }
  __host__ __device__ __forceinline__ DataPtrType data() { return data_; }
  // The element through the read-only data cache where the device has one.
  __device__ __forceinline__ T ldg() const {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 350
    return __ldg(data_);
#else
    return *data_;
#endif
  }

 protected:
  friend class THCDeviceSubTensor<TensorType, 1, PtrTraits>;
  friend class THCDeviceTensor<T, 1, typename TensorType::IndexType, PtrTraits>;
  __host__ __device__ __forceinline__ THCDeviceSubTensor(TensorType &t, DataPtrType data)
      : tensor_(t), data_(data) {}
  TensorType &tensor_;
  DataPtrType const data_;
};

}  // namespace detail

#endif
