/* TH/THBlas.h: TH's raw BLAS wrappers, once per type (generic/THBlas.c), and
 * the SciPy functions they and THLapack.c run on.
 *
 * Why SciPy's BLAS and LAPACK (scipy.linalg.cython_blas, cython_lapack):
 * TH's wrappers were Fortran BLAS and LAPACK with the pointers taken away,
 * and SciPy exports every routine of both, Fortran's arguments and
 * column-major order, as function pointers (its documented C-level
 * interface), so each wrapper is the routine TH called, with nothing
 * copied or transposed and no GIL held during the call.  PyTorch's own
 * libtorch_cpu exports only the routines PyTorch calls (no sger_, sswap_,
 * sgesv_, ssyev_, sgesvd_, sgetri_, strtrs_, spstrf_ in 2.13 and 2.15),
 * loaded where dlsym(RTLD_DEFAULT) does not see them (Python loads torch
 * with RTLD_LOCAL); PyTorch's operators (the road of THMath.c) would copy
 * into tensors and out again and could not give LAPACK's own results
 * (ipiv, info, work sizes, the untouched triangle of potrf).  The
 * functions are looked up once, at their first call, under the GIL. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "TH/TH.h"
#include "thffi_private.h"

void *THFFI_scipyFunction(void **slot, const char *module, const char *name,
                          const char *caller) {
  char err[THFFI_MSG_LEN] = "";
  PyGILState_STATE gil;
  PyObject *mod, *capi = NULL, *capsule = NULL;
  void *fn = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
  if (fn != NULL) return fn;
  gil = PyGILState_Ensure();
  mod = PyImport_ImportModule(module);
  if (mod != NULL) capi = PyObject_GetAttrString(mod, "__pyx_capi__");
  if (capi != NULL) capsule = PyDict_Check(capi) ? PyDict_GetItemString(capi, name) : NULL;
  if (capsule != NULL) fn = PyCapsule_GetPointer(capsule, PyCapsule_GetName(capsule));
  if (fn == NULL) {
    PyObject *type, *value, *tb, *text = NULL;
    PyErr_Fetch(&type, &value, &tb);
    if (value != NULL) text = PyObject_Str(value);
    snprintf(err, sizeof err,
             "%s: TH's BLAS and LAPACK run on SciPy's, and %s's %s could not be had (%s): "
             "pip install scipy",
             caller, module, name,
             text != NULL ? PyUnicode_AsUTF8(text) : "no such routine");
    PyErr_Clear();
    Py_XDECREF(text);
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
  }
  Py_XDECREF(capi);
  Py_XDECREF(mod);
  PyGILState_Release(gil);
  if (fn == NULL) THError("%s", err);
  __atomic_store_n(slot, fn, __ATOMIC_RELEASE);
  return fn;
}

#define TH_GENERIC_FILE "generic/THBlas.c"
#include "TH/THGenerateAllTypes.h"
