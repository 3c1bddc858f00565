# bench/pin.sh, sourced by bench/run and bench/isa/run: the same CPU binding
# for every library a benchmark compares, so that a ratio does not measure
# the scheduler. `pinned THREADS COMMAND...` runs COMMAND on the last THREADS
# CPUs this process may use (taskset) with OpenMP threads bound one per core
# (OMP_PROC_BIND=close, OMP_PLACES=cores: risec's OpenMP kernels and
# OpenBLAS's OpenMP build both run on libgomp). An unpinned single-threaded
# run on an idle 16-core machine measured 63 GFLOP/s against 131 pinned, for
# the same function in the same minute (issue 14). BENCH_PIN=0, or a machine
# without taskset, runs COMMAND as it is.
bench_cpus=()
if [ "${BENCH_PIN:-1}" != 0 ] && command -v taskset > /dev/null; then
  # the allowed list, e.g. "0-3,8,10-11", expanded
  for range in $(taskset -pc $$ | sed 's/.*: //' | tr ',' ' '); do
    if [[ "$range" == *-* ]]; then
      for ((c = ${range%-*}; c <= ${range#*-}; ++c)); do bench_cpus+=("$c"); done
    else
      bench_cpus+=("$range")
    fi
  done
fi
pinned() { # pinned THREADS COMMAND...
  local threads=$1
  shift
  if ((${#bench_cpus[@]} < threads || threads < 1)); then
    "$@"
    return
  fi
  local cpus
  cpus=$(IFS=,; echo "${bench_cpus[*]: -$threads}")
  OMP_PROC_BIND=close OMP_PLACES=cores taskset -c "$cpus" "$@"
}
bench_binding() { # a line for the report
  if ((${#bench_cpus[@]})); then
    echo "pinned: 1 thread on CPU ${bench_cpus[-1]}, 2 threads on the last two allowed CPUs (bench/pin.sh)"
  else
    echo "not pinned (BENCH_PIN=0 or no taskset)"
  fi
}
