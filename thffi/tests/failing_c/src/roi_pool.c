#include <TH/TH.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* RoI max pooling to one value per channel, written as 2018 bindings were:
 * features (batch, channels, height, width), rois (num_rois, 5) holding
 * (batch index, x1, y1, x2, y2) in feature-map cells; bad input ends the
 * process. */
int roi_pool_forward(THFloatTensor *features, THFloatTensor *rois, THFloatTensor *output)
{
    float *data_flat, *rois_flat, *output_flat;
    int num_rois = THFloatTensor_size(rois, 0);
    int size_rois = THFloatTensor_size(rois, 1);
    int batch_size = THFloatTensor_size(features, 0);
    int num_channels = THFloatTensor_size(features, 1);
    int data_height = THFloatTensor_size(features, 2);
    int data_width = THFloatTensor_size(features, 3);
    int n, c, h, w;

    if (size_rois != 5) {
        return 0;
    }
    if (!THFloatTensor_isContiguous(features)) {
        fprintf(stderr, "roi_pool_forward: features must be contiguous\n");
        abort();
    }
    THFloatTensor_resize2d(output, num_rois, num_channels);
    data_flat = THFloatTensor_data(features);
    rois_flat = THFloatTensor_data(rois);
    output_flat = THFloatTensor_data(output);

    for (n = 0; n < num_rois; ++n) {
        int roi_batch_ind = rois_flat[0];
        int roi_start_w = fmax(round(rois_flat[1]), 0);
        int roi_start_h = fmax(round(rois_flat[2]), 0);
        int roi_end_w = fmin(round(rois_flat[3]), data_width - 1);
        int roi_end_h = fmin(round(rois_flat[4]), data_height - 1);
        if (roi_batch_ind < 0 || roi_batch_ind >= batch_size) {
            printf("n = %d, roi_batch_ind = %d, batch_size = %d\n", n, roi_batch_ind, batch_size);
            exit(-1);
        }
        for (c = 0; c < num_channels; ++c) {
            float *plane = data_flat + (roi_batch_ind * num_channels + c) * data_height * data_width;
            float maxval = -FLT_MAX;
            for (h = roi_start_h; h <= roi_end_h; ++h) {
                for (w = roi_start_w; w <= roi_end_w; ++w) {
                    if (plane[h * data_width + w] > maxval) {
                        maxval = plane[h * data_width + w];
                    }
                }
            }
            output_flat[n * num_channels + c] = maxval;
        }
        rois_flat += size_rois;
    }
    return 1;
}

/* The gradient of roi_pool_forward, with the bugs legacy kernels had: the
 * struct fields are read without a NULL check, and the argmax scratch
 * buffer is initialised one element too far. */
int roi_pool_backward(THFloatTensor *top_grad, THFloatTensor *rois, THFloatTensor *bottom_grad)
{
    int num_rois = rois->size[0];
    int size_rois = rois->size[1];
    int num_channels = bottom_grad->size[1];
    int data_height = bottom_grad->size[2];
    int data_width = bottom_grad->size[3];
    float *rois_flat = THFloatTensor_data(rois);
    float *top_flat = THFloatTensor_data(top_grad);
    float *bottom_flat = THFloatTensor_data(bottom_grad);
    int *argmax = (int *)malloc(num_channels * sizeof(int));
    int n, c;

    for (n = 0; n < num_rois; ++n) {
        int roi_batch_ind = rois_flat[n * size_rois];
        int x = rois_flat[n * size_rois + 1], y = rois_flat[n * size_rois + 2];
        for (c = 0; c <= num_channels; ++c) {
            argmax[c] = -1;  /* the off-by-one write */
        }
        for (c = 0; c < num_channels; ++c) {
            argmax[c] = y * data_width + x;
            bottom_flat[(roi_batch_ind * num_channels + c) * data_height * data_width + argmax[c]]
                += top_flat[n * num_channels + c];
        }
    }
    free(argmax);
    return 1;
}
