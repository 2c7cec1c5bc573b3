#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "TH/generic/THLapack.h"
#else

/* Each is the LAPACK routine of its name (sgesv for float, dgesv for
 * double), its arguments by value where LAPACK takes pointers to scalars.
 * work/lwork as LAPACK's: lwork -1 asks for the best size in work[0]. */

/* A X = B: a n x n (overwritten by its LU factors), b n x nrhs (by X) */
TH_API void THLapack_(gesv)(int n, int nrhs, real *a, int lda, int *ipiv, real *b, int ldb,
                            int *info);
/* op(A) X = B, A triangular */
TH_API void THLapack_(trtrs)(char uplo, char trans, char diag, int n, int nrhs, real *a, int lda,
                             real *b, int ldb, int *info);
/* least squares or minimum norm, A of full rank */
TH_API void THLapack_(gels)(char trans, int m, int n, int nrhs, real *a, int lda, real *b, int ldb,
                            real *work, int lwork, int *info);
/* eigenvalues (and vectors) of a symmetric matrix */
TH_API void THLapack_(syev)(char jobz, char uplo, int n, real *a, int lda, real *w, real *work,
                            int lwork, int *info);
/* eigenvalues (and vectors) of a general matrix */
TH_API void THLapack_(geev)(char jobvl, char jobvr, int n, real *a, int lda, real *wr, real *wi,
                            real *vl, int ldvl, real *vr, int ldvr, real *work, int lwork,
                            int *info);
/* singular value decomposition */
TH_API void THLapack_(gesvd)(char jobu, char jobvt, int m, int n, real *a, int lda, real *s,
                             real *u, int ldu, real *vt, int ldvt, real *work, int lwork,
                             int *info);
/* LU factorization with partial pivoting (ipiv 1-based, as LAPACK's) */
TH_API void THLapack_(getrf)(int m, int n, real *a, int lda, int *ipiv, int *info);
TH_API void THLapack_(getrs)(char trans, int n, int nrhs, real *a, int lda, int *ipiv, real *b,
                             int ldb, int *info);
/* inverse from getrf's factors */
TH_API void THLapack_(getri)(int n, real *a, int lda, int *ipiv, real *work, int lwork,
                             int *info);
/* Cholesky: factor, inverse, solve */
TH_API void THLapack_(potrf)(char uplo, int n, real *a, int lda, int *info);
TH_API void THLapack_(potri)(char uplo, int n, real *a, int lda, int *info);
TH_API void THLapack_(potrs)(char uplo, int n, int nrhs, real *a, int lda, real *b, int ldb,
                             int *info);
/* Cholesky with complete pivoting */
TH_API void THLapack_(pstrf)(char uplo, int n, real *a, int lda, int *piv, int *rank, real tol,
                             real *work, int *info);
/* QR: factor, form Q, multiply by Q */
TH_API void THLapack_(geqrf)(int m, int n, real *a, int lda, real *tau, real *work, int lwork,
                             int *info);
TH_API void THLapack_(orgqr)(int m, int n, int k, real *a, int lda, real *tau, real *work,
                             int lwork, int *info);
TH_API void THLapack_(ormqr)(char side, char trans, int m, int n, int k, real *a, int lda,
                             real *tau, real *c, int ldc, real *work, int lwork, int *info);

#endif
