/* The Python side of a call, in C: reading torch tensors given as arguments,
 * the slow-path hand-off, and the tensor operations C asks of PyTorch
 * (resize, views, new tensors).  Only public torch APIs are used (DLPack's C
 * exchange API, attributes and methods of torch.Tensor), so nothing here
 * links libtorch.
 *
 * Statics are per extension module (each links its own copy) and are set
 * once by THFFIPy_install, under the GIL. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "TH/TH.h"
#include "THFFIPython.h"
#include "thffi_private.h"

static PyTypeObject *thffi_tensor_type, *thffi_parameter_type;

/* DLPack's C exchange API (dlpack.h 1.x, Apache-2.0: the parts used here;
 * the table has this layout since 1.2).  torch.Tensor's
 * __dlpack_c_exchange_api__ (Python array API standard, DLPack >= 1.3) is a
 * capsule holding this table;
 * its dltensor_from_py_object_no_sync describes a tensor (data, device,
 * dtype, shape, strides) in one C call, without allocating: ~40 ns, where
 * the same read through five attributes costs ~150 ns.  Used on exact
 * torch.Tensor and nn.Parameter objects; subclasses (whose attributes may
 * be overridden) and a torch without the table go through the attributes. */
typedef struct {
  int32_t device_type; /* kDLCPU 1, kDLCUDA 2 */
  int32_t device_id;
} thffi_DLDevice;
typedef struct {
  uint8_t code; /* kDLInt 0, kDLUInt 1, kDLFloat 2 */
  uint8_t bits;
  uint16_t lanes;
} thffi_DLDataType;
typedef struct {
  void *data;
  thffi_DLDevice device;
  int32_t ndim;
  thffi_DLDataType dtype;
  int64_t *shape;
  int64_t *strides; /* NULL: compact row-major */
  uint64_t byte_offset;
} thffi_DLTensor;
typedef struct thffi_DLPackExchangeAPIHeader {
  uint32_t major, minor;
  struct thffi_DLPackExchangeAPIHeader *prev_api;
} thffi_DLPackExchangeAPIHeader;
typedef struct {
  thffi_DLPackExchangeAPIHeader header;
  void *managed_tensor_allocator;
  void *managed_tensor_from_py_object_no_sync;
  void *managed_tensor_to_py_object_no_sync;
  /* 0, or -1 with a Python exception set; may be NULL. */
  int (*dltensor_from_py_object_no_sync)(void *py_object, thffi_DLTensor *out);
  /* 0, or -1 with a Python exception set. */
  int (*current_work_stream)(int32_t device_type, int32_t device_id, void **out_stream);
} thffi_DLPackExchangeAPI;
static const thffi_DLPackExchangeAPI *thffi_dlpack;
static const thffi_DLDataType thffi_dl_dtypes[8] = {  /* THFFI_DTYPES order */
    {2, 32, 1}, {2, 64, 1}, {1, 8, 1}, {0, 8, 1}, {0, 16, 1}, {0, 32, 1}, {0, 64, 1},
    {2, 16, 1}};
enum { THFFI_DL_CPU = 1, THFFI_DL_CUDA = 2 };
/* The attributes read per argument.  On an object of type exactly
 * torch.Tensor the C function behind the attribute, found at install through
 * the descriptor on the type (CPython's public PyGetSetDescrObject and
 * PyMethodDescrObject), is called directly, as the descriptor would call it
 * after its own checks: the type is checked here, and the lookup, the
 * descriptor's dispatch and its argument checks are skipped (~25% of a call
 * on a torch without DLPack's exchange API).  Other descriptors and
 * subclasses get Python's attribute lookup. */
typedef struct {
  const char *text;
  PyObject *name;
  getter get;        /* a getset's getter, or NULL */
  void *closure;
  PyCFunction meth;  /* a method without arguments: METH_NOARGS, or
                        METH_VARARGS (| METH_KEYWORDS) called with () */
  int flags;
} thffi_attr;
static thffi_attr a_dtype = {"dtype"}, a_is_cpu = {"is_cpu"}, a_is_cuda = {"is_cuda"},
                  a_shape = {"shape"}, a_data_ptr = {"data_ptr"}, a_stride = {"stride"},
                  a_get_device = {"get_device"}, a_is_neg = {"is_neg"};
static thffi_attr *const thffi_attrs[] = {&a_dtype,  &a_is_cpu,     &a_is_cuda,
                                          &a_shape,  &a_data_ptr,   &a_stride,
                                          &a_get_device, &a_is_neg};
/* torch's legacy tensor types (torch.FloatTensor..., torch.cuda.FloatTensor...;
 * [cuda][THFFI_DTYPES order]) and the C function of their metaclass's
 * __instancecheck__ (METH_O): isinstance(t, torch.FloatTensor) checks the
 * dtype and the device of a tensor in one call, where reading dtype and
 * is_cpu takes two.  It also says no to what carries a key besides its
 * device's (negative views, vmap's and functorch's wrappers, sparse, meta):
 * the slow path names those.  NULL where this torch has none of it. */
static PyObject *thffi_legacy_types[2][8];
static PyCFunction thffi_instancecheck;
static const char *const thffi_legacy_names[8] = {"FloatTensor", "DoubleTensor", "ByteTensor",
                                                   "CharTensor", "ShortTensor", "IntTensor",
                                                   "LongTensor",  "HalfTensor"};
static PyObject *thffi_dtypes[8];  /* THFFI_DTYPES order (thffi/builder/tensor_types.py) */
static PyObject *thffi_empty;      /* torch.empty */
static PyObject *thffi_from_dlpack; /* torch.from_dlpack */
static PyObject *thffi_contiguous_format;
static PyObject *thffi_no_args;    /* () */
static PyObject *s_strict, *s_resize_, *s_set_, *s_select, *s_narrow, *s_transpose,
    *s_clone, *s_contiguous, *s_is_contiguous, *s_detach, *s_memory_format, *s_device,
    *s_unfold, *s_squeeze, *s_unsqueeze, *s_view, *s_expand, *s_untyped_storage,
    *s_storage_offset, *s_requires_grad, *s_is_leaf, *s_data, *s_new_empty;
static long thffi_live;

static const unsigned thffi_itemsize[8] = {4, 8, 1, 1, 2, 4, 8, 2};
static const char *const thffi_dtype_names[8] = {"float32", "float64", "uint8", "int8",
                                                  "int16", "int32", "int64", "float16"};

/* obj.<attr> (a new reference), NULL with an exception. */
static PyObject *thffi_get(PyObject *obj, const thffi_attr *a) {
  if (a->get != NULL && Py_TYPE(obj) == thffi_tensor_type) return a->get(obj, a->closure);
  return PyObject_GetAttr(obj, a->name);
}

/* obj.<attr>() */
static PyObject *thffi_call(PyObject *obj, const thffi_attr *a) {
  if (a->meth != NULL && Py_TYPE(obj) == thffi_tensor_type) {
    if (a->flags == METH_NOARGS) return a->meth(obj, NULL);
    if (a->flags == METH_VARARGS) return a->meth(obj, thffi_no_args);
    return ((PyCFunctionWithKeywords)(void (*)(void))a->meth)(obj, thffi_no_args, NULL);
  }
  return PyObject_VectorcallMethod(a->name, &obj, 1, NULL);
}

/* Fills a's direct route from d, the descriptor found on torch.Tensor. */
static void thffi_direct(thffi_attr *a, PyObject *d) {
  if (Py_IS_TYPE(d, &PyGetSetDescr_Type)) {
    PyGetSetDef *g = ((PyGetSetDescrObject *)d)->d_getset;
    a->get = g->get;
    a->closure = g->closure;
  } else if (Py_IS_TYPE(d, &PyMethodDescr_Type)) {
    PyMethodDef *m = ((PyMethodDescrObject *)d)->d_method;
    int flags = m->ml_flags & ~(METH_COEXIST);
    if (flags == METH_NOARGS || flags == METH_VARARGS || flags == (METH_VARARGS | METH_KEYWORDS)) {
      a->meth = m->ml_meth;
      a->flags = flags;
    }
  }
}

/* Reads a tuple of ints into out[0..n); 0 on failure (exception set or not). */
static int thffi_int64s(PyObject *tuple, int64_t *out, Py_ssize_t *n) {
  Py_ssize_t i, len;
  if (!PyTuple_Check(tuple)) return 0;
  len = PyTuple_GET_SIZE(tuple);
  if (len > THFFI_MAX_DIMS) return 0;
  for (i = 0; i < len; i++) {
    long long v = PyLong_AsLongLong(PyTuple_GET_ITEM(tuple, i));
    if (v == -1 && PyErr_Occurred()) return 0;
    out[i] = v;
  }
  *n = len;
  return 1;
}

/* Contiguous strides for `size` (as torch gives them: a dimension of size
 * 0 or 1 counts as 1). */
static void thffi_contiguous_strides(int n, const int64_t *size, int64_t *stride) {
  int64_t step = 1;
  while (n-- > 0) {
    stride[n] = step;
    step *= size[n] > 1 ? size[n] : 1;
  }
}

/* Data pointer, shape and strides of a tensor; 0 on failure (an exception
 * may be set). */
static int thffi_describe(PyObject *obj, uintptr_t *data, int *dim, int64_t *size,
                          int64_t *stride) {
  PyObject *v;
  Py_ssize_t n = 0, m = 0;
  int ok;
  v = thffi_call(obj, &a_data_ptr);
  if (v == NULL) return 0;
  *data = (uintptr_t)PyLong_AsVoidPtr(v);
  Py_DECREF(v);
  if (*data == 0 && PyErr_Occurred()) return 0;
  v = thffi_get(obj, &a_shape);
  if (v == NULL) return 0;
  ok = thffi_int64s(v, size, &n);
  Py_DECREF(v);
  if (!ok) return 0;
  v = thffi_call(obj, &a_stride);
  if (v == NULL) return 0;
  ok = thffi_int64s(v, stride, &m);
  Py_DECREF(v);
  if (!ok || m != n) return 0;
  *dim = (int)n;
  return 1;
}

/* 1 if obj's attribute `a` is `expected`; 0 otherwise or on error. */
static int thffi_attr_is(PyObject *obj, const thffi_attr *a, PyObject *expected) {
  PyObject *v = thffi_get(obj, a);
  int same = v == expected;
  Py_XDECREF(v);
  return same;
}

/* THFFIPy_tensorArg through DLPack: 1 when obj is of the expected dtype and
 * device type, described into *arg; 0 otherwise, with no exception set. */
static int thffi_dlpack_arg(PyObject *obj, int dtype, int cuda, THFFIArg *arg) {
  thffi_DLTensor t;
  const thffi_DLDataType *want = &thffi_dl_dtypes[dtype];
  if (thffi_dlpack->dltensor_from_py_object_no_sync(obj, &t) != 0) {
    PyErr_Clear();  /* no storage (sparse, mkldnn...), meta, quantized: the
                       slow path names the problem */
    return 0;
  }
  if (t.dtype.code != want->code || t.dtype.bits != want->bits || t.dtype.lanes != 1 ||
      t.device.device_type != (cuda ? THFFI_DL_CUDA : THFFI_DL_CPU) || t.ndim < 0 ||
      t.ndim > THFFI_MAX_DIMS)
    return 0;
  arg->data = (uintptr_t)t.data + (uintptr_t)t.byte_offset;
  arg->dim = t.ndim;
  arg->device = cuda ? t.device.device_id : -1;
  memcpy(arg->size, t.shape, (size_t)t.ndim * sizeof(int64_t));
  if (t.strides != NULL)
    memcpy(arg->stride, t.strides, (size_t)t.ndim * sizeof(int64_t));
  else
    thffi_contiguous_strides(t.ndim, arg->size, arg->stride);
  return 1;
}

int THFFIPy_tensorArg(PyObject *obj, int dtype, int cuda, THFFIArg *arg) {
  PyObject *v;
  arg->device = -1;
  if (obj == Py_None) {
    arg->dim = -1;
    arg->data = 0;
    return 1;
  }
  if (thffi_dlpack != NULL &&
      (Py_TYPE(obj) == thffi_tensor_type || Py_TYPE(obj) == thffi_parameter_type)) {
    if (!thffi_dlpack_arg(obj, dtype, cuda, arg)) return 0;
  } else {
    if (!PyObject_TypeCheck(obj, thffi_tensor_type)) return 0;
    if (thffi_instancecheck != NULL && Py_TYPE(obj) == thffi_tensor_type &&
        thffi_legacy_types[cuda][dtype] != NULL) {
      v = thffi_instancecheck(thffi_legacy_types[cuda][dtype], obj);
      if (v == NULL) goto no;
      Py_DECREF(v);
      if (v != Py_True) return 0;
    } else if (!thffi_attr_is(obj, &a_dtype, thffi_dtypes[dtype]) ||
               !thffi_attr_is(obj, cuda ? &a_is_cuda : &a_is_cpu, Py_True)) {
      goto no;
    }
    if (!thffi_describe(obj, &arg->data, &arg->dim, arg->size, arg->stride)) goto no;
    if (cuda) {
      v = thffi_call(obj, &a_get_device);
      if (v == NULL) goto no;
      arg->device = (int)PyLong_AsLong(v);
      Py_DECREF(v);
      if (arg->device < 0) goto no;
    }
  }
  /* A negative view (the .imag of a conjugated complex tensor, and views of
   * it) holds its values negated in memory: C would read and write them with
   * the wrong sign, and neither DLPack nor data_ptr() shows it.  Its data are
   * imaginary parts, an odd multiple of the item size away from the complex
   * storage, so only a tensor whose data pointer is placed so is asked
   * is_neg() (~70 ns: it releases the GIL).  Not caught: a negative view
   * moved onto real parts with as_strided, or over complex memory aligned to
   * less than its item size (from_numpy/frombuffer at an odd offset). */
  if (arg->data % (2 * thffi_itemsize[dtype]) == thffi_itemsize[dtype]) {
    v = thffi_call(obj, &a_is_neg);
    if (v == NULL) goto no;
    Py_DECREF(v);
    if (v != Py_False) return 0;
  }
  return 1;
no:
  PyErr_Clear();
  return 0;
}

int THFFIPy_oneDevice(int n, THFFIArg *const *args, int *device) {
  int i;
  *device = -1;
  for (i = 0; i < n; i++) {
    if (args[i]->dim < 0) continue;
    if (*device >= 0 && args[i]->device != *device) return 0;
    *device = args[i]->device;
  }
  return 1;
}

int THFFIPy_cudaStream(int device, uintptr_t *stream) {
  void *s = NULL;
  if (thffi_dlpack == NULL || thffi_dlpack->current_work_stream == NULL) return 0;
  if (thffi_dlpack->current_work_stream(THFFI_DL_CUDA, device, &s) != 0) {
    PyErr_Clear();
    return 0;
  }
  *stream = (uintptr_t)s;
  return 1;
}

int THFFIPy_intArg(PyObject *obj, long long *out) {
  int overflow;
  if (!PyLong_CheckExact(obj)) return 0;
  *out = PyLong_AsLongLongAndOverflow(obj, &overflow);
  return !overflow;
}

int THFFIPy_uintArg(PyObject *obj, unsigned long long *out) {
  if (!PyLong_CheckExact(obj)) return 0;
  *out = PyLong_AsUnsignedLongLong(obj);
  if (*out == (unsigned long long)-1 && PyErr_Occurred()) {
    PyErr_Clear();
    return 0;
  }
  return 1;
}

int THFFIPy_floatArg(PyObject *obj, double *out) {
  if (PyFloat_CheckExact(obj)) {
    *out = PyFloat_AS_DOUBLE(obj);
    return 1;
  }
  if (!PyLong_CheckExact(obj)) return 0;
  *out = PyLong_AsDouble(obj);
  if (*out == -1.0 && PyErr_Occurred()) {
    PyErr_Clear();
    return 0;
  }
  return 1;
}

int THFFIPy_pointerArg(PyObject *obj, void **out) {
  unsigned long long v;
  if (obj == Py_None) {
    *out = NULL;
    return 1;
  }
  if (!THFFIPy_uintArg(obj, &v) || v != (uintptr_t)v) return 0;
  *out = (void *)(uintptr_t)v;
  return 1;
}

PyObject *THFFIPy_fallback(PyObject *module, const char *name, PyObject *const *args,
                           Py_ssize_t nargs, PyObject *kwnames) {
  PyObject *spec, *r;
  if (module == NULL)
    return PyErr_Format(PyExc_SystemError,
                        "%s: the slow path passed arguments the C entry does not take", name);
  spec = PyObject_GetAttrString(module, name);
  if (spec == NULL) return NULL;
  r = PyObject_Vectorcall(spec, args, (size_t)nargs, kwnames);
  Py_DECREF(spec);
  return r;
}

int THFFIPy_raised(const char *name) {
  const char *msg = THFFI_takeError();
  if (msg == NULL) return 0;
  PyErr_Format(PyExc_RuntimeError, "%s: %s", name, msg);
  return 1;
}

PyObject *THFFIPy_returned(void *obj, PyObject *const *args, Py_ssize_t nargs) {
  Py_ssize_t i;
  if (obj == NULL) Py_RETURN_NONE;
  for (i = 0; i < nargs; i++) {
    if (args[i] == (PyObject *)obj) {
      Py_INCREF(args[i]);
      return args[i];
    }
  }
  thffi_live--;  /* a created tensor: its reference passes to the caller */
  return (PyObject *)obj;
}

long THFFIPy_liveTensors(void) { return thffi_live; }

void THFFIPy_report(int error, const char *fmt, ...) {
  char msg[THFFI_MSG_LEN + 256];
  PyGILState_STATE gil;
  va_list args;
  va_start(args, fmt);
  vsnprintf(msg, sizeof msg, fmt, args);
  va_end(args);
  if (!Py_IsInitialized()) {  /* at exit: stderr is all there is */
    fprintf(stderr, "thffi: %s\n", msg);
    return;
  }
  gil = PyGILState_Ensure();
  if (error) {
    PyErr_SetString(PyExc_RuntimeError, msg);
    PyErr_WriteUnraisable(NULL);
  } else if (PyErr_WarnEx(PyExc_RuntimeWarning, msg, 1) != 0) {
    PyErr_WriteUnraisable(NULL);
  }
  PyGILState_Release(gil);
}

/* ---- tensor operations asked by C (THFFI_tensorOp) ---- */

static PyObject *thffi_sizes(int n, const int64_t *args) {
  PyObject *t = PyTuple_New(n);
  int i;
  if (t == NULL) return NULL;
  for (i = 0; i < n; i++) {
    PyObject *v = PyLong_FromLongLong(args[i]);
    if (v == NULL) {
      Py_DECREF(t);
      return NULL;
    }
    PyTuple_SET_ITEM(t, i, v);
  }
  return t;
}

/* `obj.set_(src.<view>(*args))` */
static PyObject *thffi_set_view(PyObject *obj, PyObject *src, PyObject *view, PyObject *args) {
  PyObject *method = PyObject_GetAttr(src, view), *viewed, *r;
  if (method == NULL) return NULL;
  viewed = PyObject_Call(method, args, NULL);
  Py_DECREF(method);
  if (viewed == NULL) return NULL;
  r = PyObject_CallMethodOneArg(obj, s_set_, viewed);
  Py_DECREF(viewed);
  return r;
}

/* `obj.set_(src.untyped_storage(), src.storage_offset() + args[0], sizes,
 * strides)` with args {offset, n, n sizes, n strides}: the caller checked
 * that the view lies within the memory src's storage describes. */
static PyObject *thffi_set_strided(PyObject *obj, PyObject *src, int n, const int64_t *args) {
  PyObject *storage = NULL, *offset = NULL, *sizes = NULL, *strides = NULL, *r = NULL;
  long long base;
  int dim = (int)args[1];
  if (n != 2 + 2 * dim) {
    PyErr_SetString(PyExc_SystemError, "STRIDED: malformed arguments");
    return NULL;
  }
  offset = PyObject_CallMethodNoArgs(src, s_storage_offset);
  if (offset == NULL) return NULL;
  base = PyLong_AsLongLong(offset);
  Py_DECREF(offset);
  if (base == -1 && PyErr_Occurred()) return NULL;
  storage = PyObject_CallMethodNoArgs(src, s_untyped_storage);
  offset = PyLong_FromLongLong(base + args[0]);
  sizes = thffi_sizes(dim, args + 2);
  strides = thffi_sizes(dim, args + 2 + dim);
  if (storage != NULL && offset != NULL && sizes != NULL && strides != NULL)
    r = PyObject_CallMethodObjArgs(obj, s_set_, storage, offset, sizes, strides, NULL);
  Py_XDECREF(storage);
  Py_XDECREF(offset);
  Py_XDECREF(sizes);
  Py_XDECREF(strides);
  return r;
}

/* DLPack 0.x's managed tensor (the "dltensor" capsule every torch 2.x takes),
 * over memory given to a storage (THFFI_OP_WRAP): torch calls the deleter
 * when its storage dies, which frees the memory as the storage's allocator
 * says. */
typedef struct thffi_DLManagedTensor {
  thffi_DLTensor dl_tensor;
  void *manager_ctx;
  void (*deleter)(struct thffi_DLManagedTensor *self);
} thffi_DLManagedTensor;
typedef struct {
  thffi_DLManagedTensor managed;
  int64_t shape[1];
  THFFIRelease release;
  void *allocator, *ctx;
} thffi_wrapped;

static void thffi_wrapped_delete(thffi_DLManagedTensor *self) {
  thffi_wrapped *w = (thffi_wrapped *)self;
  if (w->release != NULL) w->release(w->allocator, w->ctx, self->dl_tensor.data);
  free(w);
}

/* A 1-d torch tensor of args[1] elements over the memory at args[0], which
 * it owns once made: args {data, numel, release, allocator, ctx}.  Made by
 * torch.from_dlpack; when that fails the memory stays the caller's. */
static PyObject *thffi_wrap(int dtype, int device, const int64_t *args) {
  thffi_wrapped *w = (thffi_wrapped *)calloc(1, sizeof *w);
  PyObject *capsule, *r;
  if (w == NULL) return PyErr_NoMemory();
  w->managed.dl_tensor.data = (void *)(uintptr_t)args[0];
  w->managed.dl_tensor.device.device_type = device < 0 ? THFFI_DL_CPU : THFFI_DL_CUDA;
  w->managed.dl_tensor.device.device_id = device < 0 ? 0 : device;
  w->managed.dl_tensor.ndim = 1;
  w->managed.dl_tensor.dtype = thffi_dl_dtypes[dtype];
  w->shape[0] = args[1];
  w->managed.dl_tensor.shape = w->shape;
  w->managed.deleter = thffi_wrapped_delete;
  w->release = (THFFIRelease)(uintptr_t)args[2];
  w->allocator = (void *)(uintptr_t)args[3];
  w->ctx = (void *)(uintptr_t)args[4];
  capsule = PyCapsule_New(&w->managed, "dltensor", NULL);
  if (capsule == NULL) {
    free(w);
    return NULL;
  }
  r = PyObject_CallOneArg(thffi_from_dlpack, capsule);
  if (r == NULL && strcmp(PyCapsule_GetName(capsule), "dltensor") == 0) free(w);  /* unused */
  Py_DECREF(capsule);
  return r;
}

/* The tensor C works on for `t` (a new reference), NULL with an exception:
 * t itself, or, where t requires grad, t.detach(), its data.  PyTorch 0.4
 * handed C the data of a tensor, never its autograd part: views and copies C
 * makes of a Parameter require no grad, as they did then. */
static PyObject *thffi_data_of(PyObject *t) {
  PyObject *v = PyObject_GetAttr(t, s_requires_grad);
  if (v == NULL) return NULL;
  Py_DECREF(v);
  if (v != Py_True) {
    Py_INCREF(t);
    return t;
  }
  return PyObject_CallMethodNoArgs(t, s_detach);
}

/* The tensor an in-place change of `obj` is made on (a new reference), NULL
 * with an exception: obj, or where obj requires grad, an alias of it (a
 * tensor that requires no grad over the same memory, sizes and strides),
 * whose new shape, strides and memory thffi_set_data then gives obj as its
 * data.  So C that resizes, views or sets an argument that is a Parameter
 * changes its data as on PyTorch 0.4 (where Tensor.resize_ refuses one that
 * requires grad), and the Parameter stays the same object.  The alias has a
 * version counter of its own, so obj's does not move: C's changes were not
 * autograd's in-place operations on 0.4 either, and a Function that saved
 * the Parameter for backward before its C ran still reads it there.  A
 * tensor that requires grad and is not a leaf is refused: autograd recorded
 * its shape in the graph that made it, which a change in place would leave
 * wrong. */
static PyObject *thffi_change_target(PyObject *obj) {
  PyObject *v = PyObject_GetAttr(obj, s_requires_grad), *alias, *data, *size;
  int leaf;
  if (v == NULL) return NULL;
  Py_DECREF(v);
  if (v != Py_True) {
    Py_INCREF(obj);
    return obj;
  }
  v = PyObject_GetAttr(obj, s_is_leaf);
  if (v == NULL) return NULL;
  leaf = v == Py_True;
  Py_DECREF(v);
  if (!leaf) {
    PyErr_SetString(PyExc_RuntimeError,
                    "it requires grad and is not a leaf (an operation's result, whose shape "
                    "autograd recorded); C may change a leaf (a Parameter, a tensor made with "
                    "requires_grad=True) or a tensor that requires no grad");
    return NULL;
  }
  size = Py_BuildValue("(i)", 0);
  if (size == NULL) return NULL;
  v = PyObject_GetAttr(obj, s_new_empty);
  alias = v == NULL ? NULL : PyObject_Call(v, size, NULL);
  Py_XDECREF(v);
  Py_DECREF(size);
  if (alias == NULL) return NULL;
  data = PyObject_CallMethodNoArgs(obj, s_detach);
  v = data == NULL ? NULL : PyObject_CallMethodOneArg(alias, s_set_, data);
  Py_XDECREF(data);
  if (v == NULL) {
    Py_DECREF(alias);
    return NULL;
  }
  Py_DECREF(v);
  return alias;
}

/* obj.data = target: obj takes target's shape, strides and memory.  When the
 * shape changes, obj's gradient accumulator is dropped first, by giving obj
 * an empty tensor of another floating type for a moment (Tensor.data's setter
 * drops it on a change of type, not of shape): later graphs then accumulate
 * gradients of the new shape, rather than one checked against the old. */
static int thffi_set_data(PyObject *obj, PyObject *target) {
  PyObject *before = PyObject_GetAttr(obj, a_shape.name), *after = NULL, *dtype = NULL,
           *other = NULL, *kw = NULL, *empty = NULL, *size = NULL;
  int same, ok = 0;
  if (before == NULL) return 0;
  after = PyObject_GetAttr(target, a_shape.name);
  same = after == NULL ? -1 : PyObject_RichCompareBool(before, after, Py_EQ);
  if (same < 0) goto done;
  if (!same) {
    dtype = PyObject_GetAttr(obj, a_dtype.name);
    if (dtype == NULL) goto done;
    kw = PyDict_New();
    size = Py_BuildValue("(i)", 0);
    /* thffi_dtypes[1] is float64, [0] float32 */
    if (kw == NULL || size == NULL ||
        PyDict_SetItem(kw, a_dtype.name,
                       thffi_dtypes[dtype == thffi_dtypes[1] ? 0 : 1]) != 0)
      goto done;
    other = PyObject_GetAttr(obj, s_new_empty);
    if (other == NULL) goto done;
    empty = PyObject_Call(other, size, kw);
    Py_DECREF(other);
    if (empty == NULL || PyObject_SetAttr(obj, s_data, empty) != 0) goto done;
  }
  ok = PyObject_SetAttr(obj, s_data, target) == 0;
done:
  Py_XDECREF(before);
  Py_XDECREF(after);
  Py_XDECREF(dtype);
  Py_XDECREF(kw);
  Py_XDECREF(size);
  Py_XDECREF(empty);
  return ok;
}

/* The new tensor a creating `op` yields (a new reference), NULL with an
 * exception. */
static PyObject *thffi_create(int op, PyObject *src, int dtype, int device, PyObject *sizes,
                              int n, const int64_t *args) {
  PyObject *r, *kw, *pos;
  switch (op) {
    case THFFI_OP_NEW:
      kw = PyDict_New();
      if (kw == NULL) return NULL;
      pos = device < 0 ? PyUnicode_FromString("cpu") : PyUnicode_FromFormat("cuda:%d", device);
      if (pos == NULL || PyDict_SetItem(kw, a_dtype.name, thffi_dtypes[dtype]) ||
          PyDict_SetItem(kw, s_device, pos)) {
        Py_XDECREF(pos);
        Py_DECREF(kw);
        return NULL;
      }
      Py_DECREF(pos);
      pos = PyTuple_Pack(1, sizes);
      r = pos == NULL ? NULL : PyObject_Call(thffi_empty, pos, kw);
      Py_XDECREF(pos);
      Py_DECREF(kw);
      return r;
    case THFFI_OP_WRAP:
      if (n != 5) {
        PyErr_SetString(PyExc_SystemError, "WRAP: malformed arguments");
        return NULL;
      }
      return thffi_wrap(dtype, device, args);
    case THFFI_OP_CLONE:
      kw = Py_BuildValue("{OO}", s_memory_format, thffi_contiguous_format);
      if (kw == NULL) return NULL;
      pos = PyObject_GetAttr(src, s_clone);
      r = pos == NULL ? NULL : PyObject_VectorcallDict(pos, NULL, 0, kw);
      Py_XDECREF(pos);
      Py_DECREF(kw);
      return r;
    case THFFI_OP_CONTIGUOUS:
      /* a new tensor object either way: a view when src is contiguous */
      r = PyObject_CallMethodNoArgs(src, s_is_contiguous);
      if (r == NULL) return NULL;
      pos = r == Py_True ? s_detach : s_contiguous;
      Py_DECREF(r);
      return PyObject_CallMethodNoArgs(src, pos);
    default:
      PyErr_Format(PyExc_SystemError, "unknown tensor operation %d", op);
      return NULL;
  }
}

/* Does the in-place `op` to `target`; 0 with an exception on failure. */
static int thffi_change(int op, PyObject *target, PyObject *src, PyObject *sizes, int n,
                        const int64_t *args) {
  PyObject *r;
  switch (op) {
    case THFFI_OP_RESIZE:
      r = PyObject_CallMethodOneArg(target, s_resize_, sizes);
      break;
    case THFFI_OP_SELECT:
      r = thffi_set_view(target, src, s_select, sizes);
      break;
    case THFFI_OP_NARROW:
      r = thffi_set_view(target, src, s_narrow, sizes);
      break;
    case THFFI_OP_TRANSPOSE:
      r = thffi_set_view(target, src, s_transpose, sizes);
      break;
    case THFFI_OP_UNFOLD:
      r = thffi_set_view(target, src, s_unfold, sizes);
      break;
    case THFFI_OP_SQUEEZE:
      r = thffi_set_view(target, src, s_squeeze, sizes);
      break;
    case THFFI_OP_UNSQUEEZE:
      r = thffi_set_view(target, src, s_unsqueeze, sizes);
      break;
    case THFFI_OP_VIEW:
      r = thffi_set_view(target, src, s_view, sizes);
      break;
    case THFFI_OP_EXPAND:
      r = thffi_set_view(target, src, s_expand, sizes);
      break;
    case THFFI_OP_SET:
      r = PyObject_CallMethodOneArg(target, s_set_, src);
      break;
    case THFFI_OP_STRIDED:
      r = thffi_set_strided(target, src, n, args);
      break;
    default:
      PyErr_Format(PyExc_SystemError, "unknown tensor operation %d", op);
      return 0;
  }
  Py_XDECREF(r);
  return r != NULL;
}

/* The torch tensor `op` yields (a new reference), NULL with an exception:
 * a new one, or obj changed in place.  C sees the data of src and obj
 * (thffi_data_of, thffi_change_target). */
static PyObject *thffi_apply(int op, PyObject *obj, PyObject *src, int dtype, int device,
                             PyObject *sizes, int n, const int64_t *args) {
  PyObject *data = NULL, *target, *r = NULL;
  if (src != NULL && (data = thffi_data_of(src)) == NULL) return NULL;
  if (op == THFFI_OP_NEW || op == THFFI_OP_WRAP || op == THFFI_OP_CLONE ||
      op == THFFI_OP_CONTIGUOUS) {
    r = thffi_create(op, data, dtype, device, sizes, n, args);
  } else if ((target = thffi_change_target(obj)) != NULL) {
    if (thffi_change(op, target, data, sizes, n, args) &&
        (target == obj || thffi_set_data(obj, target))) {
      Py_INCREF(obj);
      r = obj;
    }
    Py_DECREF(target);
  }
  Py_XDECREF(data);
  return r;
}

static const char *const thffi_op_names[] = {
    "resize", "create", "select on", "narrow", "transpose", "make contiguous", "clone",
    "release", "unfold", "squeeze", "unsqueeze", "view", "expand", "set", "view the storage of", "wrap memory as"};

/* "cannot <op> <what>[ to <sizes>]: <exception>" into err; clears the error. */
static void thffi_report(int op, const THFFITensorPriv *priv, PyObject *sizes, char *err,
                         size_t errlen) {
  PyObject *type, *value, *tb, *text = NULL, *shape = NULL;
  char what[48];
  int creates = op == THFFI_OP_NEW || op == THFFI_OP_CLONE || op == THFFI_OP_CONTIGUOUS ||
                op == THFFI_OP_WRAP;
  PyErr_Fetch(&type, &value, &tb);
  if (creates)
    snprintf(what, sizeof what, "a tensor");
  else if (priv->base != NULL)
    snprintf(what, sizeof what, "a tensor created in C");
  else
    snprintf(what, sizeof what, "argument %lld", (long long)priv->ref + 1);
  if (value != NULL) text = PyObject_Str(value);
  if ((op == THFFI_OP_RESIZE || op == THFFI_OP_NEW) && sizes != NULL)
    shape = PyObject_Repr(sizes);
  PyErr_Clear();
  snprintf(err, errlen, "cannot %s %s%s%s: %s", thffi_op_names[op], what,
           shape ? " to " : "", shape ? PyUnicode_AsUTF8(shape) : "",
           text ? PyUnicode_AsUTF8(text) : "unknown error");
  PyErr_Clear();
  Py_XDECREF(text);
  Py_XDECREF(shape);
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(tb);
}

int THFFIPy_tensorOp(int op, THFFITensorPriv *priv, const THFFITensorPriv *src, int dtype,
                     int device, int n, const int64_t *args, uintptr_t *data_out, char *err,
                     size_t errlen) {
  PyGILState_STATE gil = PyGILState_Ensure();
  PyObject *sizes = NULL, *result = NULL;
  int failed = 1;
  if (op == THFFI_OP_RELEASE) {
    if (priv->obj != NULL) thffi_live--;  /* NULL: its creation failed */
    Py_CLEAR(priv->obj);
    PyGILState_Release(gil);
    return 0;
  }
  sizes = thffi_sizes(n, args);
  if (sizes == NULL) goto done;
  result = thffi_apply(op, (PyObject *)priv->obj, src ? (PyObject *)src->obj : NULL, dtype,
                       device, sizes, n, args);
  if (result == NULL) goto done;
  if (result != priv->obj) {  /* a created tensor: priv owns it from now on */
    priv->obj = result;
    thffi_live++;
    result = NULL;
  }
  if (!thffi_describe((PyObject *)priv->obj, data_out, &priv->dim, priv->size_buf,
                      priv->stride_buf)) {
    if (!PyErr_Occurred())
      PyErr_Format(PyExc_ValueError, "more than the %d dimensions TH supports",
                   THFFI_MAX_DIMS);
    goto done;
  }
  failed = 0;
done:
  if (failed) thffi_report(op, priv, sizes, err, errlen);
  Py_XDECREF(result);
  Py_XDECREF(sizes);
  PyGILState_Release(gil);
  return failed;
}

/* ---- THFFI_CHECK_LAYOUT ---- */

int THFFI_checkLayout;
/* (function name's address, argument position) pairs warned about. */
static PyObject *thffi_layout_warned;

/* "(a, b, c)" of n values into buf. */
static void thffi_tuple_text(char *buf, size_t len, int n, const int64_t *v) {
  size_t used = (size_t)snprintf(buf, len, "(");
  int i;
  for (i = 0; i < n && used < len; i++)
    used += (size_t)snprintf(buf + used, len - used, "%s%lld", i ? ", " : "",
                             (long long)v[i]);
  if (used < len) snprintf(buf + used, len - used, n == 1 ? ",)" : ")");
}

void THFFIPy_layoutWarning(const char *accessor, const THFFITensorPriv *priv,
                           const int64_t *size, const int64_t *stride) {
  const THFFIFrame *frame = THFFI_currentFrame();
  const char *function = frame != NULL ? frame->name : "a wrapped function";
  const char *param = frame != NULL && frame->params != NULL ? frame->params[priv->ref] : "?";
  char sizes[160], strides[160], body[THFFI_MSG_LEN];
  int failed = 0, seen;
  PyGILState_STATE gil = PyGILState_Ensure();
  PyObject *key;
  if (thffi_layout_warned == NULL && (thffi_layout_warned = PySet_New(NULL)) == NULL) goto done;
  key = Py_BuildValue("(Nl)", PyLong_FromVoidPtr((void *)function), (long)priv->ref);
  seen = key == NULL ? -1 : PySet_Contains(thffi_layout_warned, key);
  if (seen == 0) seen = PySet_Add(thffi_layout_warned, key);
  Py_XDECREF(key);
  if (seen != 0) goto done;  /* warned already, or out of memory */
  thffi_tuple_text(sizes, sizeof sizes, priv->dim, size);
  thffi_tuple_text(strides, sizeof strides, priv->dim, stride);
  snprintf(body, sizeof body,
           "argument %lld (%s) is not contiguous (size %s, stride %s) and the C code took %s "
           "of it without reading its strides (_stride, _isContiguous, _newStrideOf) or making "
           "it contiguous (_newContiguous): indexed as if contiguous, it reads the wrong "
           "elements. Pass %s.contiguous(), or make the C use the strides "
           "(THFFI_CHECK_LAYOUT=1 warns once per function and argument)",
           (long long)priv->ref + 1, param, sizes, strides, accessor, param);
  if (PyErr_WarnFormat(PyExc_RuntimeWarning, 1, "%s: %s", function, body) == 0) goto done;
  /* Warnings are errors: the call fails with the message (on a thread of
   * the C's own, with no call to fail, it is reported as unraisable). */
  if (frame == NULL)
    PyErr_WriteUnraisable(NULL);
  else
    failed = 1;
done:
  PyErr_Clear();
  PyGILState_Release(gil);
  if (failed) THFFI_fail("%s", body);
}

/* ---- installation ---- */

static int thffi_intern(PyObject **slot, const char *text) {
  *slot = PyUnicode_InternFromString(text);
  return *slot != NULL;
}

/* thffi_dlpack and thffi_parameter_type, when this torch has a DLPack
 * exchange API of major version 1; 0 on an error other than its absence. */
static int thffi_find_dlpack(PyObject *torch, PyObject *tensor_type) {
  PyObject *capsule, *nn;
  const thffi_DLPackExchangeAPIHeader *h;
  capsule = PyObject_GetAttrString(tensor_type, "__dlpack_c_exchange_api__");
  if (capsule == NULL || !PyCapsule_IsValid(capsule, "dlpack_exchange_api")) {
    PyErr_Clear();
    Py_XDECREF(capsule);
    return 1;
  }
  /* The table lives as long as the process (DLPack's contract). */
  h = (const thffi_DLPackExchangeAPIHeader *)PyCapsule_GetPointer(capsule,
                                                                 "dlpack_exchange_api");
  Py_DECREF(capsule);
  while (h != NULL && (h->major != 1 || h->minor < 2)) h = h->prev_api;
  if (h == NULL || ((const thffi_DLPackExchangeAPI *)h)->dltensor_from_py_object_no_sync == NULL)
    return 1;
  nn = PyObject_GetAttrString(torch, "nn");
  if (nn == NULL) return 0;
  thffi_parameter_type = (PyTypeObject *)PyObject_GetAttrString(nn, "Parameter");
  Py_DECREF(nn);
  if (thffi_parameter_type == NULL) return 0;
  thffi_dlpack = (const thffi_DLPackExchangeAPI *)h;
  return 1;
}

/* thffi_legacy_types and thffi_instancecheck, where torch has them (their
 * absence is no error). */
static void thffi_find_legacy_types(PyObject *torch) {
  PyObject *cuda = PyObject_GetAttrString(torch, "cuda"), *meta = NULL, *d;
  int i, c;
  for (c = 0; c < 2; c++) {
    PyObject *module = c ? cuda : torch;
    for (i = 0; i < 8 && module != NULL; i++) {
      PyObject *t = PyObject_GetAttrString(module, thffi_legacy_names[i]);
      if (t != NULL && PyType_Check(t) && (meta == NULL || Py_TYPE(t) == (PyTypeObject *)meta)) {
        meta = (PyObject *)Py_TYPE(t);
        thffi_legacy_types[c][i] = t;  /* the module keeps it too */
      } else {
        Py_XDECREF(t);
      }
    }
  }
  Py_XDECREF(cuda);
  PyErr_Clear();
  d = meta == NULL ? NULL : PyObject_GetAttrString(meta, "__instancecheck__");
  if (d != NULL && Py_IS_TYPE(d, &PyMethodDescr_Type) &&
      ((PyMethodDescrObject *)d)->d_method->ml_flags == METH_O &&
      PyType_IsSubtype((PyTypeObject *)meta, PyDescr_TYPE(d)))
    thffi_instancecheck = ((PyMethodDescrObject *)d)->d_method->ml_meth;
  Py_XDECREF(d);
  PyErr_Clear();
}

static int thffi_init(void) {
  PyObject *torch, *type = NULL;
  size_t i;
  if (thffi_tensor_type != NULL) return 1;
  if (!thffi_intern(&s_strict, "strict") || !thffi_intern(&s_resize_, "resize_") ||
      !thffi_intern(&s_set_, "set_") || !thffi_intern(&s_select, "select") ||
      !thffi_intern(&s_narrow, "narrow") || !thffi_intern(&s_transpose, "transpose") ||
      !thffi_intern(&s_clone, "clone") || !thffi_intern(&s_contiguous, "contiguous") ||
      !thffi_intern(&s_is_contiguous, "is_contiguous") || !thffi_intern(&s_detach, "detach") ||
      !thffi_intern(&s_memory_format, "memory_format") || !thffi_intern(&s_device, "device") ||
      !thffi_intern(&s_unfold, "unfold") || !thffi_intern(&s_squeeze, "squeeze") ||
      !thffi_intern(&s_unsqueeze, "unsqueeze") || !thffi_intern(&s_view, "view") ||
      !thffi_intern(&s_expand, "expand") ||
      !thffi_intern(&s_untyped_storage, "untyped_storage") ||
      !thffi_intern(&s_storage_offset, "storage_offset") ||
      !thffi_intern(&s_requires_grad, "requires_grad") || !thffi_intern(&s_is_leaf, "is_leaf") ||
      !thffi_intern(&s_data, "data") || !thffi_intern(&s_new_empty, "new_empty"))
    return 0;
  torch = PyImport_ImportModule("torch");
  if (torch == NULL) return 0;
  for (i = 0; i < 8; i++) {
    thffi_dtypes[i] = PyObject_GetAttrString(torch, thffi_dtype_names[i]);
    if (thffi_dtypes[i] == NULL) goto fail;
  }
  thffi_no_args = PyTuple_New(0);
  if (thffi_no_args == NULL) goto fail;
  thffi_empty = PyObject_GetAttrString(torch, "empty");
  thffi_from_dlpack = PyObject_GetAttrString(torch, "from_dlpack");
  thffi_contiguous_format = PyObject_GetAttrString(torch, "contiguous_format");
  if (thffi_empty == NULL || thffi_from_dlpack == NULL || thffi_contiguous_format == NULL)
    goto fail;
  type = PyObject_GetAttrString(torch, "Tensor");
  if (type == NULL || !thffi_find_dlpack(torch, type)) goto fail;
  if (thffi_dlpack == NULL) thffi_find_legacy_types(torch);
  for (i = 0; i < sizeof thffi_attrs / sizeof thffi_attrs[0]; i++) {
    thffi_attr *a = thffi_attrs[i];
    PyObject *d;
    if (!thffi_intern(&a->name, a->text)) goto fail;
    d = PyObject_GetAttr(type, a->name);
    if (d == NULL) goto fail;
    thffi_direct(a, d);
    Py_DECREF(d);  /* the type keeps its descriptors, and what they point to */
  }
  Py_DECREF(torch);
  thffi_tensor_type = (PyTypeObject *)type;  /* set last: initialised */
  return 1;
fail:
  Py_XDECREF(type);
  Py_DECREF(torch);
  return 0;
}

static int thffi_install(const char *module, PyMethodDef *defs, const char *const *specs) {
  PyObject *name, *mod;
  int i, ok = 0;
  if (!thffi_init()) return 0;
  name = PyUnicode_FromString(module);
  if (name == NULL) return 0;
  mod = PyImport_GetModule(name);
  if (mod == NULL) {
    if (!PyErr_Occurred()) PyErr_Format(PyExc_ImportError, "no module %s", module);
    Py_DECREF(name);
    return 0;
  }
  for (i = 0; defs[i].ml_name != NULL; i++) {
    PyObject *spec = PyObject_GetAttrString(mod, specs[i]), *fast = NULL, *strict = NULL;
    if (spec != NULL) fast = PyCFunction_NewEx(&defs[i], mod, name);
    if (fast != NULL) strict = PyCFunction_NewEx(&defs[i], NULL, name);
    ok = strict != NULL && PyObject_SetAttrString(mod, defs[i].ml_name, fast) == 0 &&
         PyObject_SetAttr(spec, s_strict, strict) == 0;
    Py_XDECREF(spec);
    Py_XDECREF(fast);
    Py_XDECREF(strict);
    if (!ok) break;
  }
  if (defs[0].ml_name == NULL) ok = 1;
  Py_DECREF(mod);
  Py_DECREF(name);
  return ok;
}

int THFFIPy_install(const char *module, PyMethodDef *defs, const char *const *specs) {
  PyGILState_STATE gil = PyGILState_Ensure();
  const char *check = getenv("THFFI_CHECK_LAYOUT");
  int ok = thffi_install(module, defs, specs);
  THFFI_checkLayout = check != NULL && strcmp(check, "1") == 0;
  if (ok) THFFI_installCrashReport(module);
  if (!ok) {
    PyObject *type, *value, *tb, *text;
    PyErr_Fetch(&type, &value, &tb);
    text = value ? PyObject_Str(value) : NULL;
    PyErr_Clear();
    THFFI_setError("cannot install the functions of %s: %s", module,
                   text ? PyUnicode_AsUTF8(text) : "unknown error");
    PyErr_Clear();
    Py_XDECREF(text);
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
  }
  PyGILState_Release(gil);
  return ok ? 0 : -1;
}
