//! model-converter and IREE bugs found by the hand hunt
//! (`cargo run --release -p spvgraph-oracle --example producer_executor_hunt`),
//! kept as corpus findings (`corpus/findings/model-converter-*`, `iree-*`:
//! `.spv`, `.spvasm`, `.mlir`, `.json` manifest, `.npy` inputs, a `.md`
//! note, and for model-converter the module it produced,
//! `.produced.spv`/`.produced.spvasm`), each made by hand as small as it
//! goes, and checked here: each still reproduces with the pinned tools
//! (when one stops reproducing, update or retire the finding), and the
//! adapters classify it as the finding says.
//!
//! Regenerate the files with
//! `cargo run --release -p spvgraph-oracle --example write_findings -- external`.

use spvgraph_generator::files::{write_case, Extras};
use spvgraph_generator::{Case, CaseMeta, EntryPoint, InputTensor, InterfaceSlot};
use spvgraph_ir::builder::ModuleBuilder;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::{Id, Module};
use spvgraph_oracle::exec::{self, Executor};
use spvgraph_oracle::external::iree::{Iree, TargetCpu};
use spvgraph_oracle::external::model_converter::ModelConverter;
use spvgraph_oracle::external::spirv_val::SpirvVal;
use spvgraph_oracle::oracle::{
    ExecOutcome, ExecRequest, Oracle, ProduceOutcome, ProduceRequest, Refusal, ValidateOptions, Verdict,
};
use spvgraph_oracle::oracle::{Executor as _, Producer as _, Validator as _};
use spvgraph_oracle::tools::{Tool, Tools};
use spvgraph_oracle::validate::Validator;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn findings_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/findings")
}

fn tensor(elem: ElemType, shape: &[usize], bits: &[u64]) -> TensorData {
    TensorData::from_bits(elem, shape, bits).expect("shape matches")
}

fn f32s(shape: &[usize], values: &[f32]) -> TensorData {
    let bits: Vec<u64> = values.iter().map(|v| u64::from(v.to_bits())).collect();
    tensor(ElemType::Fp32, shape, &bits)
}

/// A graph `main` with these input and output tensor types, whose body
/// `body` builds from the graph inputs and returns the output values.
fn graph(
    inputs: &[(ElemType, &[u32])],
    outputs: &[(ElemType, &[u32])],
    body: impl FnOnce(&mut ModuleBuilder, &[Id]) -> Vec<Id>,
) -> Module {
    let mut b = ModuleBuilder::new();
    let ins: Vec<Id> = inputs.iter().map(|(e, s)| b.type_tensor(*e, Some(s))).collect();
    let outs: Vec<Id> = outputs.iter().map(|(e, s)| b.type_tensor(*e, Some(s))).collect();
    let gty = b.type_graph(&ins, &outs);
    let vars: Vec<Id> =
        ins.iter().chain(&outs).enumerate().map(|(i, &t)| b.interface_variable(t, 0, i as u32)).collect();
    // Constants the body needs are declared before the graph begins.
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "main", vars);
    let args: Vec<Id> = ins.iter().enumerate().map(|(i, &t)| b.graph_input(t, i as u32, None)).collect();
    let results = body(&mut b, &args);
    for (j, r) in results.into_iter().enumerate() {
        b.graph_output(r, j as u32, None);
    }
    b.end_graph();
    b.finish()
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

/// FFT2D of a `1x4x4` fp32 pair; with `transpose`, the imaginary part is
/// returned transposed (`perms = [0, 2, 1]`).
fn fft_module(transpose: bool) -> Module {
    let t = (ElemType::Fp32, &[1u32, 4, 4][..]);
    graph(&[t, t], &[t, t], |b, x| {
        let ty = b.type_tensor(ElemType::Fp32, Some(&[1, 4, 4]));
        let pair = b.type_struct(vec![ty, ty]);
        let no = b.const_bool(false);
        let fft = b.tosa(TosaOp::Fft2d, pair, vec![no, no, x[0], x[1]]);
        let re = b.composite_extract(ty, fft, 0);
        let im = b.composite_extract(ty, fft, 1);
        if transpose {
            let perms = b.const_i32_vector(&[0, 2, 1]);
            vec![re, b.tosa(TosaOp::Transpose, ty, vec![perms, im])]
        } else {
            vec![re, im]
        }
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

/// MUL of a `4` fp32 tensor by a constant of zeros.
fn mul_by_zero_module() -> Module {
    let t = (ElemType::Fp32, &[4u32][..]);
    graph(&[t], &[t], |b, x| {
        let ty = b.type_tensor(ElemType::Fp32, Some(&[4]));
        let zeros = b.const_tensor(ElemType::Fp32, &[4], &[0; 4]).expect("[4]");
        let shift = b.const_tensor(ElemType::I8, &[1], &[0]).expect("[1]");
        vec![b.tosa(TosaOp::Mul, ty, vec![x[0], zeros, shift])]
    })
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

/// ABS of a `2x3` fp32 tensor.
fn abs_module() -> Module {
    let t = (ElemType::Fp32, &[2u32, 3][..]);
    graph(&[t], &[t], |b, x| {
        let ty = b.type_tensor(ElemType::Fp32, Some(&[2, 3]));
        vec![b.tosa(TosaOp::Abs, ty, vec![x[0]])]
    })
}

struct Finding {
    stem: &'static str,
    module: Module,
    inputs: Vec<TensorData>,
    /// For model-converter findings: write the module it makes with `--emit-debug-info`.
    produced_with_debug_info: bool,
    note: &'static str,
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

fn findings() -> Vec<Finding> {
    let inf = f32::INFINITY;
    let fft_inputs = || vec![f32s(&[1, 4, 4], &[1.0; 16]), f32s(&[1, 4, 4], &[0.0; 16])];
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
        Finding {
            stem: "model-converter-opline-in-graph-body",
            module: fft_module(false),
            inputs: fft_inputs(),
            produced_with_debug_info: true,
            note: OPLINE_NOTE,
        },
        Finding {
            stem: "model-converter-folds-float-mul-by-zero",
            module: mul_by_zero_module(),
            inputs: vec![f32s(&[4], &[inf, -inf, f32::NAN, -2.0])],
            produced_with_debug_info: false,
            note: MUL_ZERO_NOTE,
        },
        Finding {
            stem: "model-converter-debuginfo-after-graph-end",
            module: abs_module(),
            inputs: vec![f32s(&[2, 3], &[-1.0, 2.0, -3.0, 4.0, -5.0, 6.0])],
            produced_with_debug_info: true,
            note: DEBUGINFO_NOTE,
        },
    ]
}

const SIN_NOTE: &str = "# IREE: SIN of large bf16 values is infinite

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

const REDUCE_NOTE: &str = "# IREE: REDUCE_MAX of -inf values is -FLT_MAX, REDUCE_MIN of +inf values is FLT_MAX

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
`oracle/tests/it/external_findings.rs` checks that it still reproduces.
";

const I48_NOTE: &str = "# IREE: a negative i48 constant becomes a large positive i64

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

const FFT_NOTE: &str = "# IREE: FFT2D with one result transposed does not compile

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

const TRANSPOSE_CONV_NOTE: &str = "# IREE: strided TRANSPOSE_CONV2D with int16 input (EXT-INT16) does not compile

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

const ZERO_TAPS_NOTE: &str = "# IREE: floating-point TRANSPOSE_CONV2D gives NaN where TOSA gives the bias

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

const SCATTER_NOTE: &str = "# IREE: SCATTER whose input is computed in the graph and read again does not compile

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

const CONV_BOOL_NOTE: &str = "# IREE: a CONV2D compared and returned both as bool and as i8 does not compile

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

const RESIZE_PAD_NOTE: &str = "# IREE: RESIZE down to 1x1 followed by a PAD in H and W does not compile

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

const CHANNEL_SUM_NOTE: &str = "# IREE: a convolution with a weight zero point over a constant input is 4 times too small

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

/// The fp8 CAST finding's input: just below 2^-6 (twice), just below 2^-14,
/// and 7 * 2^-9 (an fp8e4m3 subnormal, exact).
const FP8_CAST_INPUT: [f32; 4] = [0.015_419_006, -0.015_119_618, 5.5e-5, 0.013_671_875];

const FP8_CAST_NOTE: &str = "# IREE: a CAST to fp8 of a value just below the smallest normal gives zero

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

const RESIZE_UNIT_NOTE: &str = "# IREE: BILINEAR RESIZE of a one-row input gives inf where TOSA gives NaN

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

const SCATTER_IN_PLACE_NOTE: &str = "# IREE: a tensor updated in place by a one-row SCATTER and also returned is returned updated

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

const WIDE_POOL_NOTE: &str = "# IREE: MAX_POOL2D with a wide stride does not compile (large vector sizes)

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

const CONV_WZP_NOTE: &str = "# IREE: int16 CONV2D with a non-zero weight zero point does not compile

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

const DEPTHWISE_NOTE: &str = "# IREE: int16 DEPTHWISE_CONV2D with a 1x1 kernel does not compile

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

const OPLINE_NOTE: &str = "# model-converter: with --emit-debug-info, OpLine inside a graph body

**Belongs to:** upstream MLIR (llvm-project). **Status:** open. The reproducer of `model-converter-opline-in-graph-body.json` (`upstream.reproduce`) is run by `tests/it/upstream_reproducers.rs`.

model-converter 0.11.0 (`ai-ml-sdk-model-converter`) with `--emit-debug-info`
emits an `OpLine` before each `OpCompositeExtract` that reads a result of a
two-result operator (FFT2D, RFFT2D) inside the graph body:

    %26 = OpExtInst %_struct_25 %tosa FFT2D %false %false %graph_partition_0_in0 %graph_partition_0_in1
          OpLine %1 3 10
    %30 = OpCompositeExtract %tensor_float_1x4x4 %26 0

SPV_ARM_graph (revision 3, the newest): \"A graph definition may only contain
OpGraphInputARM, OpGraphSetOutputARM, OpExtInst, OpCompositeExtract\". The
module is invalid: spirv-val 2025.5 and SPIRV-Tools main (August 2026) both
reject it (`OpLine cannot appear in the graph definitions section`), and so
does spvgraph's validator (`layout.graph.body-instruction`). Without
`--emit-debug-info` the module is valid. The `.produced.spv` file is what
model-converter made of `model-converter-opline-in-graph-body.mlir`.

Reproduce:

    model-converter -i model-converter-opline-in-graph-body.mlir -o g.vgf --emit-debug-info
    vgf_dump -i g.vgf -o g.spv --dump-spirv 0
    spirv-val --target-env vulkan1.3 g.spv

Expected: exit status 0. Seen: `error: line 57: OpLine cannot appear in the
graph definitions section`. Whose bug: upstream MLIR's SPIR-V serializer, which
model-converter calls unchanged (`src/conversion/serialize_vgf.cpp` passes
`emitDebugInfo` to `mlir::spirv::serialize`; its LLVM patch does not touch the
serializer). The op serializers mlir-tblgen generates emit an OpLine before every
non-OpExtInst instruction, and graph bodies go through the same path as function
bodies, so each `spirv.CompositeExtract` in a graph gets one; the TOSA OpExtInsts take
another path and get none. In MLIR's own terms: `model-converter-opline-in-graph-body.lit.mlir`
(`mlir-translate --serialize-spirv --spirv-save-debug-info`, then `spirv-val`; not run
here: no `mlir-translate` in the pinned tools).
";

const MUL_ZERO_NOTE: &str = "# model-converter: folds a floating-point MUL by zero to the constant zero

**Belongs to:** upstream MLIR (llvm-project). **Status:** open. The reproducer of `model-converter-folds-float-mul-by-zero.json` (`upstream.reproduce`) is run by `tests/it/upstream_reproducers.rs`.

model-converter 0.11.0 folds `tosa.mul %x, %zeros` (fp32, `%zeros` a constant
of `0.0`) into the constant `0.0`: the module it makes has no MUL and returns
`OpConstantNull` whatever the input. TOSA MUL on floating point is IEEE
multiplication: `inf * 0`, `-inf * 0` and `NaN * 0` are NaN, and `-2 * 0` is
`-0`. For the input `[inf, -inf, NaN, -2]` the graph's result is
`[NaN, NaN, NaN, -0]` (spvgraph's executor and the TOSA reference model);
the converted module returns `[0, 0, 0, 0]`. The fold is only valid for
integers (or under fast-math assumptions TOSA does not make).

Found by the hunt: a CAST of a constant fp8 zero, added to itself, then
multiplied by a graph input was folded away, and the module returned +0
where the case returned -0 for every negative input.

Module: `model-converter-folds-float-mul-by-zero.spv` (`.mlir`); the
`.produced.spv` is what model-converter made of the `.mlir`. Reproduce:

    model-converter -i model-converter-folds-float-mul-by-zero.mlir -o g.vgf
    vgf_dump -i g.vgf -o g.spv --dump-spirv 0
    spirv-dis g.spv | grep -A3 OpGraphInputARM

Expected: an `OpExtInst ... MUL` (or a fold that keeps NaN and the sign of
zero). Seen: `OpGraphSetOutputARM %null_tensor_float_4 %uint_0`. Whose bug:
upstream MLIR's `tosa::MulOp::fold` (`mlir/lib/Dialect/Tosa/IR/TosaCanonicalizations.cpp`
returns the zero splat when an operand is a splat of zero, for floats too), which
model-converter and IREE both run: IREE 3.13.0 returns `[0, 0, 0, 0]` for the same
input, and upstream's canonicalizer alone (`iree-opt --canonicalize` on the generic
form) folds the MUL away. The `-0` of `-2 * 0` is no violation on its own (TOSA lets
either zero sign pass); `inf * 0` and `NaN * 0`, which must be NaN, are. In MLIR's own
terms: `model-converter-folds-float-mul-by-zero.lit.mlir` (`mlir-opt --canonicalize`;
`upstream.reproduce_mlir` runs it in `iree-opt`). `oracle/tests/it/external_findings.rs` runs both modules on the in-tree
executor and checks that the results differ as described.
";

const DEBUGINFO_NOTE: &str =
    "# model-converter: NonSemantic.Graph.DebugInfo after OpGraphEndARM (validators stricter than the specification)

**Belongs to:** SPIRV-Tools. **Status:** fixed upstream, in SPIRV-Tools v2026.3 (#6666); upstream: KhronosGroup/SPIRV-Tools#6666. The reproducer of `model-converter-debuginfo-after-graph-end.json` (`upstream.reproduce`) is run by `tests/it/upstream_reproducers.rs`.

model-converter 0.11.0 with `--emit-debug-info` places every
`NonSemantic.Graph.DebugInfo` instruction (DebugGraph, DebugOperation,
DebugTensor) after the graph's `OpGraphEndARM`, at module level in the graph
section. spirv-val 2025.5 rejects that (`OpExtInst must appear in a graph
body`); spvgraph's rule catalogue did too (`layout.graph-section.outside-graph`)
until it followed SPIRV-Tools main, and accepts it now.

Who is right: the newest texts do not forbid it. SPV_ARM_graph (revision 3)
says only that the graph section holds graph definitions and entry points;
SPV_KHR_non_semantic_info makes non-semantic instructions valid \"from section
9 onwards\", outside functions too; NonSemantic.Graph.DebugInfo (revision 1)
says nothing about placement. SPIRV-Tools main accepts non-semantic
instructions anywhere in the graph section since it added
NonSemantic.Graph.DebugInfo (KhronosGroup/SPIRV-Tools #6666, May 2026): the
same module is valid for spirv-val built from main (August 2026). So this is
a spirv-val 2025.5 bug (fixed upstream), not a model-converter bug. It is
documented with spirv-val's rejections of valid modules
(`spvgraph_oracle::external::known::SPIRV_VAL_REJECTS_VALID`).

The debug instructions also refer to ids defined inside the graph (its
inputs and operation results) from outside it; the specification does not
say whether graph-local ids are visible there, and SPIRV-Tools main accepts
it.

A second, minor problem: the order of the `DebugOperation`s (and of their
`OpString`s) changes from run to run, following heap addresses; under
`setarch -R` (no address-space randomisation) the output is reproducible,
and the spvgraph adapter runs model-converter that way.

Reproduce:

    model-converter -i model-converter-debuginfo-after-graph-end.mlir -o g.vgf --emit-debug-info
    vgf_dump -i g.vgf -o g.spv --dump-spirv 0
    spirv-val --target-env vulkan1.3 g.spv

Seen with 2025.5: `OpExtInst must appear in a graph body`; with SPIRV-Tools
main: valid. The `.produced.spv` file is the module model-converter made.
";

fn build(f: &Finding) -> Case {
    let iface = exec::interface(&f.module, Some("main")).expect("an entry point");
    let slot = |p: &exec::Port, binding: u32| InterfaceSlot {
        index: p.index,
        element: p.element,
        elem: p.elem,
        shape: p.shape.iter().map(|&d| d as u32).collect(),
        descriptor_set: 0,
        binding,
        used: true,
    };
    let inputs = iface
        .inputs
        .iter()
        .zip(&f.inputs)
        .enumerate()
        .map(|(i, (p, t))| InputTensor { slot: slot(p, i as u32), data: t.clone() })
        .collect();
    let n = iface.inputs.len() as u32;
    let outputs = iface.outputs.iter().enumerate().map(|(j, p)| slot(p, n + j as u32)).collect();
    let a = spvgraph_ir::analysis::Analysis::new(&f.module);
    let meta = CaseMeta {
        ops: a.tosa_ops().into_iter().collect(),
        graphs: 1,
        nodes: a.tosa_histogram().values().sum(),
        ..CaseMeta::default()
    };
    Case {
        module: f.module.clone(),
        entry_points: vec![EntryPoint { name: "main".into(), graph: 0, inputs, outputs }],
        graph_constants: BTreeMap::new(),
        meta,
    }
}

fn mlir(f: &Finding) -> String {
    spvgraph_ir::mlir::module_to_mlir(&f.module, "main", &BTreeMap::new()).expect("prints")
}

fn produce(mc: &ModelConverter, f: &Finding) -> Vec<u32> {
    try_produce(mc, f).unwrap_or_else(|e| panic!("{e}"))
}

fn try_produce(mc: &ModelConverter, f: &Finding) -> Result<Vec<u32>, String> {
    let text = mlir(f);
    match mc.produce(&ProduceRequest { mlir: &text, debug_info: f.produced_with_debug_info }) {
        Ok(ProduceOutcome::Module { words, .. }) => Ok(words),
        other => Err(format!("{}: expected a module, got {other:?}", f.stem)),
    }
}

/// Writes this file's findings into `corpus/findings/` (the example
/// `write_findings`; the tests here check what it wrote).
pub fn write_findings() {
    let dir = findings_dir();
    std::fs::create_dir_all(&dir).expect("findings dir");
    let mc = ModelConverter::discover();
    for f in findings() {
        let case = build(&f);
        write_case(&dir, f.stem, &case, &Extras { spvasm: true, mlir: true }).expect("write case");
        std::fs::write(dir.join(format!("{}.md", f.stem)), note(&f)).expect("write note");
        if f.stem.starts_with("model-converter-") {
            let words = produce(&mc, &f);
            let m = Module::decode_words(&words).expect("decodes");
            let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            std::fs::write(dir.join(format!("{}.produced.spv", f.stem)), bytes).expect("write");
            std::fs::write(dir.join(format!("{}.produced.spvasm", f.stem)), spvgraph_ir::text::disassemble(&m))
                .expect("write");
        }
    }
}

/// Whether each model-converter finding still shows with the dev channel's
/// pre-release (`ci/setup-oracles --channel dev`, pinned in
/// `ci/oracle-pins`), as its note says; the tests below check it on every
/// installed model-converter.
const ON_DEV: &[(&str, bool)] = &[
    ("model-converter-opline-in-graph-body", true),
    ("model-converter-folds-float-mul-by-zero", true),
    ("model-converter-debuginfo-after-graph-end", true),
];

/// The release and dev versions the notes name (the pins of `ci/oracle-pins`).
const RELEASE_VERSION: &str = "0.11.0";
const DEV_VERSION: &str = "0.12.0.dev20261024";

/// A finding's note: its text, and for a model-converter finding which
/// versions show it.
fn note(f: &Finding) -> String {
    let Some((_, on_dev)) = ON_DEV.iter().find(|(s, _)| *s == f.stem) else { return f.note.to_string() };
    format!(
        "{}\n**Versions.** ai-ml-sdk-model-converter {RELEASE_VERSION} (the release channel) shows it; \
         {DEV_VERSION} (the dev channel, Arm's pre-release: `ci/setup-oracles --channel dev`) {}. \
         `oracle/tests/it/external_findings.rs` checks every installed version.\n",
        f.note,
        if *on_dev { "still shows it" } else { "no longer shows it" }
    )
}

/// Every installed model-converter: the release's, then the dev channel's
/// (skipped with a notice when that channel is not installed; under
/// `CI=true`, which installs it, a failure), with its version.
fn converters() -> Vec<(ModelConverter, String, bool)> {
    let Some(release) = converter() else { return Vec::new() };
    let tools = Tools::discover();
    let version = |t: &Tools| {
        t.package_version(Tool::ModelConverter)
            .and_then(|v| v.split(' ').nth(1).map(str::to_string))
            .unwrap_or_default()
    };
    let mut out = vec![(release, version(&tools), false)];
    match tools.channel("dev") {
        Ok(dev) => out.push((ModelConverter::from_config(&dev, None), version(&dev), true)),
        Err(e) if Tools::required() => panic!("CI=true and {e}"),
        Err(e) => eprintln!("skipping the dev channel: {e}"),
    }
    for (_, v, dev) in &out {
        let pinned = if *dev { DEV_VERSION } else { RELEASE_VERSION };
        assert_eq!(v, pinned, "the notes name {pinned}: check every finding with {v} and update ON_DEV and the notes");
    }
    out
}

/// Checks that `shows` holds for a model-converter finding on the release and
/// on the dev channel as [`ON_DEV`] says.
fn check_converters(stem: &str, shows: impl Fn(&ModelConverter, &Finding) -> Result<(), String>) {
    let f = finding(stem);
    let on_dev = ON_DEV.iter().find(|(s, _)| *s == stem).map(|(_, d)| *d).expect("in ON_DEV");
    for (mc, version, dev) in converters() {
        let expected = !dev || on_dev;
        match (shows(&mc, &f), expected) {
            (Ok(()), true) | (Err(_), false) => {}
            (Ok(()), false) => panic!("{stem} shows with model-converter {version} again: update ON_DEV and the note"),
            (Err(e), true) => panic!("{stem} no longer shows with model-converter {version} ({e}): update the finding"),
        }
    }
}

fn finding(stem: &str) -> Finding {
    findings().into_iter().find(|f| f.stem == stem).expect("listed")
}

#[test]
fn documented_discrepancies_point_at_stored_findings() {
    let mc = spvgraph_oracle::external::model_converter::MODEL_CONVERTER_KNOWN;
    for k in mc.iter().chain(spvgraph_oracle::external::iree::IREE_KNOWN) {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(k.finding);
        assert!(path.is_file(), "{}", path.display());
    }
}

#[test]
fn stored_findings_are_the_modules_built_here() {
    for f in findings() {
        let stored = std::fs::read(findings_dir().join(format!("{}.spv", f.stem))).expect("stored .spv");
        assert_eq!(
            stored,
            f.module.encode_bytes().expect("encodes"),
            "{}: regenerate with `cargo run --release -p spvgraph-oracle --example write_findings -- external`",
            f.stem
        );
        let md = std::fs::read_to_string(findings_dir().join(format!("{}.md", f.stem))).expect("stored .md");
        assert_eq!(
            md,
            note(&f),
            "{}: regenerate with `cargo run --release -p spvgraph-oracle --example write_findings -- external`",
            f.stem
        );
        let v = Validator::new(ValidateOptions::default())
            .check_words(&f.module.encode_words().expect("encodes"))
            .verdict();
        assert!(v.is_valid(), "{}: the finding's own module must be valid: {v:?}", f.stem);
    }
}

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

#[test]
fn model_converter_folds_float_mul_by_zero_still_reproduces() {
    check_converters("model-converter-folds-float-mul-by-zero", folds_mul_by_zero);
}

/// The converter folds the MUL away, and the module it makes returns +0
/// where the case returns NaN and -0 (checked on the in-tree executor and,
/// where installed, by the compliance rules against the reference model).
fn folds_mul_by_zero(mc: &ModelConverter, f: &Finding) -> Result<(), String> {
    let text = mlir(f);
    let produced = mc.produce(&ProduceRequest { mlir: &text, debug_info: false }).map_err(|e| e.to_string())?;
    let words = f.module.encode_words().expect("encodes");
    let gc = BTreeMap::new();
    let request = ExecRequest { module: &words, entry_point: Some("main"), inputs: &f.inputs, graph_constants: &gc };
    let run = spvgraph_oracle::produced::ProducedRun::new(&request, &produced).map_err(|e| format!("{e:?}"))?;
    let folded = spvgraph_oracle::produced::ProducerNote::OperatorCount { op: TosaOp::Mul, case: 1, produced: 0 };
    if !run.operator_notes().contains(&folded) {
        return Err(format!("the MUL is kept: {:?}", run.operator_notes()));
    }
    let ExecOutcome::Outputs(ours) = Executor::default().execute(&request).expect("answers") else { panic!() };
    let ExecOutcome::Outputs(out) = Executor::default().execute(&run.request()).expect("answers") else { panic!() };
    let theirs = run.case_outputs(&out).expect("maps back");
    let ours = ours[0].to_f64();
    assert!(ours[..3].iter().all(|v| v.is_nan()) && ours[3] == 0.0 && ours[3].is_sign_negative(), "{ours:?}");
    let theirs = theirs[0].to_f64();
    if !theirs.iter().all(|v| *v == 0.0 && v.is_sign_positive()) {
        return Err(format!("the produced module returns {theirs:?}"));
    }
    // The compliance rules reject it too.
    let reference = spvgraph_oracle::external::tosa_reference::TosaReferenceModel::discover();
    if reference.available().is_ok() {
        let precise = reference.execute_precise(&request).expect("answers");
        let verdict = spvgraph_oracle::compliance::compare_run(
            &request,
            &precise,
            "model-converter",
            Ok(ExecOutcome::Outputs(run.case_outputs(&out).expect("maps"))),
        );
        assert!(matches!(verdict, Ok(spvgraph_oracle::compliance::Agreement::Mismatch { .. })), "{verdict:?}");
    }
    Ok(())
}

fn converter() -> Option<ModelConverter> {
    for t in [Tool::ModelConverter, Tool::VgfDump] {
        spvgraph_testkit::tool(t)?;
    }
    Some(ModelConverter::discover())
}

fn rules(v: &Verdict) -> Vec<RuleId> {
    let mut r: Vec<RuleId> = match v {
        Verdict::Valid => Vec::new(),
        Verdict::Invalid(d) => d.iter().filter_map(|d| d.rule).collect(),
    };
    r.sort();
    r.dedup();
    r
}

/// Both validators' rules for a produced module (spirv-val's only when it is installed).
fn verdicts(words: &[u32]) -> (Vec<RuleId>, Option<Vec<RuleId>>) {
    let ours = rules(&Validator::new(ValidateOptions::default()).check_words(words).verdict());
    let sv = SpirvVal::discover();
    let theirs = match sv.available() {
        Ok(()) => Some(rules(&sv.validate(words, &ValidateOptions::default()).expect("answers"))),
        Err(e) if Tools::required() => panic!("CI=true and {e}"),
        Err(_) => None,
    };
    (ours, theirs)
}

#[test]
fn model_converter_opline_in_graph_body_still_reproduces() {
    check_converters("model-converter-opline-in-graph-body", |mc, f| {
        let (ours, theirs) = verdicts(&try_produce(mc, f)?);
        if !ours.contains(&RuleId::LayoutGraphBodyInstruction) {
            return Err(format!("the in-tree validator finds {ours:?}"));
        }
        if let Some(theirs) = theirs {
            assert!(theirs.contains(&RuleId::LayoutGraphBodyInstruction), "{theirs:?}");
        }
        // Without debug info the same graph converts to a valid module.
        let plain = Finding { produced_with_debug_info: false, ..finding(f.stem) };
        assert_eq!(verdicts(&produce(mc, &plain)).0, []);
        Ok(())
    });
}

#[test]
fn model_converter_debuginfo_after_graph_end_still_reproduces() {
    check_converters("model-converter-debuginfo-after-graph-end", |mc, f| {
        let words = try_produce(mc, f)?;
        let (ours, theirs) = verdicts(&words);
        // The in-tree catalogue follows SPIRV-Tools main: non-semantic instructions may stand
        // anywhere in the graph section. Only spirv-val 2025.5 still rejects the module.
        assert_eq!(ours, [], "changed? update the finding");
        if let Some(theirs) = theirs {
            if theirs != [RuleId::LayoutGraphSectionOutsideGraph] {
                return Err(format!("spirv-val finds {theirs:?}"));
            }
        }
        Ok(())
    });
    // The stored module is the release's.
    let Some(mc) = converter() else { return };
    let f = finding("model-converter-debuginfo-after-graph-end");
    let words = produce(&mc, &f);
    let stored = std::fs::read(findings_dir().join(format!("{}.produced.spv", f.stem))).expect("stored");
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    assert_eq!(stored, bytes, "model-converter's output changed: regenerate with `cargo run --release -p spvgraph-oracle --example write_findings -- external`");
}
