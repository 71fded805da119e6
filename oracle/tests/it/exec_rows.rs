//! Every type row of every operator in the catalogue runs: a small valid
//! graph per (operator, row, qualifier) must produce outputs (or, where the
//! data hits a REQUIRE, an unpredictable verdict), never an invalid-graph or
//! internal error. Shapes and attributes are chosen here per operator; the
//! rows themselves come from the catalogue, so a row added there is swept.

use crate::exec_common as common;

use common::*;
use spvgraph_ir::elem::ElemType::{self, Bool, I16, I32, I8};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::{ResultKind, RowQualifier, TosaOp, TypeRow};
use spvgraph_ir::Id;
use spvgraph_oracle::exec::fp::FpFormat;
use spvgraph_oracle::exec::ExecError;

/// Test data of `elem`: small positive floats, small integers (`lo..=hi`), random bools.
fn data(rng: &mut Rng, elem: ElemType, shape: &[usize], lo: i64, hi: i64) -> TensorData {
    let n: usize = shape.iter().product();
    let bits: Vec<u64> = (0..n)
        .map(|_| match elem {
            ElemType::Bool => rng.bits() & 1,
            e if e.is_float() => FpFormat::of(e).map_or(0, |f| f.encode(0.25 * rng.int(1, 8) as f64)),
            _ => rng.int(lo, hi) as u64,
        })
        .collect();
    TensorData::from_bits(elem, shape, &bits).expect("shape")
}

type Args = Box<dyn FnOnce(&mut Graph, &[Id]) -> Vec<Id>>;

struct Case {
    inputs: Vec<TensorData>,
    out: Vec<u32>,
    args: Args,
}

fn zero(g: &mut Graph, elem: ElemType) -> Id {
    g.one(elem, 0)
}

fn u(v: &[u32]) -> Vec<u32> {
    v.to_vec()
}

/// The graph of `op` for the element types of `row` (`q` picks the
/// qualifier value for rows that admit any).
fn case(op: TosaOp, row: &TypeRow, q: u32, rng: &mut Rng) -> Case {
    let t = row.types;
    let (t0, t1) = (t[0], t.get(1).copied().unwrap_or(t[0]));
    let acc = match row.qualifier {
        RowQualifier::AccType(a) => a.value(),
        _ => 0,
    };
    use TosaOp::*;
    let small = |rng: &mut Rng, e, s: &[usize]| data(rng, e, s, -3, 3);
    match op {
        Argmax => Case {
            inputs: vec![small(rng, t0, &[2, 3])],
            out: u(&[2]),
            args: Box::new(|g, x| vec![g.u32(1), g.u32(1), x[0]]),
        },
        AvgPool2d | MaxPool2d => Case {
            inputs: vec![small(rng, t0, &[1, 4, 4, 2])],
            out: u(&[1, 2, 2, 2]),
            args: Box::new(move |g, x| {
                let mut a = vec![g.i32s(&[2, 2]), g.i32s(&[2, 2]), g.i32s(&[0, 0, 0, 0])];
                if op == AvgPool2d {
                    a.extend([g.u32(acc), x[0], zero(g, t0), zero(g, t0)]);
                } else {
                    a.extend([g.u32(1), x[0]]);
                }
                a
            }),
        },
        Conv2d | DepthwiseConv2d | TransposeConv2d | Conv3d => {
            let (tw, to) = (t[1], t[2]);
            let (input, weight, bias, out): (&[usize], &[usize], usize, Vec<u32>) = match op {
                Conv2d => (&[1, 4, 4, 2], &[3, 3, 3, 2], 3, u(&[1, 4, 4, 3])),
                DepthwiseConv2d => (&[1, 4, 4, 2], &[3, 3, 2, 2], 4, u(&[1, 4, 4, 4])),
                TransposeConv2d => (&[1, 3, 3, 2], &[3, 2, 2, 2], 3, u(&[1, 6, 6, 3])),
                _ => (&[1, 3, 4, 4, 2], &[2, 2, 3, 3, 2], 2, u(&[1, 2, 2, 2, 2])),
            };
            Case {
                inputs: vec![small(rng, t0, input), small(rng, tw, weight), small(rng, to, &[bias])],
                out,
                args: Box::new(move |g, x| {
                    let mut a = match op {
                        TransposeConv2d => vec![g.i32s(&[0, 0, 0, 0]), g.i32s(&[2, 2])],
                        Conv3d => vec![g.i32s(&[0; 6]), g.i32s(&[1, 1, 1]), g.i32s(&[1, 1, 1])],
                        _ => vec![g.i32s(&[1, 1, 1, 1]), g.i32s(&[1, 1]), g.i32s(&[1, 1])],
                    };
                    a.extend([g.u32(acc), g.boolean(false), x[0], x[1], x[2], zero(g, t0), zero(g, tw)]);
                    a
                }),
            }
        }
        Fft2d => Case {
            inputs: vec![small(rng, t0, &[1, 4, 4]), small(rng, t0, &[1, 4, 4])],
            out: u(&[1, 4, 4]),
            args: Box::new(|g, x| vec![g.boolean(true), g.boolean(false), x[0], x[1]]),
        },
        Rfft2d => Case {
            inputs: vec![small(rng, t0, &[1, 4, 4])],
            out: u(&[1, 4, 3]),
            args: Box::new(|g, x| vec![g.boolean(false), x[0]]),
        },
        Matmul => Case {
            inputs: vec![small(rng, t0, &[1, 2, 3]), small(rng, t0, &[1, 3, 4])],
            out: u(&[1, 2, 4]),
            args: Box::new(move |g, x| vec![x[0], x[1], zero(g, t0), zero(g, t0)]),
        },
        Clamp => Case {
            inputs: vec![small(rng, t0, &[2, 3])],
            out: u(&[2, 3]),
            args: Box::new(move |g, x| {
                let (lo, hi) = match FpFormat::of(t0) {
                    Some(f) => (f.encode(0.5), f.encode(1.5)),
                    None => ((-2i64) as u64, 2),
                };
                vec![g.scalar(t0, lo), g.scalar(t0, hi), g.u32(2), x[0]]
            }),
        },
        Add | Sub | BitwiseAnd | BitwiseOr | BitwiseXor | Intdiv | LogicalAnd | LogicalOr | LogicalXor | Pow
        | LogicalLeftShift | LogicalRightShift | ArithmeticRightShift | Maximum | Minimum | Mul => {
            let shifty = matches!(op, LogicalLeftShift | LogicalRightShift | ArithmeticRightShift | Intdiv);
            let b = if shifty { data(rng, t0, &[1, 3], 1, 2) } else { small(rng, t0, &[1, 3]) };
            Case {
                inputs: vec![small(rng, t0, &[2, 3]), b],
                out: u(&[2, 3]),
                args: Box::new(move |g, x| match op {
                    ArithmeticRightShift => vec![g.boolean(true), x[0], x[1]],
                    Maximum | Minimum => vec![g.u32(1), x[0], x[1]],
                    Mul => vec![x[0], x[1], zero(g, I8)],
                    _ => vec![x[0], x[1]],
                }),
            }
        }
        Table => {
            let size = if t0 == I8 { 256 } else { 513 };
            let table: Vec<u64> = (0..size).map(|i| (i as i64 % 50 - 25) as u64).collect();
            Case {
                inputs: vec![small(rng, t0, &[2, 3])],
                out: u(&[2, 3]),
                args: Box::new(move |g, x| vec![x[0], g.tensor(t0, &[size as u32], &table)]),
            }
        }
        Erf | Sigmoid | Tanh | Abs | BitwiseNot | Ceil | Clz | Cos | Exp | Floor | Log | LogicalNot | Reciprocal
        | Rsqrt | Sin | Cast => {
            Case { inputs: vec![small(rng, t0, &[2, 3])], out: u(&[2, 3]), args: Box::new(|_, x| x.to_vec()) }
        }
        Negate => Case {
            inputs: vec![small(rng, t0, &[2, 3])],
            out: u(&[2, 3]),
            args: Box::new(move |g, x| vec![x[0], zero(g, t0), zero(g, t0)]),
        },
        Select => Case {
            inputs: vec![small(rng, Bool, &[2, 3]), small(rng, t0, &[2, 3]), small(rng, t0, &[1, 3])],
            out: u(&[2, 3]),
            args: Box::new(|_, x| x.to_vec()),
        },
        Equal | Greater | GreaterEqual => Case {
            inputs: vec![small(rng, t0, &[2, 3]), small(rng, t0, &[2, 3])],
            out: u(&[2, 3]),
            args: Box::new(|_, x| x.to_vec()),
        },
        ReduceAll | ReduceAny | ReduceProduct | ReduceSum => {
            Case { inputs: vec![small(rng, t0, &[2, 3])], out: u(&[2, 1]), args: Box::new(|g, x| vec![g.u32(1), x[0]]) }
        }
        ReduceMax | ReduceMin => Case {
            inputs: vec![small(rng, t0, &[2, 3])],
            out: u(&[2, 1]),
            args: Box::new(|g, x| vec![g.u32(1), g.u32(2), x[0]]),
        },
        Concat => Case {
            inputs: vec![small(rng, t0, &[2, 3]), small(rng, t0, &[1, 3])],
            out: u(&[3, 3]),
            args: Box::new(|g, x| vec![g.u32(0), x[0], x[1]]),
        },
        Pad => Case {
            inputs: vec![small(rng, t0, &[2, 3])],
            out: u(&[3, 5]),
            args: Box::new(move |g, x| vec![x[0], g.i32s(&[1, 0, 0, 2]), zero(g, t0)]),
        },
        Reshape => Case {
            inputs: vec![small(rng, t0, &[2, 3])],
            out: u(&[3, 2]),
            args: Box::new(|g, x| vec![x[0], g.i32s(&[3, 2])]),
        },
        Reverse => {
            Case { inputs: vec![small(rng, t0, &[2, 3])], out: u(&[2, 3]), args: Box::new(|g, x| vec![g.u32(1), x[0]]) }
        }
        Slice => Case {
            inputs: vec![small(rng, t0, &[2, 3])],
            out: u(&[2, 2]),
            args: Box::new(|g, x| vec![x[0], g.i32s(&[0, 1]), g.i32s(&[2, 2])]),
        },
        Tile => Case {
            inputs: vec![small(rng, t0, &[2, 3])],
            out: u(&[4, 3]),
            args: Box::new(|g, x| vec![x[0], g.i32s(&[2, 1])]),
        },
        Transpose => Case {
            inputs: vec![small(rng, t0, &[2, 3])],
            out: u(&[3, 2]),
            args: Box::new(|g, x| vec![g.i32s(&[1, 0]), x[0]]),
        },
        Gather => Case {
            inputs: vec![small(rng, t0, &[1, 4, 2]), data(rng, I32, &[1, 3], 0, 3)],
            out: u(&[1, 3, 2]),
            args: Box::new(|_, x| x.to_vec()),
        },
        Scatter => Case {
            inputs: vec![small(rng, t0, &[1, 4, 2]), ints(I32, &[1, 2], &[3, 1]), small(rng, t0, &[1, 2, 2])],
            out: u(&[1, 4, 2]),
            args: Box::new(|_, x| x.to_vec()),
        },
        Resize => {
            let mode = match row.qualifier {
                RowQualifier::Mode(m) => m.value(),
                _ => q,
            };
            Case {
                inputs: vec![small(rng, t0, &[1, 2, 2, 1])],
                out: u(&[1, 3, 3, 1]),
                args: Box::new(move |g, x| {
                    vec![g.u32(mode), x[0], g.i32s(&[2, 1, 2, 1]), g.i32s(&[0, 0]), g.i32s(&[0, 0])]
                }),
            }
        }
        Rescale => {
            let scale32 = row.qualifier == RowQualifier::Scale32(true);
            let (mul_t, mult, shift) = if scale32 { (I32, 1u64 << 30, 30u64) } else { (I16, 1 << 14, 14) };
            let mode = if scale32 { q } else { q.min(2) };
            Case {
                inputs: vec![small(rng, t0, &[2, 3])],
                out: u(&[2, 3]),
                args: Box::new(move |g, x| {
                    vec![
                        g.boolean(scale32),
                        g.u32(mode),
                        g.boolean(false),
                        g.boolean(false),
                        g.boolean(false),
                        x[0],
                        g.tensor(mul_t, &[1], &[mult]),
                        g.tensor(I8, &[1], &[shift]),
                        zero(g, t0),
                        zero(g, t1),
                    ]
                }),
            }
        }
    }
}

fn run_case(op: TosaOp, row: &TypeRow, c: Case) -> Result<Vec<TensorData>, ExecError> {
    let spec = op.spec();
    let out_elem = row.types[usize::from(spec.result.slot)];
    let shapes: Vec<Vec<u32>> = c.inputs.iter().map(|t| t.shape().iter().map(|&d| d as u32).collect()).collect();
    let decl: Vec<(ElemType, &[u32])> = c.inputs.iter().zip(&shapes).map(|(t, s)| (t.elem(), s.as_slice())).collect();
    let fft = spec.result.kind == ResultKind::RealImagStruct;
    let outs: Vec<(ElemType, &[u32])> =
        if fft { vec![(out_elem, &c.out), (out_elem, &c.out)] } else { vec![(out_elem, &c.out)] };
    let mut g = Graph::new(&decl, &outs);
    let ids = g.inputs.clone();
    let args = (c.args)(&mut g, &ids);
    let t = g.b.type_tensor(out_elem, Some(&c.out));
    if fft {
        let sty = g.b.type_struct(vec![t, t]);
        let r = g.b.tosa(op, sty, args);
        let (re, im) = (g.b.composite_extract(t, r, 0), g.b.composite_extract(t, r, 1));
        g.output(re);
        g.output(im);
    } else {
        let r = g.b.tosa(op, t, args);
        g.output(r);
    }
    let m = g.finish();
    run(&m, &c.inputs)
}

#[test]
fn every_type_row_of_every_operator_runs() {
    let mut rng = Rng(99);
    let mut ran = 0;
    let mut unpredictable = Vec::new();
    for op in TosaOp::ALL {
        for row in op.spec().type_rows {
            // Qualifier values a row admits: RESIZE float rows take both modes,
            // RESCALE rows each rounding mode they allow.
            let qs: &[u32] = match (op, row.qualifier) {
                (TosaOp::Resize, RowQualifier::Any) => &[1, 2],
                (TosaOp::Rescale, RowQualifier::Scale32(true)) => &[1, 2, 3],
                (TosaOp::Rescale, _) => &[1, 2],
                _ => &[0],
            };
            for &q in qs {
                let c = case(op, row, q, &mut rng);
                match run_case(op, row, c) {
                    Ok(outs) => assert!(!outs.is_empty()),
                    Err(ExecError::Unpredictable { require, .. }) => {
                        unpredictable.push(format!("{op} {:?}: {require}", row.types))
                    }
                    Err(e) => panic!("{op} {:?} (qualifier {:?}, {q}): {e}", row.types, row.qualifier),
                }
                ran += 1;
            }
        }
    }
    // The data is chosen to stay clear of REQUIREs.
    assert!(unpredictable.is_empty(), "{unpredictable:#?}");
    assert!(ran > 250, "{ran} cases");
}
