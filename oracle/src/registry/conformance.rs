//! The contract every oracle of the registry keeps, checked by one call per
//! oracle ([`conformance`]): a new adapter is tested the moment it is
//! registered, the way a differential-testing engine gets a smoke test
//! before it judges anything.
//!
//! What is checked: the oracle's names, capabilities and documented
//! discrepancies are well formed; an oracle that cannot run says why, in
//! an [`OracleError::Unavailable`] naming itself; one that can run answers
//! each question it claims on a small valid graph (an fp32 ADD whose sums
//! are exact) the way the in-tree oracles do.

use super::{split_name, NAMES};
use crate::attribution::Status;
use crate::compliance::PreciseOutcome;
use crate::exec::Executor;
use crate::oracle::{
    Capability, ExecOutcome, ExecRequest, Oracle, OracleError, ProduceOutcome, ProduceRequest, ValidateOptions, Verdict,
};
use crate::validate::Validator;
use spvgraph_ir::builder::ModuleBuilder;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::Module;
use std::collections::BTreeMap;

/// What [`conformance`] found for an oracle that kept the contract.
#[derive(Clone, Debug, PartialEq)]
pub enum Conformance {
    /// It cannot run here, and says why.
    Unavailable(String),
    /// It ran, and answered every question it claims as expected.
    Passed {
        /// The capabilities it was asked about.
        checked: Vec<Capability>,
    },
}

/// The entry point of the conformance graph.
const ENTRY: &str = "main";
/// The conformance graph's shape.
const SHAPE: [u32; 2] = [2, 3];

/// The conformance graph: `main(a, b) = a + b`, fp32 `[2, 3]`.
fn add_module() -> Module {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(ElemType::Fp32, Some(&SHAPE));
    let ty = b.type_graph(&[t, t], &[t]);
    let vars = vec![b.interface_variable(t, 0, 0), b.interface_variable(t, 0, 1), b.interface_variable(t, 0, 2)];
    let g = b.begin_graph(ty);
    b.graph_entry_point(g, ENTRY, vars);
    let x = b.graph_input(t, 0, None);
    let y = b.graph_input(t, 1, None);
    let s = b.tosa(TosaOp::Add, t, vec![x, y]);
    b.graph_output(s, 0, None);
    b.end_graph();
    b.finish()
}

/// Inputs whose sums are exact in fp32 (so every backend must agree bit for bit).
fn add_inputs() -> Result<Vec<TensorData>, String> {
    let shape: Vec<usize> = SHAPE.iter().map(|&d| d as usize).collect();
    let tensor = |values: [f32; 6]| {
        let bits: Vec<u64> = values.iter().map(|v| u64::from(v.to_bits())).collect();
        TensorData::from_bits(ElemType::Fp32, &shape, &bits).map_err(|e| format!("conformance inputs: {e}"))
    };
    Ok(vec![tensor([1.0, -2.0, 0.5, 8.0, -0.0, 1024.0])?, tensor([2.0, 2.0, 0.25, -16.0, 0.0, 3.0])?])
}

/// Checks that `oracle` keeps the registry's contract (see the module
/// documentation). `Err` says what it broke.
pub fn conformance(oracle: &dyn Oracle) -> Result<Conformance, String> {
    let name = oracle.name().to_string();
    let (tool, channel) = split_name(&name);
    if !NAMES.contains(&tool) || oracle.tool() != tool || oracle.channel() != channel {
        return Err(format!(
            "{name}: name, tool ({}) and channel ({:?}) do not fit the registry",
            oracle.tool(),
            oracle.channel()
        ));
    }
    let caps = oracle.capabilities();
    if caps.is_empty() {
        return Err(format!("{name}: claims no capability"));
    }
    if !(oracle.default_sample() > 0.0 && oracle.default_sample() <= 1.0) || oracle.preferred_batch() == 0 {
        return Err(format!(
            "{name}: default sample {} is not in (0, 1], or preferred batch is 0",
            oracle.default_sample()
        ));
    }
    // A row that names nothing never matches: it may only record a harness
    // decision (not a bug), never stand for an open one.
    if let Some(k) = oracle.known_discrepancies().iter().find(|k| !k.names_something() && k.status != Status::NotABug) {
        return Err(format!(
            "{name}: a documented discrepancy that is not marked not-a-bug matches nothing: {}",
            k.why
        ));
    }
    match oracle.available() {
        Ok(()) => {}
        Err(OracleError::Unavailable { oracle: who, reason }) if who == name && !reason.trim().is_empty() => {
            return Ok(Conformance::Unavailable(reason));
        }
        Err(e) => return Err(format!("{name}: unavailable without saying why in its own name: {e}")),
    }
    let module = add_module();
    let words = module.encode_words().map_err(|e| format!("conformance module: {e}"))?;
    let inputs = add_inputs()?;
    let constants = BTreeMap::new();
    let request =
        ExecRequest { module: &words, entry_point: Some(ENTRY), inputs: &inputs, graph_constants: &constants };
    let expected = Executor::default()
        .run(&module, Some(ENTRY), &inputs, &constants)
        .map_err(|e| format!("conformance graph on the in-tree executor: {e}"))?;
    for cap in caps.iter().copied() {
        match cap {
            Capability::Validate => {
                match oracle.validator().and_then(|v| v.validate(&words, &ValidateOptions::default())) {
                    Ok(Verdict::Valid) => {}
                    other => return Err(format!("{name}: the conformance graph is valid, it said {other:?}")),
                }
            }
            Capability::Execute => match oracle.executor().and_then(|e| e.execute(&request)) {
                Ok(ExecOutcome::Outputs(out)) if out == expected => {}
                other => return Err(format!("{name}: ADD should give {expected:?}, it gave {other:?}")),
            },
            Capability::Produce => {
                let mlir = spvgraph_ir::mlir::module_to_mlir(&module, ENTRY, &constants)
                    .map_err(|e| format!("conformance graph as MLIR: {e}"))?;
                match oracle.producer().and_then(|p| p.produce(&ProduceRequest { mlir: &mlir, debug_info: false })) {
                    Ok(ProduceOutcome::Module { words, .. }) => {
                        let verdict = Validator::new(ValidateOptions::default()).check_words(&words).verdict();
                        if !verdict.is_valid() {
                            return Err(format!("{name}: the produced module is invalid: {verdict:?}"));
                        }
                    }
                    other => return Err(format!("{name}: should produce a module from an ADD, gave {other:?}")),
                }
            }
            Capability::Reference => match oracle.referee().and_then(|r| r.execute_precise(&request)) {
                Ok(PreciseOutcome::Outputs(out)) if out.len() == expected.len() => {}
                other => return Err(format!("{name}: a precise ADD should give one output, gave {other:?}")),
            },
            Capability::Describe => match oracle.reader().and_then(|r| r.read(&words)) {
                Ok(crate::oracle::ReadOutcome::Read(r))
                    if r.graphs.len() == 1 && r.graphs.iter().flat_map(|g| &g.nodes).any(|n| n.op == "ADD") => {}
                other => return Err(format!("{name}: should read one graph with an ADD, read {other:?}")),
            },
        }
    }
    Ok(Conformance::Passed { checked: caps })
}
