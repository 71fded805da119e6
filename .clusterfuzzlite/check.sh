#!/usr/bin/env bash
# Checks build.sh without Docker: runs it with $SRC and $OUT set to
# temporary directories (the checkout linked in as $SRC/spvgraph), then
# checks that every cargo-fuzz target is in $OUT with its seed corpus and
# runs each built target once over its seeds (-runs=0: every seed executed,
# no fuzzing).
#
#   bash .clusterfuzzlite/check.sh
#
# Needs cargo-fuzz and a nightly toolchain (RUSTUP_TOOLCHAIN=nightly is set
# here, as the base image does). The first build of the targets takes minutes.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src" "$work/out"
ln -s "$root" "$work/src/spvgraph"

SRC="$work/src" OUT="$work/out" RUSTUP_TOOLCHAIN="${RUSTUP_TOOLCHAIN:-nightly}" bash "$root/.clusterfuzzlite/build.sh"

cd "$root"
status=0
for target in $(RUSTUP_TOOLCHAIN="${RUSTUP_TOOLCHAIN:-nightly}" cargo fuzz list); do
    bin="$work/out/$target"
    zip="$work/out/${target}_seed_corpus.zip"
    if [[ ! -x "$bin" ]]; then
        echo "check: $target is not in \$OUT" >&2
        status=1
        continue
    fi
    if ! n=$(unzip -Z1 "$zip" 2>/dev/null | wc -l) || [[ "$n" -eq 0 ]]; then
        echo "check: $target has no seed corpus" >&2
        status=1
        continue
    fi
    seeds="$work/seeds-$target"
    mkdir -p "$seeds"
    unzip -q "$zip" -d "$seeds"
    if "$bin" -runs=0 "$seeds" >"$work/$target.log" 2>&1; then
        echo "check: $target: built, $n seeds, all run" >&2
    else
        echo "check: $target fails on its seeds:" >&2
        tail -20 "$work/$target.log" >&2
        status=1
    fi
done
exit "$status"
