/* Included once per single-type generator (THGenerateByteType.h ...
 * THGenerateDoubleType.h, THGenerateHalfType.h): what each defines. */
#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/th_single.c"
#else

/* The element size of this type's real, plus 100 for a floating type, 10
 * for an integer type whose `ureal` has its size, and 1000 when 3 goes to
 * real and back to accreal through TH_CONVERT_*; the tensor argument has
 * the type THTensor names. */
int TH_CONCAT_3(th_single_, Real, _code)(THTensor *t) {
  int code = (int)sizeof(real);
  real three = TH_CONVERT_ACCREAL_TO_REAL(3);
  (void)t;
#if defined(TH_REAL_IS_FLOAT) || defined(TH_REAL_IS_DOUBLE) || defined(TH_REAL_IS_HALF)
  code += 100;
#else
  code += 10 * (sizeof(ureal) == sizeof(real));
#endif
  if (TH_CONVERT_REAL_TO_ACCREAL(three) == 3) code += 1000;
  return code;
}

#endif
