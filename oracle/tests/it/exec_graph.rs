//! Graph-level behaviour: the memory budget, choosing a graph by entry
//! point, tensor-array inputs and outputs, graph constants, every constant
//! form, invalid graphs with their location, bad requests, and the Oracle
//! interface.

use crate::exec_common as common;

use common::*;
use spvgraph_ir::builder::ModuleBuilder;
use spvgraph_ir::elem::ElemType::{Bool, Fp32, I32, I8};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::{Inst, Module};
use spvgraph_oracle::exec::{self, ExecConfig, ExecError, Executor, Require};
use spvgraph_oracle::oracle::{ExecOutcome, ExecRequest, Oracle, Refusal};
use std::collections::BTreeMap;

fn add_graph(shape: &[u32]) -> Module {
    let mut g = Graph::new(&[(Fp32, shape), (Fp32, shape)], &[(Fp32, shape)]);
    let (a, b) = (g.inputs[0], g.inputs[1]);
    let s = g.op(TosaOp::Add, (Fp32, shape), vec![a, b]);
    let zero = g.one(I8, 0);
    let y = g.op(TosaOp::Mul, (Fp32, shape), vec![s, b, zero]);
    g.output(y);
    g.finish()
}

#[test]
fn memory_budget_is_checked_before_running() {
    let m = add_graph(&[512, 512]);
    let x = TensorData::zeros(Fp32, &[512, 512]);
    let small = Executor::new(ExecConfig { memory_budget_bytes: 4 << 20, ..ExecConfig::default() });
    match small.run(&m, None, &[x.clone(), x.clone()], &BTreeMap::new()) {
        Err(ExecError::OverBudget { needed, budget, detail }) => {
            assert_eq!(budget, 4 << 20);
            // Two 1 MiB inputs and two 1 MiB results alone exceed 4 MiB.
            assert!(needed > 4 << 20, "{needed}");
            assert!(detail.contains("ADD") || detail.contains("MUL"), "{detail}");
        }
        other => panic!("expected OverBudget, got {other:?}"),
    }
    let out = Executor::default().run(&m, None, &[x.clone(), x], &BTreeMap::new()).expect("default budget");
    assert_eq!(out[0].shape(), &[512, 512]);
    assert_eq!(ExecConfig::default().memory_budget_bytes, 1 << 30);
}

/// Two graphs: "negate" (i8) and "twice" (i32 add to itself).
fn two_graphs() -> Module {
    let mut b = ModuleBuilder::new();
    let t8 = b.type_tensor(I8, Some(&[3]));
    let t32 = b.type_tensor(I32, Some(&[2]));
    let g1ty = b.type_graph(&[t8], &[t8]);
    let g2ty = b.type_graph(&[t32], &[t32]);
    let v1 = vec![b.interface_variable(t8, 0, 0), b.interface_variable(t8, 0, 1)];
    let v2 = vec![b.interface_variable(t32, 1, 0), b.interface_variable(t32, 1, 1)];
    let zp = b.const_tensor(I8, &[1], &[0]).expect("zp");
    let g1 = b.begin_graph(g1ty);
    b.graph_entry_point(g1, "negate", v1);
    let x = b.graph_input(t8, 0, None);
    let y = b.tosa(TosaOp::Negate, t8, vec![x, zp, zp]);
    b.graph_output(y, 0, None);
    b.end_graph();
    let g2 = b.begin_graph(g2ty);
    b.graph_entry_point(g2, "twice", v2);
    let x = b.graph_input(t32, 0, None);
    let y = b.tosa(TosaOp::Add, t32, vec![x, x]);
    b.graph_output(y, 0, None);
    b.end_graph();
    b.finish()
}

#[test]
fn graphs_are_chosen_by_entry_point() {
    let m = two_graphs();
    let none = BTreeMap::new();
    let e = Executor::default();
    let out = e.run(&m, Some("twice"), &[ints(I32, &[2], &[21, -4])], &none).expect("twice");
    assert_eq!(int_values(&out[0]), vec![42, -8]);
    let out = e.run(&m, Some("negate"), &[ints(I8, &[3], &[1, -128, 0])], &none).expect("negate");
    assert_eq!(int_values(&out[0]), vec![-1, 127, 0]);
    let out = e.run(&m, None, &[ints(I8, &[3], &[5, 5, 5])], &none).expect("first entry point");
    assert_eq!(int_values(&out[0]), vec![-5, -5, -5]);
    match e.run(&m, Some("nope"), &[], &none) {
        Err(ExecError::Request(msg)) => assert!(msg.contains("nope") && msg.contains("twice"), "{msg}"),
        other => panic!("expected a request error, got {other:?}"),
    }
    let iface = exec::interface(&m, Some("twice")).expect("interface");
    assert_eq!(iface.entry_point.as_deref(), Some("twice"));
    assert_eq!((iface.inputs[0].elem, iface.inputs[0].shape.clone()), (I32, vec![2]));
}

#[test]
fn tensor_array_inputs_and_outputs() {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(I32, Some(&[2]));
    let arr = b.type_array(t, 2);
    let scalar_in = b.type_tensor(I32, Some(&[1]));
    let gty = b.type_graph(&[scalar_in, arr], &[arr, t]);
    let vars = vec![
        b.interface_variable(scalar_in, 0, 0),
        b.interface_variable(arr, 0, 1),
        b.interface_variable(arr, 0, 2),
        b.interface_variable(t, 0, 3),
    ];
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "arrays", vars);
    let k = b.graph_input(scalar_in, 0, None);
    let a0 = b.graph_input(t, 1, Some(0));
    let a1 = b.graph_input(t, 1, Some(1));
    let s = b.tosa(TosaOp::Add, t, vec![a0, a1]);
    let d = b.tosa(TosaOp::Sub, t, vec![a0, k]);
    b.graph_output(s, 0, Some(1));
    b.graph_output(d, 0, Some(0));
    b.graph_output(a1, 1, None);
    b.end_graph();
    let m = b.finish();
    let iface = exec::interface(&m, None).expect("interface");
    let order: Vec<(u32, Option<u32>)> = iface.inputs.iter().map(|p| (p.index, p.element)).collect();
    assert_eq!(order, vec![(0, None), (1, Some(0)), (1, Some(1))]);
    let inputs = [ints(I32, &[1], &[100]), ints(I32, &[2], &[1, 2]), ints(I32, &[2], &[10, 20])];
    let out = run(&m, &inputs).expect("arrays");
    // Outputs flattened: out0[0] = a0 - k, out0[1] = a0 + a1, out1 = a1.
    assert_eq!(out.iter().map(int_values).collect::<Vec<_>>(), vec![vec![-99, -98], vec![11, 22], vec![10, 20]]);
}

#[test]
fn graph_constants_are_bound_by_id() {
    let mut g = Graph::new(&[(I32, &[2, 2])], &[(I32, &[2, 2])]);
    let cty = g.b.type_tensor(I32, Some(&[2, 2]));
    let c = g.b.graph_constant(cty, 7);
    let x = g.inputs[0];
    let zero = g.one(I8, 0);
    let y = g.op(TosaOp::Mul, (I32, &[2, 2]), vec![x, c, zero]);
    g.output(y);
    let m = g.finish();
    let iface = exec::interface(&m, None).expect("interface");
    assert_eq!(iface.graph_constants.len(), 1);
    assert_eq!(iface.graph_constants[0].index, 7);
    let e = Executor::default();
    let mut gc = BTreeMap::new();
    gc.insert(7, ints(I32, &[2, 2], &[1, 2, 3, 4]));
    let out = e.run(&m, None, &[ints(I32, &[2, 2], &[5, 5, 5, 5])], &gc).expect("graph constant");
    assert_eq!(int_values(&out[0]), vec![5, 10, 15, 20]);
    let missing = e.run(&m, None, &[ints(I32, &[2, 2], &[5, 5, 5, 5])], &BTreeMap::new());
    assert!(matches!(&missing, Err(ExecError::Request(m)) if m.contains("graph constant 7")), "{missing:?}");
    gc.insert(7, ints(I32, &[4], &[1, 2, 3, 4]));
    let wrong = e.run(&m, None, &[ints(I32, &[2, 2], &[5, 5, 5, 5])], &gc);
    assert!(matches!(wrong, Err(ExecError::Request(_))), "{wrong:?}");
}

#[test]
fn constants_in_every_form() {
    let mut g = Graph::new(&[(I32, &[2, 3])], &[(I32, &[2, 3]), (I32, &[2, 3])]);
    let x = g.inputs[0];
    let t = g.b.type_tensor(I32, Some(&[2, 3]));
    let seven = g.scalar(I32, 7);
    let rep = g.b.const_replicate(t, seven);
    let null = g.b.const_null(t);
    let comp = g.tensor(I32, &[2, 3], &[1, 2, 3, 4, 5, 6]);
    let s1 = g.op(TosaOp::Add, (I32, &[2, 3]), vec![x, rep]);
    let s2 = g.op(TosaOp::Add, (I32, &[2, 3]), vec![s1, null]);
    let s3 = g.op(TosaOp::Sub, (I32, &[2, 3]), vec![comp, s2]);
    g.output(s3);
    g.output(s1);
    let m = g.finish();
    let out = run(&m, &[ints(I32, &[2, 3], &[0, 0, 0, 1, 1, 1])]).expect("constants");
    assert_eq!(int_values(&out[0]), vec![-6, -5, -4, -4, -3, -2]);
    assert_eq!(int_values(&out[1]), vec![7, 7, 7, 8, 8, 8]);
}

#[test]
fn constants_and_graph_constants_can_be_outputs() {
    let mut g = Graph::new(&[(I32, &[2])], &[(I32, &[2]), (I32, &[2]), (I32, &[2])]);
    let x = g.inputs[0];
    let c = g.tensor(I32, &[2], &[3, 4]);
    let t = g.b.type_tensor(I32, Some(&[2]));
    let gc = g.b.graph_constant(t, 1);
    g.output(c);
    g.output(gc);
    g.output(x);
    let m = g.finish();
    let iface = exec::interface(&m, None).expect("interface");
    assert_eq!(iface.graph_constants.iter().map(|p| p.index).collect::<Vec<_>>(), vec![1]);
    let mut data = BTreeMap::new();
    data.insert(1, ints(I32, &[2], &[-1, -2]));
    let out = Executor::default().run(&m, None, &[ints(I32, &[2], &[7, 8])], &data).expect("constant outputs");
    assert_eq!(out.iter().map(int_values).collect::<Vec<_>>(), vec![vec![3, 4], vec![-1, -2], vec![7, 8]]);
}

#[test]
fn spec_constant_bool_uses_its_default() {
    let mut g = Graph::new(&[(I32, &[1]), (I32, &[1])], &[(I32, &[1])]);
    let (a, b) = (g.inputs[0], g.inputs[1]);
    let r = g.boolean(true);
    let y = g.op(TosaOp::ArithmeticRightShift, (I32, &[1]), vec![r, a, b]);
    g.output(y);
    let mut m = g.finish();
    for inst in &mut m.insts {
        if let Inst::ConstantTrue { spec, .. } = inst {
            *spec = true;
        }
    }
    let out = run(&m, &[ints(I32, &[1], &[5]), ints(I32, &[1], &[1])]).expect("spec constant");
    assert_eq!(int_values(&out[0]), vec![3]);
}

#[test]
fn invalid_graphs_name_the_instruction() {
    // The declared output shape is not the broadcast shape.
    let mut g = Graph::new(&[(I32, &[2]), (I32, &[2])], &[(I32, &[3])]);
    let (a, b) = (g.inputs[0], g.inputs[1]);
    let y = g.op(TosaOp::Add, (I32, &[3]), vec![a, b]);
    g.output(y);
    let m = g.finish();
    match run(&m, &[ints(I32, &[2], &[1, 2]), ints(I32, &[2], &[1, 2])]) {
        Err(ExecError::Invalid { location, reason }) => {
            assert!(location.word_offset.is_some());
            assert!(location.instruction.as_deref().is_some_and(|i| i.contains("ADD")), "{location:?}");
            assert!(reason.contains("[3]") && reason.contains("[2]"), "{reason}");
        }
        other => panic!("expected invalid, got {other:?}"),
    }
    // An attribute fed from a graph input instead of a constant.
    let mut g = Graph::new(&[(I8, &[2, 2]), (I32, &[2])], &[(I8, &[2, 2])]);
    let (x, p) = (g.inputs[0], g.inputs[1]);
    let y = g.op(TosaOp::Transpose, (I8, &[2, 2]), vec![p, x]);
    g.output(y);
    let m = g.finish();
    let r = run(&m, &[ints(I8, &[2, 2], &[1, 2, 3, 4]), ints(I32, &[2], &[1, 0])]);
    assert!(matches!(&r, Err(ExecError::Invalid { reason, .. }) if reason.contains("constant")), "{r:?}");
    // An invalid enumerant.
    let mut g = Graph::new(&[(Fp32, &[2]), (Fp32, &[2])], &[(Fp32, &[2])]);
    let (a, b) = (g.inputs[0], g.inputs[1]);
    let mode = g.u32(3);
    let y = g.op(TosaOp::Maximum, (Fp32, &[2]), vec![mode, a, b]);
    g.output(y);
    let m = g.finish();
    let r = run(&m, &[f32s(&[2], &[1.0, 2.0]), f32s(&[2], &[1.0, 2.0])]);
    assert!(matches!(&r, Err(ExecError::Invalid { reason, .. }) if reason.contains("nan_propagation_mode_t")), "{r:?}");
}

#[test]
fn level_limits_are_unpredictable_unless_disabled() {
    use spvgraph_oracle::exec::LevelLimit;
    use spvgraph_oracle::oracle::Level;
    // Rank 7 is beyond MAX_RANK at level 8K.
    let shape = [1u32, 1, 1, 1, 1, 1, 2];
    let x = ints(I32, &[1, 1, 1, 1, 1, 1, 2], &[1, 2]);
    let r = op_plain(TosaOp::Add, &[x.clone(), x.clone()], (I32, &shape));
    assert_eq!(unpredictable_at(r), (Require::Level(LevelLimit::MaxRank), None));
    let mut g = Graph::new(&[(I32, &shape), (I32, &shape)], &[(I32, &shape)]);
    let (a, b) = (g.inputs[0], g.inputs[1]);
    let y = g.op(TosaOp::Add, (I32, &shape), vec![a, b]);
    g.output(y);
    let m = g.finish();
    let none = Executor::new(ExecConfig { level: Level::None, ..ExecConfig::default() });
    let out = none.run(&m, None, &[x.clone(), x], &BTreeMap::new()).expect("no level");
    assert_eq!(int_values(&out[0]), vec![2, 4]);
    // A pooling stride of 8193 is beyond MAX_STRIDE.
    let x = ints(I8, &[1, 1, 8194, 1], &vec![0; 8194]);
    let r = op_n(TosaOp::MaxPool2d, &[x], (I8, &[1, 1, 2, 1]), |g, ids| {
        vec![g.i32s(&[1, 1]), g.i32s(&[1, 8193]), g.i32s(&[0, 0, 0, 0]), g.u32(1), ids[0]]
    });
    assert_eq!(unpredictable_at(r), (Require::Level(LevelLimit::MaxStride), None));
    // 65 CONCAT inputs are beyond MAX_TENSOR_LIST_SIZE.
    let x = ints(I8, &[1], &[3]);
    let inputs = vec![x; 65];
    let r = op_n(TosaOp::Concat, &inputs, (I8, &[65]), |g, ids| {
        let mut a = vec![g.u32(0)];
        a.extend_from_slice(ids);
        a
    });
    assert_eq!(unpredictable_at(r), (Require::Level(LevelLimit::MaxTensorListSize), None));
}

#[test]
fn bad_requests_are_not_invalid_graphs() {
    let m = add_graph(&[2]);
    let r = run(&m, &[f32s(&[2], &[1.0, 2.0])]);
    assert!(matches!(&r, Err(ExecError::Request(msg)) if msg.contains("2 input tensors")), "{r:?}");
    let r = run(&m, &[f32s(&[2], &[1.0, 2.0]), f32s(&[3], &[1.0, 2.0, 3.0])]);
    assert!(matches!(&r, Err(ExecError::Request(msg)) if msg.contains("input tensor 1")), "{r:?}");
    let r = run(&m, &[f32s(&[2], &[1.0, 2.0]), ints(I32, &[2], &[1, 2])]);
    assert!(matches!(r, Err(ExecError::Request(_))), "{r:?}");
}

#[test]
fn values_feed_several_users_and_outputs() {
    // x -> a = x + x -> b = a * a -> out0 = b, out1 = a, out2 = a > x
    let mut g = Graph::new(&[(I32, &[3])], &[(I32, &[3]), (I32, &[3]), (Bool, &[3])]);
    let x = g.inputs[0];
    let a = g.op(TosaOp::Add, (I32, &[3]), vec![x, x]);
    let zero = g.one(I8, 0);
    let b = g.op(TosaOp::Mul, (I32, &[3]), vec![a, a, zero]);
    let c = g.op(TosaOp::Greater, (Bool, &[3]), vec![a, x]);
    g.output(b);
    g.output(a);
    g.output(c);
    let m = g.finish();
    let out = run(&m, &[ints(I32, &[3], &[-1, 0, 3])]).expect("chain");
    assert_eq!(int_values(&out[0]), vec![4, 0, 36]);
    assert_eq!(int_values(&out[1]), vec![-2, 0, 6]);
    assert_eq!(out[2].to_bits(), vec![0, 0, 1]);
}

#[test]
fn oracle_interface_maps_refusals() {
    let m = two_graphs();
    let words = m.encode_words().expect("encode");
    let e = Executor::default();
    assert_eq!(e.instance().name(), "spvgraph-executor");
    assert!(e.available().is_ok());
    let gc = BTreeMap::new();
    let inputs = [ints(I32, &[2], &[1, 2])];
    let req = ExecRequest { module: &words, entry_point: Some("twice"), inputs: &inputs, graph_constants: &gc };
    match e.execute(&req) {
        Ok(ExecOutcome::Outputs(o)) => assert_eq!(int_values(&o[0]), vec![2, 4]),
        other => panic!("{other:?}"),
    }
    let inputs = [ints(I32, &[2], &[i64::from(i32::MAX), 2])];
    let req = ExecRequest { module: &words, entry_point: Some("twice"), inputs: &inputs, graph_constants: &gc };
    match e.execute(&req) {
        Ok(ExecOutcome::Refused { kind: Refusal::Unpredictable, reason }) => {
            assert!(reason.contains("ADD") && reason.contains("[0]"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
    let req = ExecRequest { module: &words[..3], entry_point: None, inputs: &[], graph_constants: &gc };
    assert!(matches!(e.execute(&req), Ok(ExecOutcome::Refused { kind: Refusal::Invalid, .. })));
    let req = ExecRequest { module: &words, entry_point: Some("nope"), inputs: &[], graph_constants: &gc };
    assert!(e.execute(&req).is_err(), "a bad request is an oracle failure, not a verdict");
    let (req_kind, _) = unpredictable_at(
        Executor::default()
            .run(&m, Some("twice"), &[ints(I32, &[2], &[i64::from(i32::MIN), -1])], &gc)
            .map(|mut v| v.remove(0)),
    );
    assert_eq!(req_kind, Require::AddOverflow);
}
