/* THGenerator handles (TH/THRandom.h): the numbers come from PyTorch's
 * default generator (THRandomGen.h, through THMath.c), so a handle only
 * carries TH's fields for code that copies them. */
#include "TH/TH.h"
#include "thffi_private.h"

THGenerator *THGenerator_new(void) {
  THGenerator *gen = (THGenerator *)THAlloc(sizeof(THGenerator));
  memset(gen, 0, sizeof *gen);
  gen->gen_state.left = 1;
  return gen;
}

THGenerator *THGenerator_copy(THGenerator *self, THGenerator *from) {
  THArgCheck(self != NULL && from != NULL, 1, "expected two generators, got NULL");
  THGeneratorState_copy(&self->gen_state, &from->gen_state);
  return self;
}

void THGenerator_free(THGenerator *gen) { THFree(gen); }

int THGenerator_isValid(THGenerator *_generator) { return _generator != NULL; }

THGeneratorState *THGeneratorState_copy(THGeneratorState *self, THGeneratorState *from) {
  THArgCheck(self != NULL && from != NULL, 1, "expected two generator states, got NULL");
  memcpy(self, from, sizeof *self);
  return self;
}

int THGeneratorState_isValid(THGeneratorState *_gen_state) { return _gen_state != NULL; }
