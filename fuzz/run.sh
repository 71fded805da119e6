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
# Environment: FUZZ_TOOLCHAIN=stable|nightly forces the choice.
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

corpus="fuzz/corpus/$target"
mkdir -p "$corpus" "fuzz/artifacts/$target"
# -n: keep whatever earlier runs added (and never clobber a minimised entry).
cp -n "fuzz/seeds/$target"/* "$corpus"/ 2>/dev/null || true

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
status=0
if [[ "$toolchain" == nightly ]]; then
    cargo +nightly fuzz run "$target" "$corpus" -- "${flags[@]}" "$@" || status=$?
else
    RUSTC_BOOTSTRAP=1 cargo fuzz run -s none "$target" "$corpus" -- "${flags[@]}" "$@" || status=$?
fi

if [[ $status -ne 0 ]]; then
    echo "fuzz target $target failed (exit $status); artifacts in fuzz/artifacts/$target/:" >&2
    ls -1 "fuzz/artifacts/$target" >&2 || true
fi
exit "$status"
