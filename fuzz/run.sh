#!/usr/bin/env bash
# Runs one fuzz target for a fixed time:  fuzz/run.sh TARGET SECONDS [libFuzzer flags...]
#
# - Seeds fuzz/corpus/TARGET (git-ignored, and where libFuzzer writes the new
#   inputs it finds) from the checked-in fuzz/seeds/TARGET.
# - Uses a nightly toolchain with AddressSanitizer when rustup has one;
#   otherwise stable with RUSTC_BOOTSTRAP=1 (cargo fuzz passes -Z flags) and
#   no sanitizer (`-s none`: -Zsanitizer needs a nightly std). Safe Rust code
#   gains little from ASan, so the stable run still checks every property.
# - Exits non-zero when the fuzzer finds a crash (panic, abort, stack
#   overflow), timeout or OOM; the input is saved under fuzz/artifacts/TARGET/
#   and `cd fuzz && cargo test` replays it.
#
# Extra arguments go to libFuzzer, e.g. `fuzz/run.sh roundtrip 60 -jobs=2`.
# Environment: FUZZ_TOOLCHAIN=stable|nightly forces the choice;
# FUZZ_CORPUS=DIR fuzzes from DIR instead of fuzz/corpus/TARGET (e.g.
# corpus/valid: libFuzzer then adds its new inputs there, so copy it first);
# for graph_validator, SPVGRAPH_FUZZ_SPIRV_VAL=0|FRACTION (default 0.1) and
# SPVGRAPH_FUZZ_MUTATOR=0 (byte mutation only) are read by the target.
#
# The last line printed sums the run up: exec/s (libFuzzer's
# average_exec_per_sec), executions, and the settings that change the rate.
set -euo pipefail

if [[ $# -lt 2 ]]; then
    echo "usage: $0 TARGET SECONDS [libFuzzer flags...]" >&2
    exit 2
fi
target=$1
seconds=$2
shift 2

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

if ! command -v cargo-fuzz >/dev/null 2>&1; then
    echo "cargo-fuzz is not installed: cargo install cargo-fuzz --locked" >&2
    exit 2
fi
if [[ ! -d "fuzz/seeds/$target" ]]; then
    echo "no seed corpus fuzz/seeds/$target (targets: $(ls fuzz/seeds | tr '\n' ' '))" >&2
    exit 2
fi

corpus=${FUZZ_CORPUS:-fuzz/corpus/$target}
mkdir -p "$corpus" "fuzz/artifacts/$target"
if [[ -z "${FUZZ_CORPUS:-}" ]]; then
    # -n: keep whatever earlier runs added (and never clobber a minimised entry).
    cp -n "fuzz/seeds/$target"/* "$corpus"/ 2>/dev/null || true
fi

toolchain=${FUZZ_TOOLCHAIN:-}
if [[ -z "$toolchain" ]]; then
    if command -v rustup >/dev/null 2>&1 && rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
        toolchain=nightly
    else
        toolchain=stable
    fi
fi

flags=(
    "-max_total_time=$seconds"
    "-artifact_prefix=fuzz/artifacts/$target/"
    # Bounded inputs keep exec/s high; SPIR-V structure shows up in small modules.
    "-max_len=65536"
    # -print_final_stats gives the exec/s line that people quote.
    "-print_final_stats=1"
)

echo "fuzzing $target for ${seconds}s with $toolchain (corpus $corpus)" >&2
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
if [[ "$toolchain" == nightly ]]; then
    cargo +nightly fuzz run "$target" "$corpus" -- "${flags[@]}" "$@" 2> >(tee "$log" >&2) || status=$?
else
    RUSTC_BOOTSTRAP=1 cargo fuzz run -s none "$target" "$corpus" -- "${flags[@]}" "$@" 2> >(tee "$log" >&2) || status=$?
fi
wait
rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)
runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)
# The coverage libFuzzer reached: edges (cov) and features (ft) of its last status line.
cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -1 || true)
echo "summary: $target ${rate:-?} exec/s, ${runs:-?} executions, ${cov:-cov: ?} (at most ${seconds}s; $toolchain;" \
    "spirv-val fraction ${SPVGRAPH_FUZZ_SPIRV_VAL:-default}; mutator ${SPVGRAPH_FUZZ_MUTATOR:-on})" >&2

if [[ $status -ne 0 ]]; then
    echo "fuzz target $target failed (exit $status); artifacts in fuzz/artifacts/$target/:" >&2
    ls -1 "fuzz/artifacts/$target" >&2 || true
fi
exit "$status"
