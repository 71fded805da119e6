//! The executor never panics: valid graphs with single words mutated (the
//! decoder accepts many of them) are run on zero inputs of whatever interface
//! they declare, under a small memory budget. Every outcome is fine except a
//! panic.

use crate::exec_common as common;

use common::*;
use spvgraph_ir::elem::ElemType::{Fp32, I16, I32, I8};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::Module;
use spvgraph_oracle::exec::{self, ExecConfig, Executor};
use std::collections::BTreeMap;

/// A few graphs covering convolutions, pooling, layout, RESCALE and FFT.
fn seeds() -> Vec<Module> {
    let mut out = Vec::new();
    let mut g = Graph::new(&[(I8, &[1, 4, 4, 2]), (I8, &[3, 3, 3, 2]), (I32, &[3])], &[(I32, &[1, 4, 4, 3])]);
    let ids = g.inputs.clone();
    let args = vec![
        g.i32s(&[1, 1, 1, 1]),
        g.i32s(&[1, 1]),
        g.i32s(&[1, 1]),
        g.u32(1),
        g.boolean(false),
        ids[0],
        ids[1],
        ids[2],
        g.one(I8, 0),
        g.one(I8, 0),
    ];
    let y = g.op(TosaOp::Conv2d, (I32, &[1, 4, 4, 3]), args);
    g.output(y);
    out.push(g.finish());
    let mut g = Graph::new(&[(I16, &[1, 4, 4, 2])], &[(I16, &[1, 2, 2, 2]), (I32, &[1, 4, 4, 2])]);
    let x = g.inputs[0];
    let args = vec![g.i32s(&[2, 2]), g.i32s(&[2, 2]), g.i32s(&[0, 0, 0, 0]), g.u32(1), x, g.one(I16, 0), g.one(I16, 0)];
    let p = g.op(TosaOp::AvgPool2d, (I16, &[1, 2, 2, 2]), args);
    let args = vec![
        g.boolean(true),
        g.u32(1),
        g.boolean(false),
        g.boolean(false),
        g.boolean(false),
        x,
        g.tensor(I32, &[1], &[1 << 30]),
        g.tensor(I8, &[1], &[30]),
        g.one(I16, 0),
        g.one(I32, 0),
    ];
    let r = g.op(TosaOp::Rescale, (I32, &[1, 4, 4, 2]), args);
    g.output(p);
    g.output(r);
    out.push(g.finish());
    let mut g = Graph::new(&[(Fp32, &[2, 3])], &[(Fp32, &[3, 5])]);
    let x = g.inputs[0];
    let args = vec![x, g.i32s(&[1, 0, 0, 2]), g.one(Fp32, 0)];
    let p = g.op(TosaOp::Pad, (Fp32, &[3, 5]), args);
    let perms = g.i32s(&[1, 0]);
    let t = g.op(TosaOp::Transpose, (Fp32, &[5, 3]), vec![perms, p]);
    let shape = g.i32s(&[3, 5]);
    let r = g.op(TosaOp::Reshape, (Fp32, &[3, 5]), vec![t, shape]);
    g.output(r);
    out.push(g.finish());
    let mut g = Graph::new(&[(Fp32, &[1, 4, 4])], &[(Fp32, &[1, 4, 3]), (Fp32, &[1, 4, 3])]);
    let t = g.b.type_tensor(Fp32, Some(&[1, 4, 3]));
    let sty = g.b.type_struct(vec![t, t]);
    let f = g.boolean(false);
    let x = g.inputs[0];
    let r = g.b.tosa(TosaOp::Rfft2d, sty, vec![f, x]);
    let (re, im) = (g.b.composite_extract(t, r, 0), g.b.composite_extract(t, r, 1));
    g.output(re);
    g.output(im);
    out.push(g.finish());
    out
}

fn zeros_for(ports: &[exec::Port]) -> Option<Vec<TensorData>> {
    ports
        .iter()
        .map(|p| {
            let n = p.shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d));
            n.is_some_and(|n| n <= 1 << 16).then(|| TensorData::zeros(p.elem, &p.shape))
        })
        .collect()
}

#[test]
fn mutated_graphs_never_panic() {
    let executor = Executor::new(ExecConfig { memory_budget_bytes: 64 << 20, ..ExecConfig::default() });
    let mut rng = Rng(0x5eed);
    let mut ran = 0;
    for module in seeds() {
        let words = module.encode_words().expect("encode");
        for _ in 0..1500 {
            let mut w = words.clone();
            let at = 5 + (rng.bits() as usize) % (w.len() - 5);
            w[at] = match rng.bits() % 4 {
                0 => w[at].wrapping_add(1),
                1 => w[at].wrapping_sub(1),
                2 => rng.bits() as u32 % 64,
                _ => rng.bits() as u32,
            };
            let Ok(m) = Module::decode_words(&w) else { continue };
            let Ok(iface) = exec::interface(&m, None) else { continue };
            let (Some(inputs), Some(consts)) = (zeros_for(&iface.inputs), zeros_for(&iface.graph_constants)) else {
                continue;
            };
            let constants: BTreeMap<u32, TensorData> =
                iface.graph_constants.iter().map(|p| p.index).zip(consts).collect();
            let outcome = std::panic::catch_unwind(|| executor.run(&m, None, &inputs, &constants));
            assert!(outcome.is_ok(), "panic on a mutation at word {at}: {:08x}", w[at]);
            ran += 1;
        }
    }
    assert!(ran > 1000, "only {ran} mutants reached the executor");
}

#[test]
fn element_types_outside_the_rows_are_refused_not_run() {
    // i16 ADD is not a row (only i32 and floats).
    let r = op_plain(TosaOp::Add, &[ints(I16, &[2], &[1, 2]), ints(I16, &[2], &[1, 2])], (I16, &[2]));
    assert!(matches!(r, Err(exec::ExecError::Invalid { .. })), "{r:?}");
}

/// A graph whose output is an array of 2^32 - 1 tensors (found by the
/// `execute` fuzz target: one port per element exhausted memory before any
/// budget was checked) is refused as over the budget, at once.
#[test]
fn a_huge_tensor_array_interface_is_refused_not_allocated() {
    use spvgraph_ir::builder::ModuleBuilder;
    use spvgraph_ir::elem::ElemType::Fp16;
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(Fp16, Some(&[5, 2, 9]));
    let arr = b.type_array(t, u32::MAX);
    let gty = b.type_graph(&[t], &[arr]);
    let vars = vec![b.interface_variable(t, 0, 0), b.interface_variable(arr, 0, 1)];
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "main", vars);
    let x = b.graph_input(t, 0, None);
    b.graph_output(x, 0, Some(0));
    b.end_graph();
    let module = b.finish();
    match exec::interface(&module, None) {
        Err(exec::ExecError::OverBudget { detail, .. }) => {
            assert!(detail.contains(&u32::MAX.to_string()), "{detail}");
        }
        other => panic!("expected an over-budget refusal, got {other:?}"),
    }
}

/// An array interface whose element shape has more elements than a `u64`
/// holds (2^31 · 2^31 · 4 = 2^64) is refused with the need saturated at
/// `u64::MAX`. A wrapping product made it 0, so the refusal claimed a need of
/// 0 bytes; with overflow checks on (fuzz builds) it panicked.
#[test]
fn an_array_whose_element_count_overflows_u64_is_refused_with_a_saturated_need() {
    use spvgraph_ir::builder::ModuleBuilder;
    use spvgraph_ir::elem::ElemType::Fp16;
    let mut b = ModuleBuilder::new();
    let small = b.type_tensor(Fp16, Some(&[2]));
    let huge = b.type_tensor(Fp16, Some(&[1 << 31, 1 << 31, 4]));
    let arr = b.type_array(huge, 70_000);
    let gty = b.type_graph(&[small], &[arr]);
    let vars = vec![b.interface_variable(small, 0, 0), b.interface_variable(arr, 0, 1)];
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "main", vars);
    let x = b.graph_input(small, 0, None);
    b.graph_output(x, 0, Some(0));
    b.end_graph();
    let module = b.finish();
    match exec::interface(&module, None) {
        Err(exec::ExecError::OverBudget { needed, budget, detail }) => {
            assert_eq!((needed, budget), (u64::MAX, u64::MAX), "{detail}");
        }
        other => panic!("expected an over-budget refusal, got {other:?}"),
    }
}

/// The `execute` fuzz target's crash input (checked in as one of its seeds):
/// two graphs whose interfaces declare 6-D shapes of 4,244,570,113 per side
/// and an array of as many tensors. Describing the interface overflowed
/// `u64` in the element count (a panic under overflow checks); now it is a
/// refusal over the budget.
#[test]
fn the_execute_targets_overflow_crash_is_refused() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../fuzz/seeds/execute/crash-e1ad1171-array-shape-overflow.spv");
    let bytes = std::fs::read(path).expect("the checked-in crash seed");
    let module = Module::decode_bytes(&bytes).expect("the crash input decodes");
    match exec::interface(&module, None) {
        Err(exec::ExecError::OverBudget { needed, detail, .. }) => {
            assert_eq!(needed, u64::MAX, "{detail}");
            assert!(detail.contains("array of 4244570113 tensors"), "{detail}");
        }
        other => panic!("expected an over-budget refusal, got {other:?}"),
    }
}

/// An input port too large to fill with zeros (a shape change to
/// hundreds of millions of elements) stays unfitted, and says so; a small
/// one is filled.
#[test]
fn an_input_too_large_to_fill_does_not_fit() {
    use spvgraph_oracle::oracle::OwnedExecRequest;
    let build = |n: u32| spvgraph_testkit::unary_module(TosaOp::Abs, I32, &[n, 1, 1]).encode_words().expect("encodes");
    let two = TensorData::from_bits(I32, &[2, 1, 1], &[1; 2]).expect("tensor");
    let mut huge = OwnedExecRequest {
        module: build(145_599_812),
        entry_point: Some("main".into()),
        inputs: vec![two.clone()],
        graph_constants: BTreeMap::new(),
    };
    huge.fit_to_module();
    assert!(!huge.fits_module(), "145,599,812 elements are not filled");
    let mut small = OwnedExecRequest { module: build(3), inputs: vec![two], ..huge };
    assert!(!small.fits_module());
    small.fit_to_module();
    assert!(small.fits_module(), "a small port is filled with zeros");
}
