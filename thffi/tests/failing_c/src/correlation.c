#include <TH/TH.h>
#include "correlation_cpu.h"

/* A binding whose kernel, built by make.sh into an object, assert()s. */
int correlation_forward(THFloatTensor *input1, THFloatTensor *input2, int max_displacement,
                        THFloatTensor *output)
{
    int n = THFloatTensor_nElement(input1);
    THFloatTensor_resize1d(output, 2 * max_displacement + 1);
    correlation_cpu(THFloatTensor_data(input1), THFloatTensor_data(input2),
                    THFloatTensor_data(output), n, max_displacement);
    return 1;
}
