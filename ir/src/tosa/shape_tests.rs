//! Shape inference: hand-computed cases from §4, error messages, and a
//! never-panics property over every operator.

use super::spec::{Form, Len, RankReq};
use super::{check_output, infer_shapes, ShapeArg, ShapeErrorKind, ShapeInputs, TosaOp};
use proptest::prelude::*;

fn ok(op: TosaOp, inputs: ShapeInputs) -> Vec<Vec<u32>> {
    match infer_shapes(op, &inputs) {
        Ok(s) => s,
        Err(e) => panic!("{op}: unexpected error: {e}"),
    }
}

fn fails(op: TosaOp, inputs: ShapeInputs) -> String {
    match infer_shapes(op, &inputs) {
        Ok(s) => panic!("{op}: expected an error, got {s:?}"),
        Err(e) => e.to_string(),
    }
}

/// CONV2D operands: pad, stride, dilation, acc_type, local_bound, input,
/// weight, bias, input_zp, weight_zp.
fn conv2d(pad: [i64; 4], stride: [i64; 2], dil: [i64; 2], input: &[u32], weight: &[u32], bias: u32) -> ShapeInputs {
    ShapeInputs::new()
        .ints(pad)
        .ints(stride)
        .ints(dil)
        .opaque()
        .boolean(false)
        .tensor(input)
        .tensor(weight)
        .tensor([bias])
        .tensor([1])
        .tensor([1])
}

#[test]
fn conv2d_shapes() {
    // OH = (8 - 1 + 0 + 1 - (3 - 1) * 1) / 2 + 1 = 4
    let s = ok(TosaOp::Conv2d, conv2d([0, 1, 0, 1], [2, 2], [1, 1], &[1, 8, 8, 4], &[2, 3, 3, 4], 2));
    assert_eq!(s, vec![vec![1, 4, 4, 2]]);
    // Dilation 2: OH = (9 - 1 - 2 * 2) / 1 + 1 = 5; bias of length 1 broadcasts.
    let s = ok(TosaOp::Conv2d, conv2d([0; 4], [1, 1], [2, 2], &[3, 9, 9, 1], &[5, 3, 3, 1], 1));
    assert_eq!(s, vec![vec![3, 5, 5, 5]]);
    let e = fails(TosaOp::Conv2d, conv2d([0, 0, 0, 0], [2, 2], [1, 1], &[1, 8, 8, 4], &[2, 3, 3, 4], 2));
    assert_eq!(
        e,
        "CONV2D: (IH - 1 + pad_top + pad_bottom - (KH - 1) * dilation_y) = 5 is not divisible by stride_y = 2"
    );
    let e = fails(TosaOp::Conv2d, conv2d([0; 4], [1, 1], [1, 1], &[1, 8, 8, 4], &[2, 3, 3, 5], 2));
    assert_eq!(e, "CONV2D: input IC = 4 does not match weight IC = 5");
    let e = fails(TosaOp::Conv2d, conv2d([0; 4], [1, 1], [1, 1], &[1, 8, 8, 4], &[2, 3, 3, 4], 3));
    assert_eq!(e, "CONV2D: bias length BC = 3 must be 1 or OC = 2");
    let e = fails(TosaOp::Conv2d, conv2d([0, -1, 0, 0], [1, 1], [1, 1], &[1, 8, 8, 4], &[2, 3, 3, 4], 2));
    assert_eq!(e, "CONV2D: pad_bottom = -1 must be >= 0");
    let e = fails(TosaOp::Conv2d, conv2d([0; 4], [1, 0], [1, 1], &[1, 8, 8, 4], &[2, 3, 3, 4], 2));
    assert_eq!(e, "CONV2D: stride_x = 0 must be >= 1");
    let e = fails(TosaOp::Conv2d, conv2d([0; 4], [1, 1], [0, 1], &[1, 8, 8, 4], &[2, 3, 3, 4], 2));
    assert!(e.contains("dilation_y = 0 must be >= 1"), "{e}");
    // Kernel larger than the padded input: OH would be 0.
    let e = fails(TosaOp::Conv2d, conv2d([0; 4], [1, 1], [1, 1], &[1, 2, 8, 4], &[2, 3, 3, 4], 2));
    assert!(e.contains("output OH = 0"), "{e}");
    // Zero points must be [1].
    let mut bad_zp = conv2d([0; 4], [1, 1], [1, 1], &[1, 8, 8, 4], &[2, 3, 3, 4], 2);
    bad_zp.args[8] = ShapeArg::Tensor(vec![2]);
    let e = fails(TosaOp::Conv2d, bad_zp);
    assert_eq!(e, "CONV2D: input_zp has 2 elements, expected 1");
    let mut short_pad = conv2d([0; 4], [1, 1], [1, 1], &[1, 8, 8, 4], &[2, 3, 3, 4], 2);
    short_pad.args[0] = ShapeArg::Ints(vec![0, 0, 0]);
    assert_eq!(fails(TosaOp::Conv2d, short_pad), "CONV2D: pad has 3 elements, expected 4");
    let e = fails(TosaOp::Conv2d, conv2d([0; 4], [1, 1], [1, 1], &[1, 8, 8], &[2, 3, 3, 4], 2));
    assert_eq!(e, "CONV2D: input has rank 3, expected 4");
}

#[test]
fn conv3d_and_depthwise_shapes() {
    let inputs = ShapeInputs::new()
        .ints([0, 0, 0, 0, 0, 0])
        .ints([1, 1, 1])
        .ints([1, 1, 1])
        .opaque()
        .boolean(true)
        .tensor([1, 4, 8, 8, 2])
        .tensor([3, 2, 3, 3, 2])
        .tensor([3])
        .opaque()
        .opaque();
    assert_eq!(ok(TosaOp::Conv3d, inputs), vec![vec![1, 3, 6, 6, 3]]);

    let dw = |bias: u32| conv2d([1, 1, 1, 1], [1, 1], [1, 1], &[1, 8, 8, 4], &[3, 3, 4, 2], bias);
    assert_eq!(ok(TosaOp::DepthwiseConv2d, dw(8)), vec![vec![1, 8, 8, 8]]);
    assert_eq!(ok(TosaOp::DepthwiseConv2d, dw(1)), vec![vec![1, 8, 8, 8]]);
    assert_eq!(fails(TosaOp::DepthwiseConv2d, dw(4)), "DEPTHWISE_CONV2D: bias length BC = 4 must be 1 or C * M = 8");
    let bad_c = conv2d([0; 4], [1, 1], [1, 1], &[1, 8, 8, 4], &[3, 3, 3, 2], 1);
    assert!(fails(TosaOp::DepthwiseConv2d, bad_c).contains("input C = 4 does not match weight C = 3"));
}

fn pool(kernel: [i64; 2], stride: [i64; 2], pad: [i64; 4], input: &[u32]) -> ShapeInputs {
    ShapeInputs::new().ints(kernel).ints(stride).ints(pad).opaque().tensor(input)
}

#[test]
fn pool2d_shapes() {
    assert_eq!(ok(TosaOp::MaxPool2d, pool([2, 2], [2, 2], [0; 4], &[1, 8, 8, 3])), vec![vec![1, 4, 4, 3]]);
    // Same-size pooling: OH = (5 + 1 + 1 - 3) / 1 + 1 = 5.
    assert_eq!(ok(TosaOp::MaxPool2d, pool([3, 3], [1, 1], [1; 4], &[2, 5, 5, 1])), vec![vec![2, 5, 5, 1]]);
    let e = fails(TosaOp::MaxPool2d, pool([2, 2], [2, 2], [0; 4], &[1, 7, 7, 1]));
    assert_eq!(e, "MAX_POOL2D: (IH + pad_top + pad_bottom - kernel_y) = 5 is not divisible by stride_y = 2");
    let e = fails(TosaOp::MaxPool2d, pool([2, 2], [1, 1], [0, 0, 2, 0], &[1, 7, 7, 1]));
    assert_eq!(e, "MAX_POOL2D: pad_left = 2 must be < kernel_x = 2");
    let e = fails(TosaOp::MaxPool2d, pool([0, 2], [1, 1], [0; 4], &[1, 7, 7, 1]));
    assert_eq!(e, "MAX_POOL2D: kernel_y = 0 must be >= 1");

    let avg = ShapeInputs::new()
        .ints([3, 2])
        .ints([1, 2])
        .ints([0, 0, 0, 0])
        .opaque()
        .tensor([1, 6, 8, 2])
        .tensor([1])
        .tensor([1]);
    assert_eq!(ok(TosaOp::AvgPool2d, avg), vec![vec![1, 4, 4, 2]]);
}

#[test]
fn transpose_conv2d_shapes() {
    let tc = |out_pad: [i64; 4], stride: [i64; 2]| {
        ShapeInputs::new()
            .ints(out_pad)
            .ints(stride)
            .opaque()
            .boolean(false)
            .tensor([1, 4, 4, 3])
            .tensor([2, 3, 3, 3])
            .tensor([2])
            .tensor([1])
            .tensor([1])
    };
    // OH = (4 - 1) * 2 + 0 + 0 + 3 = 9
    assert_eq!(ok(TosaOp::TransposeConv2d, tc([0; 4], [2, 2])), vec![vec![1, 9, 9, 2]]);
    // OH = 3 * 2 - 1 - 1 + 3 = 7, OW = 3 * 1 + 0 + 2 + 3 = 8
    assert_eq!(ok(TosaOp::TransposeConv2d, tc([-1, -1, 0, 2], [2, 1])), vec![vec![1, 7, 8, 2]]);
    let e = fails(TosaOp::TransposeConv2d, tc([-3, 0, 0, 0], [1, 1]));
    assert_eq!(e, "TRANSPOSE_CONV2D: out_pad_top = -3 must be > -KH = -3");
}

#[test]
fn resize_shapes() {
    let rs = |input: &[u32], scale: [i64; 4], offset: [i64; 2], border: [i64; 2]| {
        ShapeInputs::new().opaque().tensor(input).ints(scale).ints(offset).ints(border)
    };
    // 2x upscale: OH = ((4 - 1) * 2 - 0 + 1) / 1 + 1 = 8
    assert_eq!(ok(TosaOp::Resize, rs(&[1, 4, 4, 2], [2, 1, 2, 1], [0, 0], [1, 1])), vec![vec![1, 8, 8, 2]]);
    // Half-pixel 2x upscale (scale 4/2, offset -1, border 1): OH = (3 * 4 + 1 + 1) / 2 + 1 = 8
    assert_eq!(ok(TosaOp::Resize, rs(&[1, 4, 4, 2], [4, 2, 4, 2], [-1, -1], [1, 1])), vec![vec![1, 8, 8, 2]]);
    // 1/2 downscale of 5: (4 * 1) / 2 + 1 = 3
    assert_eq!(ok(TosaOp::Resize, rs(&[1, 5, 5, 1], [1, 2, 1, 2], [0, 0], [0, 0])), vec![vec![1, 3, 3, 1]]);
    let e = fails(TosaOp::Resize, rs(&[1, 4, 5, 1], [1, 2, 1, 2], [0, 0], [0, 0]));
    assert_eq!(e, "RESIZE: ((IH - 1) * scale_y_n - offset_y + border_y) = 3 is not divisible by scale_y_d = 2");
    let e = fails(TosaOp::Resize, rs(&[1, 4, 4, 1], [2049, 1, 2, 1], [0, 0], [0, 0]));
    assert_eq!(e, "RESIZE: scale_y_n = 2049 must be <= 2048");
    let e = fails(TosaOp::Resize, rs(&[1, 4, 4, 1], [1, 16, 1, 1], [0, 0], [0, 0]));
    assert!(e.starts_with("RESIZE: scale_y_d = 16 must be < 16 * scale_y_n = 16"), "{e}");
    let e = fails(TosaOp::Resize, rs(&[1, 4, 4, 1], [2, 1, 2, 1], [0, -3], [0, 0]));
    assert!(e.starts_with("RESIZE: offset_x = -3 must be in -2..32"), "{e}");
    let e = fails(TosaOp::Resize, rs(&[1, 4, 4, 1], [2, 1, 2, 1], [0, 0], [2, 0]));
    assert!(e.starts_with("RESIZE: border_y = 2 must be in -32..2"), "{e}");
    let e = fails(TosaOp::Resize, rs(&[1, 4, 4, 1], [0, 1, 2, 1], [0, 0], [0, 0]));
    assert_eq!(e, "RESIZE: scale_y_n = 0 must be >= 1");
    let e = fails(TosaOp::Resize, rs(&[1, 16384, 1, 1], [1, 1, 1, 1], [0, 0], [0, 0]));
    assert_eq!(e, "RESIZE: IH = 16384 must be < 16384");
    let e = fails(TosaOp::Resize, rs(&[1, 9000, 1, 1], [2, 1, 1, 1], [0, 0], [0, 0]));
    assert_eq!(e, "RESIZE: OH = 17999 must be < 16384");
}

#[test]
fn fft_shapes() {
    let rfft = ShapeInputs::new().boolean(false).tensor([2, 8, 16]);
    assert_eq!(ok(TosaOp::Rfft2d, rfft), vec![vec![2, 8, 9], vec![2, 8, 9]]);
    let rfft1 = ShapeInputs::new().opaque().tensor([1, 1, 1]);
    assert_eq!(ok(TosaOp::Rfft2d, rfft1), vec![vec![1, 1, 1], vec![1, 1, 1]]);
    let e = fails(TosaOp::Rfft2d, ShapeInputs::new().opaque().tensor([1, 6, 8]));
    assert_eq!(e, "RFFT2D: H = 6 is not a power of two");
    let fft = ShapeInputs::new().boolean(true).opaque().tensor([1, 4, 8]).tensor([1, 4, 8]);
    assert_eq!(ok(TosaOp::Fft2d, fft), vec![vec![1, 4, 8], vec![1, 4, 8]]);
    let e = fails(TosaOp::Fft2d, ShapeInputs::new().opaque().opaque().tensor([1, 4, 8]).tensor([1, 4, 4]));
    assert_eq!(e, "FFT2D: input_real [1, 4, 8] and input_imag [1, 4, 4] must have the same shape");
}

#[test]
fn reductions_and_argmax() {
    let r = |axis: i64| ShapeInputs::new().int(axis).tensor([2, 3, 4]);
    assert_eq!(ok(TosaOp::ReduceSum, r(1)), vec![vec![2, 1, 4]]);
    assert_eq!(ok(TosaOp::ReduceAll, r(2)), vec![vec![2, 3, 1]]);
    assert_eq!(fails(TosaOp::ReduceSum, r(3)), "REDUCE_SUM: axis = 3 must be in 0..3 (rank of input)");
    assert!(fails(TosaOp::ReduceProduct, r(-1)).contains("axis = -1"));
    let rm = ShapeInputs::new().int(0).opaque().tensor([5, 2]);
    assert_eq!(ok(TosaOp::ReduceMax, rm), vec![vec![1, 2]]);

    let a = |axis: i64, shape: &[u32]| ShapeInputs::new().int(axis).opaque().tensor(shape);
    assert_eq!(ok(TosaOp::Argmax, a(0, &[5])), vec![vec![1]]);
    assert_eq!(ok(TosaOp::Argmax, a(1, &[2, 3, 4])), vec![vec![2, 4]]);
    assert!(fails(TosaOp::Argmax, a(1, &[5])).contains("axis = 1"));
}

#[test]
fn elementwise_shapes() {
    let b = |x: &[u32], y: &[u32]| ShapeInputs::new().tensor(x).tensor(y);
    assert_eq!(ok(TosaOp::Add, b(&[2, 1, 4], &[1, 3, 4])), vec![vec![2, 3, 4]]);
    assert_eq!(ok(TosaOp::Equal, b(&[1], &[7])), vec![vec![7]]);
    let e = fails(TosaOp::Sub, b(&[2, 3], &[3, 3]));
    assert_eq!(e, "SUB: dimension 0: 2 (input1) and 3 (input2) cannot be broadcast");
    let e = fails(TosaOp::Add, b(&[2, 3], &[3]));
    assert_eq!(e, "ADD: input2 has rank 1, expected 2 (the rank of input1)");
    let mul = ShapeInputs::new().tensor([4, 1]).tensor([1, 5]).tensor([1]);
    assert_eq!(ok(TosaOp::Mul, mul), vec![vec![4, 5]]);
    let max = ShapeInputs::new().opaque().tensor([3]).tensor([1]);
    assert_eq!(ok(TosaOp::Maximum, max), vec![vec![3]]);
    let sel = ShapeInputs::new().tensor([1, 1]).tensor([2, 1]).tensor([1, 3]);
    assert_eq!(ok(TosaOp::Select, sel), vec![vec![2, 3]]);
    let sel_bad = ShapeInputs::new().tensor([2, 1]).tensor([3, 1]).tensor([1, 3]);
    assert!(fails(TosaOp::Select, sel_bad).contains("cannot be broadcast"));

    let clamp = ShapeInputs::new().opaque().opaque().opaque().tensor([2, 2]);
    assert_eq!(ok(TosaOp::Clamp, clamp), vec![vec![2, 2]]);
    let neg = ShapeInputs::new().tensor([3, 1]).tensor([1]).tensor([1]);
    assert_eq!(ok(TosaOp::Negate, neg), vec![vec![3, 1]]);
    let table = |n: u32| ShapeInputs::new().tensor([2, 3]).tensor([n]);
    assert_eq!(ok(TosaOp::Table, table(256)), vec![vec![2, 3]]);
    assert_eq!(ok(TosaOp::Table, table(513)), vec![vec![2, 3]]);
    assert_eq!(fails(TosaOp::Table, table(100)), "TABLE: table has 100 elements, expected 256 (i8) or 513 (i16)");
    assert_eq!(ok(TosaOp::Cast, ShapeInputs::new().tensor([9])), vec![vec![9]]);
    assert_eq!(ok(TosaOp::Reverse, ShapeInputs::new().int(1).tensor([2, 9])), vec![vec![2, 9]]);
}

#[test]
fn rescale_channels() {
    let rs = |per_channel: ShapeArg, mult: u32, shift: u32| ShapeInputs {
        args: vec![
            ShapeArg::Bool(true),
            ShapeArg::Opaque,
            per_channel,
            ShapeArg::Bool(false),
            ShapeArg::Bool(false),
            ShapeArg::Tensor(vec![2, 3]),
            ShapeArg::Tensor(vec![mult]),
            ShapeArg::Tensor(vec![shift]),
            ShapeArg::Tensor(vec![1]),
            ShapeArg::Tensor(vec![1]),
        ],
    };
    assert_eq!(ok(TosaOp::Rescale, rs(ShapeArg::Bool(true), 3, 3)), vec![vec![2, 3]]);
    assert_eq!(ok(TosaOp::Rescale, rs(ShapeArg::Bool(false), 1, 1)), vec![vec![2, 3]]);
    let e = fails(TosaOp::Rescale, rs(ShapeArg::Bool(true), 1, 3));
    assert_eq!(e, "RESCALE: multiplier has 1 elements, expected NC = 3, the last input dimension (per_channel)");
    let e = fails(TosaOp::Rescale, rs(ShapeArg::Bool(false), 1, 3));
    assert!(e.starts_with("RESCALE: shift has 3 elements, expected NC = 1"), "{e}");
    let e = fails(TosaOp::Rescale, rs(ShapeArg::Opaque, 1, 1));
    assert!(e.starts_with("RESCALE: operand 2 (per_channel) must be given as a bool"), "{e}");
}

#[test]
fn layout_shapes() {
    let concat = ShapeInputs::new().int(1).tensor([2, 3]).tensor([2, 5]).tensor([2, 1]);
    assert_eq!(ok(TosaOp::Concat, concat), vec![vec![2, 9]]);
    let single = ShapeInputs::new().int(0).tensor([4]);
    assert_eq!(ok(TosaOp::Concat, single), vec![vec![4]]);
    let bad = ShapeInputs::new().int(1).tensor([2, 3]).tensor([3, 5]);
    assert_eq!(fails(TosaOp::Concat, bad), "CONCAT: input 1 dim 0 = 2 does not match input 2 dim 0 = 3");
    let bad_rank = ShapeInputs::new().int(0).tensor([2, 3]).tensor([2]);
    assert!(fails(TosaOp::Concat, bad_rank).contains("input 2 has rank 1"));
    let none = ShapeInputs::new().int(0);
    assert_eq!(fails(TosaOp::Concat, none), "CONCAT: expected at least 2 operands, found 1");

    let pad = |p: Vec<i64>| ShapeInputs::new().tensor([2, 3]).ints(p).tensor([1]);
    assert_eq!(ok(TosaOp::Pad, pad(vec![1, 0, 2, 3])), vec![vec![3, 8]]);
    assert_eq!(fails(TosaOp::Pad, pad(vec![1, 0, -2, 3])), "PAD: padding[2] = -2 must be >= 0");
    assert_eq!(
        fails(TosaOp::Pad, pad(vec![1, 0, 2])),
        "PAD: padding has 3 elements, expected 4 (twice the rank of input1)"
    );

    let reshape = |s: Vec<i64>| ShapeInputs::new().tensor([2, 3, 4]).ints(s);
    assert_eq!(ok(TosaOp::Reshape, reshape(vec![6, 4])), vec![vec![6, 4]]);
    assert_eq!(ok(TosaOp::Reshape, reshape(vec![24])), vec![vec![24]]);
    assert_eq!(fails(TosaOp::Reshape, reshape(vec![5, 5])), "RESHAPE: input has 24 elements but shape [5, 5] has 25");
    assert_eq!(fails(TosaOp::Reshape, reshape(vec![-1, 4])), "RESHAPE: shape[0] = -1 must be >= 1");
    assert!(fails(TosaOp::Reshape, reshape(vec![])).contains("shape has 0 elements"));

    let slice = |st: Vec<i64>, sz: Vec<i64>| ShapeInputs::new().tensor([4, 5]).ints(st).ints(sz);
    assert_eq!(ok(TosaOp::Slice, slice(vec![1, 2], vec![3, 3])), vec![vec![3, 3]]);
    assert_eq!(
        fails(TosaOp::Slice, slice(vec![1, 3], vec![3, 3])),
        "SLICE: start[1] + size[1] = 6 must be <= input dim 1 = 5"
    );
    assert_eq!(fails(TosaOp::Slice, slice(vec![0, 0], vec![0, 1])), "SLICE: size[0] = 0 must be >= 1");
    assert_eq!(fails(TosaOp::Slice, slice(vec![-1, 0], vec![1, 1])), "SLICE: start[0] = -1 must be >= 0");

    let tile = ShapeInputs::new().tensor([2, 3]).ints([2, 1]);
    assert_eq!(ok(TosaOp::Tile, tile), vec![vec![4, 3]]);
    let tile0 = ShapeInputs::new().tensor([2, 3]).ints([2, 0]);
    assert_eq!(fails(TosaOp::Tile, tile0), "TILE: multiples[1] = 0 must be >= 1");

    let tr = |p: Vec<i64>| ShapeInputs::new().ints(p).tensor([2, 3, 4]);
    assert_eq!(ok(TosaOp::Transpose, tr(vec![2, 0, 1])), vec![vec![4, 2, 3]]);
    assert_eq!(fails(TosaOp::Transpose, tr(vec![0, 0, 1])), "TRANSPOSE: perms [0, 0, 1] is not a permutation of 0..3");
    assert!(fails(TosaOp::Transpose, tr(vec![0, 1, 3])).contains("not a permutation"));
    assert!(fails(TosaOp::Transpose, tr(vec![0, 1])).contains("perms has 2 elements, expected 3"));
}

#[test]
fn matmul_gather_scatter() {
    let mm = |a: &[u32], b: &[u32]| ShapeInputs::new().tensor(a).tensor(b).tensor([1]).tensor([1]);
    assert_eq!(ok(TosaOp::Matmul, mm(&[2, 3, 4], &[2, 4, 5])), vec![vec![2, 3, 5]]);
    assert_eq!(fails(TosaOp::Matmul, mm(&[2, 3, 4], &[2, 3, 5])), "MATMUL: A C = 4 does not match B C = 3");
    let g = |v: &[u32], i: &[u32]| ShapeInputs::new().tensor(v).tensor(i);
    assert_eq!(ok(TosaOp::Gather, g(&[2, 5, 3], &[2, 4])), vec![vec![2, 4, 3]]);
    assert!(fails(TosaOp::Gather, g(&[2, 5, 3], &[1, 4])).contains("values N = 2 does not match indices N = 1"));
    let s = |w: u32| ShapeInputs::new().tensor([2, 5, 3]).tensor([2, 4]).tensor([2, w, 3]);
    assert_eq!(ok(TosaOp::Scatter, s(4)), vec![vec![2, 5, 3]]);
    assert!(fails(TosaOp::Scatter, s(3)).contains("indices W = 4 does not match input W = 3"));
}

#[test]
fn malformed_requests() {
    assert_eq!(fails(TosaOp::Add, ShapeInputs::new().tensor([1])), "ADD: expected 2 operands, found 1");
    let e = fails(TosaOp::Add, ShapeInputs::new().tensor([1]).opaque());
    assert_eq!(e, "ADD: operand 1 (input2) must be given as a tensor shape");
    let e = fails(TosaOp::Abs, ShapeInputs::new().tensor([2, 0]));
    assert_eq!(e, "ABS: input1 has shape [2, 0]: rank and every dimension must be >= 1");
    let e = fails(TosaOp::Abs, ShapeInputs::new().tensor(Vec::new()));
    assert!(e.contains("rank and every dimension"), "{e}");
    let e = fails(TosaOp::ReduceSum, ShapeInputs::new().opaque().tensor([2]));
    assert_eq!(e, "REDUCE_SUM: operand 0 (axis) must be given as integer values");
    let e = fails(TosaOp::ReduceSum, ShapeInputs::new().ints([0, 1]).tensor([2]));
    assert_eq!(e, "REDUCE_SUM: axis has 2 elements, expected 1");
}

#[test]
fn check_output_compares() {
    let inputs = conv2d([0, 1, 0, 1], [2, 2], [1, 1], &[1, 8, 8, 4], &[2, 3, 3, 4], 2);
    assert!(check_output(TosaOp::Conv2d, &inputs, &[vec![1, 4, 4, 2]]).is_ok());
    let e = check_output(TosaOp::Conv2d, &inputs, &[vec![1, 4, 4, 3]]).err().map(|e| e.to_string());
    assert_eq!(e.as_deref(), Some("CONV2D: result 0 is declared [1, 4, 4, 3] but must be [1, 4, 4, 2]"));
    let e = check_output(TosaOp::Conv2d, &inputs, &[]).err().map(|e| e.kind);
    assert!(matches!(e, Some(ShapeErrorKind::OutputCount { expected: 1, found: 0 })));
}

// ---- random inputs ------------------------------------------------------------

/// splitmix64: a tiny deterministic generator driven by proptest's seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    fn dim(&mut self) -> u32 {
        match self.below(40) {
            0 => 0,
            1 => self.next() as u32,
            2 => u32::MAX,
            _ => [1, 1, 1, 2, 2, 3, 4, 5, 8, 16][self.below(10) as usize],
        }
    }
    fn int(&mut self) -> i64 {
        match self.below(40) {
            0 => i64::MIN,
            1 => i64::MAX,
            2 => self.next() as i64,
            3 => -(self.below(20) as i64),
            _ => [0, 0, 1, 1, 1, 2, 2, 3, 4][self.below(9) as usize],
        }
    }
    fn shape(&mut self, rank: usize) -> Vec<u32> {
        (0..rank).map(|_| self.dim()).collect()
    }
    fn ints(&mut self, len: usize) -> Vec<i64> {
        (0..len).map(|_| self.int()).collect()
    }
}

/// Mostly well-kinded arguments with plausible lengths, sometimes junk.
fn random_inputs(op: TosaOp, rng: &mut Rng) -> ShapeInputs {
    let spec = op.spec();
    let mut count = spec.operands.len();
    if spec.variadic {
        count += rng.below(4) as usize;
    }
    if rng.chance(3) {
        count = rng.below(12) as usize;
    }
    let base_rank = 1 + rng.below(5) as usize;
    let mut args = Vec::with_capacity(count);
    for i in 0..count {
        let form = spec.operand(i).map(|o| o.form);
        let arg = if rng.chance(5) {
            match rng.below(4) {
                0 => ShapeArg::Opaque,
                1 => ShapeArg::Bool(rng.chance(50)),
                2 => {
                    let n = rng.below(9) as usize;
                    ShapeArg::Ints(rng.ints(n))
                }
                _ => {
                    let n = rng.below(8) as usize;
                    ShapeArg::Tensor(rng.shape(n))
                }
            }
        } else {
            match form {
                Some(Form::Tensor { rank, .. }) => {
                    let r = match rank {
                        RankReq::Exact(n) => n as usize,
                        _ => base_rank,
                    };
                    ShapeArg::Tensor(rng.shape(r))
                }
                Some(Form::I32Array { len }) => {
                    let n = match len {
                        Len::Fixed(n) => n as usize,
                        Len::TwiceRankOf(_) => 2 * base_rank,
                        _ => base_rank,
                    };
                    ShapeArg::Ints(rng.ints(n))
                }
                Some(Form::AxisConst { .. }) => ShapeArg::Ints(vec![rng.below(base_rank as u64 + 1) as i64]),
                Some(Form::BoolConst) => ShapeArg::Bool(rng.chance(50)),
                Some(Form::ConstTensor { len, .. }) => match len {
                    Len::Fixed(n) => ShapeArg::Tensor(vec![n]),
                    Len::TableSize { .. } => ShapeArg::Tensor(vec![if rng.chance(50) { 256 } else { 513 }]),
                    _ => ShapeArg::Tensor(vec![rng.dim()]),
                },
                _ => ShapeArg::Opaque,
            }
        };
        args.push(arg);
    }
    ShapeInputs { args }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn infer_shapes_never_panics(op_index in 0usize..TosaOp::COUNT, seed in any::<u64>()) {
        let op = TosaOp::ALL[op_index];
        let mut rng = Rng(seed);
        let inputs = random_inputs(op, &mut rng);
        if let Ok(outs) = infer_shapes(op, &inputs) {
            prop_assert_eq!(outs.len(), op.spec().result.names.len());
            for out in &outs {
                prop_assert!(!out.is_empty() && out.iter().all(|&d| d >= 1), "{op}: {out:?}");
            }
            prop_assert!(check_output(op, &inputs, &outs).is_ok());
        }
    }

    #[test]
    fn arbitrary_args_never_panic(op_index in 0usize..TosaOp::COUNT, args in proptest::collection::vec(
        prop_oneof![
            proptest::collection::vec(any::<u32>(), 0..7).prop_map(ShapeArg::Tensor),
            proptest::collection::vec(any::<i64>(), 0..9).prop_map(ShapeArg::Ints),
            any::<bool>().prop_map(ShapeArg::Bool),
            Just(ShapeArg::Opaque),
        ], 0..12)) {
        let _ = infer_shapes(TosaOp::ALL[op_index], &ShapeInputs { args });
    }
}

/// Guided random search finds a valid configuration of every operator, so
/// no rule is stricter than it should be in an obvious way.
#[test]
fn every_op_has_reachable_valid_shapes() {
    for op in TosaOp::ALL {
        let mut rng = Rng(op as u64);
        let found = (0..20_000).any(|_| infer_shapes(op, &random_inputs(op, &mut rng)).is_ok());
        assert!(found, "{op}: no valid configuration found");
    }
}

#[test]
fn each_shape_error_names_its_rule() {
    use crate::rules::RuleId;
    let rule = |op, inputs| infer_shapes(op, &inputs).err().and_then(|e| e.kind.rule());
    let perms = ShapeInputs::new().ints(vec![0, 0]).tensor(vec![2, 3]);
    assert_eq!(rule(TosaOp::Transpose, perms), Some(RuleId::TosaTransposePerms));
    let axis = ShapeInputs::new().int(5).tensor(vec![2, 3]);
    assert_eq!(rule(TosaOp::ReduceSum, axis), Some(RuleId::TosaAttributeAxis));
    let empty = ShapeErrorKind::EmptyShape { name: "input".into(), shape: super::Dims(vec![0]) };
    assert_eq!(empty.rule(), None, "a type error, reported elsewhere");
    assert_eq!(ShapeErrorKind::OutputCount { expected: 1, found: 2 }.rule(), Some(RuleId::TosaResultType));
}
