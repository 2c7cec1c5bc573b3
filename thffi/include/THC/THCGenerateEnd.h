/* Shared closing of the single-type THC generators: the generic file is
 * forgotten after its one type unless a many-type generator
 * (THCGenerateFloatTypes.h, THCGenerateIntTypes.h, THCGenerateAllTypes.h)
 * includes this one and still needs it. */
#undef THCFFI_GENERIC_FILE
#if !defined(THGenerateManyTypes) && !defined(THCGenerateAllTypes) && \
    !defined(THCGenerateFloatTypes) && !defined(THCGenerateIntTypes)
#ifdef THC_GENERIC_FILE
#undef THC_GENERIC_FILE
#else
#undef TH_GENERIC_FILE
#endif
#endif
