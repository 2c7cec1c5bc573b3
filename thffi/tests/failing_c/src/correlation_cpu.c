#include <assert.h>
#include "correlation_cpu.h"

/* out[d + max_displacement] = sum over i of a[i] * b[i + d], for
 * |d| <= max_displacement, of two signals of n values. */
void correlation_cpu(const float *a, const float *b, float *out, int n, int max_displacement)
{
    int d, i;
    assert(max_displacement >= 0 && max_displacement < n);
    for (d = -max_displacement; d <= max_displacement; ++d) {
        float sum = 0;
        for (i = 0; i < n; ++i) {
            if (i + d >= 0 && i + d < n) {
                sum += a[i] * b[i + d];
            }
        }
        out[d + max_displacement] = sum;
    }
}
