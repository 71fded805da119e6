//! Shared helpers for the executor tests (included by each `exec_*` test
//! with `#[path]`; as a test target of its own it has no tests).

use ndarray::{ArrayD, IxDyn};
use spvgraph_ir::builder::ModuleBuilder;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::{Id, Module};
use spvgraph_oracle::exec::{ExecConfig, ExecError, Executor, Outputs};
use std::collections::BTreeMap;

/// A one-graph module under construction: inputs declared up front, then
/// operators, then outputs.
pub struct Graph {
    pub b: ModuleBuilder,
    pub inputs: Vec<Id>,
    outputs: Vec<Id>,
    set: Vec<(Id, u32)>,
}

impl Graph {
    /// Starts a graph with these input and output tensor types.
    pub fn new(inputs: &[(ElemType, &[u32])], outputs: &[(ElemType, &[u32])]) -> Graph {
        Graph::named("main", inputs, outputs)
    }

    /// Like [`Graph::new`] with an entry-point name.
    pub fn named(name: &str, inputs: &[(ElemType, &[u32])], outputs: &[(ElemType, &[u32])]) -> Graph {
        let mut b = ModuleBuilder::new();
        let in_t: Vec<Id> = inputs.iter().map(|(e, s)| b.type_tensor(*e, Some(s))).collect();
        let out_t: Vec<Id> = outputs.iter().map(|(e, s)| b.type_tensor(*e, Some(s))).collect();
        let gty = b.type_graph(&in_t, &out_t);
        let vars: Vec<Id> =
            in_t.iter().chain(&out_t).enumerate().map(|(i, &t)| b.interface_variable(t, 0, i as u32)).collect();
        let g = b.begin_graph(gty);
        b.graph_entry_point(g, name, vars);
        let ids = in_t.iter().enumerate().map(|(i, &t)| b.graph_input(t, i as u32, None)).collect();
        Graph { b, inputs: ids, outputs: out_t, set: Vec::new() }
    }

    /// A TOSA instruction with a tensor result.
    pub fn op(&mut self, op: TosaOp, out: (ElemType, &[u32]), args: Vec<Id>) -> Id {
        let ty = self.b.type_tensor(out.0, Some(out.1));
        self.b.tosa(op, ty, args)
    }

    /// `OpConstant %uint` (enums, axes).
    pub fn u32(&mut self, v: u32) -> Id {
        self.b.const_u32(v)
    }

    /// A bool constant.
    pub fn boolean(&mut self, v: bool) -> Id {
        self.b.const_bool(v)
    }

    /// A rank-1 i32 constant (attribute arrays, shape_t).
    pub fn i32s(&mut self, v: &[i32]) -> Id {
        self.b.const_i32_vector(v)
    }

    /// A tensor constant from raw bits.
    pub fn tensor(&mut self, elem: ElemType, shape: &[u32], bits: &[u64]) -> Id {
        self.b.const_tensor(elem, shape, bits).expect("constant shape")
    }

    /// A `[1]` constant (zero points, MUL shift, pad_const).
    pub fn one(&mut self, elem: ElemType, bits: u64) -> Id {
        self.tensor(elem, &[1], &[bits])
    }

    /// A scalar constant of an element type (CLAMP bounds).
    pub fn scalar(&mut self, elem: ElemType, bits: u64) -> Id {
        self.b.const_scalar(elem, bits)
    }

    /// Marks `value` as the next output.
    pub fn output(&mut self, value: Id) {
        let i = self.set.len() as u32;
        self.set.push((value, i));
    }

    /// Ends the graph and returns the module.
    pub fn finish(mut self) -> Module {
        assert_eq!(self.set.len(), self.outputs.len(), "every output set");
        for (v, i) in std::mem::take(&mut self.set) {
            self.b.graph_output(v, i, None);
        }
        self.b.end_graph();
        self.b.finish()
    }
}

/// A tensor from integer values (the low bits are stored).
pub fn ints(elem: ElemType, shape: &[usize], v: &[i64]) -> TensorData {
    TensorData::from_bits(elem, shape, &v.iter().map(|&x| x as u64).collect::<Vec<_>>()).expect("shape")
}

/// An fp32 tensor.
pub fn f32s(shape: &[usize], v: &[f32]) -> TensorData {
    TensorData::Fp32(ArrayD::from_shape_vec(IxDyn(shape), v.to_vec()).expect("shape"))
}

/// A bool tensor.
pub fn bools(shape: &[usize], v: &[bool]) -> TensorData {
    TensorData::Bool(ArrayD::from_shape_vec(IxDyn(shape), v.to_vec()).expect("shape"))
}

/// Integer values of a tensor (sign-extended).
pub fn int_values(t: &TensorData) -> Vec<i64> {
    t.to_bits().into_iter().map(|b| b as i64).collect()
}

/// Runs the first entry point with no graph constants.
pub fn run(m: &Module, inputs: &[TensorData]) -> Result<Outputs, ExecError> {
    Executor::new(ExecConfig::default()).run(m, None, inputs, &BTreeMap::new())
}

/// Runs and returns the single output, failing the test on an error.
pub fn run1(m: &Module, inputs: &[TensorData]) -> TensorData {
    let mut out = run(m, inputs).unwrap_or_else(|e| panic!("execution failed: {e}"));
    assert_eq!(out.len(), 1);
    out.remove(0)
}

/// A deterministic pseudo-random stream (xorshift64*), for test data.
pub struct Rng(pub u64);

impl Rng {
    pub fn bits(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Uniform in `lo..=hi`.
    pub fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.bits() % ((hi - lo + 1) as u64)) as i64
    }

    /// Uniform in `[-1, 1)`.
    pub fn unit(&mut self) -> f32 {
        (self.bits() >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }

    pub fn ints(&mut self, n: usize, lo: i64, hi: i64) -> Vec<i64> {
        (0..n).map(|_| self.int(lo, hi)).collect()
    }

    pub fn units(&mut self, n: usize) -> Vec<f32> {
        (0..n).map(|_| self.unit()).collect()
    }
}

fn dims(t: &TensorData) -> Vec<u32> {
    t.shape().iter().map(|&d| d as u32).collect()
}

/// Runs a one-operator graph over `inputs`: `args` gets the graph and the
/// input ids and returns the operator's full operand list.
pub fn op_n(
    op: TosaOp,
    inputs: &[TensorData],
    out: (ElemType, &[u32]),
    args: impl FnOnce(&mut Graph, &[Id]) -> Vec<Id>,
) -> Result<TensorData, ExecError> {
    let shapes: Vec<Vec<u32>> = inputs.iter().map(dims).collect();
    let decl: Vec<(ElemType, &[u32])> = inputs.iter().zip(&shapes).map(|(t, s)| (t.elem(), s.as_slice())).collect();
    let mut g = Graph::new(&decl, &[out]);
    let ids = g.inputs.clone();
    let a = args(&mut g, &ids);
    let y = g.op(op, out, a);
    g.output(y);
    let m = g.finish();
    run(&m, inputs).map(|mut v| v.remove(0))
}

/// [`op_n`] whose operands are exactly the inputs.
pub fn op_plain(op: TosaOp, inputs: &[TensorData], out: (ElemType, &[u32])) -> Result<TensorData, ExecError> {
    op_n(op, inputs, out, |_, ids| ids.to_vec())
}

/// The element index an Unpredictable error names (panics otherwise).
pub fn unpredictable_at(r: Result<TensorData, ExecError>) -> (spvgraph_oracle::exec::Require, Option<Vec<usize>>) {
    match r {
        Err(ExecError::Unpredictable { require, element, .. }) => (require, element),
        other => panic!("expected an unpredictable execution, got {other:?}"),
    }
}
