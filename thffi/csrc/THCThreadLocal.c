/* THC/THCThreadLocal.h. */
#include "THC/THCThreadLocal.h"
#include "thffi_private.h"

THCThreadLocal THCThreadLocal_alloc(void) {
  pthread_key_t key;
  int err = pthread_key_create(&key, NULL);
  if (err != 0) THError("THCThreadLocal_alloc: pthread_key_create failed (error %d)", err);
  return key;
}

void THCThreadLocal_free(THCThreadLocal local) { pthread_key_delete(local); }

void *THCThreadLocal_get(THCThreadLocal local) { return pthread_getspecific(local); }

void THCThreadLocal_set(THCThreadLocal local, void *value) {
  int err = pthread_setspecific(local, value);
  if (err != 0) THError("THCThreadLocal_set: pthread_setspecific failed (error %d)", err);
}
