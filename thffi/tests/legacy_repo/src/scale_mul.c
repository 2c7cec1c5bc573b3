#include <TH.h>

// output = alpha * input1 * input2
int scale_mul_forward(float alpha, THFloatTensor *input1, THFloatTensor *input2,
                      THFloatTensor *output)
{
    if (!THFloatTensor_isSameSizeAs(input1, input2))
        return 0;
    THFloatTensor_resizeAs(output, input1);

    float *a = THFloatTensor_data(input1);
    float *b = THFloatTensor_data(input2);
    float *out = THFloatTensor_data(output);
    long n = THFloatTensor_nElement(input1);
    long i;
    for (i = 0; i < n; i++)
        out[i] = alpha * a[i] * b[i];
    return 1;
}

int scale_mul_forward_double(double alpha, THDoubleTensor *input1, THDoubleTensor *input2,
                             THDoubleTensor *output)
{
    THDoubleTensor_resizeAs(output, input1);

    double *a = THDoubleTensor_data(input1);
    double *b = THDoubleTensor_data(input2);
    double *out = THDoubleTensor_data(output);
    long n = THDoubleTensor_nElement(input1);
    long i;
    for (i = 0; i < n; i++)
        out[i] = alpha * a[i] * b[i];
    return 1;
}
