/* What the builder's generated entry points use to read their Python
 * arguments (csrc/THPython.c).  Included by the generated module only, after
 * Python.h; not part of the legacy API.
 *
 * Each wrapped C function is a METH_FASTCALL function of the extension
 * module.  Its fast path reads arguments of exactly the expected kinds in C
 * (THFFIPy_*Arg return 1) and calls the C function with the GIL released;
 * anything else (a wrong type, a keyword argument, a cffi pointer)
 * goes to THFFIPy_fallback, the Python slow path, which says what is wrong
 * or converts the arguments and calls the function again. */
#ifndef THFFI_PYTHON_H
#define THFFI_PYTHON_H

#include "TH/THGeneral.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One tensor argument as read from Python: None has dim -1. */
typedef struct THFFIArg {
  uintptr_t data;
  int dim;
  int device;  /* CUDA device index, -1 on the CPU */
  int64_t size[THFFI_MAX_DIMS];
  int64_t stride[THFFI_MAX_DIMS];
} THFFIArg;

/* 1 when obj is None or a torch.Tensor of THFFI dtype number `dtype` on the
 * CPU (cuda 0) or a CUDA device (cuda 1), described into *arg; else 0, with
 * no exception set.  Tensors without memory to point at (other layouts,
 * vmap-wrapped, nested) give 0 because reading them raises, and negative
 * views give 0 (the slow path then says which). */
int THFFIPy_tensorArg(PyObject *obj, int dtype, int cuda, THFFIArg *arg);
/* 1 when the CUDA tensors among args (dim >= 0) are all on one device,
 * stored in *device (-1 when there are none). */
int THFFIPy_oneDevice(int n, THFFIArg *const *args, int *device);
/* PyTorch's current stream on CUDA device `device` for this thread, read
 * through DLPack's exchange API: 1 with *stream set; 0 (no exception set)
 * where that API is missing or fails, and THCState_getCurrentStream then
 * asks PyTorch through Python. */
int THFFIPy_cudaStream(int device, uintptr_t *stream);
/* 1 when obj is an int (exactly) that fits, stored in *out; else 0. */
int THFFIPy_intArg(PyObject *obj, long long *out);
int THFFIPy_uintArg(PyObject *obj, unsigned long long *out);
/* 1 when obj is a float or an int (exactly), stored in *out; else 0. */
int THFFIPy_floatArg(PyObject *obj, double *out);
/* 1 when obj is None (NULL) or an int address; else 0. */
int THFFIPy_pointerArg(PyObject *obj, void **out);

/* The slow path: calls the module's Spec `spec_name` (thffi/runtime/extension_runtime.py)
 * with the arguments as given.  `module` is NULL for the strict twin of a
 * function, which the slow path calls and which has no fallback. */
PyObject *THFFIPy_fallback(PyObject *module, const char *spec_name, PyObject *const *args,
                           Py_ssize_t nargs, PyObject *kwnames);
/* After a call returned its error sentinel: if the C code raised THError on
 * this thread, sets RuntimeError("name: message") and returns 1; else 0
 * (the result is a real value equal to the sentinel). */
int THFFIPy_raised(const char *name);
/* The Python value of a returned tensor (THFFI_handOver's object, NULL for
 * none): a new reference. */
PyObject *THFFIPy_returned(void *obj, PyObject *const *args, Py_ssize_t nargs);

/* Makes every function of `defs` an attribute of the module named `module`
 * (in sys.modules), and its strict twin the attribute `strict` of the
 * module's Spec specs[i].  0 on success; -1 with the reason in the
 * thread's error message (THFFI_takeError). */
int THFFIPy_install(const char *module, PyMethodDef *defs, const char *const *specs);
/* Tensors created in C and not yet released or returned. */
long THFFIPy_liveTensors(void);

#ifdef __cplusplus
}
#endif

#endif
