//! The second reference TOSA allows: bf16/fp16/fp32 subnormal inputs flushed
//! to sign-preserved zero before each operator. The in-tree executor computes
//! it (every operand, wherever it comes from), and `flush_request` prepares
//! the request the TOSA reference model gets for it.

use ndarray::{ArrayD, IxDyn};
use spvgraph_ir::builder::ModuleBuilder;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::{Inst, Module};
use spvgraph_oracle::compliance::flush::{flush_request, has_subnormals};
use spvgraph_oracle::exec::Executor;
use spvgraph_oracle::oracle::ExecRequest;
use std::collections::BTreeMap;

fn f32s(shape: &[usize], v: &[f32]) -> TensorData {
    TensorData::Fp32(ArrayD::from_shape_vec(IxDyn(shape), v.to_vec()).expect("shape"))
}

fn bits(t: &TensorData) -> Vec<u64> {
    t.to_bits()
}

/// fp32 bits of the tensor constant `c`: two subnormals (one negative) and a zero.
const SUBNORMAL_C: [u64; 3] = [1, 0, 0x8000_0002];

/// `out0 = RSQRT(MUL(x, y))`, `out1 = x` (a pass-through), `out2 = RSQRT(x + c)`
/// with `c` a tensor constant of bits `c`; fp32 [3].
fn module(c: [u64; 3]) -> Module {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(ElemType::Fp32, Some(&[3]));
    let gty = b.type_graph(&[t, t], &[t, t, t]);
    let vars = (0..5).map(|i| b.interface_variable(t, 0, i)).collect();
    let shift = b.const_tensor(ElemType::I8, &[1], &[0]).expect("shift");
    let c = b.const_tensor(ElemType::Fp32, &[3], &c).expect("constant");
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "main", vars);
    let x = b.graph_input(t, 0, None);
    let y = b.graph_input(t, 1, None);
    let m = b.tosa(TosaOp::Mul, t, vec![x, y, shift]);
    let r = b.tosa(TosaOp::Rsqrt, t, vec![m]);
    let s = b.tosa(TosaOp::Add, t, vec![x, c]);
    let q = b.tosa(TosaOp::Rsqrt, t, vec![s]);
    b.graph_output(r, 0, None);
    b.graph_output(x, 1, None);
    b.graph_output(q, 2, None);
    b.end_graph();
    b.finish()
}

#[test]
fn the_flushing_executor_flushes_every_operand_but_not_outputs() {
    let m = module(SUBNORMAL_C);
    let none = BTreeMap::new();
    // x·y = 1e-20·1e-20 is a subnormal made inside the graph.
    let inputs = [f32s(&[3], &[1e-20, 4.0, 0.0]), f32s(&[3], &[1e-20, 4.0, 1.0])];
    let given = Executor::default().run(&m, None, &inputs, &none).expect("runs");
    let flushed = Executor::default().run_flushing_subnormals(&m, None, &inputs, &none).expect("runs");
    let flushed = flushed.expect("operators read subnormals");
    // RSQRT of the subnormal product: 1e20 as given, +inf once flushed.
    let r_given = given[0].to_f64();
    assert!((r_given[0] / 1e20 - 1.0).abs() < 1e-4, "{r_given:?}");
    assert_eq!(flushed[0].to_f64()[0], f64::INFINITY);
    assert_eq!(flushed[0].to_f64()[1], 0.25);
    // The pass-through output leaves the graph as it came in.
    assert_eq!(bits(&flushed[1]), bits(&inputs[0]));
    // x + c with c = [1.4e-45, 0, -2.8e-45]: the constant's subnormals are flushed too,
    // so the third element is RSQRT(+0 + -0) = RSQRT(+0) = +inf, not RSQRT(-2.8e-45) = NaN.
    let q_given = given[2].to_f64();
    let q_flushed = flushed[2].to_f64();
    assert!(q_given[2].is_nan(), "{q_given:?}");
    assert_eq!(q_flushed[2], f64::INFINITY, "{q_flushed:?}");
    // Without subnormals anywhere, the flushing run says so.
    let plain = [f32s(&[3], &[2.0, 4.0, 1.0]), f32s(&[3], &[2.0, 4.0, 1.0])];
    let normal_c = [u64::from(1f32.to_bits()), 0, u64::from((-2f32).to_bits())];
    let out = Executor::default().run_flushing_subnormals(&module(normal_c), None, &plain, &none).expect("runs");
    assert!(out.is_none(), "nothing to flush");
}

/// `out = OP(x)`, `x` of `from` and `out` of `to`, both of `shape`.
fn one_op(op: TosaOp, from: ElemType, to: ElemType, shape: &[u32]) -> Module {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(from, Some(shape));
    let u = b.type_tensor(to, Some(shape));
    let gty = b.type_graph(&[t], &[u]);
    let vars = vec![b.interface_variable(t, 0, 0), b.interface_variable(u, 0, 1)];
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "main", vars);
    let x = b.graph_input(t, 0, None);
    let a = b.tosa(op, u, vec![x]);
    b.graph_output(a, 0, None);
    b.end_graph();
    b.finish()
}

#[test]
fn fp8_subnormals_are_never_flushed() {
    let m = one_op(TosaOp::Cast, ElemType::Fp8E5M2, ElemType::Fp16, &[2]);
    // 0x81 is -2^-16, the smallest fp8e5m2 subnormal, negative.
    let input = TensorData::from_bits(ElemType::Fp8E5M2, &[2], &[0x81, 0x3c]).expect("tensor");
    assert!(!has_subnormals(&input));
    let out = Executor::default().run_flushing_subnormals(&m, None, &[input], &BTreeMap::new()).expect("runs");
    assert!(out.is_none(), "fp8 subnormals must be kept");
}

#[test]
fn the_flushed_request_flushes_inputs_graph_constants_and_module_constants() {
    let words = module(SUBNORMAL_C).encode_words().expect("encodes");
    let inputs = [f32s(&[3], &[f32::from_bits(0x8000_0001), 4.0, 0.0]), f32s(&[3], &[1.0, 4.0, 1.0])];
    let none = BTreeMap::new();
    let request = ExecRequest { module: &words, entry_point: Some("main"), inputs: &inputs, graph_constants: &none };
    let owned = flush_request(&request).expect("there is something to flush");
    assert_eq!(owned.inputs[0].to_bits()[0], 0x8000_0000, "sign-preserved zero");
    assert_eq!(bits(&owned.inputs[1]), bits(&inputs[1]));
    let m = Module::decode_words(&owned.module).expect("decodes");
    let constants: Vec<u32> = m
        .insts
        .iter()
        .filter_map(|i| match i {
            Inst::Constant { value, .. } => value.first().copied(),
            _ => None,
        })
        .collect();
    // (Integer constants, such as the interface indices, may well be 1: only
    // the negative subnormal's bit pattern is unambiguous.)
    assert!(!constants.contains(&0x8000_0002) && constants.contains(&0x8000_0000), "{constants:x?}");
    // Run as given, the flushed request computes what the flushing executor does.
    let flushed_inputs = owned.inputs.clone();
    let as_given = Executor::default().run(&m, Some("main"), &flushed_inputs, &none).expect("runs");
    let flushing = Executor::default()
        .run_flushing_subnormals(&module(SUBNORMAL_C), Some("main"), &inputs, &none)
        .expect("runs")
        .expect("flushes");
    assert_eq!(bits(&as_given[2]), bits(&flushing[2]));
    // Nothing subnormal anywhere: no second request.
    let plain_words = one_op(TosaOp::Abs, ElemType::Fp32, ElemType::Fp32, &[3]).encode_words().expect("encodes");
    let plain = [f32s(&[3], &[1.0, 2.0, 3.0])];
    let request = ExecRequest { module: &plain_words, entry_point: None, inputs: &plain, graph_constants: &none };
    assert!(flush_request(&request).is_none());
}
