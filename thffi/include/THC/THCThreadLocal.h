/* Legacy <THC/THCThreadLocal.h>: a value per thread under one key (POSIX
 * thread-specific data). */
#ifndef THFFI_THC_THREAD_LOCAL_H
#define THFFI_THC_THREAD_LOCAL_H

#include <TH/THGeneral.h>
#include <pthread.h>

typedef pthread_key_t THCThreadLocal;

/* A new key (THError when none is left); every thread's value NULL. */
TH_API THCThreadLocal THCThreadLocal_alloc(void);
TH_API void THCThreadLocal_free(THCThreadLocal local);
/* The calling thread's value. */
TH_API void *THCThreadLocal_get(THCThreadLocal local);
TH_API void THCThreadLocal_set(THCThreadLocal local, void *value);

#endif
