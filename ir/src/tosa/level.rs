//! TOSA levels (TOSA 1.0, "Levels" and the `<levellimit>` entries of
//! `tosa.xml`): the limits of each level, the element sizes the tensor-size
//! limit counts, and the level checks of one operator instruction. The
//! validator and the executor both call [`level_violations`].
//!
//! A level check is a REQUIRE (`LEVEL_CHECK`): a graph past a limit is valid,
//! but its result is unpredictable.

use super::ops::TosaOp;
use super::shape::{ShapeArg, ShapeInputs};
use super::spec::ShapeRule;
use crate::elem::ElemType;
use std::fmt;

/// The level an implementation claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
pub enum Level {
    /// Level 8K.
    #[default]
    EightK,
    /// No level: nothing is checked, as with the reference model's
    /// `--tosa_level NONE` and MLIR's `--tosa-validate` at level none. The
    /// specification's "No level" column ([`LevelLimits::NO_LEVEL`]) states
    /// the full ranges of the argument types rather than limits to enforce.
    None,
}

impl Level {
    /// The limits checked at this level (`None` for [`Level::None`]).
    pub fn checked_limits(self) -> Option<&'static LevelLimits> {
        match self {
            Level::EightK => Some(&LevelLimits::EIGHT_K),
            Level::None => None,
        }
    }
}

/// The maxima of one level (`tosa_level_t`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LevelLimits {
    /// `MAX_RANK`: tensor ranks.
    pub max_rank: usize,
    /// `MAX_KERNEL`: kernel sizes (times dilation), pads, FFT sizes.
    pub max_kernel: i64,
    /// `MAX_STRIDE`: strides.
    pub max_stride: i64,
    /// `MAX_SCALE`: RESIZE `scale_n / scale_d`.
    pub max_scale: i64,
    /// `MAX_LOG2_SIZE`: every tensor's byte size is below `2^MAX_LOG2_SIZE`.
    pub max_log2_size: u32,
    /// `MAX_NESTING`: control-flow nesting (no control flow in TOSA.001000.1).
    pub max_nesting: u32,
    /// `MAX_TENSOR_LIST_SIZE`: CONCAT inputs.
    pub max_tensor_list_size: usize,
}

impl LevelLimits {
    /// Level 8K.
    pub const EIGHT_K: LevelLimits = LevelLimits {
        max_rank: 6,
        max_kernel: 8192,
        max_stride: 8192,
        max_scale: 256,
        max_log2_size: 31,
        max_nesting: 6,
        max_tensor_list_size: 64,
    };

    /// The specification's "No level" column (never checked, see [`Level::None`]).
    pub const NO_LEVEL: LevelLimits = LevelLimits {
        max_rank: 32,
        max_kernel: (1 << 31) - 1,
        max_stride: (1 << 31) - 1,
        max_scale: 2048,
        max_log2_size: 63,
        max_nesting: 256,
        max_tensor_list_size: 256,
    };

    /// Whether a tensor of `shape` and `elem` fits `MAX_LOG2_SIZE`: its
    /// element count times [`element_bytes`] is representable as a
    /// `tensor_size_t`, i.e. below `2^MAX_LOG2_SIZE`.
    pub fn tensor_size_fits(&self, shape: &[u32], elem: ElemType) -> bool {
        let bytes = shape.iter().try_fold(u128::from(element_bytes(elem)), |acc, &d| acc.checked_mul(u128::from(d)));
        bytes.is_some_and(|b| b < 1u128 << self.max_log2_size)
    }
}

/// Bytes per element as the tensor-size limit counts them: the element's
/// width in bytes, taken to be 1 below 8 bits. i48 is 6 bytes (it is stored
/// in 8, but the specification counts its 48 bits).
pub fn element_bytes(elem: ElemType) -> u64 {
    match elem {
        ElemType::Bool | ElemType::I8 | ElemType::Fp8E4M3 | ElemType::Fp8E5M2 => 1,
        ElemType::I16 | ElemType::Fp16 | ElemType::Bf16 => 2,
        ElemType::I32 | ElemType::Fp32 => 4,
        ElemType::I48 => 6,
    }
}

/// The level limit a graph exceeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LevelLimit {
    /// A tensor rank above `MAX_RANK`.
    MaxRank,
    /// A kernel size (times dilation), pad or FFT size above `MAX_KERNEL`.
    MaxKernel,
    /// A stride above `MAX_STRIDE`.
    MaxStride,
    /// A RESIZE scale ratio above `MAX_SCALE`.
    MaxScale,
    /// A tensor of `2^MAX_LOG2_SIZE` bytes or more.
    MaxLog2Size,
    /// More CONCAT inputs than `MAX_TENSOR_LIST_SIZE`.
    MaxTensorListSize,
}

/// One level limit an instruction exceeds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelViolation {
    /// The limit.
    pub limit: LevelLimit,
    /// What exceeds it ("stride 9000 exceeds MAX_STRIDE = 8192").
    pub message: String,
    /// For [`LevelLimit::MaxLog2Size`]: the tensor (shape, element type),
    /// so that a caller can report each tensor once.
    pub tensor: Option<(Vec<u32>, ElemType)>,
}

impl fmt::Display for LevelViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// A tensor operand or result as the level checks see it: its shape and
/// element type, when known.
pub type LevelTensor<'a> = (Option<&'a [u32]>, Option<ElemType>);

/// The spatial kernel sizes a convolution's level check multiplies by its
/// dilation, from the weight layout of each operator.
fn kernel_dims(op: TosaOp, weight: &[u32]) -> &[u32] {
    match (op.spec().shape, weight) {
        (ShapeRule::Conv2d | ShapeRule::TransposeConv2d, [_, k @ .., _]) if k.len() == 2 => k,
        (ShapeRule::DepthwiseConv2d, [k @ .., _, _]) if k.len() == 2 => k,
        (ShapeRule::Conv3d, [_, k @ .., _]) if k.len() == 3 => k,
        _ => &[],
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}

/// The level limits one instruction of `op` exceeds at `level`, given its
/// operands (`inputs`, as for shape inference) and the tensors whose rank
/// and size count (`tensors`: the caller decides which operands and results
/// those are). In order: the first tensor over `MAX_RANK`; each tensor of
/// `2^MAX_LOG2_SIZE` bytes or more; then kernel, pad and stride attributes,
/// dilated kernel sizes, the FFT size, the RESIZE scale and the CONCAT list
/// length. Unknown shapes and values are skipped.
pub fn level_violations(
    level: Level,
    op: TosaOp,
    inputs: &ShapeInputs,
    tensors: &[LevelTensor<'_>],
) -> Vec<LevelViolation> {
    let Some(lim) = level.checked_limits() else { return Vec::new() };
    let mut out = Vec::new();
    let mut push = |limit, message: String| out.push(LevelViolation { limit, message, tensor: None });
    if let Some(rank) = tensors.iter().filter_map(|(s, _)| s.map(<[u32]>::len)).find(|&r| r > lim.max_rank) {
        push(LevelLimit::MaxRank, format!("a tensor of rank {rank} exceeds MAX_RANK = {}", lim.max_rank));
    }
    let ints = |k: usize| match inputs.args.get(k) {
        Some(ShapeArg::Ints(v)) => Some(v.as_slice()),
        _ => None,
    };
    let shape = |k: usize| match inputs.args.get(k) {
        Some(ShapeArg::Tensor(s)) => Some(s.as_slice()),
        _ => None,
    };
    let spec = op.spec();
    // The attributes the level table limits, the weight whose kernel sizes
    // the dilation multiplies, and the dilation, found by operand name.
    let mut weight = None;
    let mut dilation = None;
    let mut attributes = Vec::new();
    for (k, ospec) in spec.operands.iter().enumerate() {
        match ospec.name {
            "kernel" | "pad" | "out_pad" => attributes.push((k, ospec.name, lim.max_kernel, LevelLimit::MaxKernel)),
            "stride" => attributes.push((k, ospec.name, lim.max_stride, LevelLimit::MaxStride)),
            "weight" => weight = shape(k),
            "dilation" => dilation = ints(k),
            _ => {}
        }
    }
    for (k, name, max, limit) in attributes {
        if let Some(v) = ints(k).and_then(|values| values.iter().copied().find(|&v| v > max)) {
            let what = if limit == LevelLimit::MaxStride { "MAX_STRIDE" } else { "MAX_KERNEL" };
            push(limit, format!("{name} {v} exceeds {what} = {max}"));
        }
    }
    if let Some(weight) = weight {
        let ones = [1i64; 3];
        let dilation = dilation.unwrap_or(&ones);
        let kernel = kernel_dims(op, weight);
        if let Some((k, d)) =
            kernel.iter().zip(dilation).find(|(&k, &d)| i128::from(k) * i128::from(d) > i128::from(lim.max_kernel))
        {
            push(
                LevelLimit::MaxKernel,
                format!("kernel size {k} x dilation {d} exceeds MAX_KERNEL = {}", lim.max_kernel),
            );
        }
    }
    if matches!(spec.shape, ShapeRule::Fft2d | ShapeRule::Rfft2d) {
        let input = spec.operand_named("input_real").and_then(|(k, _)| shape(k));
        if let Some([_, h, w]) = input {
            if let Some(v) = [*h, *w].into_iter().find(|&v| i64::from(v) > lim.max_kernel) {
                push(LevelLimit::MaxKernel, format!("FFT size {v} exceeds MAX_KERNEL = {}", lim.max_kernel));
            }
        }
    }
    if op == TosaOp::Resize {
        if let Some([yn, yd, xn, xd]) = spec.operand_named("scale").and_then(|(k, _)| ints(k)) {
            for (n, d) in [(*yn, *yd), (*xn, *xd)] {
                if n > 0 && d > 0 {
                    let g = gcd(n, d);
                    let (n, d) = (n / g, d / g);
                    if n / d > lim.max_scale {
                        push(LevelLimit::MaxScale, format!("scale {n}/{d} exceeds MAX_SCALE = {}", lim.max_scale));
                    }
                }
            }
        }
    }
    let listed = inputs.args.len().saturating_sub(1);
    if op == TosaOp::Concat && listed > lim.max_tensor_list_size {
        push(
            LevelLimit::MaxTensorListSize,
            format!("{listed} inputs exceed MAX_TENSOR_LIST_SIZE = {}", lim.max_tensor_list_size),
        );
    }
    // Sizes come after the rank, before the attributes.
    let sizes = tensors.iter().filter_map(|&(s, e)| Some((s?, e?))).filter(|(s, e)| !lim.tensor_size_fits(s, *e));
    let sizes: Vec<LevelViolation> = sizes
        .map(|(s, e)| LevelViolation {
            limit: LevelLimit::MaxLog2Size,
            message: format!("a {e} tensor of shape {s:?} is 2^{} bytes or more", lim.max_log2_size),
            tensor: Some((s.to_vec(), e)),
        })
        .collect();
    let at = usize::from(out.first().is_some_and(|v| v.limit == LevelLimit::MaxRank));
    out.splice(at..at, sizes);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limits_are_the_specifications() {
        // tosa.xml v1.0.2, <levels>.
        let l = LevelLimits::EIGHT_K;
        assert_eq!((l.max_rank, l.max_kernel, l.max_stride, l.max_scale), (6, 8192, 8192, 256));
        assert_eq!((l.max_log2_size, l.max_nesting, l.max_tensor_list_size), (31, 6, 64));
        let n = LevelLimits::NO_LEVEL;
        assert_eq!((n.max_rank, n.max_kernel, n.max_stride, n.max_scale), (32, 2_147_483_647, 2_147_483_647, 2048));
        assert_eq!((n.max_log2_size, n.max_nesting, n.max_tensor_list_size), (63, 256, 256));
        assert_eq!(Level::EightK.checked_limits(), Some(&LevelLimits::EIGHT_K));
        assert_eq!(Level::None.checked_limits(), None);
        assert_eq!(super::super::MAX_RANK as usize, LevelLimits::EIGHT_K.max_rank);
    }

    #[test]
    fn element_sizes_count_bits_not_storage() {
        let bytes: Vec<u64> = ElemType::ALL.iter().map(|&e| element_bytes(e)).collect();
        let by_name: Vec<(&str, u64)> = ElemType::ALL.iter().map(|e| e.name()).zip(bytes).collect();
        for (name, b) in by_name {
            let want = match name {
                "bool" | "i8" | "fp8e4m3" | "fp8e5m2" => 1,
                "i16" | "fp16" | "bf16" => 2,
                "i32" | "fp32" => 4,
                "i48" => 6,
                other => panic!("unexpected element type {other}"),
            };
            assert_eq!(b, want, "{name}");
        }
        // 2^31 bytes do not fit 8K; 2^31 - 6 bytes of i48 do, 8-byte storage would not.
        let l = LevelLimits::EIGHT_K;
        assert!(!l.tensor_size_fits(&[1 << 16, 1 << 15], ElemType::I8));
        assert!(l.tensor_size_fits(&[(1 << 16) - 1, 1 << 15], ElemType::I8));
        assert!(l.tensor_size_fits(&[357_913_941], ElemType::I48));
        assert!(!l.tensor_size_fits(&[357_913_942], ElemType::I48));
    }

    /// The operands of `op` by name; the rest opaque.
    fn by_name(op: TosaOp, args: &[(&str, ShapeArg)]) -> ShapeInputs {
        let spec = op.spec();
        for (name, _) in args {
            assert!(spec.operand_named(name).is_some(), "{op} has no operand {name}");
        }
        let arg = |o: &super::super::OperandSpec| args.iter().find(|(n, _)| *n == o.name).map(|(_, a)| a.clone());
        ShapeInputs { args: spec.operands.iter().map(|o| arg(o).unwrap_or(ShapeArg::Opaque)).collect() }
    }

    #[test]
    fn violations_in_order_and_none_at_no_level() {
        let shape7 = [1u32, 1, 1, 1, 1, 1, 2];
        let big = [1u32 << 16, 1 << 16];
        let tensors: Vec<LevelTensor<'_>> =
            vec![(Some(&shape7), Some(ElemType::Fp32)), (Some(&big), Some(ElemType::I8)), (None, None)];
        let pool = by_name(
            TosaOp::MaxPool2d,
            &[
                ("input", ShapeArg::Tensor(vec![1, 8, 8, 1])),
                ("kernel", ShapeArg::Ints(vec![9000, 2])),
                ("stride", ShapeArg::Ints(vec![1, 9000])),
                ("pad", ShapeArg::Ints(vec![0, 0, 0, 8193])),
            ],
        );
        let v = level_violations(Level::EightK, TosaOp::MaxPool2d, &pool, &tensors);
        let limits: Vec<LevelLimit> = v.iter().map(|v| v.limit).collect();
        use LevelLimit::*;
        assert_eq!(limits, [MaxRank, MaxLog2Size, MaxKernel, MaxStride, MaxKernel], "{v:?}");
        assert_eq!(v[0].message, "a tensor of rank 7 exceeds MAX_RANK = 6");
        assert_eq!(v[1].tensor, Some((big.to_vec(), ElemType::I8)));
        assert_eq!(v[2].message, "kernel 9000 exceeds MAX_KERNEL = 8192");
        assert_eq!(v[3].message, "stride 9000 exceeds MAX_STRIDE = 8192");
        assert!(level_violations(Level::None, TosaOp::MaxPool2d, &pool, &tensors).is_empty());
        let fine: Vec<LevelTensor<'_>> = vec![(Some(&big[..1]), Some(ElemType::I48))];
        let small = by_name(TosaOp::MaxPool2d, &[("kernel", ShapeArg::Ints(vec![8192, 1]))]);
        assert!(level_violations(Level::EightK, TosaOp::MaxPool2d, &small, &fine).is_empty());
    }

    #[test]
    fn convolution_fft_resize_and_concat_limits() {
        let conv = |op, weight: Vec<u32>, dilation: Vec<i64>| {
            let inputs = by_name(op, &[("weight", ShapeArg::Tensor(weight)), ("dilation", ShapeArg::Ints(dilation))]);
            level_violations(Level::EightK, op, &inputs, &[])
        };
        let v = conv(TosaOp::Conv2d, vec![1, 4097, 1, 1], vec![2, 1]);
        assert_eq!(
            v.iter().map(|v| v.message.as_str()).collect::<Vec<_>>(),
            ["kernel size 4097 x dilation 2 exceeds MAX_KERNEL = 8192"]
        );
        assert!(conv(TosaOp::Conv2d, vec![9000, 4096, 1, 1], vec![2, 1]).is_empty(), "OC is not a kernel size");
        assert_eq!(conv(TosaOp::DepthwiseConv2d, vec![1, 4097, 1, 1], vec![1, 2]).len(), 1);
        assert_eq!(conv(TosaOp::Conv3d, vec![1, 1, 1, 2731, 1], vec![1, 1, 3]).len(), 1);
        let tc = by_name(TosaOp::TransposeConv2d, &[("weight", ShapeArg::Tensor(vec![1, 1, 8193, 1]))]);
        assert_eq!(level_violations(Level::EightK, TosaOp::TransposeConv2d, &tc, &[]).len(), 1);
        let fft = by_name(TosaOp::Fft2d, &[("input_real", ShapeArg::Tensor(vec![1, 8, 16384]))]);
        let v = level_violations(Level::EightK, TosaOp::Fft2d, &fft, &[]);
        assert_eq!(
            v.iter().map(|v| v.message.as_str()).collect::<Vec<_>>(),
            ["FFT size 16384 exceeds MAX_KERNEL = 8192"]
        );
        let resize = |scale: Vec<i64>| {
            let inputs = by_name(TosaOp::Resize, &[("scale", ShapeArg::Ints(scale))]);
            level_violations(Level::EightK, TosaOp::Resize, &inputs, &[])
        };
        assert_eq!(resize(vec![514, 2, 1, 1]).len(), 1, "514/2 reduces to 257/1");
        assert!(resize(vec![512, 2, 2, 1]).is_empty());
        assert!(resize(vec![1, 1, 257, 0]).is_empty(), "a zero denominator is an ERROR_IF, not a level check");
        let concat = |n| {
            let inputs = ShapeInputs { args: std::iter::repeat_n(ShapeArg::Tensor(vec![1]), n).collect() };
            level_violations(Level::EightK, TosaOp::Concat, &inputs, &[])
        };
        assert_eq!(concat(66).iter().map(|v| v.limit).collect::<Vec<_>>(), [LevelLimit::MaxTensorListSize]);
        assert!(concat(65).is_empty());
    }
}
