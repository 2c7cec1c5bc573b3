#!/usr/bin/env bash
# tools/gpu_check.sh [OUTDIR] -- proves the CUDA path on this machine in one
# command (docs/gpu.md says what it checks and the targets).
#
# With a CUDA GPU that torch sees and a CUDA toolkit:
#   1. builds the demo and thffi's kernels for the visible GPUs' architectures,
#      and the examples (their make.sh); runs `python test.py`; runs the whole
#      test suite, GPU tests included (last: it gets the time left);
#      builds thffi/tests/thc_sparse (2018 THC code calling cuSPARSE's legacy API,
#      which thffi provides over today's) and checks each call against
#      PyTorch's dense result (thffi/tests/thc_sparse/check_sparse.py);
#   2. runs tests/test_examples_torchvision.py: the examples' RoI pooling and
#      NMS against torchvision.ops on the CPU and on CUDA;
#   3. runs tools/gpu_calls.py (every CUDA call of the demo, the examples and
#      thffi/tests/thc_sparse) under compute-sanitizer memcheck, then racecheck;
#   4. runs the benchmark's GPU rows (python bench/bench.py --gpu);
#   5. writes OUTDIR/summary.txt with every figure.
# Without one (or without a toolkit, torchvision, compute-sanitizer, the
# project's Python packages), each step it cannot do says it is skipped and
# why; with no GPU it builds and runs nothing and ends in seconds.
#
# Contracts:
# - OUTDIR (default ./gpu_check_out) ends with at most 8 files of at most
#   16 MB each: summary.txt and five gzipped logs (a log over 64 MB keeps its
#   first and last 32 MB, a gzip still over 16 MB its first 16 MB; the
#   summary says so).
# - The run ends within GPU_CHECK_BUDGET_S seconds (default 460): each step
#   is stopped at its own limit or at the budget, the suite by SIGINT (pytest
#   then reports the tests that ran).
# - Exit status: 0 when every step that ran succeeded (builds, test.py, the
#   tests, the comparisons, 0 sanitizer errors) -- so also when none could
#   run; 1 otherwise.  The benchmark's targets are reported as met or not
#   met, outside the exit status: timings vary with the machine.
# Environment: PYTHON (default python3); GPU_CHECK_BUDGET_S;
# GPU_CHECK_PYTEST_ARGS (added to the suite's pytest command, e.g. "-x");
# GPU_CHECK_WHEELS, a folder of wheels (the missing packages and their
# missing dependencies) installed with no network when requirements.txt's
# packages are missing.
set -u

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PYTHON=${PYTHON:-python3}
BUDGET=${GPU_CHECK_BUDGET_S:-460}
START=$SECONDS
MAX_BYTES=16000000   # per file under OUTDIR
CUT_BYTES=64000000   # a log larger than this keeps its first and last half of it
SUITE_RESERVE=180    # seconds the steps before the suite leave it at least
LOGS=(build.log torchvision.log sanitizer.log bench.log suite.log)
FAILED=0             # set to 1 by a step that ran and failed
WORK=$(mktemp -d "${TMPDIR:-/tmp}/gpu_check.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# One line of the summary, also on stdout.
say() {
  printf '%s\n' "$*" | tee -a "$OUTDIR/summary.txt"
}

# Seconds left of the budget, less a reserve for the steps after this one.
left() {
  echo $((BUDGET - (SECONDS - START) - ${1:-0}))
}

# The smaller of a step's own limit and what the budget leaves it.
limit() {
  local cap=$1 reserve=$2 rest
  rest=$(left "$reserve")
  if ((rest < cap)); then echo "$rest"; else echo "$cap"; fi
}

# Runs "$@" with a time limit, output appended to a log under OUTDIR;
# returns its status (124: stopped at the limit).
run_logged() {
  local log=$1 seconds=$2
  shift 2
  if ((seconds <= 0)); then
    echo "gpu_check: no time left for: $*" >>"$OUTDIR/$log"
    return 124
  fi
  echo "\$ $*" >>"$OUTDIR/$log"
  timeout -k 20 "$seconds" "$@" >>"$OUTDIR/$log" 2>&1
}

# pytest's closing line of a log ("3 passed, 1 skipped in 2.0s"), as
# "P passed, F failed, S skipped, E errors", or "no result" when it has none.
pytest_counts() {
  local line
  line=$(grep -E '^=+ .* in [0-9.]+s' "$1" | tail -n 1)
  if [ -z "$line" ]; then
    echo "no result"
    return
  fi
  local n word passed=0 failed=0 skipped=0 errors=0
  # shellcheck disable=SC2001  # a regex substitution: no parameter expansion does it
  for n in $(sed 's/, /\n/g; s/=//g' <<<"$line" | grep -Eo '[0-9]+ [a-z]+' | tr ' ' ':'); do
    word=${n#*:}
    case $word in
      passed) passed=${n%%:*} ;;
      failed) failed=${n%%:*} ;;
      skipped) skipped=${n%%:*} ;;
      error | errors) errors=${n%%:*} ;;
    esac
  done
  echo "$passed passed, $failed failed, $skipped skipped, $errors errors"
}

# Step 0. The interpreter as `python` on PATH (the examples' make.sh and
# test.py's users call `python`), the root on PYTHONPATH, the project's
# packages (from GPU_CHECK_WHEELS when missing), and one probe of the
# machine: sets GPU (1 when torch sees a CUDA GPU), ARCH, TOOLKIT, MISSING,
# TORCHVISION, SANITIZER, and prints the environment into the summary.
prepare() {
  local interpreter
  if ! interpreter=$(command -v "$PYTHON"); then
    echo "gpu_check.sh: $PYTHON not found (set PYTHON)" >&2
    exit 1
  fi
  mkdir -p "$WORK/bin"
  ln -s "$interpreter" "$WORK/bin/python"
  PATH="$WORK/bin:$PATH"
  # the examples' make.sh import thffi from the root, as README runs them
  PYTHONPATH="$ROOT${PYTHONPATH:+:$PYTHONPATH}"
  export PATH PYTHONPATH PYTHONUNBUFFERED=1
  cd "$ROOT" || exit 1
  MISSING=$(missing_packages)
  if [ -n "$MISSING" ] && [ -n "$WHEELS" ]; then
    python -m pip install -q --no-index --no-deps --target "$WORK/site" \
      "$WHEELS"/*.whl >>"$OUTDIR/build.log" 2>&1
    export PYTHONPATH="$WORK/site${PYTHONPATH:+:$PYTHONPATH}"
    MISSING=$(missing_packages)
  fi
  local probe
  probe=$(python - 2>"$WORK/probe.err" <<'EOF'
import platform
import torch
gpu = torch.cuda.is_available()
print('python=%s' % platform.python_version())
print('torch=%s (CUDA %s)' % (torch.__version__, torch.version.cuda))
print('cpu_build=%d' % (torch.version.cuda is None))
print('gpu=%d' % gpu)
if gpu:  # the architectures of every visible GPU, for TORCH_CUDA_ARCH_LIST
    arch = sorted({'%d.%d' % torch.cuda.get_device_capability(i)
                   for i in range(torch.cuda.device_count())})
    print('arch=%s' % ';'.join(arch))
    print('device=%s (compute capability %d.%d, %d visible)'
          % ((torch.cuda.get_device_name(),) + torch.cuda.get_device_capability()
             + (torch.cuda.device_count(),)))
try:
    import torchvision
    print('torchvision=%s' % torchvision.__version__)
except Exception as e:
    print('torchvision=absent (%s: %s)' % (type(e).__name__, str(e).splitlines()[0]))
try:
    from thffi import cuda_enabled
    print('toolkit=%d' % bool(cuda_enabled()))
except Exception as e:
    print('toolkit=0')
EOF
)
  GPU=$(sed -n 's/^gpu=//p' <<<"$probe")
  CPU_BUILD=$(sed -n 's/^cpu_build=//p' <<<"$probe")
  if [ -z "$GPU" ]; then  # the probe died: torch is not importable
    TORCH_ERROR=$(tail -n 1 "$WORK/probe.err")
    GPU=0
  fi
  ARCH=$(sed -n 's/^arch=//p' <<<"$probe")
  TOOLKIT=$(sed -n 's/^toolkit=//p' <<<"$probe")
  TORCHVISION=$(sed -n 's/^torchvision=//p' <<<"$probe")
  SANITIZER=$(command -v compute-sanitizer ||
    ls "${CUDA_HOME:-/usr/local/cuda}/bin/compute-sanitizer" 2>/dev/null)
  say "tools/gpu_check.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -m), $(nproc) cores"
  say "device: $(sed -n 's/^device=//p' <<<"$probe" | grep . || echo 'none visible to torch')"
  if command -v nvidia-smi >/dev/null; then
    say "nvidia-smi: $(nvidia-smi --query-gpu=name,driver_version,memory.total \
      --format=csv,noheader 2>&1 | head -n 4 | paste -sd ';')"
  else
    say "nvidia-smi: absent"
  fi
  if [ -n "$TORCH_ERROR" ]; then
    say "python: $(python --version 2>&1); torch: not importable ($TORCH_ERROR)"
  else
    say "python $(sed -n 's/^python=//p' <<<"$probe"), torch $(sed -n 's/^torch=//p' \
      <<<"$probe"), torchvision $TORCHVISION"
  fi
  say "nvcc: $(nvcc --version 2>/dev/null | grep -o 'release [0-9.]*' || echo absent);" \
    "compute-sanitizer: ${SANITIZER:-absent}"
  [ -n "$MISSING" ] && say "missing Python packages: $MISSING (pip install -r" \
    "requirements.txt, or GPU_CHECK_WHEELS=a folder of their wheels)"
  say "budget: ${BUDGET} s"
  say ""
}

# The modules of requirements.txt's packages that this Python cannot import;
# torch aside (the probe says what of it is here) and pytest-xdist aside (the
# suite here runs in one process: its tests share the GPU).
missing_packages() {
  python - "$ROOT/requirements.txt" <<'EOF'
import importlib.util
import re
import sys
skip = {'torch', 'pytest-xdist'}
names = [re.split(r'[<>=!~;\[ ]', line.split('#')[0].strip())[0] for line in open(sys.argv[1])]
print(' '.join(n for n in names if n and n not in skip and importlib.util.find_spec(n) is None))
EOF
}

# Why the CUDA steps cannot run here, or nothing when they can.
why_not() {
  if [ -n "$TORCH_ERROR" ]; then
    echo "torch is not importable"
  elif [ "$GPU" != 1 ] && [ "$CPU_BUILD" = 1 ]; then
    echo "no CUDA GPU visible to torch: a CPU build of torch"
  elif [ "$GPU" != 1 ]; then
    echo "no CUDA GPU visible to torch"
  elif [ -n "$MISSING" ]; then
    echo "missing Python packages: $MISSING"
  elif [ "$TOOLKIT" != 1 ]; then
    echo "no CUDA toolkit (nvcc) found"
  fi
}

# Step 1a. The demo (thffi's kernels included) for the visible GPUs'
# architectures only, the examples by their make.sh, then test.py, which must print OK for
# cpu and cuda.  TORCH_CUDA_ARCH_LIST stays exported: the suite's builds use it.
step_build() {
  local reason t
  reason=$(why_not)
  if [ -n "$reason" ]; then
    say "step 1 build and test.py: skipped ($reason)"
    return
  fi
  export TORCH_CUDA_ARCH_LIST=$ARCH
  t=$SECONDS
  if ! run_logged build.log "$(limit 240 "$SUITE_RESERVE")" python build.py ||
    ! run_logged build.log "$(limit 120 "$SUITE_RESERVE")" bash examples/roi_pooling/make.sh ||
    ! run_logged build.log "$(limit 120 "$SUITE_RESERVE")" bash examples/nms/make.sh; then
    say "step 1 build: FAILED (TORCH_CUDA_ARCH_LIST=$ARCH; see build.log.gz)"
    FAILED=1
    BUILT=0
    return
  fi
  BUILT=1
  say "step 1 build: ok (TORCH_CUDA_ARCH_LIST=$ARCH, demo and examples, $((SECONDS - t)) s)"
  run_logged build.log "$(limit 60 "$SUITE_RESERVE")" python test.py
  local oks
  oks=$(grep -o '^OK ([a-z]*)' "$OUTDIR/build.log" | paste -sd ' ')
  if grep -q '^OK (cpu)' "$OUTDIR/build.log" && grep -q '^OK (cuda)' "$OUTDIR/build.log"; then
    say "step 1 test.py: ok ($oks)"
  else
    say "step 1 test.py: FAILED (printed: ${oks:-no OK line}; see build.log.gz)"
    FAILED=1
  fi
}

# Step 1c. thffi/tests/thc_sparse, built as 2018's README ran build.py (through
# `python -m thffi`, which provides torch.utils.ffi), then each of its
# legacy cuSPARSE calls against PyTorch's dense result.  Needs cuSPARSE: the
# toolkit's, or pip's wheel (a CUDA build of PyTorch brings it).
step_cusparse() {
  local reason=${1:-} t results
  if [ -n "$reason" ]; then
    say "step 1c legacy cuSPARSE: skipped ($reason)"
    return
  fi
  if ! python -c 'import sys; from thffi.toolchain import cuda_toolkit as cuda
sys.exit(cuda.find_library("cusparse", cuda.find_cuda_home()) is None)' 2>/dev/null; then
    say "step 1c legacy cuSPARSE: skipped (no cuSPARSE in the toolkit or pip's wheels)"
    return
  fi
  t=$SECONDS
  if ! run_logged build.log "$(limit 120 "$SUITE_RESERVE")" python -m thffi \
    thffi/tests/thc_sparse/build.py; then
    say "step 1c legacy cuSPARSE: build FAILED (see build.log.gz)"
    FAILED=1
    return
  fi
  results=$(timeout "$(limit 60 "$SUITE_RESERVE")" python - 2>>"$OUTDIR/build.log" <<'PY'
import sys
sys.path.insert(0, 'thffi/tests/thc_sparse')
import check_sparse
results = check_sparse.results(check_sparse.load())
print(' '.join('%s:%s' % (call.split()[0], 'ok' if ok else 'MISMATCH')
               for call, ok in results.items()))
PY
  )
  if [ -n "$results" ] && ! grep -q MISMATCH <<<"$results"; then
    say "step 1c legacy cuSPARSE: ok (built in $((SECONDS - t)) s; $results)"
  else
    say "step 1c legacy cuSPARSE: FAILED (${results:-no result; see build.log.gz})"
    FAILED=1
  fi
}

# Step 2. The torchvision comparisons (CPU and CUDA) as pytest tests.
step_torchvision() {
  local reason=${1:-} status counts
  if [ -n "$reason" ]; then
    say "step 2 torchvision comparisons: skipped ($reason)"
    return
  fi
  case $TORCHVISION in
    absent*)
      say "step 2 torchvision comparisons: skipped (torchvision $TORCHVISION)"
      return
      ;;
  esac
  run_logged torchvision.log "$(limit 150 "$SUITE_RESERVE")" python -m pytest -v -rfEs \
    -p no:cacheprovider tests/test_examples_torchvision.py
  status=$?
  counts=$(pytest_counts "$OUTDIR/torchvision.log")
  say "step 2 torchvision comparisons: $counts (exit $status)"
  [ "$status" = 0 ] || FAILED=1
}

# Step 3. tools/gpu_calls.py under memcheck (PyTorch's caching allocator off,
# so that each tensor is an allocation of its own and an access past it is
# seen) and under racecheck; the error count of each from the sanitizer's
# ERROR SUMMARY line.
step_sanitizer() {
  local reason=${1:-} tool status errors line uncached
  if [ -n "$reason" ]; then
    say "step 3 compute-sanitizer: skipped ($reason)"
    return
  fi
  if [ -z "$SANITIZER" ]; then
    say "step 3 compute-sanitizer: skipped (compute-sanitizer not found on PATH or in" \
      "${CUDA_HOME:-/usr/local/cuda}/bin)"
    return
  fi
  for tool in memcheck racecheck; do
    echo "=== $tool" >>"$OUTDIR/sanitizer.log"
    uncached=()
    [ "$tool" = memcheck ] && uncached=(env PYTORCH_NO_CUDA_MEMORY_CACHING=1)
    run_logged sanitizer.log "$(limit 150 "$SUITE_RESERVE")" "${uncached[@]}" "$SANITIZER" \
      --tool "$tool" --print-limit 50 python tools/gpu_calls.py
    status=$?
    line=$(sed -n "/^=== $tool/,\$p" "$OUTDIR/sanitizer.log" |
      grep -Eo 'ERROR SUMMARY: [0-9]+ errors?' | tail -n 1)
    errors=$(grep -Eo '[0-9]+' <<<"$line")
    if [ -z "$errors" ]; then
      say "step 3 compute-sanitizer $tool: FAILED (no ERROR SUMMARY; exit $status;" \
        "see sanitizer.log.gz)"
      FAILED=1
    else
      say "step 3 compute-sanitizer $tool: $errors errors (gpu_calls.py exit $status)"
      [ "$errors" = 0 ] && [ "$status" = 0 ] || FAILED=1
    fi
  done
}

# Step 4. The benchmark's GPU rows and targets, copied into the summary.
step_bench() {
  local reason=${1:-}
  if [ -n "$reason" ]; then
    say "step 4 benchmark GPU rows: skipped ($reason)"
    return
  fi
  if run_logged bench.log "$(limit 120 "$SUITE_RESERVE")" python bench/bench.py --gpu; then
    say "step 4 benchmark GPU rows (python bench/bench.py --gpu):"
    sed -n '/^GPU: /,$p' "$OUTDIR/bench.log" | tee -a "$OUTDIR/summary.txt"
  else
    say "step 4 benchmark GPU rows: FAILED (see bench.log.gz)"
    FAILED=1
  fi
}

# Step 1b. The whole suite (but the comparisons of step 2, already run), in
# the time left; interrupted at the budget, pytest still reports.
step_suite() {
  local reason=${1:-} status counts seconds
  if [ -n "$reason" ]; then
    say "step 1 test suite: skipped ($reason)"
    return
  fi
  seconds=$(left 15)
  if ((seconds < 60)); then
    say "step 1 test suite: skipped (only $seconds s of the budget left)"
    FAILED=1
    return
  fi
  # shellcheck disable=SC2086  # GPU_CHECK_PYTEST_ARGS is a list of arguments
  run_logged suite.log "$seconds" timeout -s INT "$((seconds - 25))" python -m pytest -v -rfEs \
    -p no:cacheprovider tests thffi/tests --ignore=tests/test_examples_torchvision.py ${GPU_CHECK_PYTEST_ARGS:-}
  status=$?
  counts=$(pytest_counts "$OUTDIR/suite.log")
  if [ "$status" = 124 ] || grep -q 'KeyboardInterrupt' "$OUTDIR/suite.log"; then
    counts="$counts, STOPPED at the budget ($((seconds - 25)) s): not every test ran"
  fi
  say "step 1 test suite: $counts (exit $status)"
  [ "$status" = 0 ] || FAILED=1
}

# Step 5. Logs gzipped (cut to their first and last CUT_BYTES / 2 bytes
# when larger, and the gzip to its first MAX_BYTES if still too large), then
# the limits checked and stated.
finish() {
  local log files count big
  for log in "${LOGS[@]}"; do
    [ -f "$OUTDIR/$log" ] || continue
    if [ "$(stat -c %s "$OUTDIR/$log")" -gt "$CUT_BYTES" ]; then
      { head -c $((CUT_BYTES / 2)) "$OUTDIR/$log"
        printf '\n... (cut by gpu_check.sh) ...\n'
        tail -c $((CUT_BYTES / 2)) "$OUTDIR/$log"; } >"$WORK/cut"
      mv "$WORK/cut" "$OUTDIR/$log"
      say "note: $log cut to its first and last $((CUT_BYTES / 2)) bytes"
    fi
    gzip -9f "$OUTDIR/$log"
    if [ "$(stat -c %s "$OUTDIR/$log.gz")" -gt "$MAX_BYTES" ]; then
      head -c "$MAX_BYTES" "$OUTDIR/$log.gz" >"$WORK/cut" && mv "$WORK/cut" "$OUTDIR/$log.gz"
      say "note: $log.gz cut to its first $MAX_BYTES bytes"
    fi
  done
  files=$(find "$OUTDIR" -type f -printf '%f\n' | sort | paste -sd ' ')
  count=$(find "$OUTDIR" -type f | wc -l)
  big=$(find "$OUTDIR" -type f -size +"$MAX_BYTES"c -printf '%f ')
  say ""
  local limits="limit 8, each under $MAX_BYTES bytes${big:+; TOO LARGE: $big}"
  say "files: $((count + 0)) under $OUTDIR ($limits): $files"
  ((count <= 8)) && [ -z "$big" ] || FAILED=1
  say "time: $((SECONDS - START)) s of the ${BUDGET} s budget"
  if [ "$FAILED" = 0 ]; then
    say "verdict: ok (every step that ran succeeded)"
  else
    say "verdict: FAILED (see the steps above)"
  fi
}

main() {
  OUTDIR=${1:-gpu_check_out}
  mkdir -p "$OUTDIR" || exit 1
  OUTDIR=$(cd "$OUTDIR" && pwd)
  WHEELS=${GPU_CHECK_WHEELS:+$(cd "$GPU_CHECK_WHEELS" && pwd)}
  rm -f "$OUTDIR/summary.txt"
  local log
  for log in "${LOGS[@]}"; do rm -f "$OUTDIR/$log" "$OUTDIR/$log.gz"; done
  TORCH_ERROR=
  BUILT=0
  prepare
  step_build
  local reason
  reason=$(why_not)
  step_cusparse "$reason"
  [ -z "$reason" ] && [ "$BUILT" != 1 ] && reason="the build failed"
  step_torchvision "$reason"
  step_sanitizer "$reason"
  step_bench "$reason"
  step_suite "$reason"
  finish
  exit "$FAILED"
}

# Sourced (the tests do, to check a step's parsing), it only defines.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  main "$@"
fi
