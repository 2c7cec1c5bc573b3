/* C++ exceptions of a wrapped call, in extensions with C++ code: the
 * trampoline calls the user's function through THFFI_cxxCall, which turns
 * an exception leaving it into an error of the call, with the exception's
 * type and what(). */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <typeinfo>
#include <cxxabi.h>
#include "TH/THGeneral.h"
#include "thffi_private.h"

namespace {

/* "<type>: <what>" of the exception being handled into buf; only the type
 * when it is no std::exception (what is NULL) or what() says no more. */
void thffi_describe(const char *what, char *buf, size_t len) {
  const std::type_info *type = abi::__cxa_current_exception_type();
  const char *mangled = type != NULL ? type->name() : "of unknown type";
  int status = 0;
  char *name = abi::__cxa_demangle(mangled, NULL, NULL, &status);
  const char *shown = status == 0 && name != NULL ? name : mangled;
  if (what == NULL)
    snprintf(buf, len, "%s (not a std::exception)", shown);
  else if (strcmp(what, shown) == 0)
    snprintf(buf, len, "%s", shown);
  else
    snprintf(buf, len, "%s: %s", shown, what);
  free(name);
}

}  // namespace

void THFFI_cxxCall(void (*fn)(void *), void *ctx) {
  char text[THFFI_MSG_LEN];
  try {
    fn(ctx);
    return;
  } catch (abi::__forced_unwind &) {
    throw;  // thread cancellation must go on unwinding
  } catch (const std::exception &e) {
    thffi_describe(e.what(), text, sizeof text);
  } catch (...) {
    thffi_describe(NULL, text, sizeof text);
  }
  /* Out of the handler, the exception is destroyed: leaving by longjmp
   * skips no destructor now. */
  THFFI_fail("C++ exception %s", text);
}

/* Threads the C starts during a call run their start routine through
 * THFFI_cxxCall too (THThreads.c). */
__attribute__((constructor)) static void thffi_guard_threads() { THFFI_cxxGuard = THFFI_cxxCall; }
