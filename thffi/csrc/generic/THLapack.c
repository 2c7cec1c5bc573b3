#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/THLapack.c"
#else

#ifdef TH_REAL_IS_FLOAT
#define THFFI_LAPACK_NAME(name) "s" #name
#else
#define THFFI_LAPACK_NAME(name) "d" #name
#endif
/* One wrapper: `params` as TH declared them, `types` SciPy's routine's
 * parameters, `args` what it is given. */
#define THFFI_LAPACK(name, params, types, args)                                           \
  static void *TH_CONCAT_3(thffi_lapack_, name, Real);                                   \
  void THLapack_(name) params {                                                           \
    void (*fn) types = (void (*) types)THFFI_scipyFunction(                               \
        &TH_CONCAT_3(thffi_lapack_, name, Real), "scipy.linalg.cython_lapack",            \
        THFFI_LAPACK_NAME(name), TH_CONCAT_STRING_3(TH, Real, Lapack_) #name);            \
    fn args;                                                                              \
  }

THFFI_LAPACK(gesv, (int n, int nrhs, real *a, int lda, int *ipiv, real *b, int ldb, int *info),
             (int *, int *, real *, int *, int *, real *, int *, int *),
             (&n, &nrhs, a, &lda, ipiv, b, &ldb, info))
THFFI_LAPACK(trtrs, (char uplo, char trans, char diag, int n, int nrhs, real *a, int lda,
                     real *b, int ldb, int *info),
             (char *, char *, char *, int *, int *, real *, int *, real *, int *, int *),
             (&uplo, &trans, &diag, &n, &nrhs, a, &lda, b, &ldb, info))
THFFI_LAPACK(gels, (char trans, int m, int n, int nrhs, real *a, int lda, real *b, int ldb,
                    real *work, int lwork, int *info),
             (char *, int *, int *, int *, real *, int *, real *, int *, real *, int *, int *),
             (&trans, &m, &n, &nrhs, a, &lda, b, &ldb, work, &lwork, info))
THFFI_LAPACK(syev, (char jobz, char uplo, int n, real *a, int lda, real *w, real *work,
                    int lwork, int *info),
             (char *, char *, int *, real *, int *, real *, real *, int *, int *),
             (&jobz, &uplo, &n, a, &lda, w, work, &lwork, info))
THFFI_LAPACK(geev, (char jobvl, char jobvr, int n, real *a, int lda, real *wr, real *wi,
                    real *vl, int ldvl, real *vr, int ldvr, real *work, int lwork, int *info),
             (char *, char *, int *, real *, int *, real *, real *, real *, int *, real *, int *,
              real *, int *, int *),
             (&jobvl, &jobvr, &n, a, &lda, wr, wi, vl, &ldvl, vr, &ldvr, work, &lwork, info))
THFFI_LAPACK(gesvd, (char jobu, char jobvt, int m, int n, real *a, int lda, real *s, real *u,
                     int ldu, real *vt, int ldvt, real *work, int lwork, int *info),
             (char *, char *, int *, int *, real *, int *, real *, real *, int *, real *, int *,
              real *, int *, int *),
             (&jobu, &jobvt, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork, info))
THFFI_LAPACK(getrf, (int m, int n, real *a, int lda, int *ipiv, int *info),
             (int *, int *, real *, int *, int *, int *), (&m, &n, a, &lda, ipiv, info))
THFFI_LAPACK(getrs, (char trans, int n, int nrhs, real *a, int lda, int *ipiv, real *b, int ldb,
                     int *info),
             (char *, int *, int *, real *, int *, int *, real *, int *, int *),
             (&trans, &n, &nrhs, a, &lda, ipiv, b, &ldb, info))
THFFI_LAPACK(getri, (int n, real *a, int lda, int *ipiv, real *work, int lwork, int *info),
             (int *, real *, int *, int *, real *, int *, int *),
             (&n, a, &lda, ipiv, work, &lwork, info))
THFFI_LAPACK(potrf, (char uplo, int n, real *a, int lda, int *info),
             (char *, int *, real *, int *, int *), (&uplo, &n, a, &lda, info))
THFFI_LAPACK(potri, (char uplo, int n, real *a, int lda, int *info),
             (char *, int *, real *, int *, int *), (&uplo, &n, a, &lda, info))
THFFI_LAPACK(potrs, (char uplo, int n, int nrhs, real *a, int lda, real *b, int ldb, int *info),
             (char *, int *, int *, real *, int *, real *, int *, int *),
             (&uplo, &n, &nrhs, a, &lda, b, &ldb, info))
THFFI_LAPACK(pstrf, (char uplo, int n, real *a, int lda, int *piv, int *rank, real tol,
                     real *work, int *info),
             (char *, int *, real *, int *, int *, int *, real *, real *, int *),
             (&uplo, &n, a, &lda, piv, rank, &tol, work, info))
THFFI_LAPACK(geqrf, (int m, int n, real *a, int lda, real *tau, real *work, int lwork, int *info),
             (int *, int *, real *, int *, real *, real *, int *, int *),
             (&m, &n, a, &lda, tau, work, &lwork, info))
THFFI_LAPACK(orgqr, (int m, int n, int k, real *a, int lda, real *tau, real *work, int lwork,
                     int *info),
             (int *, int *, int *, real *, int *, real *, real *, int *, int *),
             (&m, &n, &k, a, &lda, tau, work, &lwork, info))
THFFI_LAPACK(ormqr, (char side, char trans, int m, int n, int k, real *a, int lda, real *tau,
                     real *c, int ldc, real *work, int lwork, int *info),
             (char *, char *, int *, int *, int *, real *, int *, real *, real *, int *, real *,
              int *, int *),
             (&side, &trans, &m, &n, &k, a, &lda, tau, c, &ldc, work, &lwork, info))

#undef THFFI_LAPACK
#undef THFFI_LAPACK_NAME

#endif
