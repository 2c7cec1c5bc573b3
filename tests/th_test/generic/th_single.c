/* Included once per single-type generator (THGenerateByteType.h ...
 * THGenerateDoubleType.h): what each defines. */
#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/th_single.c"
#else

/* The element size of this type's real, plus 100 for a floating type;
 * the tensor argument has the type THTensor names. */
int TH_CONCAT_3(th_single_, Real, _code)(THTensor *t) {
  int code = (int)sizeof(real);
  (void)t;
#if defined(TH_REAL_IS_FLOAT) || defined(TH_REAL_IS_DOUBLE)
  code += 100;
#endif
  return code;
}

#endif
