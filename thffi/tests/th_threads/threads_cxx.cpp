// C++11 bindings of 2018 that split their rows over std::thread and
// std::async, and a pthread start routine that throws.
#include <TH.h>
#include <pthread.h>
#include <future>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

extern "C" {
#include "threads_cxx.h"
}

namespace {

// output[i] = input[i][0] for rows first, first + step, ..., through views
// made on the thread; throws on row `bad`.
void first_of_rows(THFloatTensor *input, float *out, int first, int step, int bad)
{
  int rows = THFloatTensor_size(input, 0);
  for (int i = first; i < rows; i += step) {
    if (i == bad) throw std::out_of_range("row " + std::to_string(i) + " is bad");
    THFloatTensor *row = THFloatTensor_newSelect(input, 0, i);
    THFloatTensor *copy = THFloatTensor_newClone(row);
    out[i] = THFloatTensor_data(copy)[0];
    THFloatTensor_free(copy);
    THFloatTensor_free(row);
  }
}

int run_rows(THFloatTensor *input, float *out, int nthreads, int bad)
{
  std::vector<std::thread> threads;
  for (int t = 0; t < nthreads; t++)
    threads.emplace_back(first_of_rows, input, out, t, nthreads, bad);
  for (auto &thread : threads) thread.join();
  return nthreads;
}

void *throw_now(void *status)
{
  throw std::runtime_error("worker status " + std::to_string(*(int *)status));
}

}  // namespace

extern "C" int cxx_rows_first(THFloatTensor *input, THFloatTensor *output, int nthreads)
{
  THFloatTensor_resize1d(output, THFloatTensor_size(input, 0));
  return run_rows(input, THFloatTensor_data(output), nthreads, -1);
}

extern "C" int cxx_rows_throw(THFloatTensor *input, int nthreads, int bad_row)
{
  std::vector<float> out(THFloatTensor_size(input, 0));
  return run_rows(input, out.data(), nthreads, bad_row);
}

// The first element of a row, through a view made by a std::async task.
extern "C" int cxx_async_first(THFloatTensor *input, int row)
{
  auto first = std::async(std::launch::async, [input, row] {
    THFloatTensor *view = THFloatTensor_newSelect(input, 0, row);
    float value = THFloatTensor_get1d(view, 0);
    THFloatTensor_free(view);
    return value;
  });
  return (int)first.get();
}

extern "C" int cxx_pthread_throw(int status)
{
  pthread_t thread;
  pthread_create(&thread, NULL, throw_now, &status);
  pthread_join(thread, NULL);
  return 0;
}
