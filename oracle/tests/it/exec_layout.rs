//! Data-layout, gather/scatter, reduction and ARGMAX operators, against
//! hand-computed results.

use crate::exec_common as common;

use common::*;
use spvgraph_ir::elem::ElemType::{Bf16, Bool, Fp32, Fp8E4M3, I16, I32, I8};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_oracle::exec::{ExecError, Require};

fn seq(elem: spvgraph_ir::elem::ElemType, shape: &[usize]) -> TensorData {
    let n: usize = shape.iter().product();
    ints(elem, shape, &(0..n as i64).collect::<Vec<_>>())
}

#[test]
fn concat_pad_reshape() {
    let a = seq(I16, &[2, 2]);
    let b = ints(I16, &[2, 1], &[10, 11]);
    let out = op_n(TosaOp::Concat, &[a.clone(), b], (I16, &[2, 3]), |g, x| vec![g.u32(1), x[0], x[1]]).expect("concat");
    assert_eq!(int_values(&out), vec![0, 1, 10, 2, 3, 11]);
    let out = op_n(TosaOp::Pad, std::slice::from_ref(&a), (I16, &[3, 4]), |g, x| {
        vec![x[0], g.i32s(&[1, 0, 0, 2]), g.one(I16, (-1i64) as u64)]
    })
    .expect("pad");
    assert_eq!(int_values(&out), vec![-1, -1, -1, -1, 0, 1, -1, -1, 2, 3, -1, -1]);
    let out =
        op_n(TosaOp::Reshape, &[seq(I8, &[2, 3])], (I8, &[3, 2]), |g, x| vec![x[0], g.i32s(&[3, 2])]).expect("reshape");
    assert_eq!(int_values(&out), vec![0, 1, 2, 3, 4, 5]);
    let r = op_n(TosaOp::Reshape, &[seq(I8, &[2, 3])], (I8, &[4, 2]), |g, x| vec![x[0], g.i32s(&[4, 2])]);
    assert!(matches!(r, Err(ExecError::Invalid { .. })), "element count changes: {r:?}");
}

#[test]
fn reverse_slice_tile_transpose() {
    let a = seq(I32, &[2, 3]);
    let out =
        op_n(TosaOp::Reverse, std::slice::from_ref(&a), (I32, &[2, 3]), |g, x| vec![g.u32(1), x[0]]).expect("reverse");
    assert_eq!(int_values(&out), vec![2, 1, 0, 5, 4, 3]);
    let out = op_n(TosaOp::Slice, std::slice::from_ref(&a), (I32, &[1, 2]), |g, x| {
        vec![x[0], g.i32s(&[1, 1]), g.i32s(&[1, 2])]
    })
    .expect("slice");
    assert_eq!(int_values(&out), vec![4, 5]);
    let out =
        op_n(TosaOp::Tile, std::slice::from_ref(&a), (I32, &[4, 6]), |g, x| vec![x[0], g.i32s(&[2, 2])]).expect("tile");
    assert_eq!(&int_values(&out)[..12], &[0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5]);
    assert_eq!(&int_values(&out)[12..], &[0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5]);
    let b = seq(I8, &[2, 3, 4]);
    let out =
        op_n(TosaOp::Transpose, &[b], (I8, &[4, 2, 3]), |g, x| vec![g.i32s(&[2, 0, 1]), x[0]]).expect("transpose");
    // out[i][j][k] = in[j][k][i]
    let v = int_values(&out);
    assert_eq!(&v[..6], &[0, 4, 8, 12, 16, 20]);
    assert_eq!(&v[6..12], &[1, 5, 9, 13, 17, 21]);
    let r = op_n(TosaOp::Transpose, &[seq(I8, &[2, 3])], (I8, &[3, 2]), |g, x| vec![g.i32s(&[0, 0]), x[0]]);
    assert!(matches!(r, Err(ExecError::Invalid { .. })), "{r:?}");
}

#[test]
fn layout_ops_move_every_element_type_bit_exactly() {
    // fp8 and bf16 data are moved as bits, including NaN patterns.
    let e4 = TensorData::from_bits(Fp8E4M3, &[2, 2], &[0x7f, 0x01, 0xfe, 0x80]).expect("fp8");
    let out =
        op_n(TosaOp::Transpose, &[e4], (Fp8E4M3, &[2, 2]), |g, x| vec![g.i32s(&[1, 0]), x[0]]).expect("transpose");
    assert_eq!(out.to_bits(), vec![0x7f, 0xfe, 0x01, 0x80]);
    let bf = TensorData::from_bits(Bf16, &[3], &[0x7fc1, 0x3f80, 0x8000]).expect("bf16");
    let out = op_n(TosaOp::Reverse, &[bf], (Bf16, &[3]), |g, x| vec![g.u32(0), x[0]]).expect("reverse");
    assert_eq!(out.to_bits(), vec![0x8000, 0x3f80, 0x7fc1]);
    let bl = bools(&[2], &[true, false]);
    let out = op_n(TosaOp::Pad, &[bl], (Bool, &[4]), |g, x| vec![x[0], g.i32s(&[1, 1]), g.one(Bool, 1)]).expect("pad");
    assert_eq!(out.to_bits(), vec![1, 1, 0, 1]);
}

#[test]
fn gather_scatter_and_their_requires() {
    let values = seq(I16, &[1, 4, 2]);
    let idx = ints(I32, &[1, 3], &[3, 0, 3]);
    let out = op_plain(TosaOp::Gather, &[values.clone(), idx], (I16, &[1, 3, 2])).expect("gather");
    assert_eq!(int_values(&out), vec![6, 7, 0, 1, 6, 7]);
    let bad = ints(I32, &[1, 3], &[0, 4, 1]);
    let (req, at) = unpredictable_at(op_plain(TosaOp::Gather, &[values.clone(), bad], (I16, &[1, 3, 2])));
    assert_eq!((req, at), (Require::IndexRange, Some(vec![0, 1])));
    let input = ints(I16, &[1, 2, 2], &[-1, -2, -3, -4]);
    let idx = ints(I32, &[1, 2], &[2, 0]);
    let out = op_plain(TosaOp::Scatter, &[values.clone(), idx, input.clone()], (I16, &[1, 4, 2])).expect("scatter");
    assert_eq!(int_values(&out), vec![-3, -4, 2, 3, -1, -2, 6, 7]);
    let dup = ints(I32, &[1, 2], &[1, 1]);
    let (req, at) = unpredictable_at(op_plain(TosaOp::Scatter, &[values, dup, input], (I16, &[1, 4, 2])));
    assert_eq!((req, at), (Require::DuplicateIndex, Some(vec![0, 1])));
}

#[test]
fn reductions() {
    let a = ints(I32, &[2, 3], &[1, -2, 3, 4, 5, -6]);
    let reduce = |op, axis: u32, shape: &[u32]| {
        int_values(&op_n(op, std::slice::from_ref(&a), (I32, shape), |g, x| vec![g.u32(axis), x[0]]).expect("reduce"))
    };
    assert_eq!(reduce(TosaOp::ReduceSum, 0, &[1, 3]), vec![5, 3, -3]);
    assert_eq!(reduce(TosaOp::ReduceSum, 1, &[2, 1]), vec![2, 3]);
    let minmax = |op, axis: u32, shape: &[u32]| {
        int_values(
            &op_n(op, std::slice::from_ref(&a), (I32, shape), |g, x| vec![g.u32(axis), g.u32(1), x[0]])
                .expect("reduce"),
        )
    };
    assert_eq!(minmax(TosaOp::ReduceMax, 1, &[2, 1]), vec![3, 5]);
    assert_eq!(minmax(TosaOp::ReduceMin, 0, &[1, 3]), vec![1, -2, -6]);
    let big = ints(I32, &[3], &[i64::from(i32::MAX), 1, -5]);
    let (req, at) = unpredictable_at(op_n(TosaOp::ReduceSum, &[big], (I32, &[1]), |g, x| vec![g.u32(0), x[0]]));
    assert_eq!((req, at), (Require::AddOverflow, Some(vec![0])));
    let b = bools(&[2, 2], &[true, false, true, true]);
    let all =
        op_n(TosaOp::ReduceAll, std::slice::from_ref(&b), (Bool, &[2, 1]), |g, x| vec![g.u32(1), x[0]]).expect("all");
    assert_eq!(all.to_bits(), vec![0, 1]);
    let any = op_n(TosaOp::ReduceAny, &[b], (Bool, &[1, 2]), |g, x| vec![g.u32(0), x[0]]).expect("any");
    assert_eq!(any.to_bits(), vec![1, 1]);
    let f = f32s(&[2, 2], &[f32::NAN, 2.0, 0.5, 4.0]);
    let fmax = |mode| {
        op_n(TosaOp::ReduceMax, std::slice::from_ref(&f), (Fp32, &[1, 2]), |g, x| vec![g.u32(0), g.u32(mode), x[0]])
            .expect("max")
            .to_f64()
    };
    let p = fmax(1);
    assert!(p[0].is_nan());
    assert_eq!(p[1], 4.0);
    assert_eq!(fmax(2), vec![0.5, 4.0]);
    let prod = op_n(TosaOp::ReduceProduct, &[f32s(&[3], &[2.0, -3.0, 0.5])], (Fp32, &[1]), |g, x| vec![g.u32(0), x[0]])
        .expect("prod");
    assert_eq!(prod.to_f64(), vec![-3.0]);
    let sum =
        op_n(TosaOp::ReduceSum, &[f32s(&[2, 2], &[1.0, 2.0, 3.0, 4.5])], (Fp32, &[2, 1]), |g, x| vec![g.u32(1), x[0]])
            .expect("sum");
    assert_eq!(sum.to_f64(), vec![3.0, 7.5]);
}

#[test]
fn argmax_first_maximum_and_nan_modes() {
    let a = ints(I8, &[2, 3], &[-128, -128, -128, 5, 9, 9]);
    let out = op_n(TosaOp::Argmax, &[a], (I32, &[2]), |g, x| vec![g.u32(1), g.u32(1), x[0]]).expect("argmax");
    assert_eq!(int_values(&out), vec![0, 1]);
    let f = f32s(&[2, 3], &[1.0, f32::NAN, 3.0, f32::NAN, f32::NAN, f32::NAN]);
    let arg = |mode| {
        int_values(
            &op_n(TosaOp::Argmax, std::slice::from_ref(&f), (I32, &[2]), |g, x| vec![g.u32(1), g.u32(mode), x[0]])
                .expect("argmax"),
        )
    };
    assert_eq!(arg(1), vec![1, 0], "PROPAGATE: the first NaN wins");
    assert_eq!(arg(2), vec![2, 0], "IGNORE: NaNs skipped, all-NaN gives 0");
    // Rank 1 gives a [1] output in SPIR-V.
    let out =
        op_n(TosaOp::Argmax, &[ints(I16, &[4], &[1, 7, 7, 2])], (I32, &[1]), |g, x| vec![g.u32(0), g.u32(1), x[0]]);
    assert_eq!(int_values(&out.expect("argmax of rank 1")), vec![1]);
}
