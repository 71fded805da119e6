//! What a producer (model-converter) made of a case's TOSA MLIR, and how to
//! run it with the case's inputs: the interface map, the producer's notes,
//! and [`ProducedRun`], which turns the case's [`ExecRequest`] into one for
//! the produced module and maps its outputs back onto the case's.
//!
//! The MLIR a case is produced from has one argument per case input and one
//! result per case output, in the case's order ([`spvgraph_ir::mlir`]
//! flattens tensor arrays the same way as [`ExecRequest::inputs`]). A
//! producer may reorder, rename, reshape (rank 0 becomes `[1]` in SPIR-V) or
//! drop interfaces (an output that is only a copy of an input is served
//! from the input's binding); the [`InterfaceMap`] says where each went.

use crate::exec::{self, Port};
use crate::oracle::{ExecRequest, ProduceOutcome};
use spvgraph_ir::analysis::Analysis;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::{Inst, Module};
use std::collections::BTreeMap;
use std::fmt;

/// A descriptor binding (`DescriptorSet`, `Binding`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub struct Binding {
    /// The descriptor set.
    pub set: u32,
    /// The binding within the set.
    pub binding: u32,
}

impl fmt::Display for Binding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "set {} binding {}", self.set, self.binding)
    }
}

/// Where one input of the produced graph gets its data.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct InputLink {
    /// The source argument (= the case input, in [`ExecRequest::inputs`] order).
    pub source: usize,
    /// The producer's name for the interface (`input_0`).
    pub name: String,
    /// The produced module's binding of the interface variable.
    pub binding: Binding,
}

/// Where the value of one source result (= one case output) comes from.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OutputSource {
    /// An output of the produced graph.
    Output {
        /// Its position among the produced graph's outputs (OutputIndex
        /// order, arrays flattened).
        index: usize,
        /// The producer's name for it (`output_0`).
        name: String,
        /// The produced module's binding.
        binding: Binding,
    },
    /// No graph output: the producer serves it from the binding of the
    /// source input it copies (a pass-through output).
    Input {
        /// The source argument whose value it is.
        source: usize,
        /// The producer's name for it.
        name: String,
        /// The binding it shares with that input.
        binding: Binding,
    },
    /// The producer gives no way to read it.
    Missing {
        /// The producer's name for it, if it has one.
        name: String,
        /// What is wrong.
        reason: String,
    },
}

/// How the produced module's interfaces correspond to the source's.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct InterfaceMap {
    /// The produced module's graph entry point.
    pub entry_point: String,
    /// One per input of the produced graph, in its order.
    pub inputs: Vec<InputLink>,
    /// One per source result, in the source's order.
    pub outputs: Vec<OutputSource>,
}

impl InterfaceMap {
    /// Whether input `i` of the produced graph is source argument `i` for
    /// every input, and every source result is the produced output of the
    /// same position.
    pub fn is_identity(&self) -> bool {
        self.inputs.iter().enumerate().all(|(i, l)| l.source == i)
            && self
                .outputs
                .iter()
                .enumerate()
                .all(|(j, o)| matches!(o, OutputSource::Output { index, .. } if *index == j))
    }
}

/// Which side of an interface.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Side {
    /// A graph input.
    Input,
    /// A graph output.
    Output,
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Input => "input",
            Side::Output => "output",
        })
    }
}

/// Something a producer did on the way from the MLIR to the module, worth
/// knowing when its module behaves differently from the case's.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case", tag = "note")]
pub enum ProducerNote {
    /// The graph entry point has another name than the source function.
    RenamedEntryPoint {
        /// The source function's name.
        from: String,
        /// The produced entry point's name.
        to: String,
    },
    /// The produced graph takes its inputs in another order, or returns its
    /// outputs in another order, than the source.
    Reordered {
        /// Which side.
        side: Side,
    },
    /// A source result that is a source argument is not a graph output of
    /// the produced module: it is served from the argument's binding.
    PassThroughOutput {
        /// The source result.
        output: usize,
        /// The source argument it copies.
        input: usize,
    },
    /// An interface tensor has another shape in the module than in the
    /// source (rank 0 becomes `[1]`).
    Reshaped {
        /// Which side.
        side: Side,
        /// Position among the source's arguments or results.
        index: usize,
        /// The source shape.
        from: Vec<usize>,
        /// The produced module's shape.
        to: Vec<usize>,
    },
    /// Constants the producer moved out of the module into its container,
    /// by GraphConstantID.
    GraphConstants {
        /// The GraphConstantIDs.
        ids: Vec<u32>,
    },
    /// Source arguments the produced graph does not take (unused after the
    /// producer's folding), by argument number.
    DroppedInputs {
        /// The source arguments.
        inputs: Vec<usize>,
    },
    /// The producer split the graph into several segments; only the first
    /// is in the outcome's module.
    Partitioned {
        /// How many segments.
        segments: usize,
    },
    /// An operator occurs a different number of times in the produced
    /// graph than in the case's (constants folded, no-ops elided, operators
    /// decomposed or added).
    OperatorCount {
        /// The operator.
        op: TosaOp,
        /// Occurrences in the case's graph.
        case: usize,
        /// Occurrences in the produced graph.
        produced: usize,
    },
}

impl fmt::Display for ProducerNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProducerNote::RenamedEntryPoint { from, to } => write!(f, "entry point {from:?} renamed {to:?}"),
            ProducerNote::Reordered { side } => write!(f, "{side}s reordered"),
            ProducerNote::PassThroughOutput { output, input } => {
                write!(f, "output {output} is input {input}: served from the input's binding, not a graph output")
            }
            ProducerNote::Reshaped { side, index, from, to } => write!(f, "{side} {index} reshaped {from:?} -> {to:?}"),
            ProducerNote::GraphConstants { ids } => write!(f, "graph constants {ids:?} stored beside the module"),
            ProducerNote::DroppedInputs { inputs } => {
                write!(f, "source arguments {inputs:?} are not inputs of the produced graph (unused after folding)")
            }
            ProducerNote::Partitioned { segments } => write!(f, "graph split into {segments} segments"),
            ProducerNote::OperatorCount { op, case, produced } => {
                write!(f, "{op}: {case} in the case, {produced} produced")
            }
        }
    }
}

/// Why a produced module cannot be run in place of the case's.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProducedError {
    /// The outcome is not a module.
    #[error("the producer made no module")]
    NotAModule,
    /// A module does not decode or has no such graph.
    #[error("the {which} module: {reason}")]
    Module {
        /// `case` or `produced`.
        which: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// The interface map does not fit the modules.
    #[error("interface map: {0}")]
    Map(String),
}

enum Plan {
    Output { index: usize, shape: Vec<usize> },
    Copy(TensorData),
}

/// The case's request turned into one for the produced module, with the
/// way back from its outputs to the case's.
pub struct ProducedRun<'p> {
    words: &'p [u32],
    entry_point: &'p str,
    graph_constants: &'p BTreeMap<u32, TensorData>,
    inputs: Vec<TensorData>,
    plan: Vec<Plan>,
    notes: Vec<ProducerNote>,
}

impl<'p> ProducedRun<'p> {
    /// Builds the produced module's request from the case's: each produced
    /// input gets the case input its link names (reshaped when only the
    /// shape's rank differs), graph constants are the producer's. Checks
    /// element types and element counts against both modules' interfaces.
    pub fn new(case: &ExecRequest<'_>, produced: &'p ProduceOutcome) -> Result<ProducedRun<'p>, ProducedError> {
        let ProduceOutcome::Module { words, graph_constants, interface, .. } = produced else {
            return Err(ProducedError::NotAModule);
        };
        let case_module = Module::decode_words(case.module).map_err(|e| module_error("case", e.to_string()))?;
        let case_ports =
            exec::interface(&case_module, case.entry_point).map_err(|e| module_error("case", e.to_string()))?;
        let produced_module = Module::decode_words(words).map_err(|e| module_error("produced", e.to_string()))?;
        let ports = exec::interface(&produced_module, Some(&interface.entry_point))
            .map_err(|e| module_error("produced", e.to_string()))?;
        if case.inputs.len() != case_ports.inputs.len() {
            return Err(ProducedError::Map(format!(
                "the case request has {} inputs, its graph {}",
                case.inputs.len(),
                case_ports.inputs.len()
            )));
        }
        if interface.inputs.len() != ports.inputs.len() {
            return Err(ProducedError::Map(format!(
                "{} input links for a produced graph of {} inputs",
                interface.inputs.len(),
                ports.inputs.len()
            )));
        }
        let mut inputs = Vec::with_capacity(ports.inputs.len());
        for (i, (link, port)) in interface.inputs.iter().zip(&ports.inputs).enumerate() {
            let t = case.inputs.get(link.source).ok_or_else(|| {
                ProducedError::Map(format!(
                    "produced input {i} links to source argument {}, of {}",
                    link.source,
                    case.inputs.len()
                ))
            })?;
            inputs.push(fit(t, port, &format!("produced input {i} ({})", link.name))?);
        }
        if interface.outputs.len() != case_ports.outputs.len() {
            return Err(ProducedError::Map(format!(
                "{} output sources for a case graph of {} outputs",
                interface.outputs.len(),
                case_ports.outputs.len()
            )));
        }
        let mut plan = Vec::with_capacity(interface.outputs.len());
        for (k, (source, case_port)) in interface.outputs.iter().zip(&case_ports.outputs).enumerate() {
            plan.push(match source {
                OutputSource::Output { index, name, .. } => {
                    let port = ports.outputs.get(*index).ok_or_else(|| {
                        ProducedError::Map(format!(
                            "case output {k} ({name}) is produced output {index}, of {}",
                            ports.outputs.len()
                        ))
                    })?;
                    if port.elem != case_port.elem || count(&port.shape) != count(&case_port.shape) {
                        return Err(ProducedError::Map(format!(
                            "case output {k} is {} {:?}, produced output {index} ({name}) {} {:?}",
                            case_port.elem, case_port.shape, port.elem, port.shape
                        )));
                    }
                    Plan::Output { index: *index, shape: case_port.shape.clone() }
                }
                OutputSource::Input { source, name, .. } => {
                    let t = case.inputs.get(*source).ok_or_else(|| {
                        ProducedError::Map(format!(
                            "case output {k} ({name}) copies source argument {source}, of {}",
                            case.inputs.len()
                        ))
                    })?;
                    Plan::Copy(fit(t, case_port, &format!("case output {k} ({name})"))?)
                }
                OutputSource::Missing { name, reason } => {
                    return Err(ProducedError::Map(format!("case output {k} ({name}) cannot be read: {reason}")))
                }
            });
        }
        let notes = operator_counts(&case_module, case_ports.graph, &produced_module, ports.graph);
        Ok(ProducedRun { words, entry_point: &interface.entry_point, graph_constants, inputs, plan, notes })
    }

    /// The request to run the produced module.
    pub fn request(&self) -> ExecRequest<'_> {
        ExecRequest {
            module: self.words,
            entry_point: Some(self.entry_point),
            inputs: &self.inputs,
            graph_constants: self.graph_constants,
        }
    }

    /// The case's outputs, in its order and shapes, from the produced
    /// module's outputs (pass-through outputs are the case inputs they copy).
    pub fn case_outputs(&self, produced: &[TensorData]) -> Result<Vec<TensorData>, ProducedError> {
        self.plan
            .iter()
            .enumerate()
            .map(|(k, p)| match p {
                Plan::Copy(t) => Ok(t.clone()),
                Plan::Output { index, shape } => {
                    let t = produced.get(*index).ok_or_else(|| {
                        ProducedError::Map(format!(
                            "case output {k} is produced output {index}; the run gave {}",
                            produced.len()
                        ))
                    })?;
                    reshape(t, shape).ok_or_else(|| {
                        ProducedError::Map(format!(
                            "produced output {index} has shape {:?}, case output {k} {shape:?}",
                            t.shape()
                        ))
                    })
                }
            })
            .collect()
    }

    /// Operators whose count differs between the case's graph and the
    /// produced one (folded, elided, decomposed or added).
    pub fn operator_notes(&self) -> &[ProducerNote] {
        &self.notes
    }
}

fn module_error(which: &'static str, reason: String) -> ProducedError {
    ProducedError::Module { which, reason }
}

/// The element count of a port's shape (`None` when it overflows: a module may
/// declare any shape).
fn count(shape: &[usize]) -> Option<usize> {
    spvgraph_ir::count::checked_len(shape)
}

/// `t` with `port`'s shape, when the element type and count agree.
fn fit(t: &TensorData, port: &Port, what: &str) -> Result<TensorData, ProducedError> {
    if t.elem() != port.elem {
        return Err(ProducedError::Map(format!(
            "{what} is {} {:?}, the data {} {:?}",
            port.elem,
            port.shape,
            t.elem(),
            t.shape()
        )));
    }
    reshape(t, &port.shape)
        .ok_or_else(|| ProducedError::Map(format!("{what} has shape {:?}, the data {:?}", port.shape, t.shape())))
}

/// Whether two lists of tensors are bit-identical: same element types,
/// shapes and bit patterns (so a NaN equals the same NaN, unlike `==` on
/// floating-point data).
pub fn bit_identical(a: &[TensorData], b: &[TensorData]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| x.elem() == y.elem() && x.shape() == y.shape() && x.to_bits() == y.to_bits())
}

/// `t` reshaped to `shape` (same elements, row-major), if the counts agree.
pub fn reshape(t: &TensorData, shape: &[usize]) -> Option<TensorData> {
    if t.shape() == shape {
        return Some(t.clone());
    }
    if count(shape) != Some(t.len()) {
        return None;
    }
    TensorData::from_bits(t.elem(), shape, &t.to_bits()).ok()
}

fn operator_histogram(module: &Module, graph: spvgraph_ir::Id) -> BTreeMap<TosaOp, usize> {
    let a = Analysis::new(module);
    let mut h = BTreeMap::new();
    if let Some(view) = a.graph(graph) {
        for &i in &view.body {
            if let Some(Inst::Tosa { op, .. }) = module.insts.get(i) {
                *h.entry(*op).or_insert(0) += 1;
            }
        }
    }
    h
}

/// The operators whose counts differ between two graphs.
pub fn operator_counts(
    case: &Module,
    case_graph: spvgraph_ir::Id,
    produced: &Module,
    produced_graph: spvgraph_ir::Id,
) -> Vec<ProducerNote> {
    let a = operator_histogram(case, case_graph);
    let b = operator_histogram(produced, produced_graph);
    let ops: std::collections::BTreeSet<TosaOp> = a.keys().chain(b.keys()).copied().collect();
    ops.into_iter()
        .filter_map(|op| {
            let (case, produced) = (a.get(&op).copied().unwrap_or(0), b.get(&op).copied().unwrap_or(0));
            (case != produced).then_some(ProducerNote::OperatorCount { op, case, produced })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use spvgraph_ir::elem::ElemType;

    fn produced_from(words: Vec<u32>, interface: InterfaceMap) -> ProduceOutcome {
        ProduceOutcome::Module {
            words,
            graph_constants: BTreeMap::new(),
            interface,
            notes: Vec::new(),
            container: None,
        }
    }

    fn binding(b: u32) -> Binding {
        Binding { set: 0, binding: b }
    }

    #[test]
    fn identity_map_passes_inputs_through_and_outputs_back() {
        let m = spvgraph_ir::samples::elementwise_chain(2);
        let words = m.encode_words().expect("encodes");
        let iface = exec::interface(&m, None).expect("interface");
        let inputs: Vec<TensorData> = iface
            .inputs
            .iter()
            .map(|p| {
                TensorData::from_bits(p.elem, &p.shape, &vec![0x3f80_0000; p.shape.iter().product::<usize>()])
                    .expect("tensor")
            })
            .collect();
        let gc = BTreeMap::new();
        let case = ExecRequest { module: &words, entry_point: None, inputs: &inputs, graph_constants: &gc };
        let map = InterfaceMap {
            entry_point: iface.entry_point.clone().expect("entry point"),
            inputs: (0..inputs.len())
                .map(|i| InputLink { source: i, name: format!("input_{i}"), binding: binding(i as u32) })
                .collect(),
            outputs: (0..iface.outputs.len())
                .map(|j| OutputSource::Output {
                    index: j,
                    name: format!("output_{j}"),
                    binding: binding(10 + j as u32),
                })
                .collect(),
        };
        assert!(map.is_identity());
        let produced = produced_from(words.clone(), map);
        let run = ProducedRun::new(&case, &produced).expect("runs");
        assert_eq!(run.request().inputs, &inputs[..]);
        assert!(run.operator_notes().is_empty(), "the same module: {:?}", run.operator_notes());
        let out = exec::run(&m, None, &inputs, &gc).expect("executes");
        assert_eq!(run.case_outputs(&out).expect("maps back"), out);
    }

    #[test]
    fn pass_through_outputs_copy_their_input_and_bad_maps_are_refused() {
        let m = spvgraph_ir::samples::elementwise_chain(1);
        let words = m.encode_words().expect("encodes");
        let iface = exec::interface(&m, None).expect("interface");
        let port = &iface.inputs[0];
        let x = TensorData::from_bits(port.elem, &port.shape, &vec![0x4000_0000; port.shape.iter().product::<usize>()])
            .expect("tensor");
        let inputs = vec![x.clone(); iface.inputs.len()];
        let gc = BTreeMap::new();
        let case = ExecRequest { module: &words, entry_point: None, inputs: &inputs, graph_constants: &gc };
        let entry = iface.entry_point.clone().expect("entry point");
        let links: Vec<InputLink> = (0..inputs.len())
            .map(|i| InputLink { source: i, name: format!("input_{i}"), binding: binding(i as u32) })
            .collect();
        if iface.outputs[0].elem == port.elem && count(&iface.outputs[0].shape) == count(&port.shape) {
            let map = InterfaceMap {
                entry_point: entry.clone(),
                inputs: links.clone(),
                outputs: vec![OutputSource::Input { source: 0, name: "output_0".into(), binding: binding(0) }],
            };
            let produced = produced_from(words.clone(), map);
            let run = ProducedRun::new(&case, &produced).expect("runs");
            assert_eq!(
                run.case_outputs(&[]).expect("copied"),
                vec![reshape(&x, &iface.outputs[0].shape).expect("fits")]
            );
        }
        let missing = InterfaceMap {
            entry_point: entry.clone(),
            inputs: links.clone(),
            outputs: vec![OutputSource::Missing { name: "output_0".into(), reason: "no binding".into() }],
        };
        let e = ProducedRun::new(&case, &produced_from(words.clone(), missing)).err().expect("refused");
        assert!(e.to_string().contains("no binding"), "{e}");
        let wrong = InterfaceMap {
            entry_point: entry,
            inputs: vec![InputLink { source: 9, ..links[0].clone() }],
            outputs: vec![],
        };
        assert!(matches!(ProducedRun::new(&case, &produced_from(words.clone(), wrong)), Err(ProducedError::Map(_))));
        let rejected = ProduceOutcome::Rejected { message: "no".into() };
        assert!(matches!(ProducedRun::new(&case, &rejected), Err(ProducedError::NotAModule)));
        assert_eq!(reshape(&TensorData::zeros(ElemType::I8, &[]), &[1]).map(|t| t.shape().to_vec()), Some(vec![1]));
        let nan = TensorData::from_bits(ElemType::Fp32, &[1], &[0x7fc0_0000]).expect("NaN");
        assert_ne!(nan, nan.clone(), "NaN is not == NaN");
        assert!(bit_identical(std::slice::from_ref(&nan), std::slice::from_ref(&nan)));
        let other_nan = TensorData::from_bits(ElemType::Fp32, &[1], &[0x7fc0_0001]).expect("NaN");
        assert!(!bit_identical(&[nan], &[other_nan]));
    }
}
