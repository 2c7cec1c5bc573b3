/* The bridge from TH/THC math entry points to PyTorch (thffi/runtime/thmath.py).
 *
 * Every generated entry point (THMathGen.c, THCMathGen.c; tools/gen_thmath.py)
 * is one call of THFFI_math with its arguments described by a signature
 * string.  THFFI_math takes the GIL (PyGILState_Ensure: the wrapped call runs
 * without it, and a thread the C code started, an OpenMP worker, gets it the
 * same way), calls thffi.runtime.thmath.call with the torch tensors behind the TH
 * structs, then re-reads every tensor argument (the operation may have
 * resized a result, as TH did) and gives the GIL back.  What PyTorch raises
 * becomes THError with the function's name, after the GIL is given back. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdarg.h>
#include "TH/TH.h"
#include "thffi_private.h"

/* Every TH/THC tensor struct has this layout (THFFI_DEFINE_TENSOR): the
 * bridge reads and re-points any of them through it. */
THFFI_DEFINE_TENSOR(THFFIAnyTensor, THFFIAnyStorage, char);

#define THFFI_MATH_MAX_ARGS 16

static PyObject *thffi_math_call; /* thffi.runtime.thmath.call, once imported */

/* The torch tensor behind a TH struct (borrowed), None for NULL; NULL when
 * the struct has none. */
static PyObject *thffi_math_tensor(void *t) {
  if (t == NULL) return Py_None;
  return (PyObject *)((THFFIAnyTensor *)t)->priv.obj;
}

/* Re-reads a tensor argument from its torch tensor, as THTensorMeta.c's
 * setView does after a resize: sizes and strides into the struct's own
 * arrays, the storage spanning what the view reaches.  0 on failure, with a
 * Python exception set. */
static int thffi_math_reread(THFFIAnyTensor *t) {
  PyObject *obj = (PyObject *)t->priv.obj, *v;
  Py_ssize_t n, i;
  int64_t numel = 1, span;
  void *data;
  v = PyObject_CallMethod(obj, "data_ptr", NULL);
  if (v == NULL) return 0;
  data = PyLong_AsVoidPtr(v);
  Py_DECREF(v);
  if (data == NULL && PyErr_Occurred()) return 0;
  v = PyObject_GetAttrString(obj, "shape");
  if (v == NULL) return 0;
  n = PyTuple_Check(v) ? PyTuple_GET_SIZE(v) : -1;
  if (n < 0 || n > THFFI_MAX_DIMS) {
    Py_DECREF(v);
    PyErr_Format(PyExc_ValueError, "more than the %d dimensions TH supports", THFFI_MAX_DIMS);
    return 0;
  }
  for (i = 0; i < n; i++) t->priv.size_buf[i] = PyLong_AsLongLong(PyTuple_GET_ITEM(v, i));
  Py_DECREF(v);
  v = PyObject_CallMethod(obj, "stride", NULL);
  if (v == NULL) return 0;
  for (i = 0; i < n && PyTuple_Check(v); i++)
    t->priv.stride_buf[i] = PyLong_AsLongLong(PyTuple_GET_ITEM(v, i));
  Py_DECREF(v);
  if (PyErr_Occurred()) return 0;
  for (i = 0; i < n; i++) numel *= t->priv.size_buf[i];
  span = numel ? 1 : 0;
  for (i = 0; i < n && numel; i++) span += (t->priv.size_buf[i] - 1) * t->priv.stride_buf[i];
  t->size = t->priv.size_buf;
  t->stride = t->priv.stride_buf;
  t->priv.dim = (int)n;
  t->nDimension = numel == 0 ? 0 : (int)n;
  t->storage = &t->storage_;
  t->storageOffset = 0;
  t->storage_.data = (char *)data;
  t->storage_.size = span;
  return 1;
}

/* "name: <the exception's message>" into err; clears the exception. */
static void thffi_math_message(const char *name, char *err, size_t errlen) {
  PyObject *type, *value, *tb, *text = NULL;
  const char *msg = NULL;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  if (value != NULL) text = PyObject_Str(value);
  if (text != NULL) msg = PyUnicode_AsUTF8(text);
  if (msg != NULL && (msg[0] == '\0' || type == PyExc_KeyError))
    msg = NULL;
  snprintf(err, errlen, "%s: %s%s", name,
           msg ? msg : type ? ((PyTypeObject *)type)->tp_name : "unknown error",
           type == PyExc_KeyError ? " (thffi has no PyTorch operation for it)" : "");
  PyErr_Clear();
  Py_XDECREF(text);
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(tb);
}

/* The call, under the GIL: 0, or 1 with the message in err. */
static int thffi_math_run(const char *name, const char *op, const char *lib, PyObject *args,
                          void **tensors, int ntensors, THFFIMathValue *ret, char *err,
                          size_t errlen) {
  PyObject *r = NULL, *full = NULL;
  int i;
  if (thffi_math_call == NULL) {
    PyObject *module = PyImport_ImportModule("thffi.runtime.thmath");
    if (module != NULL) {
      thffi_math_call = PyObject_GetAttrString(module, "call");
      Py_DECREF(module);
    }
    if (thffi_math_call == NULL) goto failed;
  }
  full = Py_BuildValue("(sssO)", name, op, lib, args);
  if (full == NULL) goto failed;
  r = PyObject_Call(thffi_math_call, full, NULL);
  Py_DECREF(full);
  if (r == NULL) goto failed;
  for (i = 0; i < ntensors; i++)
    if (!thffi_math_reread((THFFIAnyTensor *)tensors[i])) goto failed;
  if (ret != NULL) {
    ret->is_int = PyLong_Check(r);
    if (ret->is_int) {
      ret->i = PyLong_AsLongLong(r);
      if (ret->i == -1 && PyErr_Occurred()) {  /* beyond int64: uint64_t results */
        PyErr_Clear();
        ret->i = (int64_t)PyLong_AsUnsignedLongLongMask(r);
      }
    } else if (r != Py_None) {
      ret->d = PyFloat_AsDouble(r);
    }
    if (PyErr_Occurred()) goto failed;
  }
  Py_DECREF(r);
  return 0;
failed:
  Py_XDECREF(r);
  thffi_math_message(name, err, errlen);
  return 1;
}

void THFFI_math(const char *name, const char *op, const char *lib, const char *sig,
                THFFIMathValue *ret, ...) {
  char err[THFFI_MSG_LEN];
  void *tensors[THFFI_MATH_MAX_ARGS];
  int ntensors = 0, failed, n = (int)strlen(sig), k;
  PyGILState_STATE gil;
  PyObject *args, *item;
  va_list ap;
  THAssert(n <= THFFI_MATH_MAX_ARGS);
  gil = PyGILState_Ensure();
  args = PyTuple_New(n);
  va_start(ap, ret);
  for (k = 0; args != NULL && k < n; k++) {
    switch (sig[k]) {
      case 'T': {  /* a tensor: the torch tensor behind it */
        void *t = va_arg(ap, void *);
        item = thffi_math_tensor(t);
        if (item == NULL) {
          va_end(ap);
          Py_DECREF(args);
          PyGILState_Release(gil);
          THError("%s: argument %d is not backed by a torch tensor", name, k + 1);
        }
        if (t != NULL) tensors[ntensors++] = t;
        Py_INCREF(item);
        break;
      }
      case 'A': {  /* an array of tensors and its length: a list */
        void **ts = va_arg(ap, void **);
        int count = va_arg(ap, int), j;
        item = PyList_New(0);
        for (j = 0; item != NULL && j < count; j++) {
          PyObject *obj = thffi_math_tensor(ts[j]);
          if (obj == NULL || PyList_Append(item, obj) != 0) Py_CLEAR(item);
        }
        if (item == NULL && !PyErr_Occurred())
          PyErr_SetString(PyExc_ValueError, "a tensor of the array is not backed by a torch tensor");
        break;
      }
      case 'S': {  /* a THLongStorage of sizes: a tuple, None for NULL */
        THLongStorage *s = va_arg(ap, THLongStorage *);
        ptrdiff_t j;
        if (s == NULL) {
          item = Py_None;
          Py_INCREF(item);
          break;
        }
        item = PyTuple_New(s->size);
        for (j = 0; item != NULL && j < s->size; j++)
          PyTuple_SET_ITEM(item, j, PyLong_FromLongLong((long long)s->data[j]));
        break;
      }
      case 'i':
        item = PyLong_FromLongLong((long long)va_arg(ap, int64_t));
        break;
      case 'd':
        item = PyFloat_FromDouble(va_arg(ap, double));
        break;
      default: {  /* 's': a C string, None for NULL */
        const char *s = va_arg(ap, const char *);
        item = s ? PyUnicode_FromString(s) : Py_None;
        if (s == NULL) Py_INCREF(item);
        break;
      }
    }
    if (item == NULL) Py_CLEAR(args);
    else PyTuple_SET_ITEM(args, k, item);
  }
  va_end(ap);
  if (args == NULL) {
    thffi_math_message(name, err, sizeof err);
    failed = 1;
  } else {
    failed = thffi_math_run(name, op, lib, args, tensors, ntensors, ret, err, sizeof err);
    Py_DECREF(args);
  }
  PyGILState_Release(gil);
  if (failed) THError("%s", err);
}
