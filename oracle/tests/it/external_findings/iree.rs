//! IREE's findings: the modules, the table and the checks that each still
//! reproduces with the pinned IREE (their notes are in
//! [`super::iree_notes`]).

use super::iree_notes::*;
use super::*;

/// The IREE findings, in the order they are written and listed.
pub(super) fn findings() -> Vec<Finding> {
    let inf = f32::INFINITY;
    vec![
        Finding {
            stem: "iree-reduce-max-of-infinities",
            module: reduce_module(),
            inputs: vec![f32s(&[2, 3], &[-inf, inf, 1.0, -inf, inf, 2.0])],
            produced_with_debug_info: false,
            note: REDUCE_NOTE,
        },
        Finding {
            stem: "iree-negative-i48-constant",
            module: negative_i48_bias_module(),
            inputs: vec![
                tensor(ElemType::I16, &[1, 1, 1, 2], &[(-5i64) as u64, 0]),
                tensor(ElemType::I8, &[1, 1, 1, 2], &[1, 1]),
            ],
            produced_with_debug_info: false,
            note: I48_NOTE,
        },
        Finding {
            stem: "iree-sin-of-large-bf16",
            module: sin_bf16_module(),
            // bf16 bit patterns of -1.97e38, -2.38e38, 1.93e38, -2.65e38 (the hunt's inputs)
            inputs: vec![tensor(ElemType::Bf16, &[4], &[65300, 65331, 32529, 65351])],
            produced_with_debug_info: false,
            note: SIN_NOTE,
        },
        Finding {
            stem: "iree-fft2d-transposed-result",
            module: fft_module(true),
            inputs: fft_inputs(),
            produced_with_debug_info: false,
            note: FFT_NOTE,
        },
        Finding {
            stem: "iree-transpose-conv2d-int16-stride",
            module: transpose_conv_module(),
            inputs: vec![
                tensor(ElemType::I16, &[1, 2, 1, 1], &[3, 5]),
                tensor(ElemType::I8, &[1, 1, 1, 1], &[7]),
                tensor(ElemType::I48, &[1], &[1]),
            ],
            produced_with_debug_info: false,
            note: TRANSPOSE_CONV_NOTE,
        },
        Finding {
            stem: "iree-transpose-conv2d-zero-taps-nan",
            module: transpose_conv_zero_taps_module(),
            inputs: vec![f32s(&[1, 1, 2, 1], &[f32::INFINITY, 2.0])],
            produced_with_debug_info: false,
            note: ZERO_TAPS_NOTE,
        },
        Finding {
            stem: "iree-scatter-reused-input-circular-dependency",
            module: scatter_reused_input_module(),
            inputs: vec![
                tensor(ElemType::I32, &[1, 4, 1], &[10, 20, 30, 40]),
                tensor(ElemType::I32, &[1, 2], &[3, 1]),
                tensor(ElemType::I32, &[1, 2, 1], &[7, 5]),
            ],
            produced_with_debug_info: false,
            note: SCATTER_NOTE,
        },
        Finding {
            stem: "iree-conv-bool-and-i8-outputs",
            module: conv_bool_and_i8_module(),
            inputs: vec![
                f32s(&[2, 2, 2, 1], &[1.0, -2.0, 3.0, -0.5, 0.25, -4.0, 2.0, -1.0]),
                f32s(&[2, 1, 1, 1], &[1.0, -1.0]),
                f32s(&[2], &[0.5, 0.0]),
            ],
            produced_with_debug_info: false,
            note: CONV_BOOL_NOTE,
        },
        Finding {
            stem: "iree-resize-to-1x1-then-pad",
            module: resize_then_pad_module(),
            inputs: vec![f32s(&[1, 2, 1, 1], &[3.0, 5.0])],
            produced_with_debug_info: false,
            note: RESIZE_PAD_NOTE,
        },
        Finding {
            stem: "iree-constant-channel-sum-vectorized-once",
            module: constant_channel_sum_module(),
            inputs: vec![tensor(ElemType::I8, &[1, 1, 3, 4], &(1..=12).collect::<Vec<u64>>())],
            produced_with_debug_info: false,
            note: CHANNEL_SUM_NOTE,
        },
        Finding {
            stem: "iree-fp8-cast-rounds-to-zero-below-min-normal",
            module: fp8_cast_module(),
            inputs: vec![f32s(&[4], &FP8_CAST_INPUT)],
            produced_with_debug_info: false,
            note: FP8_CAST_NOTE,
        },
        Finding {
            stem: "iree-resize-unit-height-skips-non-finite",
            module: resize_unit_height_module(),
            inputs: vec![f32s(&[1, 1, 2, 1], &[inf, 1.0])],
            produced_with_debug_info: false,
            note: RESIZE_UNIT_NOTE,
        },
        Finding {
            stem: "iree-scatter-in-place-returned-input",
            module: scatter_returned_input_module(),
            inputs: vec![
                f32s(&[1, 2, 2], &[-1.0, -2.0, -3.0, -4.0]),
                tensor(ElemType::I32, &[1, 1], &[1]),
                f32s(&[1, 1, 2], &[7.0, 5.0]),
            ],
            produced_with_debug_info: false,
            note: SCATTER_IN_PLACE_NOTE,
        },
        Finding {
            stem: "iree-max-pool2d-wide-stride-large-vector",
            module: max_pool_wide_stride_module(),
            inputs: vec![{
                let [_, h, w, c] = WIDE_POOL_INPUT;
                let values =
                    (0..h).flat_map(|y| (0..w).flat_map(move |x| (0..c).map(move |k| wide_pool_value(y, x, k))));
                tensor(ElemType::I8, &WIDE_POOL_INPUT, &values.map(|v| v as u64).collect::<Vec<_>>())
            }],
            produced_with_debug_info: false,
            note: WIDE_POOL_NOTE,
        },
        Finding {
            stem: "iree-conv2d-int16-weight-zero-point",
            module: conv_weight_zero_point_module(),
            inputs: vec![tensor(ElemType::I16, &[1, 1, 1, 2], &[3, 5])],
            produced_with_debug_info: false,
            note: CONV_WZP_NOTE,
        },
        Finding {
            stem: "iree-depthwise-conv2d-int16-1x1",
            module: depthwise_1x1_int16_module(),
            inputs: vec![tensor(ElemType::I16, &[1, 1, 1, 2], &[3, 5]), tensor(ElemType::I8, &[1, 1, 2, 1], &[7, 2])],
            produced_with_debug_info: false,
            note: DEPTHWISE_NOTE,
        },
    ]
}

/// SIN of a bf16 `[4]` tensor.
fn sin_bf16_module() -> Module {
    graph(&[(ElemType::Bf16, &[4])], &[(ElemType::Bf16, &[4])], |b, x| {
        let t = b.type_tensor(ElemType::Bf16, Some(&[4]));
        vec![b.tosa(TosaOp::Sin, t, vec![x[0]])]
    })
}

/// REDUCE_MAX and REDUCE_MIN over axis 0 of a `2x3` fp32 tensor.
fn reduce_module() -> Module {
    graph(&[(ElemType::Fp32, &[2, 3])], &[(ElemType::Fp32, &[1, 3]), (ElemType::Fp32, &[1, 3])], |b, x| {
        let t = b.type_tensor(ElemType::Fp32, Some(&[1, 3]));
        let (axis, propagate) = (b.const_u32(0), b.const_u32(1));
        let max = b.tosa(TosaOp::ReduceMax, t, vec![axis, propagate, x[0]]);
        let min = b.tosa(TosaOp::ReduceMin, t, vec![axis, propagate, x[0]]);
        vec![max, min]
    })
}

/// TRANSPOSE_CONV2D i16 x i8 -> i48 (EXT-INT16) with stride `[2, 1]`.
fn transpose_conv_module() -> Module {
    graph(
        &[(ElemType::I16, &[1, 2, 1, 1]), (ElemType::I8, &[1, 1, 1, 1]), (ElemType::I48, &[1])],
        &[(ElemType::I48, &[1, 3, 1, 1])],
        |b, x| {
            let out = b.type_tensor(ElemType::I48, Some(&[1, 3, 1, 1]));
            let out_pad = b.const_i32_vector(&[0, 0, 0, 0]);
            let stride = b.const_i32_vector(&[2, 1]);
            let int48 = b.const_u32(4);
            let no = b.const_bool(false);
            let izp = b.const_tensor(ElemType::I16, &[1], &[0]).expect("[1]");
            let wzp = b.const_tensor(ElemType::I8, &[1], &[0]).expect("[1]");
            vec![b.tosa(TosaOp::TransposeConv2d, out, vec![out_pad, stride, int48, no, x[0], x[1], x[2], izp, wzp])]
        },
    )
}

/// CONV2D i16 x i8 -> i48 (EXT-INT16) of `[1,1,1,2]` tensors with the
/// constant bias `-3`.
fn negative_i48_bias_module() -> Module {
    graph(
        &[(ElemType::I16, &[1, 1, 1, 2]), (ElemType::I8, &[1, 1, 1, 2])],
        &[(ElemType::I48, &[1, 1, 1, 1])],
        |b, x| {
            let out = b.type_tensor(ElemType::I48, Some(&[1, 1, 1, 1]));
            let pad = b.const_i32_vector(&[0, 0, 0, 0]);
            let ones = b.const_i32_vector(&[1, 1]);
            let int48 = b.const_u32(4);
            let no = b.const_bool(false);
            let bias = b.const_tensor(ElemType::I48, &[1], &[(-3i64) as u64]).expect("[1]");
            let izp = b.const_tensor(ElemType::I16, &[1], &[0]).expect("[1]");
            let wzp = b.const_tensor(ElemType::I8, &[1], &[0]).expect("[1]");
            vec![b.tosa(TosaOp::Conv2d, out, vec![pad, ones, ones, int48, no, x[0], x[1], bias, izp, wzp])]
        },
    )
}

/// CONV2D i16 x i8 -> i48 (EXT-INT16) of a `[1,1,1,2]` input with the
/// constant weights `[7, 3]` whose weight zero point is `2` (TOSA allows a
/// non-zero weight zero point for i8 weights, in the i16 x i8 row too).
fn conv_weight_zero_point_module() -> Module {
    graph(&[(ElemType::I16, &[1, 1, 1, 2])], &[(ElemType::I48, &[1, 1, 1, 1])], |b, x| {
        let out = b.type_tensor(ElemType::I48, Some(&[1, 1, 1, 1]));
        let pad = b.const_i32_vector(&[0, 0, 0, 0]);
        let ones = b.const_i32_vector(&[1, 1]);
        let int48 = b.const_u32(4);
        let no = b.const_bool(false);
        let weight = b.const_tensor(ElemType::I8, &[1, 1, 1, 2], &[7, 3]).expect("[1,1,1,2]");
        let bias = b.const_tensor(ElemType::I48, &[1], &[0]).expect("[1]");
        let izp = b.const_tensor(ElemType::I16, &[1], &[0]).expect("[1]");
        let wzp = b.const_tensor(ElemType::I8, &[1], &[2]).expect("[1]");
        vec![b.tosa(TosaOp::Conv2d, out, vec![pad, ones, ones, int48, no, x[0], weight, bias, izp, wzp])]
    })
}

/// DEPTHWISE_CONV2D i16 x i8 -> i48 (EXT-INT16) with a 1x1 kernel: input
/// `[1,1,1,2]`, weight `[1,1,2,1]`, zero points 0.
fn depthwise_1x1_int16_module() -> Module {
    graph(
        &[(ElemType::I16, &[1, 1, 1, 2]), (ElemType::I8, &[1, 1, 2, 1])],
        &[(ElemType::I48, &[1, 1, 1, 2])],
        |b, x| {
            let out = b.type_tensor(ElemType::I48, Some(&[1, 1, 1, 2]));
            let pad = b.const_i32_vector(&[0, 0, 0, 0]);
            let ones = b.const_i32_vector(&[1, 1]);
            let int48 = b.const_u32(4);
            let no = b.const_bool(false);
            let bias = b.const_tensor(ElemType::I48, &[1], &[0]).expect("[1]");
            let izp = b.const_tensor(ElemType::I16, &[1], &[0]).expect("[1]");
            let wzp = b.const_tensor(ElemType::I8, &[1], &[0]).expect("[1]");
            vec![b.tosa(TosaOp::DepthwiseConv2d, out, vec![pad, ones, ones, int48, no, x[0], x[1], bias, izp, wzp])]
        },
    )
}

/// TRANSPOSE_CONV2D fp32 of a `[1,1,2,1]` input with the constant 1x1
/// weight `[1]`, bias 0 and stride `[1, 3]`: output columns 1 and 2 have no
/// term (TOSA gives them the bias).
fn transpose_conv_zero_taps_module() -> Module {
    graph(&[(ElemType::Fp32, &[1, 1, 2, 1])], &[(ElemType::Fp32, &[1, 1, 4, 1])], |b, x| {
        let out = b.type_tensor(ElemType::Fp32, Some(&[1, 1, 4, 1]));
        let out_pad = b.const_i32_vector(&[0, 0, 0, 0]);
        let stride = b.const_i32_vector(&[1, 3]);
        let fp32 = b.const_u32(3);
        let no = b.const_bool(false);
        let one = u64::from(1.0f32.to_bits());
        let weight = b.const_tensor(ElemType::Fp32, &[1, 1, 1, 1], &[one]).expect("[1,1,1,1]");
        let zero = b.const_tensor(ElemType::Fp32, &[1], &[0]).expect("[1]");
        vec![b.tosa(TosaOp::TransposeConv2d, out, vec![out_pad, stride, fp32, no, x[0], weight, zero, zero, zero])]
    })
}

/// `y = ADD(x, x)`, `s = SCATTER(y, indices, updates)`, `SUB(s, y)` on i32
/// `[1,4,1]` values with two indices: the SCATTER's `values_in` is computed in
/// the graph and read again after it.
fn scatter_reused_input_module() -> Module {
    graph(
        &[(ElemType::I32, &[1, 4, 1]), (ElemType::I32, &[1, 2]), (ElemType::I32, &[1, 2, 1])],
        &[(ElemType::I32, &[1, 4, 1])],
        |b, x| {
            let t = b.type_tensor(ElemType::I32, Some(&[1, 4, 1]));
            let y = b.tosa(TosaOp::Add, t, vec![x[0], x[0]]);
            let s = b.tosa(TosaOp::Scatter, t, vec![y, x[1], x[2]]);
            vec![b.tosa(TosaOp::Sub, t, vec![s, y])]
        },
    )
}

/// CONV2D fp32 (input `[2,2,2,1]`, two 1x1 output channels) compared
/// `>= 0`, returned both as bool and CAST to i8.
fn conv_bool_and_i8_module() -> Module {
    graph(
        &[(ElemType::Fp32, &[2, 2, 2, 1]), (ElemType::Fp32, &[2, 1, 1, 1]), (ElemType::Fp32, &[2])],
        &[(ElemType::Bool, &[2, 2, 2, 2]), (ElemType::I8, &[2, 2, 2, 2])],
        |b, x| {
            let f = b.type_tensor(ElemType::Fp32, Some(&[2, 2, 2, 2]));
            let bools = b.type_tensor(ElemType::Bool, Some(&[2, 2, 2, 2]));
            let bytes = b.type_tensor(ElemType::I8, Some(&[2, 2, 2, 2]));
            let pad = b.const_i32_vector(&[0, 0, 0, 0]);
            let ones = b.const_i32_vector(&[1, 1]);
            let fp32 = b.const_u32(3);
            let no = b.const_bool(false);
            let zp = b.const_tensor(ElemType::Fp32, &[1], &[0]).expect("[1]");
            let conv = b.tosa(TosaOp::Conv2d, f, vec![pad, ones, ones, fp32, no, x[0], x[1], x[2], zp, zp]);
            let zero = b.const_tensor(ElemType::Fp32, &[1, 1, 1, 1], &[0]).expect("[1,1,1,1]");
            let ge = b.tosa(TosaOp::GreaterEqual, bools, vec![conv, zero]);
            vec![ge, b.tosa(TosaOp::Cast, bytes, vec![ge])]
        },
    )
}

/// RESIZE (nearest) of a fp32 `[1,2,1,1]` input down to `[1,1,1,1]`
/// (scale `[1, 2, 1, 1]`, border `[-1, 0]`), then PAD by one on both sides of
/// H and W.
fn resize_then_pad_module() -> Module {
    graph(&[(ElemType::Fp32, &[1, 2, 1, 1])], &[(ElemType::Fp32, &[1, 3, 3, 1])], |b, x| {
        let small = b.type_tensor(ElemType::Fp32, Some(&[1, 1, 1, 1]));
        let out = b.type_tensor(ElemType::Fp32, Some(&[1, 3, 3, 1]));
        let nearest = b.const_u32(1);
        let scale = b.const_i32_vector(&[1, 2, 1, 1]);
        let offset = b.const_i32_vector(&[0, 0]);
        let border = b.const_i32_vector(&[-1, 0]);
        let r = b.tosa(TosaOp::Resize, small, vec![nearest, x[0], scale, offset, border]);
        let padding = b.const_i32_vector(&[0, 0, 1, 1, 1, 1, 0, 0]);
        let pad_const = b.const_tensor(ElemType::Fp32, &[1], &[0]).expect("[1]");
        vec![b.tosa(TosaOp::Pad, out, vec![r, padding, pad_const])]
    })
}

/// RESCALE of an i8 `[1,1,3,4]` input to the constant -11 (multiplier 1,
/// shift 40, output zero point -11), then a 1x1 CONV2D with zero weights and
/// weight zero point -79: each output is `4 * (-11) * (0 - (-79)) = -3476`.
fn constant_channel_sum_module() -> Module {
    graph(&[(ElemType::I8, &[1, 1, 3, 4])], &[(ElemType::I32, &[1, 1, 3, 1])], |b, x| {
        let bytes = b.type_tensor(ElemType::I8, Some(&[1, 1, 3, 4]));
        let out = b.type_tensor(ElemType::I32, Some(&[1, 1, 3, 1]));
        let (no, single_round) = (b.const_bool(false), b.const_u32(1));
        let multiplier = b.const_tensor(ElemType::I16, &[1], &[1]).expect("[1]");
        let shift = b.const_tensor(ElemType::I8, &[1], &[40]).expect("[1]");
        let zero = b.const_tensor(ElemType::I8, &[1], &[0]).expect("[1]");
        let minus_11 = b.const_tensor(ElemType::I8, &[1], &[(-11i64) as u64]).expect("[1]");
        let r =
            b.tosa(TosaOp::Rescale, bytes, vec![no, single_round, no, no, no, x[0], multiplier, shift, zero, minus_11]);
        let pad = b.const_i32_vector(&[0, 0, 0, 0]);
        let ones = b.const_i32_vector(&[1, 1]);
        let int32 = b.const_u32(1);
        let weight = b.const_tensor(ElemType::I8, &[1, 1, 1, 4], &[0; 4]).expect("[1,1,1,4]");
        let bias = b.const_tensor(ElemType::I32, &[1], &[0]).expect("[1]");
        let wzp = b.const_tensor(ElemType::I8, &[1], &[(-79i64) as u64]).expect("[1]");
        vec![b.tosa(TosaOp::Conv2d, out, vec![pad, ones, ones, int32, no, r, weight, bias, zero, wzp])]
    })
}

/// CAST of an fp32 `[4]` input to fp8e4m3 and to fp8e5m2; the inputs hold
/// values just below each type's smallest normal (2^-6, 2^-14), which round
/// up to it.
fn fp8_cast_module() -> Module {
    graph(&[(ElemType::Fp32, &[4])], &[(ElemType::Fp8E4M3, &[4]), (ElemType::Fp8E5M2, &[4])], |b, x| {
        let e4m3 = b.type_tensor(ElemType::Fp8E4M3, Some(&[4]));
        let e5m2 = b.type_tensor(ElemType::Fp8E5M2, Some(&[4]));
        vec![b.tosa(TosaOp::Cast, e4m3, vec![x[0]]), b.tosa(TosaOp::Cast, e5m2, vec![x[0]])]
    })
}

/// BILINEAR RESIZE of an fp32 `[1,1,2,1]` input (one row) to `[1,1,3,1]`
/// (scale `[2, 2, 2, 1]`, offset and border 0).
fn resize_unit_height_module() -> Module {
    graph(&[(ElemType::Fp32, &[1, 1, 2, 1])], &[(ElemType::Fp32, &[1, 1, 3, 1])], |b, x| {
        let out = b.type_tensor(ElemType::Fp32, Some(&[1, 1, 3, 1]));
        let bilinear = b.const_u32(2);
        let scale = b.const_i32_vector(&[2, 2, 2, 1]);
        let zeros = b.const_i32_vector(&[0, 0]);
        vec![b.tosa(TosaOp::Resize, out, vec![bilinear, x[0], scale, zeros, zeros])]
    })
}

/// `p = ABS(x)`, `s = SCATTER(p, indices, updates)` with one update row, and
/// `ABS(updates)`, returning `s`, `p` and the last: the SCATTER's `values_in`
/// is also a graph output.
fn scatter_returned_input_module() -> Module {
    let (t, rows) = ((ElemType::Fp32, &[1u32, 2, 2][..]), (ElemType::Fp32, &[1u32, 1, 2][..]));
    graph(&[t, (ElemType::I32, &[1, 1]), rows], &[t, t, rows], |b, x| {
        let ty = b.type_tensor(ElemType::Fp32, Some(&[1, 2, 2]));
        let row = b.type_tensor(ElemType::Fp32, Some(&[1, 1, 2]));
        let p = b.tosa(TosaOp::Abs, ty, vec![x[0]]);
        let s = b.tosa(TosaOp::Scatter, ty, vec![p, x[1], x[2]]);
        vec![s, p, b.tosa(TosaOp::Abs, row, vec![x[2]])]
    })
}

/// The shape of the wide-stride MAX_POOL2D finding's input (`[N, H, W, C]`).
const WIDE_POOL_INPUT: [usize; 4] = [1, 9, 2050, 16];

/// MAX_POOL2D of an i8 `[1,9,2050,16]` input, kernel `[2, 2]`, stride
/// `[1, 2048]`, no padding: a `[1,8,2,16]` output.
fn max_pool_wide_stride_module() -> Module {
    graph(&[(ElemType::I8, &[1, 9, 2050, 16])], &[(ElemType::I8, &[1, 8, 2, 16])], |b, x| {
        let out = b.type_tensor(ElemType::I8, Some(&[1, 8, 2, 16]));
        let kernel = b.const_i32_vector(&[2, 2]);
        let stride = b.const_i32_vector(&[1, 2048]);
        let pad = b.const_i32_vector(&[0, 0, 0, 0]);
        let propagate = b.const_u32(1);
        vec![b.tosa(TosaOp::MaxPool2d, out, vec![kernel, stride, pad, propagate, x[0]])]
    })
}

/// The wide-stride MAX_POOL2D finding's input value at `(h, w, c)` (one batch).
fn wide_pool_value(h: usize, w: usize, c: usize) -> i64 {
    ((h * 7 + w * 3 + c) % 251) as i64 - 125
}

/// The fp8 CAST finding's input: just below 2^-6 (twice), just below 2^-14,
/// and 7 * 2^-9 (an fp8e4m3 subnormal, exact).
const FP8_CAST_INPUT: [f32; 4] = [0.015_419_006, -0.015_119_618, 5.5e-5, 0.013_671_875];

fn iree() -> Option<Iree> {
    for t in [Tool::IreeCompile, Tool::IreeRunModule, Tool::TosaOpt] {
        spvgraph_testkit::tool(t)?;
    }
    Some(Iree::discover())
}

fn run_iree(iree: &Iree, f: &Finding) -> (Vec<TensorData>, ExecOutcome) {
    let words = f.module.encode_words().expect("encodes");
    let gc = BTreeMap::new();
    let request = ExecRequest { module: &words, entry_point: Some("main"), inputs: &f.inputs, graph_constants: &gc };
    let ours = match Executor::default().execute(&request).expect("answers") {
        ExecOutcome::Outputs(o) => o,
        other => panic!("{}: the executor must run it: {other:?}", f.stem),
    };
    (ours, iree.execute(&request).expect("IREE answers"))
}

#[test]
fn iree_reduce_max_of_infinities_still_reproduces() {
    let Some(iree) = iree() else { return };
    let f = finding("iree-reduce-max-of-infinities");
    let (ours, theirs) = run_iree(&iree, &f);
    let inf = f64::INFINITY;
    assert_eq!(ours[0].to_f64(), [-inf, inf, 2.0]);
    assert_eq!(ours[1].to_f64(), [-inf, inf, 1.0]);
    let ExecOutcome::Outputs(theirs) = theirs else { panic!("{theirs:?}") };
    let max = f64::from(f32::MAX);
    assert_eq!(theirs[0].to_f64(), [-max, inf, 2.0], "fixed? update the finding");
    assert_eq!(theirs[1].to_f64(), [-inf, max, 1.0], "fixed? update the finding");
}

/// The finding was made, and is reproduced, compiling for the host CPU (an
/// x86-64 with AVX2 and FMA); compiled for the generic CPU (the oracle's
/// default) the same graph gives finite values (zeros, within SIN's error
/// bound at this magnitude).
#[test]
fn iree_sin_of_large_bf16_still_reproduces() {
    let Some(iree) = iree() else { return };
    let f = finding("iree-sin-of-large-bf16");
    let host = iree.clone().with_target_cpu(TargetCpu::Host);
    let (ours, theirs) = run_iree(&host, &f);
    assert!(ours[0].to_f64().iter().all(|v| v.abs() <= 1.0), "{:?}", ours[0].to_f64());
    let ExecOutcome::Outputs(theirs) = theirs else { panic!("{theirs:?}") };
    assert!(theirs[0].to_f64().iter().any(|v| v.is_infinite()), "fixed? update the finding: {:?}", theirs[0].to_f64());
    let ExecOutcome::Outputs(generic) = run_iree(&iree, &f).1 else { panic!("the generic CPU's run") };
    assert!(generic[0].to_f64().iter().all(|v| v.abs() <= 1.0), "generic: {:?}", generic[0].to_f64());
}

#[test]
fn iree_negative_i48_constant_still_reproduces() {
    let Some(iree) = iree() else { return };
    let f = finding("iree-negative-i48-constant");
    let (ours, theirs) = run_iree(&iree, &f);
    assert_eq!(ours[0].to_bits(), [(-8i64) as u64]);
    let ExecOutcome::Outputs(theirs) = theirs else { panic!("{theirs:?}") };
    assert_eq!(theirs[0].to_bits(), [(1u64 << 48) - 8], "fixed? update the finding");
}

#[test]
fn iree_fft2d_transposed_result_still_reproduces() {
    let Some(iree) = iree() else { return };
    let f = finding("iree-fft2d-transposed-result");
    match run_iree(&iree, &f).1 {
        ExecOutcome::Refused { kind: Refusal::Rejected, reason } => {
            assert!(reason.contains("linalg.yield"), "{reason}")
        }
        other => panic!("fixed? update the finding: {other:?}"),
    }
    // Without the transpose it compiles and agrees with the executor.
    let plain = Finding { module: fft_module(false), ..finding("iree-fft2d-transposed-result") };
    let (ours, theirs) = run_iree(&iree, &plain);
    let ExecOutcome::Outputs(theirs) = theirs else { panic!("{theirs:?}") };
    for (o, t) in ours.iter().zip(&theirs) {
        let close = o.to_f64().iter().zip(t.to_f64()).all(|(a, b)| (a - b).abs() < 1e-4);
        assert!(close, "{ours:?} vs {theirs:?}");
    }
}

#[test]
fn iree_transpose_conv2d_zero_taps_nan_still_reproduces() {
    let Some(iree) = iree() else { return };
    let f = finding("iree-transpose-conv2d-zero-taps-nan");
    let (ours, theirs) = run_iree(&iree, &f);
    assert_eq!(ours[0].to_f64(), [f64::INFINITY, 0.0, 0.0, 2.0]);
    let ExecOutcome::Outputs(theirs) = theirs else { panic!("{theirs:?}") };
    let seen = theirs[0].to_f64();
    assert_eq!(seen[0], f64::INFINITY, "{seen:?}");
    assert!(seen[1].is_nan() && seen[2].is_nan(), "fixed? update the finding: {seen:?}");
    assert_eq!(seen[3], 2.0, "{seen:?}");
}

#[test]
fn iree_fp8_cast_rounds_to_zero_below_min_normal_still_reproduces() {
    let Some(iree) = iree() else { return };
    let f = finding("iree-fp8-cast-rounds-to-zero-below-min-normal");
    let (ours, theirs) = run_iree(&iree, &f);
    assert_eq!(ours[0].to_bits(), [0x08, 0x88, 0x00, 0x07]);
    assert_eq!(ours[1].to_bits()[2], 0x04);
    let ExecOutcome::Outputs(theirs) = theirs else { panic!("{theirs:?}") };
    assert_eq!(theirs[0].to_bits(), [0x00, 0x80, 0x00, 0x07], "fixed? update the finding");
    let (want, seen) = (ours[1].to_bits(), theirs[1].to_bits());
    assert_eq!(seen[2], 0x00, "fixed? update the finding");
    assert_eq!([seen[0], seen[1], seen[3]], [want[0], want[1], want[3]], "only the value below 2^-14 differs");
}

#[test]
fn iree_resize_unit_height_skips_non_finite_still_reproduces() {
    let Some(iree) = iree() else { return };
    let f = finding("iree-resize-unit-height-skips-non-finite");
    let (ours, theirs) = run_iree(&iree, &f);
    let want = ours[0].to_f64();
    assert!(want[0].is_nan() && want[1].is_nan() && want[2] == 1.0, "{want:?}");
    let ExecOutcome::Outputs(theirs) = theirs else { panic!("{theirs:?}") };
    assert_eq!(theirs[0].to_f64(), [f64::INFINITY, f64::INFINITY, 1.0], "fixed? update the finding");
}

#[test]
fn iree_scatter_in_place_returned_input_still_reproduces() {
    let Some(iree) = iree() else { return };
    let f = finding("iree-scatter-in-place-returned-input");
    let (ours, theirs) = run_iree(&iree, &f);
    assert_eq!(ours[0].to_f64(), [1.0, 2.0, 7.0, 5.0]);
    assert_eq!(ours[1].to_f64(), [1.0, 2.0, 3.0, 4.0]);
    let ExecOutcome::Outputs(theirs) = theirs else { panic!("{theirs:?}") };
    assert_eq!(theirs[0].to_f64(), [1.0, 2.0, 7.0, 5.0]);
    assert_eq!(theirs[1].to_f64(), [1.0, 2.0, 7.0, 5.0], "fixed? update the finding");
    assert_eq!(theirs[2].to_f64(), [7.0, 5.0]);
}

#[test]
fn iree_max_pool2d_wide_stride_large_vector_still_reproduces() {
    let Some(iree) = iree() else { return };
    let f = finding("iree-max-pool2d-wide-stride-large-vector");
    let (ours, theirs) = run_iree(&iree, &f);
    // The maxima, computed here from the input's formula.
    let mut want = Vec::new();
    for oy in 0..8 {
        for ox in 0..2 {
            for c in 0..16 {
                let taps = [(0, 0), (0, 1), (1, 0), (1, 1)].map(|(ky, kx)| wide_pool_value(oy + ky, ox * 2048 + kx, c));
                want.push(taps.into_iter().max().map_or(0.0, |v| v as f64));
            }
        }
    }
    assert_eq!(ours[0].to_f64(), want);
    match theirs {
        ExecOutcome::Refused { kind: Refusal::Rejected, reason } => {
            assert!(reason.contains("large vector sizes"), "{reason}")
        }
        other => panic!("fixed? update the finding: {other:?}"),
    }
}

#[test]
fn iree_transpose_conv2d_int16_stride_still_reproduces() {
    let Some(iree) = iree() else { return };
    let f = finding("iree-transpose-conv2d-int16-stride");
    let (ours, theirs) = run_iree(&iree, &f);
    assert_eq!(ours[0].to_f64(), [22.0, 1.0, 36.0]);
    match theirs {
        ExecOutcome::Refused { kind: Refusal::Rejected, reason } => {
            assert!(reason.contains("tosa.reshape") && reason.contains("i48"), "{reason}")
        }
        other => panic!("fixed? update the finding: {other:?}"),
    }
}

#[test]
fn iree_constant_channel_sum_vectorized_once_still_reproduces() {
    let Some(iree) = iree() else { return };
    let f = finding("iree-constant-channel-sum-vectorized-once");
    let (ours, theirs) = run_iree(&iree, &f);
    assert_eq!(ours[0].to_f64(), [-3476.0; 3]);
    let ExecOutcome::Outputs(theirs) = theirs else { panic!("{theirs:?}") };
    assert_eq!(theirs[0].to_f64(), [-869.0; 3], "fixed? update the finding");
}

#[test]
fn iree_scatter_reused_input_still_reproduces() {
    iree_refuses(
        "iree-scatter-reused-input-circular-dependency",
        &[0.0, -35.0, 0.0, -73.0],
        "circular dependency: input operation uses partition output",
    );
}

#[test]
fn iree_conv_bool_and_i8_outputs_still_reproduces() {
    iree_refuses(
        "iree-conv-bool-and-i8-outputs",
        &[1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0],
        "write affecting operations on global resources are restricted to workgroup distributed contexts",
    );
}

#[test]
fn iree_resize_to_1x1_then_pad_still_reproduces() {
    iree_refuses(
        "iree-resize-to-1x1-then-pad",
        &[0.0, 0.0, 0.0, 0.0, 3.0, 0.0, 0.0, 0.0, 0.0],
        "expected rank to be smaller or equal to the other rank",
    );
}

/// IREE refuses `stem` at compile time with `message`, where the in-tree
/// executor computes `expected` as the first output.
fn iree_refuses(stem: &str, expected: &[f64], message: &str) {
    let Some(iree) = iree() else { return };
    let f = finding(stem);
    let (ours, theirs) = run_iree(&iree, &f);
    assert_eq!(ours[0].to_f64(), expected);
    match theirs {
        ExecOutcome::Refused { kind: Refusal::Rejected, reason } => assert!(reason.contains(message), "{reason}"),
        other => panic!("fixed? update the finding: {other:?}"),
    }
    let known = spvgraph_oracle::external::iree::IREE_KNOWN;
    assert!(
        known
            .iter()
            .any(|k| k.finding.ends_with(&format!("{stem}.spv")) && k.message.is_some_and(|m| message.contains(m))),
        "{stem}: documented with a message the judge matches"
    );
}

#[test]
fn iree_conv2d_int16_weight_zero_point_still_reproduces() {
    iree_refuses(
        "iree-conv2d-int16-weight-zero-point",
        &[20.0],
        "'arith.muli' op requires the same type for all operands and results",
    );
}

#[test]
fn iree_depthwise_conv2d_int16_1x1_still_reproduces() {
    iree_refuses(
        "iree-depthwise-conv2d-int16-1x1",
        &[21.0, 10.0],
        "'tosa.cast' op illegal: operation operand/result data types did not align with any profile or extension, got (i16,i48)",
    );
}
