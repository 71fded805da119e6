//! TOSA level limits (REQUIREs, reported as warnings): ranks, tensor sizes,
//! kernel/stride/pad sizes, RESIZE scale and CONCAT list length.

use super::super::context::Cx;
use super::shapes::declared_shape;
use super::Facts;
use crate::oracle::Level;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::tosa::{Form, ShapeArg, ShapeInputs, ShapeRule, TosaOp};

/// The limits of a level (TOSA 1.0 levels table).
struct Limits {
    rank: usize,
    kernel: i64,
    stride: i64,
    scale: i64,
    log2_size: u32,
    list: usize,
}

fn limits(level: Level) -> Limits {
    match level {
        Level::EightK => Limits { rank: 6, kernel: 8192, stride: 8192, scale: 256, log2_size: 31, list: 64 },
        Level::None => {
            Limits { rank: 32, kernel: (1 << 31) - 1, stride: (1 << 31) - 1, scale: 2048, log2_size: 63, list: 256 }
        }
    }
}

/// Bytes per element as TOSA counts them (i48 is six bytes).
fn elem_bytes(e: ElemType) -> u128 {
    match e {
        ElemType::I48 => 6,
        other => u128::from(other.storage_bits() / 8).max(1),
    }
}

fn shape(inputs: &ShapeInputs, index: usize) -> Option<&[u32]> {
    match inputs.args.get(index)? {
        ShapeArg::Tensor(s) => Some(s),
        _ => None,
    }
}

fn ints(inputs: &ShapeInputs, i: usize) -> Option<&[i64]> {
    match inputs.args.get(i)? {
        ShapeArg::Ints(v) => Some(v),
        _ => None,
    }
}

fn named(f: &Facts, name: &str) -> Option<usize> {
    f.op.spec().operand_named(name).map(|(i, _)| i)
}

/// The kernel sizes a convolution's level check multiplies by its dilation,
/// taken from the weight layout of each operator: the sizes and how many
/// there are.
fn kernel_dims(op: TosaOp, weight: &[u32]) -> ([u32; 3], usize) {
    match (op.spec().shape, weight) {
        (ShapeRule::Conv2d | ShapeRule::TransposeConv2d, [_, kh, kw, _]) => ([*kh, *kw, 0], 2),
        (ShapeRule::DepthwiseConv2d, [kh, kw, _, _]) => ([*kh, *kw, 0], 2),
        (ShapeRule::Conv3d, [_, kd, kh, kw, _]) => ([*kd, *kh, *kw], 3),
        _ => ([0; 3], 0),
    }
}

/// The tensor operands and results of an instruction: shape (when known)
/// and element type.
fn tensors<'a>(
    f: &'a Facts,
    inputs: &'a ShapeInputs,
    declared: &'a [Vec<u32>],
) -> impl Iterator<Item = (Option<&'a [u32]>, Option<ElemType>)> + 'a {
    let spec = f.op.spec();
    let operands = f
        .operands
        .iter()
        .enumerate()
        .filter(move |(k, _)| matches!(spec.operand(*k).map(|s| s.form), Some(Form::Tensor { .. })))
        .map(move |(k, o)| (shape(inputs, k), o.elem));
    let results = f.results.iter().enumerate().map(move |(j, r)| (declared_shape(f, declared, j), r.elem));
    operands.chain(results)
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}

/// Runs the level checks of one instruction; `seen` holds the tensors
/// (shape, element type) whose size was already reported (each once).
pub fn check(
    cx: &mut Cx<'_>,
    f: &Facts,
    inputs: &ShapeInputs,
    declared: &[Vec<u32>],
    seen: &mut Vec<(Vec<u32>, ElemType)>,
) {
    let lim = limits(cx.level());
    let spec = f.op.spec();
    let op = f.op;
    // Ranks and sizes of tensor operands and results.
    if let Some((s, _)) = tensors(f, inputs, declared).find(|(s, _)| s.is_some_and(|s| s.len() > lim.rank)) {
        let r = s.map_or(0, <[u32]>::len);
        cx.at(f.at, RuleId::LevelRank, format!("{op}: a tensor of rank {r} exceeds MAX_RANK = {}", lim.rank));
    }
    for (s, e) in tensors(f, inputs, declared) {
        let (Some(s), Some(e)) = (s, e) else { continue };
        let count = s.iter().try_fold(1u128, |a, &d| a.checked_mul(u128::from(d)));
        let bytes = count.and_then(|c| c.checked_mul(elem_bytes(e)));
        if bytes.is_some_and(|b| b < 1u128 << lim.log2_size) {
            continue;
        }
        let key = (s.to_vec(), e);
        if !seen.contains(&key) {
            seen.push(key);
            cx.at(
                f.at,
                RuleId::LevelTensorSize,
                format!("{op}: a {e} tensor of shape {s:?} is 2^{} bytes or more", lim.log2_size),
            );
        }
    }
    let over = |values: &[i64], max: i64| values.iter().copied().find(|v| *v > max);
    // One pass over the operands by name: these are the attributes the level
    // table limits (kernel sizes, pads, strides) and the weight whose kernel
    // dimensions the dilation multiplies.
    let mut weight: Option<&[u32]> = None;
    let mut dilation: Option<&[i64]> = None;
    for (k, ospec) in spec.operands.iter().enumerate() {
        let (limit, rule, what) = match ospec.name {
            "kernel" => (lim.kernel, RuleId::LevelKernel, "MAX_KERNEL"),
            "pad" | "out_pad" => (lim.kernel, RuleId::LevelKernel, "MAX_KERNEL"),
            "stride" => (lim.stride, RuleId::LevelStride, "MAX_STRIDE"),
            "weight" => {
                weight = shape(inputs, k);
                continue;
            }
            "dilation" => {
                dilation = ints(inputs, k);
                continue;
            }
            _ => continue,
        };
        if let Some(v) = ints(inputs, k).and_then(|v| over(v, limit)) {
            cx.at(f.at, rule, format!("{op}: {} {v} exceeds {what} = {limit}", ospec.name));
        }
    }
    if let Some(weight) = weight {
        let (dims, n) = kernel_dims(op, weight);
        let ks = dims.get(..n).unwrap_or(&[]);
        let ones = [1i64; 3];
        let dil = dilation.unwrap_or(&ones);
        if let Some((k, d)) = ks.iter().zip(dil.iter()).find(|(k, d)| i64::from(**k) * **d > lim.kernel) {
            cx.at(
                f.at,
                RuleId::LevelKernel,
                format!("{op}: kernel size {k} x dilation {d} exceeds MAX_KERNEL = {}", lim.kernel),
            );
        }
    }
    if matches!(spec.shape, ShapeRule::Fft2d | ShapeRule::Rfft2d) {
        if let Some([_, h, w]) = named(f, "input_real").and_then(|i| shape(inputs, i)) {
            if let Some(v) = [*h, *w].into_iter().find(|v| i64::from(*v) > lim.kernel) {
                cx.at(f.at, RuleId::LevelKernel, format!("{op}: FFT size {v} exceeds MAX_KERNEL = {}", lim.kernel));
            }
        }
    }
    if op == TosaOp::Resize {
        if let Some([yn, yd, xn, xd]) = named(f, "scale").and_then(|i| ints(inputs, i)) {
            for (n, d) in [(*yn, *yd), (*xn, *xd)] {
                if n > 0 && d > 0 {
                    let g = gcd(n, d);
                    let (n, d) = (n / g, d / g);
                    if n / d > lim.scale {
                        cx.at(
                            f.at,
                            RuleId::LevelScale,
                            format!("{op}: scale {n}/{d} exceeds MAX_SCALE = {}", lim.scale),
                        );
                    }
                }
            }
        }
    }
    if op == TosaOp::Concat && f.operands.len().saturating_sub(1) > lim.list {
        cx.at(
            f.at,
            RuleId::LevelTensorList,
            format!("{op}: {} inputs exceed MAX_TENSOR_LIST_SIZE = {}", f.operands.len() - 1, lim.list),
        );
    }
}
