#include <TH/TH.h>

int shift_cpu(THFloatTensor *data, float by)
{
    float *p = THFloatTensor_data(data);
    long i, n = THFloatTensor_nElement(data);
    for (i = 0; i < n; i++)
        p[i] += by;
    return 1;
}
