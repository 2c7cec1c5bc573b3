/* A worker started when the library loads, before any call, as a pool of
 * one: thffi did not see it start during a call, so it belongs to none.
 * pool_make hands it a job and waits for it. */
#include <TH.h>
#include <pthread.h>

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pool_wake = PTHREAD_COND_INITIALIZER;
static int pool_job, pool_fail, pool_result;

static void *pool_run(void *unused)
{
  for (;;) {
    THFloatTensor *t;
    int result;
    pthread_mutex_lock(&pool_lock);
    while (pool_job != 1) pthread_cond_wait(&pool_wake, &pool_lock);
    pthread_mutex_unlock(&pool_lock);
    t = THFloatTensor_newWithSize1d(3);
    THFloatTensor_fill(t, 3);
    THArgCheck(!pool_fail, 1, "the pool's job failed");
    result = (int)THFloatTensor_get1d(t, 0) * (int)THFloatTensor_nElement(t);
    THFloatTensor_free(t);
    pthread_mutex_lock(&pool_lock);
    pool_result = result;
    pool_job = 2;
    pthread_cond_broadcast(&pool_wake);
    pthread_mutex_unlock(&pool_lock);
  }
  return NULL;
}

__attribute__((constructor)) static void pool_start(void)
{
  pthread_t thread;
  pthread_create(&thread, NULL, pool_run, NULL);
  pthread_detach(thread);
}

/* What the pool's job computed (9): a tensor of 3 threes, made there. */
int pool_make(int fail)
{
  int result;
  pthread_mutex_lock(&pool_lock);
  pool_fail = fail;
  pool_job = 1;
  pthread_cond_broadcast(&pool_wake);
  while (pool_job != 2) pthread_cond_wait(&pool_wake, &pool_lock);
  pool_job = 0;
  result = pool_result;
  pthread_mutex_unlock(&pool_lock);
  return result;
}
