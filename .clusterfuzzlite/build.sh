#!/bin/bash -eu
# Builds every cargo-fuzz target of fuzz/ into $OUT, with a seed corpus per
# target as $OUT/<target>_seed_corpus.zip (the OSS-Fuzz convention).
#
# Run by ClusterFuzzLite (and OSS-Fuzz) inside the image of ./Dockerfile,
# which sets $SRC (the checkout is $SRC/spvgraph) and $OUT, and runs this
# with the sanitizer's flags in the environment. Without Docker, run it on
# a checkout with a nightly toolchain:
#   SRC=$(mktemp -d) OUT=$(mktemp -d); ln -s "$PWD" "$SRC/spvgraph"
#   RUSTUP_TOOLCHAIN=nightly SRC=$SRC OUT=$OUT bash .clusterfuzzlite/build.sh
# (.clusterfuzzlite/check.sh does exactly that and checks the result.)

cd "$SRC/spvgraph"

# -O: optimised, as fuzzing wants; cargo fuzz picks the sanitizer and the
# coverage instrumentation from the flags the base image sets.
cargo fuzz build -O

built=fuzz/target/x86_64-unknown-linux-gnu/release

for target in $(cargo fuzz list); do
    cp "$built/$target" "$OUT/$target"
    # Seeds: the target's own, and for targets that read modules, every
    # module of the regression corpus.
    seeds=$(mktemp -d)
    if [[ -d "fuzz/seeds/$target" ]]; then
        cp fuzz/seeds/"$target"/* "$seeds"/
    fi
    case "$target" in
        roundtrip|graph_validator|execute)
            find corpus -name '*.spv' -exec cp {} "$seeds"/ \;
            ;;
    esac
    rm -f "$OUT/${target}_seed_corpus.zip"
    (cd "$seeds" && zip -q -j "$OUT/${target}_seed_corpus.zip" ./*)
    rm -rf "$seeds"
done
