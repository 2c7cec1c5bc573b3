/* The THC side of rows.c and workers.c: THC functions on OpenMP threads and
 * pthreads of a CUDA call, each on the call's device and stream. */
#include <THC/THC.h>
#include <pthread.h>

extern THCState *state;

/* output[i] = input[i][0], copied on the call's stream through a view of
 * row i and a THCudaMalloc'ed float of the thread's.  Returns how many
 * rows saw another stream or device than the call's (0). */
static int first_of_row(THCudaTensor *input, float *out, int i, cudaStream_t stream,
                        int device)
{
  THCudaTensor *row = THCudaTensor_newSelect(state, input, 0, i);
  void *scratch;
  int current, wrong;
  THCudaCheck(cudaGetDevice(&current));
  wrong = THCState_getCurrentStream(state) != stream || current != device;
  THCudaCheck(THCudaMalloc(state, &scratch, sizeof(float)));
  THCudaCheck(cudaMemcpyAsync(scratch, THCudaTensor_data(state, row), sizeof(float),
                              cudaMemcpyDeviceToDevice, stream));
  THCudaCheck(cudaMemcpyAsync(out + i, scratch, sizeof(float), cudaMemcpyDeviceToDevice,
                              stream));
  THCudaCheck(THCudaFree(state, scratch));
  THCudaTensor_free(state, row);
  return wrong;
}

int cuda_rows_first(THCudaTensor *input, THCudaTensor *output)
{
  int rows = THCudaTensor_size(state, input, 0), wrong = 0, i;
  int device = THCudaTensor_getDevice(state, input);
  cudaStream_t stream = THCState_getCurrentStream(state);
  float *out;
  THCudaTensor_resize1d(state, output, rows);
  out = THCudaTensor_data(state, output);
#pragma omp parallel for reduction(+:wrong)
  for (i = 0; i < rows; i++)
    wrong += first_of_row(input, out, i, stream, device);
  return wrong;
}

struct cuda_job {
  THCudaTensor *input;
  float *out;
  int first, step, wrong, device;
  cudaStream_t stream;
};

static void *cuda_rows_of(void *arg)
{
  struct cuda_job *job = (struct cuda_job *)arg;
  int rows = THCudaTensor_size(state, job->input, 0), i;
  for (i = job->first; i < rows; i += job->step)
    job->wrong += first_of_row(job->input, job->out, i, job->stream, job->device);
  return NULL;
}

int cuda_workers_first(THCudaTensor *input, THCudaTensor *output, int nthreads)
{
  pthread_t threads[16];
  struct cuda_job jobs[16];
  int t, wrong = 0;
  THArgCheck(nthreads > 0 && nthreads <= 16, 3, "1 to 16 threads");
  THCudaTensor_resize1d(state, output, THCudaTensor_size(state, input, 0));
  for (t = 0; t < nthreads; t++) {
    jobs[t].input = input;
    jobs[t].out = THCudaTensor_data(state, output);
    jobs[t].first = t;
    jobs[t].step = nthreads;
    jobs[t].wrong = 0;
    jobs[t].device = THCudaTensor_getDevice(state, input);
    jobs[t].stream = THCState_getCurrentStream(state);
    pthread_create(&threads[t], NULL, cuda_rows_of, &jobs[t]);
  }
  for (t = 0; t < nthreads; t++) {
    pthread_join(threads[t], NULL);
    wrong += jobs[t].wrong;
  }
  return wrong;
}
