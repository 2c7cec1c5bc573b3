/* Threads the C starts during a call: pthread_create and OpenMP's parallel
 * constructs in the code linked into an extension (std::thread: THCxx.cpp).
 *
 * The extension is linked with -Wl,--wrap= for each function below
 * (builder/configure.py, WRAPPED): in every object of that link (the user's
 * sources, extra_objects, static libraries, thffi's own) a call goes to
 * __wrap_NAME, which calls the real one (__real_NAME; libgomp's looked up
 * by name, below) with a start routine
 * of thffi's.  That routine runs the thread's work under a worker frame of
 * the call the starting thread belongs to (THGeneral.c), so on the new
 * thread every TH/THC function works as on the calling one, and an error
 * (THError, THArgCheck, exit(), abort(), a failed assert()) ends that
 * thread's work where it is raised (a longjmp to this routine, on that
 * thread) and is recorded for the call to raise:
 * - an OpenMP team: the error ends the failing thread's part of the region;
 *   the others finish theirs; once the team has ended, the thread that
 *   started it leaves its frame as THError does (the call raises it).
 * - a pthread: its start routine ends, the thread returns PTHREAD_CANCELED
 *   to pthread_join; the call raises the error when the C function returns.
 * Started outside every call, a thread runs as it always did.  std::thread
 * is wrapped in THCxx.cpp.  Libraries loaded apart (libgomp itself, a
 * library's own pool) are not: their threads are outside every call. */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include "TH/THGeneral.h"
#include "thffi_private.h"

/* ThreadSanitizer (THFFI_SANITIZE=thread) sees pthreads start and join, but
 * not libgomp's (uninstrumented) hand-over of a region to its team and back:
 * the routines below tell it, so that what the starting thread wrote before
 * the region is not reported as a race with the team, nor what the team
 * wrote with what it reads after.  Two addresses: the start orders the
 * starting thread before each thread of the team, the end each before the
 * starting one, and neither orders the team's threads among themselves. */
#ifdef __SANITIZE_THREAD__
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
#define THFFI_TSAN_RELEASE(addr) __tsan_release(addr)
#define THFFI_TSAN_ACQUIRE(addr) __tsan_acquire(addr)
#else
#define THFFI_TSAN_RELEASE(addr) ((void)0)
#define THFFI_TSAN_ACQUIRE(addr) ((void)0)
#endif

void (*THFFI_cxxGuard)(void (*fn)(void *), void *ctx) = NULL;

int THFFI_runWorker(THFFICall *call, void (*fn)(void *), void *arg) {
  THFFIFrame worker;
  volatile int previous = -1, done = 0;
  THFFI_enterWorker(&worker, call);
  if (setjmp(worker.env) == 0) {
    if (THFFI_cudaHooks != NULL) previous = THFFI_cudaHooks->enter(worker.device);
    /* In an extension with C++ code, an exception leaving fn fails it as
     * THError does, instead of terminating the process. */
    if (THFFI_cxxGuard != NULL)
      THFFI_cxxGuard(fn, arg);
    else
      fn(arg);
    done = 1;
  }
  if (previous >= 0) THFFI_cudaHooks->leave(previous);
  THFFI_leaveWorker(&worker);
  return done;
}

/* ---- OpenMP ---- */

/* One parallel region: the compiler's outlined function and its data, and
 * the call of the thread starting the region (NULL outside every call). */
typedef struct {
  void (*fn)(void *);
  void *data;
  THFFICall *call;
} thffi_region;

/* What each thread of the team runs, the starting one included. */
static void thffi_region_run(void *arg) {
  thffi_region *region = (thffi_region *)arg;
  THFFI_TSAN_ACQUIRE(&region->fn);
  if (region->call == NULL)
    region->fn(region->data);
  else
    THFFI_runWorker(region->call, region->fn, region->data);
  THFFI_TSAN_RELEASE(&region->data);
}

static void thffi_region_start(thffi_region *region, void (*fn)(void *), void *data) {
  region->fn = fn;
  region->data = data;
  region->call = THFFI_callOf();
  THFFI_TSAN_RELEASE(&region->fn);
}

/* After the team ended: a thread of the call that failed ends the call
 * here (the frame of the starting thread keeps the call alive meanwhile). */
static void thffi_region_end(thffi_region *region) {
  THFFI_TSAN_ACQUIRE(&region->data);
  if (region->call != NULL) THFFI_checkCall(region->call);
}

/* The real libgomp entry point NAME, looked up when first called among the
 * libraries loaded after the extension (RTLD_NEXT: libgomp).  A reference
 * made at link time would tie the extension to the libgomp it was built
 * against, with its symbol versions (GOMP_5.0 for
 * GOMP_parallel_reductions), and an older copy that PyTorch loaded first
 * (PyTorch 2.0's own libgomp) would then refuse to load the extension at
 * all; looked up, only code that calls a missing entry point fails, by
 * name. */
static void *thffi_gomp_entry(void **cached, const char *name) {
  void *entry = __atomic_load_n(cached, __ATOMIC_ACQUIRE);
  if (entry == NULL) {
    entry = dlsym(RTLD_NEXT, name);
    if (entry == NULL)
      THError("%s: the OpenMP runtime loaded in this process (libgomp, perhaps an older copy "
              "PyTorch brought) has no %s; build the code with the compiler of that libgomp",
              name, name);
    __atomic_store_n(cached, entry, __ATOMIC_RELEASE);
  }
  return entry;
}

/* libgomp's entry points that start a team (GCC 4.9 and later). */
#define THFFI_GOMP(NAME, PARAMS, ARGS)                                      \
  void __wrap_##NAME PARAMS;                                                \
  void __wrap_##NAME PARAMS {                                               \
    static void *entry;                                                     \
    void (*real) PARAMS = (void (*) PARAMS)thffi_gomp_entry(&entry, #NAME); \
    thffi_region region;                                                    \
    thffi_region_start(&region, fn, data);                                  \
    real ARGS;                                                              \
    thffi_region_end(&region);                                              \
  }
#define THFFI_GOMP_LOOP(NAME)                                                                \
  THFFI_GOMP(NAME, (void (*fn)(void *), void *data, unsigned num_threads, long start,       \
                    long end, long incr, long chunk_size, unsigned flags),                   \
             (thffi_region_run, &region, num_threads, start, end, incr, chunk_size, flags))
#define THFFI_GOMP_LOOP_RUNTIME(NAME)                                                        \
  THFFI_GOMP(NAME, (void (*fn)(void *), void *data, unsigned num_threads, long start,       \
                    long end, long incr, unsigned flags),                                    \
             (thffi_region_run, &region, num_threads, start, end, incr, flags))

/* #pragma omp parallel, parallel for (static schedules, and every schedule
 * since GCC 9), parallel sections */
THFFI_GOMP(GOMP_parallel, (void (*fn)(void *), void *data, unsigned num_threads, unsigned flags),
           (thffi_region_run, &region, num_threads, flags))
THFFI_GOMP(GOMP_parallel_sections, (void (*fn)(void *), void *data, unsigned num_threads,
                                    unsigned count, unsigned flags),
           (thffi_region_run, &region, num_threads, count, flags))
/* parallel for with a schedule, as GCC 4.9 to 8 compiled it */
THFFI_GOMP_LOOP(GOMP_parallel_loop_static)
THFFI_GOMP_LOOP(GOMP_parallel_loop_dynamic)
THFFI_GOMP_LOOP(GOMP_parallel_loop_guided)
THFFI_GOMP_LOOP(GOMP_parallel_loop_nonmonotonic_dynamic)
THFFI_GOMP_LOOP(GOMP_parallel_loop_nonmonotonic_guided)
THFFI_GOMP_LOOP_RUNTIME(GOMP_parallel_loop_runtime)
THFFI_GOMP_LOOP_RUNTIME(GOMP_parallel_loop_nonmonotonic_runtime)
THFFI_GOMP_LOOP_RUNTIME(GOMP_parallel_loop_maybe_nonmonotonic_runtime)

/* parallel with task reductions (GCC 9 and later) */
unsigned __wrap_GOMP_parallel_reductions(void (*fn)(void *), void *data, unsigned num_threads,
                                         unsigned flags);
unsigned __wrap_GOMP_parallel_reductions(void (*fn)(void *), void *data, unsigned num_threads,
                                         unsigned flags) {
  static void *entry;
  unsigned (*real)(void (*)(void *), void *, unsigned, unsigned) =
      (unsigned (*)(void (*)(void *), void *, unsigned, unsigned))thffi_gomp_entry(
          &entry, "GOMP_parallel_reductions");
  thffi_region region;
  unsigned team;
  thffi_region_start(&region, fn, data);
  team = real(thffi_region_run, &region, num_threads, flags);
  thffi_region_end(&region);
  return team;
}

/* ---- pthreads ---- */

/* A thread started during a call: its start routine and argument, and the
 * call, retained until the thread ends. */
typedef struct {
  void *(*start)(void *);
  void *arg;
  THFFICall *call;
  void *result;  /* the start routine's */
} thffi_thread;

/* Runs when the thread ends, by returning or by pthread_exit() (which ends
 * it inside the worker frame: the thread's frames go with it). */
static void thffi_thread_done(void *arg) {
  thffi_thread *thread = (thffi_thread *)arg;
  THFFI_releaseCall(thread->call);
  free(thread);
}

static void thffi_thread_start(void *arg) {
  thffi_thread *thread = (thffi_thread *)arg;
  thread->result = thread->start(thread->arg);
}

/* The start routine's result, or PTHREAD_CANCELED when it failed. */
static void *thffi_thread_run(void *arg) {
  thffi_thread *thread = (thffi_thread *)arg;
  void *volatile result = PTHREAD_CANCELED;  /* pthread_cleanup_push sets a jmp_buf */
  pthread_cleanup_push(thffi_thread_done, thread);
  if (THFFI_runWorker(thread->call, thffi_thread_start, thread)) result = thread->result;
  pthread_cleanup_pop(1);
  return result;
}

int __real_pthread_create(pthread_t *id, const pthread_attr_t *attr, void *(*start)(void *),
                          void *arg);
int __wrap_pthread_create(pthread_t *id, const pthread_attr_t *attr, void *(*start)(void *),
                          void *arg);
int __wrap_pthread_create(pthread_t *id, const pthread_attr_t *attr, void *(*start)(void *),
                          void *arg) {
  THFFICall *call = THFFI_callOf();
  thffi_thread *thread;
  int status;
  if (call == NULL) return __real_pthread_create(id, attr, start, arg);
  thread = (thffi_thread *)calloc(1, sizeof *thread);
  if (thread == NULL) return EAGAIN;
  thread->start = start;
  thread->arg = arg;
  thread->call = call;
  THFFI_retainCall(call);
  status = __real_pthread_create(id, attr, thffi_thread_run, thread);
  if (status != 0) {
    THFFI_releaseCall(call);
    free(thread);
  }
  return status;
}
