/* Errors, per-thread error frames, what the threads of a call share, and
 * strided iteration for the TH layer; exit(), abort() and assert() of the
 * code linked into an extension. */
#include <errno.h>
#include <math.h>
#include <omp.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "TH/THGeneral.h"
#include "thffi_private.h"

/* C calls run with the GIL released, so everything per call is per thread. */
static __thread THFFIFrame *thffi_top = NULL;
static __thread char thffi_msg[THFFI_MSG_LEN];
static __thread int thffi_has_msg = 0;
/* THSetErrorHandler's and THSetArgErrorHandler's, per thread and default. */
static __thread THErrorHandlerFunction thffi_error_handler = NULL;
static __thread void *thffi_error_data = NULL;
static __thread THArgErrorHandlerFunction thffi_arg_handler = NULL;
static __thread void *thffi_arg_data = NULL;
static THErrorHandlerFunction thffi_default_error_handler = NULL;
static void *thffi_default_error_data = NULL;
static THArgErrorHandlerFunction thffi_default_arg_handler = NULL;
static void *thffi_default_arg_data = NULL;

void THFFI_pushFrame(THFFIFrame *frame, const char *name) {
  frame->prev = thffi_top;
  frame->call = NULL;
  frame->name = name;
  frame->params = NULL;
  frame->device = -1;
  frame->has_stream = 0;
  frame->stream = 0;
  frame->owned = NULL;
  frame->allocs = NULL;
  thffi_top = frame;
}

/* ---- the threads of a call ----
 *
 * A call's frame lives on the stack of the thread Python called it on, and
 * only that thread may leave it (longjmp).  Threads the C starts during the
 * call (THThreads.c: pthread_create, OpenMP's parallel constructs;
 * THCxx.cpp: std::thread) run under a worker frame of their own
 * (THFFI_runWorker) that points at a THFFICall: made by the
 * calling thread when its first thread starts, it holds from then on, under
 * its lock, what the frame held alone (the tensors created in C, the
 * THCudaMalloc'ed blocks) for every thread of the call, and the first error
 * one of them raised.  An error on a worker leaves the worker's frame: the
 * thread's work ends there, the error is recorded, and the call raises it
 * once the calling thread gets back to thffi (the end of the OpenMP region,
 * or the return of the C function).  A call that starts no thread never
 * makes one: its frame keeps its lists, unlocked, and the trampoline pays
 * one test of frame->call.
 *
 * A thread still running after its call returned belongs to no call any
 * more: what it creates is released only by its _free (legacy TH's rule),
 * with a warning, and an error it raises ends its own work and is reported
 * through sys.unraisablehook, since no caller is left to raise it to. */
struct THFFICall {
  pthread_mutex_t lock;
  int refs;    /* the frame's, and one per pthread or std::thread started
                  and still running */
  int ended;   /* the call returned: its tensors went back to the frame */
  int failed;  /* msg holds the first error raised in the call */
  int warned;  /* threads left after the end were warned about */
  char msg[THFFI_MSG_LEN];
  const char *name;  /* the wrapped function */
  int device, has_stream;  /* CUDA calls: as the frame's */
  uintptr_t stream;
  THFFITensorPriv *owned;
  THFFIAlloc *allocs;
};

THFFICudaHooks *THFFI_cudaHooks = NULL;

THFFICall *THFFI_callOf(void) {
  THFFIFrame *top = thffi_top;
  THFFICall *call;
  if (top == NULL) return NULL;
  if (top->call != NULL) return top->call;
  /* Its threads use the call's stream: read it here, on the calling thread
   * (PyTorch's current stream is per thread). */
  if (THFFI_cudaHooks != NULL) THFFI_cudaHooks->share(top);
  call = (THFFICall *)calloc(1, sizeof *call);
  if (call == NULL) THError("out of memory starting a thread");
  pthread_mutex_init(&call->lock, NULL);
  call->refs = 1;
  call->name = top->name;
  call->device = top->device;
  call->has_stream = top->has_stream;
  call->stream = top->stream;
  call->owned = top->owned;
  call->allocs = top->allocs;
  top->owned = NULL;
  top->allocs = NULL;
  top->call = call;
  return call;
}

void THFFI_retainCall(THFFICall *call) {
  pthread_mutex_lock(&call->lock);
  call->refs++;
  pthread_mutex_unlock(&call->lock);
}

void THFFI_releaseCall(THFFICall *call) {
  int last;
  pthread_mutex_lock(&call->lock);
  last = --call->refs == 0;
  pthread_mutex_unlock(&call->lock);
  if (!last) return;
  pthread_mutex_destroy(&call->lock);
  free(call);
}

void THFFI_enterWorker(THFFIFrame *worker, THFFICall *call) {
  worker->prev = thffi_top;
  worker->call = call;
  worker->name = call->name;
  worker->device = call->device;
  worker->has_stream = call->has_stream;
  worker->stream = call->stream;
  worker->owned = NULL;
  worker->allocs = NULL;
  thffi_top = worker;
}

void THFFI_leaveWorker(THFFIFrame *worker) { thffi_top = worker->prev; }

/* The message of `call`'s first error into this thread's. */
static void thffi_take_call_error(THFFICall *call) {
  memcpy(thffi_msg, call->msg, sizeof thffi_msg);
  thffi_has_msg = 1;
}

int THFFI_endCall(THFFIFrame *frame) {
  THFFICall *call = frame->call;
  int failed;
  pthread_mutex_lock(&call->lock);
  if (!call->ended) {
    call->ended = 1;
    frame->owned = call->owned;
    frame->allocs = call->allocs;
    call->owned = NULL;
    call->allocs = NULL;
  }
  failed = call->failed;
  if (failed) thffi_take_call_error(call);
  pthread_mutex_unlock(&call->lock);
  return failed;
}

void THFFI_joinCall(THFFIFrame *frame) {
  if (THFFI_endCall(frame)) longjmp(frame->env, 1);
}

/* The warning for a thread outside every call, once per thread; `what` it
 * made ("a tensor"...). */
static __thread int thffi_warned_outside = 0;
static void thffi_outside(const char *what) {
  if (thffi_warned_outside) return;
  thffi_warned_outside = 1;
  THFFIPy_report(0, "a TH function made %s on a thread outside every wrapped call (one that "
                 "thffi did not see start during a call: a library's own thread pool, one "
                 "started when the library loaded): it belongs to no call and is released only "
                 "when freed, as in legacy TH", what);
}

/* Who keeps `what` ("a tensor"...) the current thread creates: its frame,
 * for a call that started no thread (returned; *locked NULL), or its call,
 * locked (NULL returned, *locked the call); neither outside a live call,
 * after a warning (once per thread, or per call that ended). */
static THFFIFrame *thffi_keeper(THFFICall **locked, const char *what) {
  THFFIFrame *top = thffi_top;
  THFFICall *call;
  int warn;
  *locked = NULL;
  if (top == NULL) {
    thffi_outside(what);
    return NULL;
  }
  if (top->call == NULL) return top;
  call = top->call;
  pthread_mutex_lock(&call->lock);
  if (!call->ended) {
    *locked = call;
    return NULL;
  }
  warn = !call->warned;
  call->warned = 1;
  pthread_mutex_unlock(&call->lock);
  if (warn)
    THFFIPy_report(0, "a thread that %s started is still running after the call returned, "
                   "and made %s there: it belongs to no call and is released only when "
                   "freed, as in legacy TH", call->name, what);
  return NULL;
}

/* Unlinks `priv` from the list at `link`; whether it was there. */
static int thffi_unlink_from(THFFITensorPriv **link, THFFITensorPriv *priv) {
  for (; *link != NULL; link = &(*link)->next_owned) {
    if (*link == priv) {
      *link = priv->next_owned;
      return 1;
    }
  }
  return 0;
}

/* Tracks a THCudaMalloc'ed block in the current thread's call (THC.c);
 * 0 outside a live call: the block is then the caller's to free. */
int THFFI_trackAlloc(THFFIAlloc *node) {
  THFFICall *call;
  THFFIFrame *frame = thffi_keeper(&call, "device memory (THCudaMalloc)");
  THFFIAlloc **head = frame != NULL ? &frame->allocs : call != NULL ? &call->allocs : NULL;
  if (head != NULL) {
    node->next = *head;
    *head = node;
  }
  if (call != NULL) pthread_mutex_unlock(&call->lock);
  return head != NULL;
}

/* Unlinks the block at `ptr` from the call that tracks it, if one still
 * runs on this thread (THC.c); the node is freed. */
void THFFI_untrackAlloc(uintptr_t ptr) {
  THFFIFrame *frame;
  for (frame = thffi_top; frame != NULL; frame = frame->prev) {
    THFFIAlloc **link, *node = NULL;
    if (frame->call != NULL) pthread_mutex_lock(&frame->call->lock);
    for (link = frame->call != NULL ? &frame->call->allocs : &frame->allocs; *link != NULL;
         link = &(*link)->next) {
      if ((*link)->ptr == ptr) {
        node = *link;
        *link = node->next;
        break;
      }
    }
    if (frame->call != NULL) pthread_mutex_unlock(&frame->call->lock);
    if (node != NULL) {
      free(node);
      return;
    }
  }
}


/* Drops the torch tensor behind a created tensor; never raises (it runs
 * while a call ends, also after an error). */
static void thffi_drop(THFFITensorPriv *priv) {
  char err[THFFI_MSG_LEN];
  uintptr_t data;
  THFFIPy_tensorOp(THFFI_OP_RELEASE, priv, NULL, 0, -1, 0, NULL, &data, err, sizeof err);
}

void THFFI_popFrame(THFFIFrame *frame, int failed) {
  (void)failed;
  /* A call that started threads ended (THFFI_endCall) before it is popped:
   * its lists are the frame's again; orphans hold their own reference. */
  if (frame->call != NULL) THFFI_releaseCall(frame->call);
  /* Device memory still allocated is the caller's (a failed CUDA call freed
   * it already, THCFFI_freeAllocs); only the bookkeeping goes. */
  while (frame->allocs != NULL) {
    THFFIAlloc *node = frame->allocs;
    frame->allocs = node->next;
    free(node);
  }
  while (frame->owned != NULL) {
    THFFITensorPriv *priv = frame->owned;
    frame->owned = priv->next_owned;
    thffi_drop(priv);
    free(priv->base);
  }
  thffi_top = frame->prev;
}

THFFIFrame *THFFI_currentFrame(void) { return thffi_top; }

/* Unlinks a created tensor from the call that tracks it (none for one made
 * outside a live call). */
static void thffi_unlink(THFFITensorPriv *priv) {
  THFFIFrame *frame;
  for (frame = thffi_top; frame != NULL; frame = frame->prev) {
    int found;
    if (frame->call == NULL) {
      found = thffi_unlink_from(&frame->owned, priv);
    } else {
      pthread_mutex_lock(&frame->call->lock);
      found = thffi_unlink_from(&frame->call->owned, priv);
      pthread_mutex_unlock(&frame->call->lock);
    }
    if (found) return;
  }
}

void *THFFI_allocTensor(size_t bytes, size_t priv_offset) {
  THFFICall *call;
  THFFIFrame *frame;
  THFFITensorPriv *priv, **head;
  char *base = (char *)calloc(1, bytes);
  if (base == NULL) THError("out of memory allocating a tensor struct");
  priv = (THFFITensorPriv *)(base + priv_offset);
  priv->base = base;
  priv->ref = -1;
  priv->device = -1;
  frame = thffi_keeper(&call, "a tensor");
  head = frame != NULL ? &frame->owned : call != NULL ? &call->owned : NULL;
  if (head != NULL) {
    priv->next_owned = *head;
    *head = priv;
  }
  if (call != NULL) pthread_mutex_unlock(&call->lock);
  return base;
}

void THFFI_releaseTensor(THFFITensorPriv *priv) {
  thffi_unlink(priv);
  thffi_drop(priv);
  free(priv->base);
}

void *THFFI_handOver(THFFITensorPriv *priv) {
  void *obj = priv->obj;
  if (priv->base == NULL) return obj;  /* an argument: the caller has it */
  thffi_unlink(priv);
  free(priv->base);
  return obj;
}

uintptr_t THFFI_tensorOp(int op, THFFITensorPriv *priv, const THFFITensorPriv *src,
                         int dtype, int device, int n, const int64_t *args) {
  char err[THFFI_MSG_LEN];
  uintptr_t data = 0;
  if (op != THFFI_OP_NEW && op != THFFI_OP_CONTIGUOUS && op != THFFI_OP_CLONE &&
      op != THFFI_OP_WRAP && priv->obj == NULL)
    THError("this tensor is not backed by a torch tensor");
  if (THFFIPy_tensorOp(op, priv, src, dtype, device, n, args, &data, err, sizeof err) != 0)
    THError("%s", err);
  return data;
}

const char *THFFI_takeError(void) {
  if (!thffi_has_msg) return NULL;
  thffi_has_msg = 0;
  return thffi_msg;
}

/* prefix + fmt's message + " at file:line" (none where file is NULL) into
 * this thread's message. */
static void thffi_format(const char *file, int line, const char *prefix,
                         const char *fmt, va_list args) {
  int n = snprintf(thffi_msg, sizeof thffi_msg, "%s", prefix);
  if (n < 0) n = 0;
  if ((size_t)n < sizeof thffi_msg) {
    int m = vsnprintf(thffi_msg + n, sizeof thffi_msg - n, fmt, args);
    if (m > 0) n += m;
  }
  if (file != NULL && (size_t)n < sizeof thffi_msg) {
    size_t mark = strlen(THFFI_OWN_MARK);
    if (strncmp(file, THFFI_OWN_MARK, mark) == 0)  /* thffi's own code */
      snprintf(thffi_msg + n, sizeof thffi_msg - n, " at %s/%s:%d", THFFI_home, file + mark,
               line);
    else
      snprintf(thffi_msg + n, sizeof thffi_msg - n, " at %s:%d", file, line);
  }
  thffi_has_msg = 1;
}

void THFFI_setError(const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  thffi_format(NULL, 0, "", fmt, args);
  va_end(args);
}

/* Records this thread's error in the call its innermost frame belongs to:
 * the call's first error is the one it raises.  A call that ended has no
 * caller left to raise it: the error is reported instead. */
static void thffi_record(THFFICall *call) {
  int ended;
  pthread_mutex_lock(&call->lock);
  ended = call->ended;
  if (!ended && !call->failed) {
    call->failed = 1;
    memcpy(call->msg, thffi_msg, sizeof call->msg);
  }
  pthread_mutex_unlock(&call->lock);
  if (ended)
    THFFIPy_report(1, "%s: %s (raised on a thread that %s started, still running after the "
                   "call returned: that thread's work ended there)", call->name, thffi_msg,
                   call->name);
}

/* Leaves this thread's innermost frame: the call's trampoline, or a worker's
 * (whose work ends there).  Outside every frame there is nothing to unwind
 * to: a thread thffi did not see start during a call (a library's own
 * pool, clang's OpenMP, one started when the library loaded), or C run
 * without the generated wrappers; that is reported before aborting
 * (docs/hardening.md). */
static void thffi_unwind(void) TH_NORETURN;
static void thffi_unwind(void) {
  if (thffi_top != NULL) {
    if (thffi_top->call != NULL) thffi_record(thffi_top->call);
    longjmp(thffi_top->env, 1);
  }
  fprintf(stderr, "thffi: error on a thread outside every wrapped call: %s\n", thffi_msg);
  abort();
}

void THFFI_checkCall(THFFICall *call) {
  int failed;
  pthread_mutex_lock(&call->lock);
  failed = call->failed && !call->ended;
  if (failed) thffi_take_call_error(call);
  pthread_mutex_unlock(&call->lock);
  if (failed) thffi_unwind();
}

void THFFI_fail(const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  thffi_format(NULL, 0, "", fmt, args);
  va_end(args);
  thffi_unwind();
}

/* The extension is linked with -Wl,--wrap=exit,--wrap=abort,--wrap=__assert_fail:
 * in every object of that link (the user's sources, extra_objects, static
 * libraries, thffi's own) these are called instead of the C library's,
 * which stay reachable as __real_*.  Shared libraries (libc itself, torch,
 * libstdc++) keep calling the real ones.  Legacy C calls exit(-1) or
 * abort() on bad input: during a wrapped call, on the thread making it,
 * that ends the call as THError does; anywhere else it does what it always
 * did.  What the C code printed before (its diagnostic, typically) is
 * flushed, as exit() would have, so it shows before the exception. */
void __real_exit(int status) TH_NORETURN;
void __real_abort(void) TH_NORETURN;
void __real___assert_fail(const char *assertion, const char *file, unsigned int line,
                          const char *function) TH_NORETURN;

void __wrap_exit(int status) {
  if (thffi_top == NULL) __real_exit(status);
  fflush(NULL);
  THFFI_fail("exit(%d) called; thffi ended this call instead of the Python process",
             status);
}

void __wrap_abort(void) {
  if (thffi_top == NULL) __real_abort();
  fflush(NULL);
  THFFI_fail("abort() called; thffi ended this call instead of the Python process");
}

/* What a failed assert() calls (glibc's <assert.h>); compiled out where
 * NDEBUG is defined, as in the sources build.py compiles (Python's CFLAGS
 * define it) outside a sanitizer build. */
void __wrap___assert_fail(const char *assertion, const char *file, unsigned int line,
                          const char *function) {
  if (thffi_top == NULL) __real___assert_fail(assertion, file, line, function);
  fflush(NULL);
  THFFI_fail("Assertion `%s' failed in %s at %s:%u", assertion, function, file, line);
}

/* Runs this thread's (or the default) error handler on the message made. */
static void thffi_error_handlers(void) {
  if (thffi_error_handler != NULL)
    thffi_error_handler(thffi_msg, thffi_error_data);
  else if (thffi_default_error_handler != NULL)
    thffi_default_error_handler(thffi_msg, thffi_default_error_data);
}

static void thffi_arg_handlers(int argNumber, const char *msg) {
  if (thffi_arg_handler != NULL)
    thffi_arg_handler(argNumber, msg, thffi_arg_data);
  else if (thffi_default_arg_handler != NULL)
    thffi_default_arg_handler(argNumber, msg, thffi_default_arg_data);
}

void THSetErrorHandler(THErrorHandlerFunction new_handler, void *data) {
  thffi_error_handler = new_handler;
  thffi_error_data = data;
}

void THSetDefaultErrorHandler(THErrorHandlerFunction new_handler, void *data) {
  thffi_default_error_handler = new_handler;
  thffi_default_error_data = data;
}

void THSetArgErrorHandler(THArgErrorHandlerFunction new_handler, void *data) {
  thffi_arg_handler = new_handler;
  thffi_arg_data = data;
}

void THSetDefaultArgErrorHandler(THArgErrorHandlerFunction new_handler, void *data) {
  thffi_default_arg_handler = new_handler;
  thffi_default_arg_data = data;
}

void _THError(const char *file, int line, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  thffi_format(file, line, "", fmt, args);
  va_end(args);
  thffi_error_handlers();
  thffi_unwind();
}

void _THArgCheck(const char *file, int line, int condition, int argNumber,
                 const char *fmt, ...) {
  char prefix[48];
  va_list args;
  if (condition) return;
  snprintf(prefix, sizeof prefix, "invalid argument %d: ", argNumber);
  va_start(args, fmt);
  thffi_format(file, line, prefix, fmt, args);
  va_end(args);
  thffi_arg_handlers(argNumber, thffi_msg + strlen(prefix));
  thffi_unwind();
}

void _THAssertionFailed(const char *file, int line, const char *exp,
                        const char *fmt, ...) {
  char prefix[256];
  va_list args;
  snprintf(prefix, sizeof prefix, fmt[0] ? "Assertion `%s' failed. " : "Assertion `%s' failed",
           exp);
  va_start(args, fmt);
  thffi_format(file, line, prefix, fmt, args);
  va_end(args);
  thffi_unwind();
}

int64_t THFFI_numel(int dim, const int64_t *size) {
  int64_t n = 1;
  int d;
  for (d = 0; d < dim; d++) n *= size[d];
  return n;
}

void THFFIIter_init(THFFIIter *it, int dim, const int64_t *size,
                    const int64_t *stride) {
  int d, k = 0;
  /* Drop size-1 dimensions and merge a dimension into the next one when
   * stepping over it is the same as stepping over the whole next one, so a
   * contiguous tensor becomes a single run. */
  for (d = 0; d < dim; d++) {
    if (size[d] == 1) continue;
    if (k > 0 && it->stride[k - 1] == stride[d] * size[d]) {
      it->size[k - 1] *= size[d];
      it->stride[k - 1] = stride[d];
    } else {
      it->size[k] = size[d];
      it->stride[k] = stride[d];
      k++;
    }
  }
  if (k == 0) {
    it->size[0] = 1;
    it->stride[0] = 1;
    k = 1;
  }
  it->dim = k;
  for (d = 0; d < k; d++) it->index[d] = 0;
  it->offset = 0;
  it->run = it->size[k - 1];
}

void THFFIIter_start(THFFIIter *it, const THFFIIter *from, int64_t k) {
  int last = from->dim - 1, d;
  int64_t inner;
  /* only the dimensions in use: the arrays are THFFI_MAX_DIMS long */
  it->dim = from->dim;
  memcpy(it->size, from->size, from->dim * sizeof(int64_t));
  memcpy(it->stride, from->stride, from->dim * sizeof(int64_t));
  if (k == 0) {  /* the whole range on one thread: no divisions */
    for (d = 0; d < last; d++) it->index[d] = 0;
    it->offset = 0;
    it->run = it->size[last];
    return;
  }
  inner = k % it->size[last];
  k /= it->size[last];
  it->offset = inner * it->stride[last];
  it->run = it->size[last] - inner;
  for (d = last - 1; d >= 0; d--) {
    it->index[d] = k % it->size[d];
    k /= it->size[d];
    it->offset += it->index[d] * it->stride[d];
  }
}

void THFFIIter_advance(THFFIIter *it, int64_t n) {
  int last = it->dim - 1, d;
  it->offset += n * it->stride[last];
  it->run -= n;
  if (it->run > 0) return;
  it->offset -= it->size[last] * it->stride[last];
  it->run = it->size[last];
  for (d = last - 1; d >= 0; d--) {
    it->offset += it->stride[d];
    if (++it->index[d] < it->size[d]) return;
    it->offset -= it->size[d] * it->stride[d];
    it->index[d] = 0;
  }
}

void *THAlloc(ptrdiff_t size) {
  void *ptr;
  if (size < 0) THError("THAlloc: invalid memory size %lld", (long long)size);
  if (size == 0) return NULL;
  ptr = malloc(size);
  if (ptr == NULL) THError("THAlloc: out of memory allocating %lld bytes", (long long)size);
  return ptr;
}

void *THRealloc(void *ptr, ptrdiff_t size) {
  void *grown;
  if (size < 0) THError("THRealloc: invalid memory size %lld", (long long)size);
  if (size == 0) {
    free(ptr);
    return NULL;
  }
  grown = realloc(ptr, size);
  if (grown == NULL) THError("THRealloc: out of memory allocating %lld bytes", (long long)size);
  return grown;
}

void THFree(void *ptr) { free(ptr); }

/* ---- memory given to storages (THStorage_(newWith*): THFFI_OP_WRAP) ---- */

static void *thffi_default_malloc(void *ctx, ptrdiff_t size) {
  (void)ctx;
  return THAlloc(size);
}

static void *thffi_default_realloc(void *ctx, void *ptr, ptrdiff_t size) {
  (void)ctx;
  return THRealloc(ptr, size);
}

static void thffi_default_free(void *ctx, void *ptr) {
  (void)ctx;
  THFree(ptr);
}

THAllocator THDefaultAllocator = {thffi_default_malloc, thffi_default_realloc,
                                  thffi_default_free};

void THFFI_releaseWithAllocator(void *allocator, void *ctx, void *data) {
  THAllocator *a = (THAllocator *)allocator;
  if (a->free != NULL) a->free(ctx, data);
}

void THFFI_releaseMapping(void *allocator, void *bytes, void *data) {
  (void)allocator;
  if (data != NULL) munmap(data, (size_t)(uintptr_t)bytes);
}

void *THFFI_mapFile(const char *filename, ptrdiff_t *bytes, int flags) {
  int shared = flags & TH_ALLOCATOR_MAPPED_SHARED, fd;
  struct stat st;
  void *data;
  THArgCheck(filename != NULL, 1, "expected a file name, got NULL");
  THArgCheck((flags & ~TH_ALLOCATOR_MAPPED_SHARED) == 0, 3,
             "only TH_ALLOCATOR_MAPPED_SHARED is supported, got flags %d", flags);
  fd = open(filename, shared ? O_RDWR | O_CREAT : O_RDONLY, 0644);
  if (fd < 0) THError("unable to open file <%s> in %s mode: %s", filename,
                      shared ? "read-write" : "read-only", strerror(errno));
  if (fstat(fd, &st) != 0) {
    close(fd);
    THError("unable to stat the file <%s>", filename);
  }
  if (*bytes == 0) *bytes = (ptrdiff_t)st.st_size;
  if (*bytes > (ptrdiff_t)st.st_size) {
    if (!shared || ftruncate(fd, (off_t)*bytes) != 0) {
      close(fd);
      THError("file <%s> size is smaller than the required mapping size <%lld>", filename,
              (long long)*bytes);
    }
  }
  if (*bytes == 0) {
    close(fd);
    return NULL;
  }
  data = mmap(NULL, (size_t)*bytes, PROT_READ | PROT_WRITE, shared ? MAP_SHARED : MAP_PRIVATE,
              fd, 0);
  close(fd);  /* the mapping stays */
  if (data == MAP_FAILED) THError("$ Torch: unable to mmap memory: %s", strerror(errno));
  return data;
}

THDescBuff _THSizeDesc(const int64_t *size, const int64_t ndim) {
  THDescBuff buf;
  size_t n = (size_t)snprintf(buf.str, sizeof buf.str, "[");
  int64_t d;
  for (d = 0; d < ndim && n < sizeof buf.str; d++)
    n += (size_t)snprintf(buf.str + n, sizeof buf.str - n, "%s%lld", d ? " x " : "",
                          (long long)size[d]);
  if (n < sizeof buf.str) snprintf(buf.str + n, sizeof buf.str - n, "]");
  if (n >= sizeof buf.str - 1) memcpy(buf.str + sizeof buf.str - 4, "...", 4);
  return buf;
}

/* ---- GC hook, threads, math helpers (TH/THGeneral.h) ---- */

static void (*thffi_gc_handler)(void *data) = NULL;
static void *thffi_gc_data = NULL;
static ptrdiff_t thffi_heap_size = 0, thffi_heap_soft_max = (ptrdiff_t)1 << 30;

void THSetGCHandler(void (*torchGCHandlerFunction)(void *data), void *data) {
  thffi_gc_handler = torchGCHandlerFunction;
  thffi_gc_data = data;
}

void THHeapUpdate(ptrdiff_t size) {
  ptrdiff_t now = __atomic_add_fetch(&thffi_heap_size, size, __ATOMIC_RELAXED);
  if (size > 0 && now > __atomic_load_n(&thffi_heap_soft_max, __ATOMIC_RELAXED)) {
    if (thffi_gc_handler != NULL) thffi_gc_handler(thffi_gc_data);
    __atomic_store_n(&thffi_heap_soft_max, 2 * now, __ATOMIC_RELAXED);
  }
}

void THSetNumThreads(int num_threads) {
  THArgCheck(num_threads > 0, 1, "expected a positive number of threads, got %d", num_threads);
  omp_set_num_threads(num_threads);
}

int THGetNumThreads(void) { return omp_get_max_threads(); }

int THGetNumCores(void) { return omp_get_num_procs(); }

int THInferNumThreads(void) { return omp_get_max_threads(); }

double THLog1p(const double x) { return log1p(x); }

double THLog2(const double x) { return log2(x); }

double THExpm1(const double x) { return expm1(x); }
