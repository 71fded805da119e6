//! Convolutions and MATMUL: the GEMM paths against naive loop nests written
//! here from the pseudocode, on random data (exact for integers), plus the
//! exact integer path and its accumulator REQUIREs.

use crate::exec_common as common;

use common::*;
use spvgraph_ir::elem::ElemType::{self, Fp16, Fp32, I16, I32, I48, I8};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_oracle::exec::Require;

const INT32: u32 = 1;
const FP32: u32 = 3;
const INT48: u32 = 4;

struct Conv {
    n: usize,
    ih: usize,
    iw: usize,
    ic: usize,
    oc: usize,
    kh: usize,
    kw: usize,
    pad: [usize; 4],
    stride: [usize; 2],
    dil: [usize; 2],
}

impl Conv {
    fn out(&self) -> (usize, usize) {
        let oh = (self.ih - 1 + self.pad[0] + self.pad[1] - (self.kh - 1) * self.dil[0]) / self.stride[0] + 1;
        let ow = (self.iw - 1 + self.pad[2] + self.pad[3] - (self.kw - 1) * self.dil[1]) / self.stride[1] + 1;
        (oh, ow)
    }

    /// The pseudocode's loop nest, in i128 (no overflow possible here).
    fn naive(&self, x: &[i64], w: &[i64], b: &[i64], xzp: i64, wzp: i64) -> Vec<i64> {
        let (oh, ow) = self.out();
        let mut out = Vec::new();
        for n in 0..self.n {
            for oy in 0..oh {
                for ox in 0..ow {
                    for oc in 0..self.oc {
                        let mut acc = 0i128;
                        for ky in 0..self.kh {
                            for kx in 0..self.kw {
                                let y = (oy * self.stride[0] + ky * self.dil[0]) as i64 - self.pad[0] as i64;
                                let xx = (ox * self.stride[1] + kx * self.dil[1]) as i64 - self.pad[2] as i64;
                                if y < 0 || xx < 0 || y >= self.ih as i64 || xx >= self.iw as i64 {
                                    continue;
                                }
                                for ic in 0..self.ic {
                                    let xv =
                                        x[((n * self.ih + y as usize) * self.iw + xx as usize) * self.ic + ic] - xzp;
                                    let wv = w[((oc * self.kh + ky) * self.kw + kx) * self.ic + ic] - wzp;
                                    acc += i128::from(xv * wv);
                                }
                            }
                        }
                        acc += i128::from(b[if b.len() == 1 { 0 } else { oc }]);
                        out.push(acc as i64);
                    }
                }
            }
        }
        out
    }

    fn run(
        &self,
        types: [ElemType; 3],
        acc: u32,
        x: TensorData,
        w: TensorData,
        b: TensorData,
        zps: (u64, u64),
    ) -> Result<TensorData, spvgraph_oracle::exec::ExecError> {
        let (oh, ow) = self.out();
        let out = [self.n as u32, oh as u32, ow as u32, self.oc as u32];
        let p = self.pad.map(|v| v as i32);
        let s = self.stride.map(|v| v as i32);
        let d = self.dil.map(|v| v as i32);
        op_n(TosaOp::Conv2d, &[x, w, b], (types[2], &out), |g, ids| {
            vec![
                g.i32s(&p),
                g.i32s(&s),
                g.i32s(&d),
                g.u32(acc),
                g.boolean(false),
                ids[0],
                ids[1],
                ids[2],
                g.one(types[0], zps.0),
                g.one(types[1], zps.1),
            ]
        })
    }
}

#[test]
fn conv2d_int8_matches_the_loop_nest() {
    let mut rng = Rng(7);
    let shapes = [
        Conv { n: 2, ih: 8, iw: 6, ic: 3, oc: 5, kh: 3, kw: 2, pad: [1, 2, 0, 1], stride: [2, 1], dil: [1, 2] },
        Conv { n: 1, ih: 9, iw: 9, ic: 16, oc: 8, kh: 3, kw: 3, pad: [1, 1, 1, 1], stride: [1, 1], dil: [1, 1] },
        Conv { n: 1, ih: 5, iw: 5, ic: 1, oc: 1, kh: 5, kw: 5, pad: [0, 0, 0, 0], stride: [1, 1], dil: [1, 1] },
    ];
    for c in &shapes {
        let (xn, wn) = (c.n * c.ih * c.iw * c.ic, c.oc * c.kh * c.kw * c.ic);
        let x = rng.ints(xn, -128, 127);
        let w = rng.ints(wn, -128, 127);
        let b = rng.ints(c.oc, -100_000, 100_000);
        let (xzp, wzp) = (rng.int(-128, 127), rng.int(-128, 127));
        let out = c
            .run(
                [I8, I8, I32],
                INT32,
                ints(I8, &[c.n, c.ih, c.iw, c.ic], &x),
                ints(I8, &[c.oc, c.kh, c.kw, c.ic], &w),
                ints(I32, &[c.oc], &b),
                (xzp as u64, wzp as u64),
            )
            .expect("conv2d");
        assert_eq!(int_values(&out), c.naive(&x, &w, &b, xzp, wzp));
    }
}

#[test]
fn conv2d_int16_accumulates_in_i48() {
    let mut rng = Rng(11);
    let c = Conv { n: 1, ih: 6, iw: 5, ic: 7, oc: 3, kh: 3, kw: 3, pad: [2, 0, 1, 1], stride: [1, 2], dil: [2, 1] };
    let x = rng.ints(c.n * c.ih * c.iw * c.ic, -32768, 32767);
    let w = rng.ints(c.oc * c.kh * c.kw * c.ic, -128, 127);
    let b = vec![(1i64 << 46) - 1];
    let wzp = 3;
    let out = c
        .run(
            [I16, I8, I48],
            INT48,
            ints(I16, &[c.n, c.ih, c.iw, c.ic], &x),
            ints(I8, &[c.oc, c.kh, c.kw, c.ic], &w),
            ints(I48, &[1], &b),
            (0, wzp as u64),
        )
        .expect("conv2d i16");
    assert_eq!(int_values(&out), c.naive(&x, &w, &b, 0, wzp));
}

#[test]
fn conv2d_fp_matches_f64_loop_nest() {
    let mut rng = Rng(3);
    let c = Conv { n: 2, ih: 8, iw: 7, ic: 5, oc: 4, kh: 3, kw: 3, pad: [1, 1, 2, 0], stride: [1, 2], dil: [1, 1] };
    let x = rng.units(c.n * c.ih * c.iw * c.ic);
    let w = rng.units(c.oc * c.kh * c.kw * c.ic);
    let b = rng.units(c.oc);
    let out = c
        .run(
            [Fp32, Fp32, Fp32],
            FP32,
            f32s(&[c.n, c.ih, c.iw, c.ic], &x),
            f32s(&[c.oc, c.kh, c.kw, c.ic], &w),
            f32s(&[c.oc], &b),
            (0, 0),
        )
        .expect("conv2d fp32");
    // The loop nest in f64 on the same data (scaled to integers and back, exactly).
    let scale = (1u64 << 23) as f64;
    let xi: Vec<i64> = x.iter().map(|&v| (f64::from(v) * scale) as i64).collect();
    let wi: Vec<i64> = w.iter().map(|&v| (f64::from(v) * scale) as i64).collect();
    let bi: Vec<i64> = b.iter().map(|&v| (f64::from(v) * scale * scale) as i64).collect();
    let want: Vec<f64> = c.naive(&xi, &wi, &bi, 0, 0).iter().map(|&v| v as f64 / (scale * scale)).collect();
    for (i, (got, want)) in out.to_f64().iter().zip(&want).enumerate() {
        assert!((got - want).abs() <= 1e-5 * (1.0 + want.abs()), "element {i}: {got} vs {want}");
    }
}

#[test]
fn conv2d_fp16_rounds_the_accumulator_once() {
    // 1x1 convolution: 2048 + 1 + 1 in fp32 accumulation is 2050, exactly an fp16 value.
    let c = Conv { n: 1, ih: 1, iw: 1, ic: 3, oc: 1, kh: 1, kw: 1, pad: [0; 4], stride: [1, 1], dil: [1, 1] };
    let h = |v: f32| u64::from(half::f16::from_f32(v).to_bits());
    let x = TensorData::from_bits(Fp16, &[1, 1, 1, 3], &[h(2048.0), h(1.0), h(1.0)]).expect("x");
    let w = TensorData::from_bits(Fp16, &[1, 1, 1, 3], &[h(1.0), h(1.0), h(1.0)]).expect("w");
    let b = TensorData::from_bits(Fp16, &[1], &[h(0.0)]).expect("b");
    let out = c.run([Fp16, Fp16, Fp16], FP32, x, w, b, (0, 0)).expect("conv fp16");
    assert_eq!(out.to_f64(), vec![2050.0]);
}

/// The exact integer path: K large enough that the GEMM bound exceeds i32.
#[test]
fn conv2d_exact_path_checks_partial_sums_in_order() {
    let ic = 140_000;
    let c = Conv { n: 1, ih: 1, iw: 1, ic, oc: 1, kh: 1, kw: 1, pad: [0; 4], stride: [1, 1], dil: [1, 1] };
    let mut rng = Rng(5);
    let x = rng.ints(ic, -128, 127);
    let w = rng.ints(ic, -128, 127);
    let run = |x: &[i64], w: &[i64], b: i64, xzp: i64| {
        c.run(
            [I8, I8, I32],
            INT32,
            ints(I8, &[1, 1, 1, ic], x),
            ints(I8, &[1, 1, 1, ic], w),
            ints(I32, &[1], &[b]),
            (xzp as u64, 0),
        )
    };
    let out = run(&x, &w, 7, 0).expect("random data stays in range");
    assert_eq!(int_values(&out), c.naive(&x, &w, &[7], 0, 0));
    // Partial sums climb past INT32_MAX (70000 * 255 * 127), then come back:
    // the final sum (-70000 * 255) fits, but the accumulator overflowed on the way.
    let half = ic / 2;
    let x = vec![127i64; ic];
    let w: Vec<i64> = (0..ic).map(|i| if i < half { 127 } else { -128 }).collect();
    let (req, at) = unpredictable_at(run(&x, &w, 0, -128));
    assert_eq!((req, at), (Require::AccumulatorOverflow, Some(vec![0, 0, 0, 0])));
    // The same products interleaved never overflow.
    let w_alt: Vec<i64> = (0..ic).map(|i| if i % 2 == 0 { 127 } else { -128 }).collect();
    let out = run(&x, &w_alt, 0, -128).expect("interleaved products stay in range");
    assert_eq!(int_values(&out), vec![-70_000 * 255]);
    // The bias addition is checked too.
    let x: Vec<i64> = (0..ic).map(|i| if i == 0 { 1 } else { 0 }).collect();
    let w = vec![1i64; ic];
    let (req, _) = unpredictable_at(run(&x, &w, i64::from(i32::MAX), 0));
    assert_eq!(req, Require::AccumulatorOverflow);
}

#[test]
fn depthwise_conv2d_matches_the_loop_nest() {
    let mut rng = Rng(17);
    let (n, ih, iw, ch, m, kh, kw) = (2usize, 6usize, 6usize, 3usize, 2usize, 3usize, 2usize);
    let (pad, stride, dil) = ([1usize, 0, 1, 1], [1usize, 2], [2usize, 1]);
    let oh = (ih - 1 + pad[0] + pad[1] - (kh - 1) * dil[0]) / stride[0] + 1;
    let ow = (iw - 1 + pad[2] + pad[3] - (kw - 1) * dil[1]) / stride[1] + 1;
    let x = rng.ints(n * ih * iw * ch, -128, 127);
    let w = rng.ints(kh * kw * ch * m, -128, 127);
    let b = rng.ints(ch * m, -1000, 1000);
    let (xzp, wzp) = (-3i64, 9i64);
    let mut want = Vec::new();
    for bn in 0..n {
        for oy in 0..oh {
            for ox in 0..ow {
                for c in 0..ch {
                    for mm in 0..m {
                        let mut acc = b[c * m + mm];
                        for ky in 0..kh {
                            for kx in 0..kw {
                                let y = (oy * stride[0] + ky * dil[0]) as i64 - pad[0] as i64;
                                let xx = (ox * stride[1] + kx * dil[1]) as i64 - pad[2] as i64;
                                if y >= 0 && xx >= 0 && (y as usize) < ih && (xx as usize) < iw {
                                    let xv = x[((bn * ih + y as usize) * iw + xx as usize) * ch + c] - xzp;
                                    acc += xv * (w[((ky * kw + kx) * ch + c) * m + mm] - wzp);
                                }
                            }
                        }
                        want.push(acc);
                    }
                }
            }
        }
    }
    let out = op_n(
        TosaOp::DepthwiseConv2d,
        &[ints(I8, &[n, ih, iw, ch], &x), ints(I8, &[kh, kw, ch, m], &w), ints(I32, &[ch * m], &b)],
        (I32, &[n as u32, oh as u32, ow as u32, (ch * m) as u32]),
        |g, ids| {
            vec![
                g.i32s(&pad.map(|v| v as i32)),
                g.i32s(&stride.map(|v| v as i32)),
                g.i32s(&dil.map(|v| v as i32)),
                g.u32(INT32),
                g.boolean(false),
                ids[0],
                ids[1],
                ids[2],
                g.one(I8, xzp as u64),
                g.one(I8, wzp as u64),
            ]
        },
    )
    .expect("depthwise");
    assert_eq!(int_values(&out), want);
}

#[test]
fn transpose_conv2d_matches_the_scatter_definition() {
    let mut rng = Rng(23);
    for (stride, out_pad) in [([2usize, 3usize], [0i64, 1, -1, 2]), ([1, 1], [-2, -2, 0, 0])] {
        let (n, ih, iw, ic, oc, kh, kw) = (1usize, 3usize, 4usize, 2usize, 3usize, 3usize, 2usize);
        let oh = ((ih - 1) * stride[0]) as i64 + out_pad[0] + out_pad[1] + kh as i64;
        let ow = ((iw - 1) * stride[1]) as i64 + out_pad[2] + out_pad[3] + kw as i64;
        let (oh, ow) = (oh as usize, ow as usize);
        let x = rng.ints(n * ih * iw * ic, -128, 127);
        let w = rng.ints(oc * kh * kw * ic, -128, 127);
        let b = rng.ints(oc, -50, 50);
        // Each input pixel scattered to (iy*sy + pad_top + ky, ix*sx + pad_left + kx).
        let mut want = vec![0i64; n * oh * ow * oc];
        for (i, v) in want.iter_mut().enumerate() {
            *v = b[i % oc];
        }
        for iy in 0..ih {
            for ix in 0..iw {
                for o in 0..oc {
                    for c in 0..ic {
                        for ky in 0..kh {
                            for kx in 0..kw {
                                let y = (iy * stride[0] + ky) as i64 + out_pad[0];
                                let xx = (ix * stride[1] + kx) as i64 + out_pad[2];
                                if y >= 0 && xx >= 0 && (y as usize) < oh && (xx as usize) < ow {
                                    want[((y as usize) * ow + xx as usize) * oc + o] +=
                                        x[(iy * iw + ix) * ic + c] * w[((o * kh + ky) * kw + kx) * ic + c];
                                }
                            }
                        }
                    }
                }
            }
        }
        let out = op_n(
            TosaOp::TransposeConv2d,
            &[ints(I8, &[n, ih, iw, ic], &x), ints(I8, &[oc, kh, kw, ic], &w), ints(I32, &[oc], &b)],
            (I32, &[n as u32, oh as u32, ow as u32, oc as u32]),
            |g, ids| {
                vec![
                    g.i32s(&out_pad.map(|v| v as i32)),
                    g.i32s(&stride.map(|v| v as i32)),
                    g.u32(INT32),
                    g.boolean(false),
                    ids[0],
                    ids[1],
                    ids[2],
                    g.one(I8, 0),
                    g.one(I8, 0),
                ]
            },
        )
        .expect("transpose conv");
        assert_eq!(int_values(&out), want, "stride {stride:?} out_pad {out_pad:?}");
    }
}

#[test]
fn conv3d_matches_the_loop_nest() {
    let mut rng = Rng(29);
    let (n, id, ih, iw, ic, oc, kd, kh, kw) = (1usize, 5usize, 3usize, 3usize, 2usize, 2usize, 2usize, 2usize, 2usize);
    let pad = [1usize, 0, 0, 1, 1, 0];
    let stride = [2usize, 1, 1];
    let dil = [1usize, 1, 2];
    let od = (id - 1 + pad[0] + pad[1] - (kd - 1) * dil[0]) / stride[0] + 1;
    let oh = (ih - 1 + pad[2] + pad[3] - (kh - 1) * dil[1]) / stride[1] + 1;
    let ow = (iw - 1 + pad[4] + pad[5] - (kw - 1) * dil[2]) / stride[2] + 1;
    let x = rng.ints(n * id * ih * iw * ic, -128, 127);
    let w = rng.ints(oc * kd * kh * kw * ic, -128, 127);
    let mut want = Vec::new();
    for z in 0..od {
        for y in 0..oh {
            for xx in 0..ow {
                for o in 0..oc {
                    let mut acc = 0i64;
                    for a in 0..kd {
                        for bb in 0..kh {
                            for cc in 0..kw {
                                let iz = (z * stride[0] + a * dil[0]) as i64 - pad[0] as i64;
                                let iy = (y * stride[1] + bb * dil[1]) as i64 - pad[2] as i64;
                                let ix = (xx * stride[2] + cc * dil[2]) as i64 - pad[4] as i64;
                                if iz < 0 || iy < 0 || ix < 0 || iz >= id as i64 || iy >= ih as i64 || ix >= iw as i64 {
                                    continue;
                                }
                                for c in 0..ic {
                                    acc += x[(((iz as usize) * ih + iy as usize) * iw + ix as usize) * ic + c]
                                        * w[((((o * kd + a) * kh + bb) * kw + cc) * ic) + c];
                                }
                            }
                        }
                    }
                    want.push(acc);
                }
            }
        }
    }
    let out = op_n(
        TosaOp::Conv3d,
        &[ints(I8, &[n, id, ih, iw, ic], &x), ints(I8, &[oc, kd, kh, kw, ic], &w), ints(I32, &[1], &[0])],
        (I32, &[n as u32, od as u32, oh as u32, ow as u32, oc as u32]),
        |g, ids| {
            vec![
                g.i32s(&pad.map(|v| v as i32)),
                g.i32s(&stride.map(|v| v as i32)),
                g.i32s(&dil.map(|v| v as i32)),
                g.u32(INT32),
                g.boolean(false),
                ids[0],
                ids[1],
                ids[2],
                g.one(I8, 0),
                g.one(I8, 0),
            ]
        },
    )
    .expect("conv3d");
    assert_eq!(int_values(&out), want);
}

#[test]
fn matmul_int_and_fp() {
    let mut rng = Rng(31);
    let (n, h, c, w) = (2usize, 5usize, 7usize, 3usize);
    let a = rng.ints(n * h * c, -128, 127);
    let b = rng.ints(n * c * w, -128, 127);
    let (azp, bzp) = (-7i64, 100i64);
    let mut want = Vec::new();
    for bn in 0..n {
        for i in 0..h {
            for j in 0..w {
                want.push(
                    (0..c).map(|k| (a[(bn * h + i) * c + k] - azp) * (b[(bn * c + k) * w + j] - bzp)).sum::<i64>(),
                );
            }
        }
    }
    let out = op_n(
        TosaOp::Matmul,
        &[ints(I8, &[n, h, c], &a), ints(I8, &[n, c, w], &b)],
        (I32, &[n as u32, h as u32, w as u32]),
        |g, ids| vec![ids[0], ids[1], g.one(I8, azp as u64), g.one(I8, bzp as u64)],
    )
    .expect("matmul i8");
    assert_eq!(int_values(&out), want);
    // i16 x i16 -> i48 with the exact bound exceeded by the GEMM rule: products
    // of 2^30 over C = 2^17 would pass 2^47, so the exact path runs; it fits here.
    let c16 = 1 << 17;
    let a16 = vec![-32768i64; c16];
    let b16: Vec<i64> = (0..c16).map(|k| if k % 2 == 0 { 32767 } else { -32768 }).collect();
    let want16: i64 = a16.iter().zip(&b16).map(|(x, y)| x * y).sum();
    let out = op_n(
        TosaOp::Matmul,
        &[ints(I16, &[1, 1, c16], &a16), ints(I16, &[1, c16, 1], &b16)],
        (I48, &[1, 1, 1]),
        |g, ids| vec![ids[0], ids[1], g.one(I16, 0), g.one(I16, 0)],
    )
    .expect("matmul i16");
    assert_eq!(int_values(&out), vec![want16]);
    let af = rng.units(n * h * c);
    let bf = rng.units(n * c * w);
    let out = op_n(
        TosaOp::Matmul,
        &[f32s(&[n, h, c], &af), f32s(&[n, c, w], &bf)],
        (Fp32, &[n as u32, h as u32, w as u32]),
        |g, ids| vec![ids[0], ids[1], g.one(Fp32, 0), g.one(Fp32, 0)],
    )
    .expect("matmul fp32");
    let got = out.to_f64();
    for bn in 0..n {
        for i in 0..h {
            for j in 0..w {
                let r: f64 =
                    (0..c).map(|k| f64::from(af[(bn * h + i) * c + k]) * f64::from(bf[(bn * c + k) * w + j])).sum();
                assert!((got[(bn * h + i) * w + j] - r).abs() < 1e-5);
            }
        }
    }
}

#[test]
fn nonzero_zero_point_on_fp_conv_is_invalid() {
    let c = Conv { n: 1, ih: 1, iw: 1, ic: 1, oc: 1, kh: 1, kw: 1, pad: [0; 4], stride: [1, 1], dil: [1, 1] };
    let r = c.run(
        [Fp32, Fp32, Fp32],
        FP32,
        f32s(&[1, 1, 1, 1], &[1.0]),
        f32s(&[1, 1, 1, 1], &[1.0]),
        f32s(&[1], &[0.0]),
        (u64::from(1.0f32.to_bits()), 0),
    );
    assert!(matches!(r, Err(spvgraph_oracle::exec::ExecError::Invalid { .. })), "{r:?}");
    // acc_type must match the row: INT48 with i8 data is not a row.
    let r = c.run(
        [I8, I8, I32],
        INT48,
        ints(I8, &[1, 1, 1, 1], &[1]),
        ints(I8, &[1, 1, 1, 1], &[1]),
        ints(I32, &[1], &[0]),
        (0, 0),
    );
    assert!(matches!(r, Err(spvgraph_oracle::exec::ExecError::Invalid { .. })), "{r:?}");
}
