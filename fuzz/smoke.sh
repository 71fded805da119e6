#!/usr/bin/env bash
# CI's fuzz smoke runs, reproducible:  fuzz/smoke.sh [TARGET...]
#
# Each target starts from a fresh copy of its checked-in seeds
# (fuzz/seeds/TARGET, which hold every crash ever found, so each is replayed
# first) and runs a fixed number of executions with a fixed libFuzzer seed,
# one thread for rayon (its work stealing would otherwise make coverage, and
# so the run, depend on timing). The same commit therefore gives the same
# runs, the same coverage and the same verdict on every machine: a CI run
# fails only on a bug the run can find every time, never on luck.
#
# Open-ended exploration (random seed, fixed time) stays with fuzz/run.sh,
# the nightly workflow and ClusterFuzzLite's batch jobs; a crash they find
# becomes a seed here and a regression test.
#
# Environment: SPVGRAPH_SMOKE_SEED (default 1) and SPVGRAPH_SMOKE_SCALE (a
# factor on every run count, default 1) change the runs on purpose.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

# Executions per target: about 20-30 s each on one core with ASan (the rates
# measured in the README's figures), as the time-limited runs had.
declare -A RUNS=(
    [graph_validator]=25000
    [roundtrip]=60000
    [execute]=40000
    [differential]=2500
)
seed=${SPVGRAPH_SMOKE_SEED:-1}
scale=${SPVGRAPH_SMOKE_SCALE:-1}

targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
    for f in fuzz/fuzz_targets/*.rs; do targets+=("$(basename "$f" .rs)"); done
fi

status=0
for t in "${targets[@]}"; do
    runs=${RUNS[$t]:-}
    if [[ -z "$runs" ]]; then
        echo "smoke: no run count for target $t: add it to RUNS in $0" >&2
        exit 2
    fi
    runs=$(awk -v r="$runs" -v s="$scale" 'BEGIN { printf "%d", r * s }')
    corpus=$(mktemp -d)
    cp "fuzz/seeds/$t"/* "$corpus"/
    # A generous time cap only guards against a hang: a run that reaches it
    # has not done its executions, which the summary line shows.
    if ! RAYON_NUM_THREADS=1 FUZZ_CORPUS="$corpus" bash fuzz/run.sh "$t" 1800 "-seed=$seed" "-runs=$runs"; then
        status=1
    fi
    rm -rf "$corpus"
done
exit "$status"
