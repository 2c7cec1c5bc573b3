#include <pthread.h>
#include <stdlib.h>
#include <TH/TH.h>

/* A thread started by the C code is outside every wrapped call: exit()
 * there ends the process, as it always did. */
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
