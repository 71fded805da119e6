//! Helpers shared by the validator tests (included with `#[path]`; as a test
//! target of its own it has no tests).
#![allow(dead_code)]

use spvgraph_ir::builder::ModuleBuilder;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::tools::Tool;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::Module;
use spvgraph_oracle::oracle::ValidateOptions;
use spvgraph_oracle::validate::{Report, Validator};
use std::path::PathBuf;

/// The path of `tool`, or `None` with a notice when it is missing outside CI.
/// Under `CI=true` a missing tool fails the test.
pub fn tool(tool: Tool) -> Option<PathBuf> {
    spvgraph_ir::tools::locate(tool).unwrap_or_else(|e| panic!("CI=true and {e}"))
}

/// A scratch directory unique to this test process and name.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("spvgraph-validate-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

/// The module's words.
pub fn words(m: &Module) -> Vec<u32> {
    m.encode_words().expect("module encodes")
}

/// Validates under `env` with every profile and level 8K.
pub fn check_env(env: &str, m: &Module) -> Report {
    let target_env = spvgraph_ir::env::TargetEnv::parse(env).expect("known env");
    let v = Validator::new(ValidateOptions { target_env, ..Default::default() });
    v.check(m)
}

/// Validates under vulkan1.3.
pub fn check(m: &Module) -> Report {
    check_env("vulkan1.3", m)
}

/// The distinct must-reject rules of a report.
pub fn errors(r: &Report) -> Vec<RuleId> {
    let mut v: Vec<RuleId> = r.errors().map(|f| f.rule).collect();
    v.sort();
    v.dedup();
    v
}

/// The distinct may-accept rules of a report.
pub fn warnings(r: &Report) -> Vec<RuleId> {
    let mut v: Vec<RuleId> = r.warnings().map(|f| f.rule).collect();
    v.sort();
    v.dedup();
    v
}

/// Renders a report for assertion messages.
pub fn show(r: &Report) -> String {
    r.findings
        .iter()
        .map(|f| {
            format!(
                "  {} [{}] {} @ {:?}: {}\n",
                f.severity.label(),
                f.rule,
                f.message,
                f.word_offset,
                f.instruction.as_deref().unwrap_or("-")
            )
        })
        .collect()
}

/// One graph with the given input and output tensor types; `body` gets the
/// builder and the input values and returns the output values. Interface
/// variables are bound to set 0, bindings 0.. in order.
pub fn graph(
    b: &mut ModuleBuilder,
    inputs: &[Id],
    outputs: &[Id],
    body: impl FnOnce(&mut ModuleBuilder, &[Id]) -> Vec<Id>,
) -> Id {
    let gty = b.type_graph(inputs, outputs);
    let vars: Vec<Id> =
        inputs.iter().chain(outputs).enumerate().map(|(k, t)| b.interface_variable(*t, 0, k as u32)).collect();
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "main", vars);
    let xs: Vec<Id> = inputs.iter().enumerate().map(|(k, t)| b.graph_input(*t, k as u32, None)).collect();
    let ys = body(b, &xs);
    for (k, y) in ys.iter().enumerate() {
        b.graph_output(*y, k as u32, None);
    }
    b.end_graph();
    g
}

/// A module with one graph computing `op(inputs, attributes)`: `make`
/// returns the operand list given the graph inputs; the result has type `out`.
pub fn one_op(
    inputs: &[(ElemType, &[u32])],
    out: (ElemType, &[u32]),
    op: TosaOp,
    make: impl FnOnce(&mut ModuleBuilder, &[Id]) -> Vec<Id>,
) -> Module {
    let mut b = ModuleBuilder::new();
    let ins: Vec<Id> = inputs.iter().map(|(e, s)| b.type_tensor(*e, Some(s))).collect();
    let out_t = b.type_tensor(out.0, Some(out.1));
    graph(&mut b, &ins, &[out_t], |b, xs| {
        let args = make(b, xs);
        vec![b.tosa(op, out_t, args)]
    });
    b.finish()
}

/// A `[1]` tensor constant of `elem` with raw bits `bits` (zero points, shifts).
pub fn scalar_tensor(b: &mut ModuleBuilder, elem: ElemType, bits: u64) -> Id {
    b.const_tensor(elem, &[1], &[bits]).expect("shape [1]")
}

/// A zero `[1]` tensor of `elem`.
pub fn zero(b: &mut ModuleBuilder, elem: ElemType) -> Id {
    scalar_tensor(b, elem, 0)
}

/// The index of the first instruction matching `pred`.
pub fn find(m: &Module, pred: impl Fn(&Inst) -> bool) -> usize {
    m.insts.iter().position(pred).expect("instruction present")
}

/// The index of the first TOSA instruction of `op`.
pub fn find_op(m: &Module, op: TosaOp) -> usize {
    find(m, |i| matches!(i, Inst::Tosa { op: o, .. } if *o == op))
}

/// A fresh id above every id of the module (the bound is raised).
pub fn fresh(m: &mut Module) -> Id {
    let id = Id(m.header.bound);
    m.header.bound += 1;
    id
}
