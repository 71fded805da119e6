//! Pooling, RESIZE, RESCALE and the FFTs on small graphs, against
//! hand-computed results or a direct DFT.

use crate::exec_common as common;

use common::*;
use spvgraph_ir::elem::ElemType::{self, Fp32, I16, I32, I48, I8};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_oracle::exec::{ExecError, Require};

fn avg_pool(x: TensorData, out: &[u32], zps: (i64, i64), acc: u32) -> Result<TensorData, ExecError> {
    let elem = x.elem();
    op_n(TosaOp::AvgPool2d, &[x], (elem, out), |g, ids| {
        vec![
            g.i32s(&[2, 2]),
            g.i32s(&[1, 1]),
            g.i32s(&[0, 1, 0, 1]),
            g.u32(acc),
            ids[0],
            g.one(elem, zps.0 as u64),
            g.one(elem, zps.1 as u64),
        ]
    })
}

#[test]
fn avg_pool_integer_rounding_zero_points_and_saturation() {
    let x = ints(I8, &[1, 3, 3, 1], &[1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // Padding is not counted; halves round up through reciprocal_scale.
    let out = avg_pool(x.clone(), &[1, 3, 3, 1], (0, 0), 1).expect("avg");
    assert_eq!(int_values(&out), vec![3, 4, 5, 6, 7, 8, 8, 9, 9]);
    let out = avg_pool(x.clone(), &[1, 3, 3, 1], (1, -1), 1).expect("avg zp");
    assert_eq!(int_values(&out), vec![1, 2, 3, 4, 5, 6, 6, 7, 7]);
    let out = avg_pool(x, &[1, 3, 3, 1], (0, 127), 1).expect("avg saturates");
    assert!(int_values(&out).iter().all(|&v| v == 127));
    let xf = f32s(&[1, 3, 3, 1], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]);
    let out = avg_pool(xf, &[1, 3, 3, 1], (0, 0), 3).expect("avg fp32");
    assert_eq!(out.to_f64(), vec![3.0, 4.0, 4.5, 6.0, 7.0, 7.5, 7.5, 8.5, 9.0]);
}

#[test]
fn max_pool_integer_and_nan_modes() {
    let x = ints(I8, &[1, 2, 3, 1], &[1, -5, 3, -128, 7, 0]);
    let out = op_n(TosaOp::MaxPool2d, &[x], (I8, &[1, 1, 2, 1]), |g, ids| {
        vec![g.i32s(&[2, 2]), g.i32s(&[1, 1]), g.i32s(&[0, 0, 0, 0]), g.u32(1), ids[0]]
    })
    .expect("max pool");
    assert_eq!(int_values(&out), vec![7, 7]);
    let xf = f32s(&[1, 1, 4, 1], &[1.0, f32::NAN, 2.0, 3.0]);
    let pool = |mode| {
        op_n(TosaOp::MaxPool2d, std::slice::from_ref(&xf), (Fp32, &[1, 1, 2, 1]), |g, ids| {
            vec![g.i32s(&[1, 2]), g.i32s(&[1, 2]), g.i32s(&[0, 0, 0, 0]), g.u32(mode), ids[0]]
        })
        .expect("max pool fp")
        .to_f64()
    };
    let p = pool(1);
    assert!(p[0].is_nan());
    assert_eq!(p[1], 3.0);
    assert_eq!(pool(2), vec![1.0, 3.0]);
}

fn resize(x: TensorData, out: (ElemType, &[u32]), mode: u32) -> TensorData {
    op_n(TosaOp::Resize, &[x], out, |g, ids| {
        vec![g.u32(mode), ids[0], g.i32s(&[2, 1, 2, 1]), g.i32s(&[0, 0]), g.i32s(&[0, 0])]
    })
    .expect("resize")
}

#[test]
fn resize_nearest_and_bilinear() {
    let x = ints(I8, &[1, 2, 2, 1], &[1, 2, 3, 4]);
    let out = resize(x.clone(), (I8, &[1, 3, 3, 1]), 1);
    assert_eq!(int_values(&out), vec![1, 2, 2, 3, 4, 4, 3, 4, 4]);
    // Integer bilinear keeps the factor scale_y_n * scale_x_n = 4.
    let out = resize(x, (I32, &[1, 3, 3, 1]), 2);
    assert_eq!(int_values(&out), vec![4, 6, 8, 8, 10, 12, 12, 14, 16]);
    let xf = f32s(&[1, 2, 2, 1], &[1.0, 2.0, 3.0, 4.0]);
    let out = resize(xf, (Fp32, &[1, 3, 3, 1]), 2);
    assert_eq!(out.to_f64(), vec![1.0, 1.5, 2.0, 2.0, 2.5, 3.0, 3.0, 3.5, 4.0]);
    // The integer rows are tied to the mode: bilinear i8 must widen to i32.
    let r = op_n(TosaOp::Resize, &[ints(I8, &[1, 2, 2, 1], &[1, 2, 3, 4])], (I8, &[1, 3, 3, 1]), |g, ids| {
        vec![g.u32(2), ids[0], g.i32s(&[2, 1, 2, 1]), g.i32s(&[0, 0]), g.i32s(&[0, 0])]
    });
    assert!(matches!(r, Err(ExecError::Invalid { .. })), "{r:?}");
}

#[allow(clippy::too_many_arguments)]
fn rescale(
    x: TensorData,
    out: ElemType,
    scale32: bool,
    mode: u32,
    flags: (bool, bool),
    mult: (ElemType, &[u64]),
    shift: &[u64],
    zps: (u64, u64),
) -> Result<TensorData, ExecError> {
    let shape: Vec<u32> = x.shape().iter().map(|&d| d as u32).collect();
    let in_elem = x.elem();
    let per_channel = mult.1.len() > 1;
    op_n(TosaOp::Rescale, &[x], (out, &shape), |g, ids| {
        let n = mult.1.len() as u32;
        vec![
            g.boolean(scale32),
            g.u32(mode),
            g.boolean(per_channel),
            g.boolean(flags.0),
            g.boolean(flags.1),
            ids[0],
            g.tensor(mult.0, &[n], mult.1),
            g.tensor(I8, &[n], shift),
            g.one(in_elem, zps.0),
            g.one(out, zps.1),
        ]
    })
}

#[test]
fn rescale_per_channel_unsigned_and_double_round() {
    // Channel 0 scales by 0.5, channel 1 by 1.5; ties half up; saturation.
    let x = ints(I32, &[2, 2], &[3, 3, -3, 200]);
    let out = rescale(x, I8, true, 1, (false, false), (I32, &[1 << 30, 3 << 29]), &[31, 30], (0, 0)).expect("rescale");
    assert_eq!(int_values(&out), vec![2, 5, -1, 127]);
    // u8 (zero point 128) to i8.
    let x = ints(I8, &[3], &[-1, 0, -128]);
    let out = rescale(x, I8, true, 1, (true, false), (I32, &[1 << 30]), &[30], (0x80, 0)).expect("u8->i8");
    assert_eq!(int_values(&out), vec![127, -128, 0]);
    // i16 to u16 with zero point 32768 (scale16, 16-bit multiplier).
    let x = ints(I16, &[2], &[-32768, 32767]);
    let out = rescale(x, I16, false, 1, (false, true), (I16, &[1 << 14]), &[14], (0, 0x8000)).expect("i16->u16");
    assert_eq!(out.to_bits().iter().map(|&b| b as u16).collect::<Vec<_>>(), vec![0, 65535]);
    // DOUBLE_ROUND: 1 * 2^30 >> 32 is 0 with one rounding, 1 with two.
    let x = ints(I32, &[1], &[1]);
    let single = rescale(x.clone(), I32, true, 1, (false, false), (I32, &[1 << 30]), &[32], (0, 0)).expect("single");
    let double = rescale(x.clone(), I32, true, 3, (false, false), (I32, &[1 << 30]), &[32], (0, 0)).expect("double");
    let inexact = rescale(x, I32, true, 2, (false, false), (I32, &[1 << 30]), &[32], (0, 0)).expect("inexact");
    assert_eq!((int_values(&single), int_values(&double), int_values(&inexact)), (vec![0], vec![1], vec![0]));
}

#[test]
fn rescale_i48_requires_and_error_ifs() {
    let x = ints(I48, &[2], &[1 << 30, 1 << 40]);
    let r = rescale(x, I32, false, 1, (false, false), (I16, &[1 << 14]), &[22], (0, 0));
    assert_eq!(unpredictable_at(r), (Require::ScaleResultRange, Some(vec![1])));
    let x = ints(I48, &[1], &[1 << 30]);
    let out = rescale(x, I32, false, 1, (false, false), (I16, &[1 << 14]), &[22], (0, 0)).expect("i48");
    assert_eq!(int_values(&out), vec![1 << 22]);
    let x = ints(I8, &[2], &[1, 2]);
    let r = rescale(x.clone(), I8, true, 1, (false, false), (I32, &[1 << 30]), &[1], (0, 0));
    assert_eq!(unpredictable_at(r), (Require::ScaleShift, Some(vec![0])));
    let r = rescale(x.clone(), I8, true, 1, (true, true), (I32, &[1 << 30]), &[30], (0, 0));
    assert!(matches!(r, Err(ExecError::Invalid { .. })), "both unsigned: {r:?}");
    let r = rescale(x.clone(), I8, false, 3, (false, false), (I16, &[1 << 14]), &[14], (0, 0));
    assert!(matches!(r, Err(ExecError::Invalid { .. })), "DOUBLE_ROUND without scale32: {r:?}");
    let r = rescale(x, I8, true, 1, (false, false), (I16, &[1 << 14]), &[14], (0, 0));
    assert!(matches!(r, Err(ExecError::Invalid { .. })), "i16 multiplier with scale32: {r:?}");
    let r = rescale(ints(I16, &[1], &[1]), I8, true, 1, (true, false), (I32, &[1 << 30]), &[30], (5, 0));
    assert!(matches!(r, Err(ExecError::Invalid { .. })), "u16 zero point 5: {r:?}");
}

/// Direct DFT: `X = Σ x·exp(∓i·2π(iy·oy/H + ix·ox/W))`.
fn dft(re: &[f32], im: &[f32], n: usize, h: usize, w: usize, inverse: bool) -> (Vec<f64>, Vec<f64>) {
    let s = if inverse { -1.0 } else { 1.0 };
    let (mut or, mut oi) = (vec![0.0; n * h * w], vec![0.0; n * h * w]);
    for b in 0..n {
        for oy in 0..h {
            for ox in 0..w {
                let (mut sr, mut si) = (0.0f64, 0.0f64);
                for iy in 0..h {
                    for ix in 0..w {
                        let a = s
                            * 2.0
                            * std::f64::consts::PI
                            * (((iy * oy) % h) as f64 / h as f64 + ((ix * ox) % w) as f64 / w as f64);
                        let (xr, xi) = (f64::from(re[(b * h + iy) * w + ix]), f64::from(im[(b * h + iy) * w + ix]));
                        sr += xr * a.cos() + xi * a.sin();
                        si += -xr * a.sin() + xi * a.cos();
                    }
                }
                or[(b * h + oy) * w + ox] = sr;
                oi[(b * h + oy) * w + ox] = si;
            }
        }
    }
    (or, oi)
}

fn fft_graph(op: TosaOp, inputs: &[TensorData], out_shape: &[u32], attrs: &[bool]) -> Vec<TensorData> {
    let shape: Vec<u32> = inputs[0].shape().iter().map(|&d| d as u32).collect();
    let decl: Vec<(ElemType, &[u32])> = inputs.iter().map(|_| (Fp32, shape.as_slice())).collect();
    let mut g = Graph::new(&decl, &[(Fp32, out_shape), (Fp32, out_shape)]);
    let t = g.b.type_tensor(Fp32, Some(out_shape));
    let sty = g.b.type_struct(vec![t, t]);
    let mut args: Vec<_> = attrs.iter().map(|&a| g.boolean(a)).collect();
    args.extend(g.inputs.clone());
    let r = g.b.tosa(op, sty, args);
    let re = g.b.composite_extract(t, r, 0);
    let im = g.b.composite_extract(t, r, 1);
    g.output(re);
    g.output(im);
    let m = g.finish();
    run(&m, inputs).expect("fft")
}

#[test]
fn fft2d_and_rfft2d_match_the_dft() {
    let mut rng = Rng(41);
    let (n, h, w) = (2, 4, 8);
    let re = rng.units(n * h * w);
    let im = rng.units(n * h * w);
    for inverse in [false, true] {
        let out = fft_graph(
            TosaOp::Fft2d,
            &[f32s(&[n, h, w], &re), f32s(&[n, h, w], &im)],
            &[n as u32, h as u32, w as u32],
            &[inverse, false],
        );
        let (wr, wi) = dft(&re, &im, n, h, w, inverse);
        for (got, want) in out[0].to_f64().iter().zip(&wr).chain(out[1].to_f64().iter().zip(&wi)) {
            assert!((got - want).abs() < 1e-5, "{got} vs {want} (inverse {inverse})");
        }
    }
    let out = fft_graph(TosaOp::Rfft2d, &[f32s(&[n, h, w], &re)], &[n as u32, h as u32, (w / 2 + 1) as u32], &[false]);
    let (wr, wi) = dft(&re, &vec![0.0; re.len()], n, h, w, false);
    let wo = w / 2 + 1;
    let (gr, gi) = (out[0].to_f64(), out[1].to_f64());
    for b in 0..n {
        for y in 0..h {
            for x in 0..wo {
                let (got, want) = (
                    (gr[(b * h + y) * wo + x], gi[(b * h + y) * wo + x]),
                    (wr[(b * h + y) * w + x], wi[(b * h + y) * w + x]),
                );
                assert!((got.0 - want.0).abs() < 1e-5 && (got.1 - want.1).abs() < 1e-5, "{got:?} vs {want:?}");
                if (y == 0 || y == h / 2) && (x == 0 || x == w / 2) {
                    assert_eq!(got.1, 0.0, "imaginary part of a real bin is exactly 0");
                }
            }
        }
    }
}
