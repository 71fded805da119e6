//! The notes (`corpus/findings/iree-*.md`) of IREE's findings.

pub(super) const SIN_NOTE: &str = "# IREE: SIN of large bf16 values is infinite

**Belongs to:** upstream MLIR (llvm-project). **Status:** open. The reproducer of `iree-sin-of-large-bf16.json` (`upstream.reproduce`) is run by `tests/it/upstream_reproducers.rs`.

IREE 3.13.0 (`iree-base-compiler`/`iree-base-runtime` 3.13.0, `llvm-cpu`) computes
`tosa.sin` of the bf16 tensor `[-1.97e38, -2.38e38, 1.93e38, -2.65e38]` as infinities.
The sine of any finite value lies in [-1, 1]; TOSA SIN's accuracy rule is an absolute
error bound, and the in-tree executor and the TOSA reference model give values in
[-1, 1] (the reference model's precise run: 0.71 for the first element). COS behaves the
same (the hunt found both).

Why: the bf16 input is widened to f32 and, on llvm-cpu, IREE's `iree-codegen-math-transform`
replaces `math.sin`/`math.cos` with upstream MLIR's polynomial approximation
(`populateMathPolynomialApproximationPatterns`, `SinAndCosApproximation` in
`mlir/lib/Dialect/Math/Transforms/PolynomialApproximation.cpp`). It reduces the argument in
one f32 step, `k = floor(x * 2/pi)`, `y = x - k * pi/2`, and evaluates a polynomial in `y`:
for `|x|` beyond about 2^24, `y` is a multiple of `ulp(x)` instead of a value in
`[0, pi/2)`, `y * y` overflows and the result is infinite. It is not bf16-specific: f32
`math.sin` compiled by IREE 3.13.0 for the host CPU gives `sin(1e10) = -6.02923E+21`, `sin(1e20) = -INF`.
Found by `spvgraph hunt` (inputs with values near the type's range), cut down by hand.

Reproduce:

    tosa-opt iree-sin-of-large-bf16.mlir --mlir-print-op-generic -o g.mlir
    iree-compile --iree-input-type=tosa --iree-hal-target-device=local \\
        --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=host g.mlir -o g.vmfb
    iree-run-module --module=g.vmfb --function=main --input='4xbf16=-1.97e38 -2.38e38 1.93e38 -2.65e38' --output=-

Seen: `4xbf16=INF INF -INF -INF`. In MLIR's own terms: `iree-sin-of-large-bf16.lit.mlir`
(for `mlir-opt --test-math-polynomial-approximation`; `upstream.reproduce_mlir` runs the
same upstream patterns through `iree-opt`'s `iree-codegen-math-transform`).
";

pub(super) const REDUCE_NOTE: &str = "# IREE: REDUCE_MAX of -inf values is -FLT_MAX, REDUCE_MIN of +inf values is FLT_MAX

**Belongs to:** IREE. **Status:** open. The reproducer of `iree-reduce-max-of-infinities.json` (`upstream.reproduce`) is run by `tests/it/upstream_reproducers.rs`.

IREE 3.13.0 (`iree-base-compiler`/`iree-base-runtime` 3.13.0, `llvm-cpu`) computes
`tosa.reduce_max` over an axis whose elements are all `-inf` as the lowest
*finite* value of the type (`-3.40282e+38` for fp32, `-65504` for fp16,
`-3.38953e+38` for bf16), and `tosa.reduce_min` over `+inf` values as the
largest finite value. `tosa.max_pool2d` over a window of `-inf` does the same.
TOSA defines the results as the maximum / minimum of the elements: `-inf` and
`+inf` (the TOSA reference model and spvgraph's executor agree). The
reduction's initial value is the type's finite extreme instead of the
infinity.

Found by the hunt through a CAST of large i32 values to fp16 (which overflow
to `-inf`, correctly) followed by REDUCE_MAX, NEGATE and RECIPROCAL: IREE
returned `2^-16` where the answer is `0`.

Module: `iree-reduce-max-of-infinities.spv` (`.mlir`), input
`[[-inf, inf, 1], [-inf, inf, 2]]`. Reproduce:

    tosa-opt iree-reduce-max-of-infinities.mlir --mlir-print-op-generic -o g.mlir
    iree-compile --iree-input-type=tosa --iree-hal-target-device=local \\
        --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=host g.mlir -o g.vmfb
    iree-run-module --module=g.vmfb --function=main --input='2x3xf32=-inf inf 1 -inf inf 2' --output=- --output=-

Expected: `1x3xf32=[-INF INF 2]` and `1x3xf32=[-INF INF 1]`.
Seen: `1x3xf32=[-3.40282E+38 INF 2]` and `1x3xf32=[-INF 3.40282E+38 1]`.
Whose bug: IREE. The MLIR that IREE 3.13.0 links has the conforming lowering behind an
option: `tosa-to-linalg` and `tosa-to-linalg-named` take `allow-non-finites`, which seeds
float min/max reductions (and MAX_POOL2D) with the infinity TOSA mandates; off by
default, the largest finite value is used (llvm/llvm-project#222140 added it and keeps
that default on purpose, for formats and targets without infinities). IREE's TOSA input
pipeline (`compiler/plugins/input/TOSA/InputConversion/Passes.cpp`) never sets it:
`iree-opt --iree-tosa-input-transformation-pipeline --dump-pass-pipeline g.mlir -o /dev/null`
lists `tosa-to-linalg{... allow-non-finites=false ...}` and
`tosa-to-linalg-named{allow-non-finites=false ...}`. The option fixes it:

    iree-opt --pass-pipeline='builtin.module(func.func(tosa-to-linalg{allow-non-finites}))' g.mlir -o l.mlir
    iree-compile --iree-hal-target-device=local --iree-hal-local-target-device-backends=llvm-cpu \\
        --iree-llvmcpu-target-cpu=host l.mlir -o l.vmfb
    iree-run-module --module=l.vmfb --function=main --input='2x3xf32=-inf inf 1 -inf inf 2' --output=- --output=-

gives `[-INF INF 2]` and `[-INF INF 1]` (without `{allow-non-finites}`, the finite values
above).
`oracle/tests/it/external_findings/iree.rs` checks that it still reproduces.
";

pub(super) const I48_NOTE: &str = "# IREE: a negative i48 constant becomes a large positive i64

**Belongs to:** IREE. **Status:** open. The reproducer of `iree-negative-i48-constant.json` (`upstream.reproduce`) is run by `tests/it/upstream_reproducers.rs`.

IREE 3.13.0 (`llvm-cpu`) zero-extends the values of an i48 constant
(`dense<-3> : tensor<1xi48>`, here the bias of an EXT-INT16 CONV2D: i16 input,
i8 weights, i48 accumulator and result) to its 64-bit storage: the bias
`-3` is used as `2^48 - 3`. The graph computes `-5 * 1 + 0 * 1 + (-3)`:
expected `-8`, IREE returns `281474976710648` (`2^48 - 8`). An i48 bias given
as a graph *input* is handled correctly (the input `-3` gives `-8`), as are
negative i48 results of a MATMUL.

Found by the hunt: CONV3D and CONV2D with negative constant i48 biases
returned `2^48 + x`. (An earlier version of this note said a RESCALE of such a
result then differed: it does not reproduce; the low 48 bits are right, and a RESCALE
of the CONV2D result to i32 gives `-8` with IREE 3.13.0.)

Module: `iree-negative-i48-constant.spv` (`.mlir`), inputs
`x = [-5, 0]` (i16), `w = [1, 1]` (i8). Reproduce:

    tosa-opt iree-negative-i48-constant.mlir --mlir-print-op-generic -o g.mlir
    iree-compile --iree-input-type=tosa --iree-hal-target-device=local \\
        --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=host g.mlir -o g.vmfb
    iree-run-module --module=g.vmfb --function=main --input='1x1x1x2xi16=-5 0' --input='1x1x1x2xi8=1 1' --output=-

Expected: `1x1x1x1xi64=[[[-8]]]`. Seen: `1x1x1x1xi64=[[[281474976710648]]]`.
Whose bug: IREE: its own pass `iree-tosa-convert-i48-to-i64` zero-extends the
constant (`iree-opt --pass-pipeline='builtin.module(func.func(iree-tosa-convert-i48-to-i64))'`
turns `dense<-3> : tensor<1xi48>` into `dense<281474976710653> : tensor<1xi64>`).
";

pub(super) const FFT_NOTE: &str = "# IREE: FFT2D with one result transposed does not compile

**Belongs to:** IREE. **Status:** open. The reproducer of `iree-fft2d-transposed-result.json` (`upstream.reproduce`) is run by `tests/it/upstream_reproducers.rs`.

IREE 3.13.0 (`llvm-cpu`) fails to compile a graph in which one result of
`tosa.fft2d` is returned as it is and the other goes through a
`tosa.transpose` that moves data (`perms = [0, 2, 1]` here):

    error: 'linalg.yield' op expected number of yield values (2) to match the
    number of inits / outs operands of the enclosing LinalgOp (1)

The graph is valid TOSA 1.0 (EXT-FFT); with the transpose removed, or with
either result alone, it compiles. IREE's own fusion of the two-result FFT
`linalg.generic` with the transpose builds an invalid operation: the failing
pass is `iree-global-opt-propagate-linalg-transpose` (`--mlir-print-ir-after-all`
ends with it), which folds the transpose into the producer and keeps one of
its two inits; `--iree-global-opt-propagate-transposes=false` makes it compile.
ARGMAX lowers to a two-result `linalg.generic` too (the index and the running
maximum), and an ARGMAX whose result is transposed fails the same way (found by
a hunt: `tosa.argmax(2x3x4xf32, axis 0)` then `tosa.transpose` with
`perms = [1, 0]`).

Module: `iree-fft2d-transposed-result.spv` (`.mlir`). Reproduce:

    tosa-opt iree-fft2d-transposed-result.mlir --mlir-print-op-generic -o g.mlir
    iree-compile --iree-input-type=tosa --iree-hal-target-device=local \\
        --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=host g.mlir -o g.vmfb

Expected: a module. Seen: the error above, exit status 1. Whose bug: IREE
(dispatch-region formation / fusion). The spvgraph adapter reports it as
`Refused { Rejected }` (a finding, not `Unsupported`).
";

pub(super) const TRANSPOSE_CONV_NOTE: &str = "# IREE: strided TRANSPOSE_CONV2D with int16 input (EXT-INT16) does not compile

**Belongs to:** upstream MLIR (llvm-project). **Status:** open. The reproducer of `iree-transpose-conv2d-int16-stride.json` (`upstream.reproduce`) is run by `tests/it/upstream_reproducers.rs`.

IREE 3.13.0 rejects a valid `tosa.transpose_conv2d` with i16 input, i8
weights and an i48 accumulator (`acc_type = i48`, the EXT-INT16 row) when a
stride is greater than 1:

    error: 'tosa.reshape' op illegal: operation operand/result data types did not
    align with any profile or extension, got (i48,i48)

The input has no RESHAPE: upstream MLIR's `tosa-optional-decompositions`
(`TosaDecomposeTransposeConv.cpp`), which IREE runs, decomposes the strided transpose
convolution into a CONV2D followed by RESHAPE, TRANSPOSE, SLICE and ADD on the i48
result (and an i48 RESHAPE of the bias), then upstream's `tosa-validate` rejects the
i48 RESHAPE, SLICE and ADD it made (TOSA has none of them on i48). With stride 1, or with
i8 input (i32 accumulator), it compiles. In MLIR's own terms:
`iree-transpose-conv2d-int16-stride.lit.mlir` (`mlir-opt --tosa-optional-decompositions`,
then `--tosa-validate`; `upstream.reproduce_mlir` runs it through `iree-opt`).

Module: `iree-transpose-conv2d-int16-stride.spv` (`.mlir`). Reproduce:

    tosa-opt iree-transpose-conv2d-int16-stride.mlir --mlir-print-op-generic -o g.mlir
    iree-compile --iree-input-type=tosa --iree-hal-target-device=local \\
        --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=host g.mlir -o g.vmfb

Expected: a module computing `[1, 3, 1, 1]` i48 outputs `[22, 1, 36]`.
Seen: the error above. Whose bug: upstream MLIR (the transpose-convolution
decomposition makes operations upstream's TOSA validation refuses).
The spvgraph adapter reports it as `Refused { Rejected }`.
";

pub(super) const ZERO_TAPS_NOTE: &str = "# IREE: floating-point TRANSPOSE_CONV2D gives NaN where TOSA gives the bias

**Belongs to:** upstream MLIR (llvm-project). **Status:** open. The reproducer of `iree-transpose-conv2d-zero-taps-nan.json` (`upstream.reproduce`) is run by `tests/it/upstream_reproducers.rs`.

IREE 3.13.0 (`iree-base-compiler`/`iree-base-runtime` 3.13.0, `llvm-cpu`) computes a
`tosa.transpose_conv2d` (fp32, stride `[1, 3]`, 1x1 weight `[1]`, bias 0, no out_pad) of
the input `[inf, 2]` (shape `[1, 1, 2, 1]`) as `[inf, NaN, NaN, 2]`.

TOSA 1.0's TRANSPOSE_CONV2D adds input element `ix` only to output column
`ox = ix * stride_x + out_pad_left + kx`: with KW = 1 and stride 3, column 0 gets
`in[0] * 1` and column 3 gets `in[1] * 1`; columns 1 and 2 get no term and are the
bias, 0. Expected `[inf, 0, 0, 2]`: the in-tree executor and the TOSA reference model
(`tosa_reference_model` 2026.8.0) agree.

Why: upstream MLIR's `tosa-optional-decompositions`
(`mlir/lib/Dialect/Tosa/Transforms/TosaDecomposeTransposeConv.cpp`), which IREE runs
(`iree-compile --mlir-print-ir-after-all` shows it), rewrites the strided transpose
convolution as a PAD of the weight to the stride (`[1, 0, 0]` taps), a stride-1 CONV2D
computing every phase, and RESHAPE/SLICE to interleave them. Columns 1 and 2 are phases
made only of padded zero taps, so they hold `0 * inf = NaN`. The rewrite is exact for
finite values only. The graph the pass makes, run on the TOSA reference model, gives
the same `[inf, NaN, NaN, 2]`, so the rewrite itself changes the result, not IREE's
lowering of it. The products it adds are *input x zero weight*. TOSA's pseudocode for
TRANSPOSE_CONV2D lets an implementation do optional extra multiplies
(`tosa_extra_multiplies`): for a tap with no input element (outside the input or at a
fractional, between-stride position) it may add `0 * (weight - weight_zp)`. That
multiplies a zero *input* by the real weight, never a real input by a zero weight, so
it covers NaN only where such a tap meets an infinite or NaN weight; here the weight is
1 and NaN is not allowed. The stride-1 path (the input zero-padded, the weight reversed)
is not a bug: its NaN (input `[1, 2]`, weight `[inf, 1]`: IREE `[inf, inf, NaN]`) is
`0 * inf` at a padded input position, exactly such an extra multiply, and the
conformance check (`tosa_reference_check_dotproduct`, bound computed with the extra
multiplies) sets no requirement where that bound is NaN.

In MLIR's own terms: `iree-transpose-conv2d-zero-taps-nan.lit.mlir` (a lit test for
`mlir-opt --tosa-optional-decompositions`; `upstream.reproduce_mlir` runs the same pass
in `iree-opt` and shows the weight padded from 1 to 3 taps).

Found by the hunt (seed 2238, through the single-round rescue: a bf16 CONV2D that
overflows to -inf feeds a TRANSPOSE_CONV2D with stride `[2, 3]`; `spvgraph reduce
--finding` took it to those two operators), then written by hand as small as it goes.

Module: `iree-transpose-conv2d-zero-taps-nan.spv` (`.mlir`), input `[inf, 2]`. Reproduce:

    tosa-opt iree-transpose-conv2d-zero-taps-nan.mlir --mlir-print-op-generic -o g.mlir
    iree-compile --iree-input-type=tosa --iree-hal-target-device=local \\
        --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=host g.mlir -o g.vmfb
    iree-run-module --module=g.vmfb --function=main --input='1x1x2x1xf32=inf 2' --output=-

Expected: `1x1x4x1xf32=[[[inf][0][0][2]]]`. Seen: `1x1x4x1xf32=[[[INF][-NAN][-NAN][2]]]`.
Whose bug: upstream MLIR (the decomposition is not equivalent for non-finite values).
It is documented for IREE's wrong outputs of TRANSPOSE_CONV2D whose operator, judged
on its own, read an infinity or NaN (feature `non-finite-values`).
";

pub(super) const SCATTER_NOTE: &str = "# IREE: SCATTER whose input is computed in the graph and read again does not compile

**Belongs to:** IREE. **Status:** open. The reproducer of `iree-scatter-reused-input-circular-dependency.json` (`upstream.reproduce`) is run by `tests/it/upstream_reproducers.rs`.

IREE 3.13.0 (`iree-base-compiler` 3.13.0, `llvm-cpu`) fails to compile

    y = tosa.add(x, x)                    // i32 [1, 4, 1]
    s = tosa.scatter(y, indices, updates) // indices [1, 2], updates [1, 2, 1]
    r = tosa.sub(s, y)

with

    error: circular dependency: input operation uses partition output
    %11 = \"stream.async.dispatch\"(...)

The graph is valid TOSA 1.0 (PRO-INT); the TOSA reference model computes it
(`x = [10, 20, 30, 40]`, `indices = [3, 1]`, `updates = [7, 5]`: `r = [0, -35, 0, -73]`).
It fails when the SCATTER's `values_in` is computed in the graph (not a graph input),
is read again after the SCATTER, and the scatter loop runs more than once
(N * W > 1); with `values_in` a graph input, with N * W = 1, or with `s` and `y`
returned instead of their difference, it compiles. Element type and the producer
(ADD, NEGATE, LOG + CAST) do not matter. No flag tried works around it
(`--iree-stream-partitioning-favor=debug`, `=min-peak-memory`, `--iree-opt-level=O0`).

Where: upstream MLIR's `tosa-to-scf` lowers SCATTER to valid `scf.for` loops; the
failing pass is IREE's `iree-stream-schedule-execution` (`--mlir-print-ir-after-all`
ends with it), which copies the loop-carried resource inside the loop and then puts
the loop's dispatch in one partition with the dispatch that makes `values_in`.
Related, closed in 2024: iree-org/iree#18123 and PR #18217 (a circular dependency
between partitions in execution scheduling); 3.13.0 still fails here.

Found by the hunt (seed 89, a nine-operator graph), then reduced by hand.

Module: `iree-scatter-reused-input-circular-dependency.spv` (`.mlir`). Reproduce:

    tosa-opt iree-scatter-reused-input-circular-dependency.mlir --mlir-print-op-generic -o g.mlir
    iree-compile --iree-input-type=tosa --iree-hal-target-device=local \\
        --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=host g.mlir -o g.vmfb

Expected: a module computing `[0, -35, 0, -73]`. Seen: the error above, exit
status 1. Whose bug: IREE (stream execution scheduling). The spvgraph adapter reports it
as `Refused { Rejected }`.
";

pub(super) const CONV_BOOL_NOTE: &str = "# IREE: a CONV2D compared and returned both as bool and as i8 does not compile

**Belongs to:** IREE. **Status:** open. The reproducer of `iree-conv-bool-and-i8-outputs.json` (`upstream.reproduce`) is run by `tests/it/upstream_reproducers.rs`.

IREE 3.13.0 (`iree-base-compiler` 3.13.0, `llvm-cpu`) fails to compile a graph
with two outputs, `ge = tosa.greater_equal(tosa.conv2d(x, w, b), 0)` (bool
`[2, 2, 2, 2]`) and `tosa.cast(ge)` to i8:

    error: 'linalg.generic' op write affecting operations on global resources are
    restricted to workgroup distributed contexts.
    error: 'func.func' op failed on workgroup distribution verification

The graph is valid TOSA 1.0 (PRO-FP); the TOSA reference model computes it (for
the stored inputs, per pixel `[oc0, oc1]`: `[1, 0], [0, 1], [1, 0], [1, 1], [1, 0],
[0, 1], [1, 0], [0, 1]` for both outputs). Either output alone compiles; a CAST to
i16 or i32 compiles; the convolution must be large enough to be tiled (N >= 2,
H * W >= 4, two output channels here); MATMUL instead of CONV2D compiles.

Where: IREE's `iree-stream-encode-device-tensors` stores the bool output as i8
(an `arith.extui` of the i1 result); the dispatch fuses the convolution with a
two-result elementwise op, and the whole-buffer i8 copy for the bool output is
left outside the workgroup-distributed loop, which IREE's
`iree-codegen-verify-workgroup-distribution` then refuses. Every pass involved is
IREE's (upstream's `tosa-to-linalg` makes ordinary `linalg.generic`s).

Found by the hunt in the observed form of seed 434 (the graph with each
intermediate value also an output, itself a valid graph), then reduced by hand.

Module: `iree-conv-bool-and-i8-outputs.spv` (`.mlir`). Reproduce:

    tosa-opt iree-conv-bool-and-i8-outputs.mlir --mlir-print-op-generic -o g.mlir
    iree-compile --iree-input-type=tosa --iree-hal-target-device=local \\
        --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=host g.mlir -o g.vmfb

Expected: a module. Seen: the errors above, exit status 1. Whose bug: IREE (LLVMCPU
codegen of a dispatch with an i1-stored output). The spvgraph adapter reports it as
`Refused { Rejected }`.
";

pub(super) const RESIZE_PAD_NOTE: &str = "# IREE: RESIZE down to 1x1 followed by a PAD in H and W does not compile

**Belongs to:** IREE. **Status:** open. The reproducer of `iree-resize-to-1x1-then-pad.json` (`upstream.reproduce`) is run by `tests/it/upstream_reproducers.rs`.

IREE 3.13.0 (`iree-base-compiler` 3.13.0, `llvm-cpu`) fails to compile a
`tosa.resize` (NEAREST_NEIGHBOR, fp32 `[1, 2, 1, 1]` to `[1, 1, 1, 1]`: scale
`[1, 2, 1, 1]`, offset `[0, 0]`, border `[-1, 0]`) followed by a `tosa.pad` of one
element on both sides of H and of W:

    error: expected rank to be smaller or equal to the other rank.
    note: see current operation: \"tensor.extract_slice\"(%3) ... : (tensor<2xf32>) -> tensor<1x1xf32>

The graph is valid TOSA 1.0; the TOSA reference model computes it (input `[3, 5]`:
a 3x3 of zeros with 3 in the middle). RESIZE alone, a PAD in H only or W only, or a
SLICE instead of the RESIZE compiles; fp16 fails as well.

Where: the RESIZE lowers to a rank-reducing `tensor.extract_slice` (`tensor<2xf32>`
to `tensor<f32>`) and a `tensor.expand_shape` to `tensor<1x1xf32>`; IREE's
`iree-dispatch-creation-bubble-up-expand-shapes` moves the expand above the slice and
builds an `extract_slice` whose result rank exceeds its source's. That pass alone on
the three-line function

    util.func public @f(%a: tensor<2xf16>) -> tensor<1x1xf16> {
      %s = tensor.extract_slice %a[0] [1] [1] : tensor<2xf16> to tensor<f16>
      %e = tensor.expand_shape %s [] output_shape [1, 1] : tensor<f16> into tensor<1x1xf16>
      util.return %e : tensor<1x1xf16>
    }

gives the same error (`iree-opt --pass-pipeline=\"builtin.module(util.func(iree-dispatch-creation-bubble-up-expand-shapes))\"`),
while upstream's `--canonicalize` and `--linalg-fuse-elementwise-ops` leave it unchanged.

Found by the hunt (seed 275: RESIZE then DEPTHWISE_CONV2D with padding), then reduced by hand.

Module: `iree-resize-to-1x1-then-pad.spv` (`.mlir`). Reproduce:

    tosa-opt iree-resize-to-1x1-then-pad.mlir --mlir-print-op-generic -o g.mlir
    iree-compile --iree-input-type=tosa --iree-hal-target-device=local \\
        --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=host g.mlir -o g.vmfb

Expected: a module computing the 3x3 above. Seen: the error above, exit status 1.
Whose bug: IREE (dispatch creation's expand-shape propagation). The spvgraph adapter
reports it as `Refused { Rejected }`.
";

pub(super) const CHANNEL_SUM_NOTE: &str = "# IREE: a convolution with a weight zero point over a constant input is 4 times too small

**Belongs to:** upstream MLIR (llvm-project). **Status:** open. The reproducer of `iree-constant-channel-sum-vectorized-once.json` (`upstream.reproduce`) is run by `tests/it/upstream_reproducers.rs`.

IREE 3.13.0 (`iree-base-compiler`/`iree-base-runtime` 3.13.0, `llvm-cpu`) computes

    x = tosa.rescale(in)        // i8 [1,1,3,4]; multiplier 1, shift 40, output_zp -11: x = -11 everywhere
    y = tosa.conv2d(x, w, b)    // 1x1, w = 0 (i8 [1,1,1,4]), weight_zp = -79, bias 0, acc i32

as `[-869, -869, -869]`. TOSA 1.0: RESCALE gives `(in * 1 + 2^39) >> 40 + (-11) = -11`
for every i8 input, and CONV2D sums `(x - 0) * (w - (-79))` over the 4 input channels:
`4 * (-11) * 79 = -3476`. Expected `[-3476, -3476, -3476]`: the in-tree executor and the
TOSA reference model (`tosa_reference_model` 2026.8.0) agree. A silent wrong result,
`-11 * 79 = -869`: one channel's term instead of four.

Why: IREE proves the RESCALE result constant (`iree-util-optimize-int-arithmetic`) and
rewrites the weight-zero-point convolution as `conv(x, w) - wzp * sum_c(x)`
(`iree-global-opt-quantized-conv-to-conv`); both are right. With `x` a splat, the
channel sum is a `linalg.generic` reduction whose body is `out + (-11)` (the input
unused) over a reduction dimension of 4. Linalg vectorization then adds -11 once: upstream
MLIR's `transform.structured.vectorize` on that generic alone (in `iree-opt
--transform-interpreter`) emits `arith.addi %out, dense<-11> : vector<3xi32>` with no
reduction, and IREE's `iree-codegen-generic-vectorization` (which calls upstream's
`linalg::vectorize`, `mlir/lib/Dialect/Linalg/Transforms/Vectorization.cpp`) writes
`dense<-11>`; the expected value is `-44` per row. The same happens with
`--iree-opt-const-eval=false`. With the RESCALE's result given as a graph input instead
(nothing to fold), IREE computes the convolution right.

Found by the hunt (seed 408, through the single-round rescue: a CONV2D, a RESCALE to a
constant and a TRANSPOSE_CONV2D with weight zero point -79, 1380 of 1932 elements each
2607 too large), then written by hand as small as it goes.

Module: `iree-constant-channel-sum-vectorized-once.spv` (`.mlir`), input `1..12` (i8). Reproduce:

    tosa-opt iree-constant-channel-sum-vectorized-once.mlir --mlir-print-op-generic -o g.mlir
    iree-compile --iree-input-type=tosa --iree-hal-target-device=local \\
        --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=host g.mlir -o g.vmfb
    iree-run-module --module=g.vmfb --function=main --input='1x1x3x4xi8=1 2 3 4 5 6 7 8 9 10 11 12' --output=-

Expected: `1x1x3x1xi32=[[[-3476][-3476][-3476]]]`. Seen: `[[[-869][-869][-869]]]`.
Whose bug: upstream MLIR (Linalg vectorization of a reduction whose body adds a value
that does not depend on the reduced input), shown by IREE. In MLIR's own terms:
`iree-constant-channel-sum-vectorized-once.lit.mlir`, the standalone `linalg.generic`
(3x4 -> 3, body `acc + (-11)`) with a `transform.structured.vectorize` script, run by
`mlir-opt --transform-interpreter` (`upstream.reproduce_mlir` runs it in `iree-opt`):
the result is `arith.addi %acc, dense<-11> : vector<3xi32>` with no
`vector.multi_reduction`, where each row must get `4 * (-11) = -44`.
";

pub(super) const FP8_CAST_NOTE: &str = "# IREE: a CAST to fp8 of a value just below the smallest normal gives zero

**Belongs to:** IREE. **Status:** open. The reproducer of `iree-fp8-cast-rounds-to-zero-below-min-normal.json` (`upstream.reproduce`) is run by `tests/it/upstream_reproducers.rs`.

IREE 3.13.0 (`iree-base-compiler`/`iree-base-runtime` 3.13.0, `llvm-cpu`) computes a
`tosa.cast` from fp32 to `f8E4M3FN` of `0.015419006` (7.89 units of the smallest
subnormal, 2^-9) as `0`, and of `-0.015119618` as `-0`. Round to nearest gives the
smallest normal, `2^-6 = 0.015625` (`0x08`, `0x88`): the TOSA reference model, the
in-tree executor and `ml_dtypes` agree. TOSA 1.0 requires fp8 subnormals to be supported,
and CAST rounds to nearest (the conformance check allows 1 ulp below, 2^-9 here, not 8).
`f8E5M2` has the same flaw just below its smallest normal 2^-14: `5.5e-5` gives `0`
instead of `2^-14` (`0x04`).

A sweep of 4,096 fp32 values per type against `ml_dtypes`: every value in
`[7.5, 8) * 2^-9` (fp8e4m3) or `[3.5, 4) * 2^-16` (fp8e5m2), of either sign, becomes
zero; every other finite value converts correctly.

Why: on llvm-cpu, IREE's `iree-convert-unsupported-float-arith`
(`enable-ext-trunc-emulation`, `compiler/src/iree/compiler/Codegen/Common/ConvertUnsupportedFloatArith.cpp`) emulates
`arith.truncf` to fp8 with integer operations. For a result below the smallest normal it
shifts the rounded significand into the mantissa field and masks it with the mantissa
width (`andi ..., 7`): when rounding carries into the exponent (a value that rounds up
to the smallest normal), the carry is masked away and the result is zero.
`iree-compile --mlir-print-ir-after-all` shows the `arith.truncf` first replaced there.

Found by the hunt (seed 1015 of `spvgraph hunt --seed 1000 --oracles iree,tosa-ref
--sample iree=1`, through the `fp8-through-fp32` rescue: an fp16 -> fp8e4m3 CAST),
then written by hand as small as it goes.

Module: `iree-fp8-cast-rounds-to-zero-below-min-normal.spv` (`.mlir`), input
`[0.015419006, -0.015119618, 5.5e-5, 0.013671875]`. Reproduce:

    tosa-opt iree-fp8-cast-rounds-to-zero-below-min-normal.mlir --mlir-print-op-generic -o g.mlir
    iree-compile --iree-input-type=tosa --iree-hal-target-device=local \\
        --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=host g.mlir -o g.vmfb
    iree-run-module --module=g.vmfb --function=main \\
        --input='4xf32=0.015419006 -0.015119618 5.5e-5 0.013671875' --output=- --output=-

Expected: `4xf8E4M3FN=0.015625 -0.015625 0 0.0136719` and `4xf8E5M2=0.015625 -0.015625
6.10352e-05 0.0136719`. Seen: `4xf8E4M3FN=0 -0 0 0.0136719` and `4xf8E5M2=0.015625
-0.015625 0 0.0136719`. Whose bug: IREE (its fp8 truncation emulation). It is documented
for IREE's wrong outputs of a CAST to fp8, judged on its own (feature
`fp8-rounded-result`).
";

pub(super) const RESIZE_UNIT_NOTE: &str = "# IREE: BILINEAR RESIZE of a one-row input gives inf where TOSA gives NaN

**Belongs to:** upstream MLIR (llvm-project). **Status:** open. The reproducer of `iree-resize-unit-height-skips-non-finite.json` (`upstream.reproduce`) is run by `tests/it/upstream_reproducers.rs`.

IREE 3.13.0 (`iree-base-compiler`/`iree-base-runtime` 3.13.0, `llvm-cpu`) computes a
BILINEAR `tosa.resize` of the fp32 input `[inf, 1]` (shape `[1, 1, 2, 1]`, scale
`[2, 2, 2, 1]`, offset and border 0) as `[inf, inf, 1]`; TOSA 1.0 gives `[NaN, NaN, 1]`.

TOSA 1.0's RESIZE computes every BILINEAR output from four taps,
`v00 (1-dy)(1-dx) + v01 (1-dy) dx + v10 dy (1-dx) + v11 dy dx`, with the row indices
clamped to the input: with one input row, `v10 = v00 = inf` and `dy = 0`, so the term
`inf * 0` is NaN. Output 2 reads only the finite column and is 1. The in-tree executor and
the TOSA reference model (`tosa_reference_model` 2026.8.0) give `[NaN, NaN, 1]`; the
conformance check (`check_fp_bnd`) requires NaN where the reference is NaN, before any
error bound.

Why: upstream MLIR's `tosa-to-linalg` (`GenericResizeConverter`,
`mlir/lib/Conversion/TosaToLinalg/TosaToLinalg.cpp`) interpolates only along W when the
input height is 1: the `linalg.generic` it makes yields the top row's interpolation and
never adds the zero-weighted bottom row (`iree-compile --mlir-print-ir-after-all`, after
`tosa-to-linalg`). That is exact for finite values only. With two input rows the same
output is `inf` in both, as TOSA gives.

Found by the hunt (seed 1643 of `spvgraph hunt --seed 1000 --oracles iree,tosa-ref
--sample iree=1`: an fp16 RESIZE of RSQRT(0) = inf, from a `[1, 2]` to a `[1, 1]` image),
then written by hand as small as it goes.

Module: `iree-resize-unit-height-skips-non-finite.spv` (`.mlir`), input `[inf, 1]`. Reproduce:

    tosa-opt iree-resize-unit-height-skips-non-finite.mlir --mlir-print-op-generic -o g.mlir
    iree-compile --iree-input-type=tosa --iree-hal-target-device=local \\
        --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=host g.mlir -o g.vmfb
    iree-run-module --module=g.vmfb --function=main --input='1x1x2x1xf32=inf 1' --output=-

Expected: `1x1x3x1xf32=[[[NAN][NAN][1]]]`. Seen: `1x1x3x1xf32=[[[INF][INF][1]]]`.
Whose bug: upstream MLIR (the lowering is not equivalent for non-finite values). In
MLIR's own terms: `iree-resize-unit-height-skips-non-finite.lit.mlir` (`tosa-to-linalg`
alone; `upstream.reproduce_mlir` runs it in `iree-opt`: the generic computes the bottom
row's sum and yields the top row's). It is
documented for IREE's wrong outputs of RESIZE whose operator, judged on its own, read an
infinity or NaN (feature `non-finite-values`).
";

pub(super) const SCATTER_IN_PLACE_NOTE: &str = "# IREE: a tensor updated in place by a one-row SCATTER and also returned is returned updated

**Belongs to:** IREE. **Status:** open. The reproducer of `iree-scatter-in-place-returned-input.json` (`upstream.reproduce`) is run by `tests/it/upstream_reproducers.rs`.

IREE 3.13.0 (`iree-base-compiler`/`iree-base-runtime` 3.13.0, `llvm-cpu`) runs

    p = ABS(x); s = SCATTER(p, indices, updates); o = ABS(updates); return s, p, o

with `x = [[-1, -2], [-3, -4]]` (shape `[1, 2, 2]`), one index `[1]` and updates
`[7, 5]`, and returns `p = [[1, 2], [7, 5]]`: the scattered values. TOSA 1.0 gives
`p = ABS(x) = [[1, 2], [3, 4]]` (SCATTER makes a new tensor; its `values_in` is not
changed); the in-tree executor and the TOSA reference model (`tosa_reference_model`
2026.8.0) agree. `s = [[1, 2], [7, 5]]` and `o = [7, 5]` are right. A silent wrong result.

It needs: a SCATTER with one update row (`N * W = 1`, lowered to an in-place
`tensor.insert_slice` dispatch), its `values_in` computed by another dispatch and also
returned, and an independent dispatch (`o`). With two update rows, without `o`, or when
`p` is only read by other operators, the result is right. The producer does not matter
(ABS, NEGATE, IDENTITY, FFT2D; `math.absf` and `tensor.insert_slice` without TOSA fail
the same way).

Why: before `iree-stream-schedule-concurrency` the stream holds `p`'s dispatch, a clone
of `p` (the copy to return), the in-place update, and the independent dispatch, in that
order; the pass groups the update and the independent dispatch into one concurrent
region placed before the clone, so the clone copies the updated tensor
(`iree-compile --mlir-print-ir-after-all`; that pass alone, run with `iree-opt` on the
region, shows the move). `--iree-stream-partitioning-favor=debug` gives the right result.
Related, not the same: iree-org/iree#16168 (an in-place update of a function argument).

Found by the hunt (seed 1481 of `spvgraph hunt --seed 1000 --oracles iree,tosa-ref
--sample iree=1`) in the *observed form*, in which every intermediate is a graph output:
FFT2D's imaginary result was a one-row SCATTER's input, and its returned value was the
SCATTER's. Reduced by hand.

Module: `iree-scatter-in-place-returned-input.spv` (`.mlir`). Reproduce:

    tosa-opt iree-scatter-in-place-returned-input.mlir --mlir-print-op-generic -o g.mlir
    iree-compile --iree-input-type=tosa --iree-hal-target-device=local \\
        --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=host g.mlir -o g.vmfb
    iree-run-module --module=g.vmfb --function=main --input='1x2x2xf32=-1 -2 -3 -4' \\
        --input=1x1xi32=1 --input='1x1x2xf32=7 5' --output=- --output=- --output=-

Expected second result: `1x2x2xf32=[[1 2][3 4]]`. Seen: `1x2x2xf32=[[1 2][7 5]]`.
Whose bug: IREE (stream scheduling). It is documented for IREE's wrong outputs of an
operator whose result is a one-row SCATTER's input (feature `single-row-scatter-input`).
";

pub(super) const WIDE_POOL_NOTE: &str = "# IREE: MAX_POOL2D with a wide stride does not compile (large vector sizes)

**Belongs to:** IREE. **Status:** open. The reproducer of `iree-max-pool2d-wide-stride-large-vector.json` (`upstream.reproduce`) is run by `tests/it/upstream_reproducers.rs`.

IREE 3.13.0 (`iree-base-compiler` 3.13.0, `llvm-cpu`, `--iree-llvmcpu-target-cpu=host`)
refuses a valid `tosa.max_pool2d` (i8 `[1, 9, 2050, 16]`, kernel `[2, 2]`, stride
`[1, 2048]`, no padding, output `[1, 8, 2, 16]`):

    error: One or more operations with large vector sizes (32768 bytes) were found:

(the byte count is the target's limit and follows `--iree-llvmcpu-target-cpu=host`:
16384 bytes on a znver4 host)

The operator is valid TOSA 1.0 at level 8K (kernel and stride at most 8192, the output
shape divides exactly; `tosa-opt --tosa-validate` with `strict-op-spec-alignment` accepts
it), and the TOSA reference model runs it.

Why: IREE's CPU tiling for the pooling takes two output columns per vector tile without
regard to the stride, so the vectorized input read spans `(2 - 1) * stride + kernel`
columns (`vector.transfer_read ... vector<1x2050x16xi8>` here); IREE's own
`iree-llvmcpu-verify-vector-size-legality` then rejects the vector IREE chose. The
threshold follows that width exactly (i16, 8 channels: stride 2048 fails, 2040
compiles); with fewer output rows IREE takes one column per tile and it compiles.
i8, i16, bf16 and fp32 fail. `--iree-llvmcpu-fail-on-large-vector=false` (a hidden
development option) compiles it and the outputs are right, so the check guards a
tile-size choice, not a miscompile. The same message with other operators carries
IREE's bug label (e.g. iree-org/iree#20651).

Found by the hunt (seed 2205 of `spvgraph hunt --seed 1000 --oracles iree,tosa-ref
--sample iree=1`: an i16 MAX_POOL2D with stride `[1, 7569]`), then reduced by hand.

Module: `iree-max-pool2d-wide-stride-large-vector.spv` (`.mlir`). Reproduce:

    tosa-opt iree-max-pool2d-wide-stride-large-vector.mlir --mlir-print-op-generic -o g.mlir
    iree-compile --iree-input-type=tosa --iree-hal-target-device=local \\
        --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=host g.mlir -o g.vmfb

Expected: a module computing the `[1, 8, 2, 16]` maxima. Seen: the error above, exit
status 1. Whose bug: IREE (CPU tile-size selection for pooling). The spvgraph adapter
reports it as `Refused { Rejected }`.
";

pub(super) const CONV_WZP_NOTE: &str = "# IREE: int16 CONV2D with a non-zero weight zero point does not compile

**Belongs to:** IREE. **Status:** open. The reproducer of `iree-conv2d-int16-weight-zero-point.json` (`upstream.reproduce`) is run by `tests/it/upstream_reproducers.rs`.

IREE 3.13.0 (`iree-base-compiler` 3.13.0, `llvm-cpu`) fails to compile a
`tosa.conv2d` with i16 input, i8 weights and an i48 accumulator (EXT-INT16)
whose weights are a constant and whose weight zero point is neither 0 nor 1
(2, -1, 64, 95 and 127 all fail):

    error: 'arith.muli' op requires the same type for all operands and results

TOSA 1.0 lets i8 weights have a non-zero zero point in every row, the
i16 x i8 row included (only non-i8 weights need a zero weight_zp). With
weight_zp 0 or 1, with the weights a graph input instead of a constant, or with
i8 input (i32 accumulator) and the same weight_zp, it compiles; the kernel
size does not matter. The same bug stops int16 TRANSPOSE_CONV2D with constant weights and a
weight zero point of 85 (seen by the hunt).

Found by the hunt (seed 317: a 22-node case; `spvgraph reduce --finding`
took it to the CONV2D, and it was then written by hand as small as it goes).

Module: `iree-conv2d-int16-weight-zero-point.spv` (`.mlir`), input
`x = [3, 5]` (i16), constant weights `[7, 3]` (i8), weight zero point 2.
Reproduce:

    tosa-opt iree-conv2d-int16-weight-zero-point.mlir --mlir-print-op-generic -o g.mlir
    iree-compile --iree-input-type=tosa --iree-hal-target-device=local \\
        --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=host g.mlir -o g.vmfb

Expected: a module computing `3 * (7 - 2) + 5 * (3 - 2) = 20`. Seen: the
error above. Whose bug: IREE (its handling of a constant weight tensor with a
zero point in the int16 convolution mixes element types). The spvgraph adapter reports it as
`Refused { Rejected }`.
";

pub(super) const DEPTHWISE_NOTE: &str = "# IREE: int16 DEPTHWISE_CONV2D with a 1x1 kernel does not compile

**Belongs to:** upstream MLIR (llvm-project). **Status:** open. The reproducer of `iree-depthwise-conv2d-int16-1x1.json` (`upstream.reproduce`) is run by `tests/it/upstream_reproducers.rs`.

IREE 3.13.0 (`iree-base-compiler` 3.13.0, `llvm-cpu`) fails to compile a
`tosa.depthwise_conv2d` with i16 input, i8 weights and an i48 accumulator
(EXT-INT16) when the kernel is 1x1:

    error: 'tosa.cast' op illegal: operation operand/result data types did not
    align with any profile or extension, got (i16,i48)

The input has no CAST: upstream MLIR's `tosa-optional-decompositions`
(`TosaDecomposeDepthwise.cpp`), which IREE runs, rewrites a 1x1 depthwise convolution
into a CAST of the input to the accumulator type and a MUL, then upstream's
`tosa-validate` rejects the i16 -> i48 CAST it made (TOSA has no such CAST);
`iree-compile --mlir-print-ir-after-all` names both passes. With
a 2x2 kernel, or with i8 input (i32 accumulator), it compiles. With padding the same
rewrite fails one step later: `'tosa.pad' op expect input and output to have same element
type, got 'i48' and 'i16'` (seen by the hunt, seed 42704: a 1x1 kernel with pad `[1, 1, 2, 1]`).

Module: `iree-depthwise-conv2d-int16-1x1.spv` (`.mlir`), inputs
`x = [3, 5]` (i16), `w = [7, 2]` (i8). Reproduce:

    tosa-opt iree-depthwise-conv2d-int16-1x1.mlir --mlir-print-op-generic -o g.mlir
    iree-compile --iree-input-type=tosa --iree-hal-target-device=local \\
        --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=host g.mlir -o g.vmfb

Expected: a module computing `[3 * 7, 5 * 2] = [21, 10]`. Seen: the error
above. In MLIR's own terms: `iree-depthwise-conv2d-int16-1x1.lit.mlir`
(`mlir-opt --tosa-optional-decompositions`, then `--tosa-validate`;
`upstream.reproduce_mlir` runs it through `iree-opt`). Whose bug: upstream MLIR (the 1x1 depthwise decomposition makes operations
upstream's TOSA validation refuses). The spvgraph adapter reports it as `Refused { Rejected }`.
";
