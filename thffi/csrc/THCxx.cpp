/* C++ exceptions of a wrapped call, in extensions with C++ code: the
 * trampoline calls the user's function through THFFI_cxxCall, which turns
 * an exception leaving it into an error of the call, with the exception's
 * type and what(). */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <thread>
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

/* Threads the C starts during a call run their work through THFFI_cxxCall
 * too (THThreads.c). */
__attribute__((constructor)) static void thffi_guard_threads() { THFFI_cxxGuard = THFFI_cxxCall; }

/* std::thread (and std::async, which starts one): its inline constructor, in
 * the extension's objects, hands the thread's state to libstdc++'s
 * std::thread::_M_start_thread, which the builder wraps as it wraps
 * pthread_create (builder/configure.py, WRAPPED; the libstdc++ ABI of GCC 5 and
 * later).  Started during a call, the state runs under a worker frame of
 * that call. */
namespace {

class thffi_state : public std::thread::_State {
 public:
  thffi_state(std::unique_ptr<std::thread::_State> inner, THFFICall *call)
      : inner_(std::move(inner)), call_(call) {}
  ~thffi_state() override { THFFI_releaseCall(call_); }
  void _M_run() override { THFFI_runWorker(call_, run, this); }

 private:
  static void run(void *self) { static_cast<thffi_state *>(self)->inner_->_M_run(); }
  std::unique_ptr<std::thread::_State> inner_;
  THFFICall *call_;
};

}  // namespace

#define THFFI_START_THREAD _ZNSt6thread15_M_start_threadESt10unique_ptrINS_6_StateESt14default_deleteIS1_EEPFvvE
#define THFFI_WRAP(name) THFFI_WRAP_(name)
#define THFFI_WRAP_(name) __wrap_##name
#define THFFI_REAL(name) THFFI_REAL_(name)
#define THFFI_REAL_(name) __real_##name

/* The member function, as its symbol: `this` first; the state, a class with
 * a destructor, passed by address (the Itanium C++ ABI) either way. */
extern "C" void THFFI_REAL(THFFI_START_THREAD)(std::thread *self,
                                               std::unique_ptr<std::thread::_State> state,
                                               void (*depend)());

extern "C" void THFFI_WRAP(THFFI_START_THREAD)(std::thread *self,
                                               std::unique_ptr<std::thread::_State> state,
                                               void (*depend)()) {
  THFFICall *call = THFFI_callOf();
  if (call != NULL) {
    state.reset(new thffi_state(std::move(state), call));
    THFFI_retainCall(call);  /* released when the state is destroyed */
  }
  THFFI_REAL(THFFI_START_THREAD)(self, std::move(state), depend);
}
