#include <pthread.h>
#include <stdlib.h>
#include <TH/TH.h>

/* A thread the C code starts during a call, and joins: exit() there ends
 * the thread's work and the call, as on the calling thread. */
static void *worker(void *status)
{
    exit(*(int *)status);
    return NULL;
}

int exit_from_worker(int status)
{
    pthread_t thread;
    pthread_create(&thread, NULL, worker, &status);
    pthread_join(thread, NULL);
    return 0;
}
