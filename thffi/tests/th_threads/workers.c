/* Kernels that split their rows over pthreads they start and join, as 2018
 * code did without OpenMP; and one that leaves a thread running after it
 * returned. */
#include <TH.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

struct job {
  THFloatTensor *input;
  float *out;
  int first, step, bad;
};

/* out[i] = sum of row i + the first element of a copy of it, for rows
 * first, first + step, ...; each through views and tensors of the thread's
 * own (newSelect, newClone, new + resizeAs + copy, newWithSize1d, resize,
 * a storage). */
static void *sum_rows(void *arg)
{
  struct job *job = (struct job *)arg;
  int rows = THFloatTensor_size(job->input, 0), cols = THFloatTensor_size(job->input, 1);
  int i, k;
  THArgCheck(!job->bad, 1, "thread %d was told to fail", job->first);
  for (i = job->first; i < rows; i += job->step) {
    THFloatTensor *row = THFloatTensor_newSelect(job->input, 0, i);
    THFloatTensor *copy = THFloatTensor_newClone(row);
    THFloatTensor *like = THFloatTensor_new();
    THFloatTensor *acc = THFloatTensor_newWithSize1d(1);
    THFloatStorage *scratch = THFloatStorage_newWithSize(cols);
    THFloatTensor_resize2d(acc, 1, 1);
    THFloatTensor_data(acc)[0] = 0;
    for (k = 0; k < cols; k++) {
      THFloatStorage_set(scratch, k, THFloatTensor_get1d(row, k));
      THFloatTensor_data(acc)[0] += THFloatStorage_get(scratch, k);
    }
    THFloatTensor_resizeAs(like, copy);
    THFloatTensor_copy(like, copy);
    job->out[i] = THFloatTensor_data(acc)[0] + THFloatTensor_get1d(like, 0);
    THFloatStorage_free(scratch);
    THFloatTensor_free(acc);
    THFloatTensor_free(like);
    THFloatTensor_free(copy);
    THFloatTensor_free(row);
  }
  return arg;
}

static int run_jobs(THFloatTensor *input, float *out, int nthreads, int bad_thread)
{
  pthread_t threads[16];
  struct job jobs[16];
  int t, finished = 0;
  THArgCheck(nthreads > 0 && nthreads <= 16, 3, "1 to 16 threads");
  for (t = 0; t < nthreads; t++) {
    jobs[t].input = input;
    jobs[t].out = out;
    jobs[t].first = t;
    jobs[t].step = nthreads;
    jobs[t].bad = t == bad_thread;
    if (pthread_create(&threads[t], NULL, sum_rows, &jobs[t]) != 0)
      THError("cannot start thread %d", t);
  }
  for (t = 0; t < nthreads; t++) {
    void *result;
    pthread_join(threads[t], &result);
    finished += result == &jobs[t];
  }
  return finished;
}

/* The rows' sums (plus their first element) over nthreads threads; returns
 * how many threads finished their work. */
int workers_views(THFloatTensor *input, THFloatTensor *output, int nthreads)
{
  THFloatTensor_resize1d(output, THFloatTensor_size(input, 0));
  return run_jobs(input, THFloatTensor_data(output), nthreads, -1);
}

/* As workers_views, into a buffer of its own, with thread bad_thread
 * failing its THArgCheck. */
int workers_check(THFloatTensor *input, int nthreads, int bad_thread)
{
  float *out = (float *)THAlloc(sizeof(float) * THFloatTensor_size(input, 0));
  int finished = run_jobs(input, out, nthreads, bad_thread);
  THFree(out);
  return finished;
}

static void *exit_now(void *status)
{
  exit(*(int *)status);
  return NULL;
}

/* exit() on a thread of the call. */
int workers_exit(int status)
{
  pthread_t thread;
  pthread_create(&thread, NULL, exit_now, &status);
  pthread_join(thread, NULL);
  return 0;
}

/* A thread started by one call that waits, past the call's return, until
 * workers_release (another call) lets it go on: it then makes a tensor,
 * sums it through TH (8), and either returns the sum or fails. */
static pthread_t left;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t go = PTHREAD_COND_INITIALIZER;
static int released, fail_left;

static void *wait_then_work(void *unused)
{
  THFloatTensor *t;
  intptr_t sum;
  pthread_mutex_lock(&lock);
  while (!released) pthread_cond_wait(&go, &lock);
  pthread_mutex_unlock(&lock);
  t = THFloatTensor_newWithSize1d(4);
  THFloatTensor_fill(t, 2);
  sum = (intptr_t)THFloatTensor_sumall(t);
  THFloatTensor_free(t);
  THArgCheck(!fail_left, 1, "the thread left running failed on purpose");
  return (void *)sum;
}

int workers_leave_running(void)
{
  released = 0;
  return pthread_create(&left, NULL, wait_then_work, NULL) == 0;
}

/* Lets the thread left running go on and joins it: what it returned (8),
 * or -1 when it was ended (PTHREAD_CANCELED). */
int workers_release(int fail)
{
  void *result;
  pthread_mutex_lock(&lock);
  fail_left = fail;
  released = 1;
  pthread_cond_signal(&go);
  pthread_mutex_unlock(&lock);
  pthread_join(left, &result);
  return result == PTHREAD_CANCELED ? -1 : (int)(intptr_t)result;
}
