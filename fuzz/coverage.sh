#!/usr/bin/env bash
# Measures what the structure-aware mutator adds to graph_validator:
#
#   fuzz/coverage.sh [SECONDS] [SEEDS_DIR]      (defaults: 180, corpus/valid)
#
# 1. builds graph_validator (nightly, as fuzz/run.sh does) and copies
#    SEEDS_DIR into two temporary corpora;
# 2. fuzzes each for SECONDS with -jobs=1 from the same seeds: first with
#    SPVGRAPH_FUZZ_MUTATOR=0 (libFuzzer's byte mutation only), then with the
#    mutator (fuzz_targets/graph_validator.rs);
# 3. replays each resulting corpus with `cargo +nightly fuzz coverage` and
#    reports regions and lines covered by `llvm-cov report`, restricted to
#    the project's own sources (the registry, std and rustc are left out).
#
# Prints one table row per run: corpus size, exec/s, executions, covered
# regions and lines (all project sources, then the validator alone,
# oracle/src/validate, the code that reads the input as a module). Also
# reports the seeds alone (0 s of fuzzing) as the baseline. Needs a nightly toolchain with the llvm-tools component
# (`rustup component add llvm-tools --toolchain nightly`) and cargo-fuzz.
# The machine's load is printed too: the exec/s figures depend on it.
# KEEP=1 keeps the temporary directory (corpora, logs, profiles);
# REPLAY=DIR measures the corpora and logs a KEEP=1 run left in DIR again,
# without fuzzing.
set -euo pipefail

seconds=${1:-180}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seeds=${2:-$root/corpus/valid}
cd "$root/fuzz"

sysroot=$(rustc +nightly --print sysroot)
llvm_bin=$(ls -d "$sysroot"/lib/rustlib/*/bin 2>/dev/null | head -1)
if [[ ! -x "$llvm_bin/llvm-cov" ]]; then
    echo "llvm-cov missing: rustup component add llvm-tools --toolchain nightly" >&2
    exit 2
fi

if [[ -n "${REPLAY:-}" ]]; then
    work=$REPLAY
elif work=$(mktemp -d) && [[ -z "${KEEP:-}" ]]; then
    trap 'rm -rf "$work"' EXIT
else
    echo "keeping $work" >&2
fi

cargo +nightly fuzz build graph_validator >&2
triple=$(rustc +nightly -vV | sed -n 's/^host: //p')
fuzzer="$root/fuzz/target/$triple/release/graph_validator"

echo "load before: $(uptime)" >&2
declare -A rate runs
for mode in seeds bytes mutator; do
    if [[ -z "${REPLAY:-}" ]]; then
        mkdir -p "$work/$mode/corpus" "$work/$mode/run"
        cp -r "$seeds"/. "$work/$mode/corpus/"
    fi
    [[ $mode == seeds ]] && continue
    mutator=1
    [[ $mode == bytes ]] && mutator=0
    # -jobs=1 runs one worker process; its log is fuzz-0.log in the cwd.
    if [[ -z "${REPLAY:-}" ]]; then
        echo "fuzzing ${seconds}s, SPVGRAPH_FUZZ_MUTATOR=$mutator" >&2
        (cd "$work/$mode/run" && SPVGRAPH_FUZZ_MUTATOR=$mutator "$fuzzer" "$work/$mode/corpus" \
            -jobs=1 -max_total_time="$seconds" -max_len=65536 -print_final_stats=1 \
            -artifact_prefix="$work/$mode/run/" >/dev/null 2>&1) || true
    fi
    log="$work/$mode/run/fuzz-0.log"
    rate[$mode]=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || echo '?')
    runs[$mode]=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || echo '?')
    if ls "$work/$mode/run/" | grep -qE '^(crash|timeout|oom|leak)-'; then
        echo "the $mode run left artifacts in $work/$mode/run (KEEP=1 keeps them)" >&2
    fi
    if [[ -z "${REPLAY:-}" ]]; then
        echo "load after: $(uptime)" >&2
    fi
done

printf '| run | corpus files | exec/s | executions | regions covered | lines covered | validator regions | validator lines |\n'
printf '|---|---|---|---|---|---|---|---|\n'
for mode in seeds bytes mutator; do
    # cargo fuzz merges every raw profile left in coverage/TARGET/raw, also
    # those of an earlier corpus: start each replay from an empty directory.
    rm -rf "$root/fuzz/coverage/graph_validator"
    if ! cargo +nightly fuzz coverage graph_validator "$work/$mode/corpus" >"$work/$mode/coverage.log" 2>&1; then
        echo "coverage replay of the $mode corpus failed:" >&2
        tail -20 "$work/$mode/coverage.log" >&2
        exit 1
    fi
    profile="$root/fuzz/coverage/graph_validator/coverage.profdata"
    binary="$root/fuzz/target/$triple/coverage/$triple/release/graph_validator"
    report() {
        "$llvm_bin/llvm-cov" report "$binary" -instr-profile="$profile" \
            -ignore-filename-regex='/\.cargo/registry/|/\.cargo/git/|/rustc/|/\.rustup/|/library/std/' "$@" | tail -1
    }
    # TOTAL regions missed cover% functions missed exec% lines missed cover% [branches ...]
    read -r _ regions rmissed rcover _ _ _ lines lmissed lcover _ <<<"$(report)"
    read -r _ vregions vrmissed vrcover _ _ _ vlines vlmissed vlcover _ <<<"$(report "$root/oracle/src/validate")"
    files=$(find "$work/$mode/corpus" -type f | wc -l)
    seconds_label=$seconds
    [[ $mode == seeds ]] && seconds_label=0
    printf '| %s (%ss) | %s | %s | %s | %s of %s (%s) | %s of %s (%s) | %s of %s (%s) | %s of %s (%s) |\n' \
        "$mode" "$seconds_label" "$files" "${rate[$mode]:--}" "${runs[$mode]:--}" \
        $((regions - rmissed)) "$regions" "$rcover" $((lines - lmissed)) "$lines" "$lcover" \
        $((vregions - vrmissed)) "$vregions" "$vrcover" $((vlines - vlmissed)) "$vlines" "$vlcover"
done
