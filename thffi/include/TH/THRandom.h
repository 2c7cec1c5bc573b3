/* Legacy <TH/THRandom.h>: generators and single random numbers.
 *
 * thffi draws every random number from PyTorch's default CPU generator
 * (torch.manual_seed makes a run reproducible), whatever THGenerator a call
 * passes: a THGenerator is a handle that functions taking one accept, with
 * TH 0.3's fields (read by no function of thffi).  THRandom_* are in
 * THRandomGen.h (generated). */
#ifndef THFFI_TH_RANDOM_H
#define THFFI_TH_RANDOM_H

#include "THGeneral.h"

#define _MERSENNE_STATE_N 624
#define _MERSENNE_STATE_M 397
#define torch_Generator "torch.Generator"

/* TH 0.4's state part of a generator. */
typedef struct THGeneratorState {
  uint64_t the_initial_seed;
  int left;
  int seeded;
  uint64_t next;
  uint64_t state[_MERSENNE_STATE_N];
  double normal_x;
  double normal_y;
  double normal_rho;
  int normal_is_valid;
} THGeneratorState;

typedef struct THGenerator {
  THGeneratorState gen_state;
} THGenerator;

/* A new handle (THAlloc'ed; THGenerator_free frees it). */
TH_API THGenerator *THGenerator_new(void);
/* Copies from's fields into self; returns self. */
TH_API THGenerator *THGenerator_copy(THGenerator *self, THGenerator *from);
TH_API void THGenerator_free(THGenerator *gen);
/* 1: every handle is valid (the numbers come from PyTorch's generator). */
TH_API int THGenerator_isValid(THGenerator *_generator);
TH_API THGeneratorState *THGeneratorState_copy(THGeneratorState *self, THGeneratorState *from);
TH_API int THGeneratorState_isValid(THGeneratorState *_gen_state);

#include "THRandomGen.h"

#endif
