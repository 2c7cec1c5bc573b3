#include <TH/TH.h>
#include <cstdlib>
#include <stdexcept>
#include "workspace.h"

/* C++ bindings in the style of 2018 ones: a workspace on the heap, checks
 * that throw, and exceptions left to escape the extern "C" functions. */

static int destroyed = 0;

struct Workspace {
    explicit Workspace(long n) : data(new float[n]) {}
    ~Workspace() {
        delete[] data;
        ++destroyed;
    }
    float *data;
};

struct box_error {
    int index;
};

int workspace_forward(THFloatTensor *input, THFloatTensor *output,
                                 long workspace_size)
{
    THFloatTensor *scratch = THFloatTensor_newWithSize1d(16);
    Workspace small(16);
    Workspace ws(workspace_size);
    long n = THFloatTensor_nElement(input);
    float *in = THFloatTensor_data(input);
    THFloatTensor_resizeAs(output, input);
    float *out = THFloatTensor_data(output);
    for (long i = 0; i < n; ++i) {
        ws.data[i % workspace_size] = 2 * in[i];
        out[i] = ws.data[i % workspace_size];
    }
    THFloatTensor_free(scratch);
    return 1;
}

int check_kernel_size(int kernel_size)
{
    if (kernel_size % 2 == 0) {
        throw std::runtime_error("kernel_size must be odd, got " + std::to_string(kernel_size));
    }
    return kernel_size / 2;
}

int throw_box_error(int index)
{
    throw box_error{index};
}

int abort_on_empty(THFloatTensor *input)
{
    if (THFloatTensor_nElement(input) == 0) {
        std::abort();
    }
    return 1;
}

int workspaces_destroyed(void)
{
    return destroyed;
}
