//! From an [`ExecRequest`] to what the scenario runner needs: the module to
//! load (after the documented work-arounds), the entry point, one tensor
//! resource per interface variable at its DescriptorSet/Binding, and one
//! graph-constant resource per GraphConstantID.

use crate::exec::{self, Interface};
use crate::oracle::{ExecRequest, Refusal, ValidateOptions};
use crate::validate::Validator;
use spvgraph_ir::analysis::Analysis;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::inst::{ExtSet, Id, Inst};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::Module;
use std::collections::{BTreeMap, HashSet};
use std::fmt;

/// Changes the adapter makes to a module before the layer sees it, because
/// the layer (0.11) mishandles something valid that is not what the run is
/// about. Each is a documented discrepancy with a finding of its own.
///
/// They apply only to modules the in-tree validator accepts (Vulkan 1.3,
/// every profile): a module that breaks a rule goes to the layer exactly as
/// given, so that no work-around repairs the break (removing debug
/// information would repair every `debuginfo.*` break) and what the layer
/// does with an invalid module is reported as it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Workarounds {
    /// Keep only the requested `OpGraphEntryPointARM`: the layer ignores the
    /// pipeline's entry-point name and builds every entry point's graph,
    /// binding all of their interface variables to the one pipeline's
    /// resources (`emulation-layer-ignores-entry-point`).
    pub single_entry_point: bool,
    /// Remove `NonSemantic.Graph.DebugInfo` (its import and instructions):
    /// the layer refuses any module importing it
    /// (`emulation-layer-rejects-debuginfo`). Non-semantic instructions have
    /// no meaning for execution, so the outputs are those of the module.
    pub strip_debug_info: bool,
    /// Do not run a graph that sets one value as several outputs (it is
    /// `unsupported`): the layer writes only the last of those outputs and
    /// leaves the others as they were (`emulation-layer-shared-output`).
    pub skip_shared_outputs: bool,
}

impl Workarounds {
    /// Every work-around on (the default).
    pub const ALL: Workarounds =
        Workarounds { single_entry_point: true, strip_debug_info: true, skip_shared_outputs: true };
    /// None: the module goes to the layer exactly as given.
    pub const NONE: Workarounds =
        Workarounds { single_entry_point: false, strip_debug_info: false, skip_shared_outputs: false };
}

impl Default for Workarounds {
    fn default() -> Self {
        Workarounds::ALL
    }
}

/// One tensor resource bound to an interface variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slot {
    /// DescriptorSet.
    pub set: u32,
    /// Binding.
    pub binding: u32,
    /// Element type.
    pub elem: ElemType,
    /// Shape.
    pub shape: Vec<usize>,
}

/// A graph ready to be put in a scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct Prepared {
    /// The module the layer gets.
    pub words: Vec<u32>,
    /// The entry point's name.
    pub entry: String,
    /// Inputs in InputIndex order.
    pub inputs: Vec<Slot>,
    /// Outputs in OutputIndex order.
    pub outputs: Vec<Slot>,
    /// Graph-constant data by GraphConstantID: every graph constant the
    /// module declares (the layer resolves all of them).
    pub constants: BTreeMap<u32, TensorData>,
    /// The work-arounds applied.
    pub applied: Vec<Workaround>,
}

/// A work-around applied to one module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Workaround {
    /// Other graph entry points removed.
    OtherEntryPointsRemoved,
    /// NonSemantic.Graph.DebugInfo removed.
    DebugInfoRemoved,
}

impl fmt::Display for Workaround {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Workaround::OtherEntryPointsRemoved => "the other graph entry points were removed",
            Workaround::DebugInfoRemoved => "NonSemantic.Graph.DebugInfo was removed",
        })
    }
}

/// What became of a request.
#[derive(Clone, Debug, PartialEq)]
pub enum Preparation {
    /// Ready to run.
    Ready(Box<Prepared>),
    /// Cannot be run through the scenario runner; the outcome is this refusal.
    Refused(Refusal, String),
}

/// Why a request is inconsistent with its own module (a harness error).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestError(pub String);

fn unsupported(reason: impl Into<String>) -> Result<Preparation, RequestError> {
    Ok(Preparation::Refused(Refusal::Unsupported, reason.into()))
}

/// Prepares `request`. Modules the runner cannot be given a scenario for
/// (they do not decode, the entry point or an interface type cannot be
/// read, an interface is a tensor array) are refused as unsupported, with
/// the reason; inputs or graph constants that do not fit the module are a
/// [`RequestError`].
pub fn prepare(request: &ExecRequest<'_>, workarounds: Workarounds) -> Result<Preparation, RequestError> {
    let module = match Module::decode_words(request.module) {
        Ok(m) => m,
        Err(e) => return unsupported(format!("no scenario can be written: the module does not decode: {e}")),
    };
    let iface = match exec::interface(&module, request.entry_point) {
        Ok(i) => i,
        Err(e) => return unsupported(format!("no scenario can be written: {e}")),
    };
    let Some(entry) = iface.entry_point.clone() else {
        return unsupported("no scenario can be written: the module has no OpGraphEntryPointARM");
    };
    let a = Analysis::new(&module);
    let (inputs, outputs) = match bindings(&a, &entry, &iface) {
        Ok(b) => b,
        Err(reason) => return unsupported(reason),
    };
    check_inputs(&inputs, request.inputs)?;
    if let Some(reason) = conflicting_graph_constant_ids(&a) {
        return unsupported(reason);
    }
    let constants = constants(&a, &iface, request.graph_constants)?;
    let workarounds =
        if workarounds == Workarounds::NONE || !is_valid(&module) { Workarounds::NONE } else { workarounds };
    if workarounds.skip_shared_outputs && shares_an_output(&a, &entry) {
        return unsupported(
            "one value is set as several graph outputs, of which the layer writes only the last \
             (documented: corpus/findings/emulation-layer-shared-output.spv)",
        );
    }
    let (words, applied) = rewrite(&module, &a, &entry, workarounds)
        .map_err(|e| RequestError(format!("the module cannot be re-encoded after the work-arounds: {e}")))?;
    Ok(Preparation::Ready(Box::new(Prepared { words, entry, inputs, outputs, constants, applied })))
}

/// Whether the graph of entry point `entry` sets one value as several outputs.
fn shares_an_output(a: &Analysis<'_>, entry: &str) -> bool {
    let graph = a.graph_entry_points.iter().find_map(|&i| match a.module.insts.get(i) {
        Some(Inst::GraphEntryPoint { graph, name, .. }) if name == entry => Some(*graph),
        _ => None,
    });
    let Some(view) = graph.and_then(|g| a.graph(g)) else { return false };
    let mut seen = std::collections::BTreeSet::new();
    view.outputs.iter().any(|&i| match a.module.insts.get(i) {
        Some(Inst::GraphSetOutput { value, .. }) => !seen.insert(*value),
        _ => false,
    })
}

/// Whether the in-tree validator accepts the module (Vulkan 1.3, every profile).
fn is_valid(module: &Module) -> bool {
    Validator::new(ValidateOptions::default()).check(module).is_valid()
}

/// The DescriptorSet/Binding of every interface variable of `entry`.
fn bindings(a: &Analysis<'_>, entry: &str, iface: &Interface) -> Result<(Vec<Slot>, Vec<Slot>), String> {
    if iface.inputs.iter().chain(&iface.outputs).any(|p| p.element.is_some()) {
        // VkDataGraphPipelineResourceInfoARM::arrayElement is always 0 in
        // scenario-runner 0.11 and its bindings have no array element.
        return Err("scenario-runner cannot bind tensor arrays (its bindings have no array element; \
                    every resource is arrayElement 0): the graph has a tensor-array input or output"
            .into());
    }
    let vars = a
        .graph_entry_points
        .iter()
        .find_map(|&i| match a.module.insts.get(i) {
            Some(Inst::GraphEntryPoint { name, interface, .. }) if name == entry => Some(interface.clone()),
            _ => None,
        })
        .ok_or_else(|| format!("no OpGraphEntryPointARM named {entry:?}"))?;
    let ports: Vec<_> = iface.inputs.iter().chain(&iface.outputs).collect();
    if vars.len() != ports.len() {
        return Err(format!(
            "no scenario can be written: entry point {entry:?} lists {} interface variables for {} graph inputs and outputs",
            vars.len(),
            ports.len()
        ));
    }
    let mut slots = Vec::with_capacity(vars.len());
    for (var, port) in vars.iter().zip(ports) {
        let literal = |d: spirv::Decoration| a.decoration(*var, d).and_then(|l| l.first().copied());
        let (Some(set), Some(binding)) =
            (literal(spirv::Decoration::DescriptorSet), literal(spirv::Decoration::Binding))
        else {
            return Err(format!(
                "no scenario can be written: interface variable {var} has no DescriptorSet and Binding decorations"
            ));
        };
        slots.push(Slot { set, binding, elem: port.elem, shape: port.shape.clone() });
    }
    let outputs = slots.split_off(iface.inputs.len());
    Ok((slots, outputs))
}

fn check_inputs(slots: &[Slot], inputs: &[TensorData]) -> Result<(), RequestError> {
    if slots.len() != inputs.len() {
        return Err(RequestError(format!("the graph has {} inputs, the request {}", slots.len(), inputs.len())));
    }
    for (i, (s, t)) in slots.iter().zip(inputs).enumerate() {
        if s.elem != t.elem() || s.shape != t.shape() {
            return Err(RequestError(format!(
                "input {i}: the graph wants {} {:?}, the request has {} {:?}",
                s.elem,
                s.shape,
                t.elem(),
                t.shape()
            )));
        }
    }
    Ok(())
}

/// A GraphConstantID the module declares twice with different types (an
/// invalid module): a scenario binds graph-constant data by ID, so no one
/// tensor can be given for both.
fn conflicting_graph_constant_ids(a: &Analysis<'_>) -> Option<String> {
    let mut seen: BTreeMap<u32, Id> = BTreeMap::new();
    for inst in &a.module.insts {
        let Inst::GraphConstant { ty, graph_constant_id: id, .. } = inst else { continue };
        match seen.get(id) {
            Some(first) if first != ty => {
                return Some(format!(
                    "no scenario can be written: GraphConstantID {id} is declared with two types ({first} and {ty}), \
                     and a scenario binds one tensor per ID"
                ))
            }
            Some(_) => {}
            None => {
                seen.insert(*id, *ty);
            }
        }
    }
    None
}

/// Data for every graph constant the module declares: the request's, or
/// zeros for one the entry point's graph does not use.
fn constants(
    a: &Analysis<'_>,
    iface: &Interface,
    given: &BTreeMap<u32, TensorData>,
) -> Result<BTreeMap<u32, TensorData>, RequestError> {
    let used: HashSet<u32> = iface.graph_constants.iter().map(|p| p.index).collect();
    let mut out = BTreeMap::new();
    for inst in &a.module.insts {
        let Inst::GraphConstant { ty, graph_constant_id: id, .. } = inst else { continue };
        let declared = a.tensor_type(*ty).and_then(|t| {
            let shape = t.shape?.iter().map(|&d| usize::try_from(d).ok()).collect::<Option<Vec<_>>>()?;
            Some((t.elem?, shape))
        });
        match (given.get(id), declared) {
            (Some(t), Some((elem, shape))) if t.elem() != elem || t.shape() != shape.as_slice() => {
                return Err(RequestError(format!(
                    "graph constant {id}: the module declares {elem} {shape:?}, the request has {} {:?}",
                    t.elem(),
                    t.shape()
                )))
            }
            (Some(t), _) => {
                out.insert(*id, t.clone());
            }
            (None, _) if used.contains(id) => {
                return Err(RequestError(format!("no data for graph constant {id}, which the graph uses")))
            }
            (None, Some((elem, shape))) => {
                out.insert(*id, TensorData::zeros(elem, &shape));
            }
            // Neither data nor a shaped type: nothing can be supplied, and
            // the layer will say what it makes of that.
            (None, None) => {}
        }
    }
    Ok(out)
}

/// Applies the work-arounds that concern this module.
fn rewrite(
    module: &Module,
    a: &Analysis<'_>,
    entry: &str,
    w: Workarounds,
) -> Result<(Vec<u32>, Vec<Workaround>), spvgraph_ir::module::EncodeError> {
    let mut applied = Vec::new();
    let several_entry_points = a.graph_entry_points.len() > 1;
    let debug_sets: HashSet<Id> =
        a.sets.iter().filter(|(_, s)| **s == ExtSet::GraphDebugInfo).map(|(id, _)| *id).collect();
    let drop_entries = w.single_entry_point && several_entry_points;
    let drop_debug = w.strip_debug_info && !debug_sets.is_empty();
    if !drop_entries && !drop_debug {
        return Ok((module.encode_words()?, applied));
    }
    if drop_entries {
        applied.push(Workaround::OtherEntryPointsRemoved);
    }
    if drop_debug {
        applied.push(Workaround::DebugInfoRemoved);
    }
    let mut removed: HashSet<Id> = HashSet::new();
    let mut kept = Vec::with_capacity(module.insts.len());
    for inst in &module.insts {
        let drop = match inst {
            Inst::GraphEntryPoint { name, .. } => drop_entries && name != entry,
            Inst::ExtInstImport { result, .. } => drop_debug && debug_sets.contains(result),
            Inst::GraphDebug { set, .. } | Inst::ExtInst { set, .. } => drop_debug && debug_sets.contains(set),
            _ => false,
        };
        if drop {
            removed.extend(inst.result_id());
        } else {
            kept.push(inst.clone());
        }
    }
    // Names and decorations of removed results go with them.
    kept.retain(|inst| match inst {
        Inst::Name { target, .. } | Inst::Decorate { target, .. } => !removed.contains(target),
        _ => true,
    });
    let out = Module { insts: kept, ..module.clone() };
    Ok((out.encode_words()?, applied))
}

#[cfg(test)]
mod tests {
    use super::*;
    use spvgraph_ir::builder::ModuleBuilder;
    use spvgraph_ir::tosa::TosaOp;

    /// Two entry points on one ABS graph (sets 0 and 1), a debug-info
    /// instruction in the graph body, and a graph constant the graph does
    /// not use.
    fn two_entry_points() -> Module {
        let mut b = ModuleBuilder::new();
        let t = b.type_tensor(ElemType::I32, Some(&[4]));
        let gty = b.type_graph(&[t], &[t]);
        let _unused = b.graph_constant(t, 7);
        let v0 = [b.interface_variable(t, 0, 0), b.interface_variable(t, 0, 1)];
        let v1 = [b.interface_variable(t, 1, 5), b.interface_variable(t, 1, 6)];
        let set = b.graph_debug_set();
        let name = b.string("g");
        let void = b.type_void();
        let g = b.begin_graph(gty);
        b.graph_entry_point(g, "first", v0.to_vec());
        b.graph_entry_point(g, "second", v1.to_vec());
        let x = b.graph_input(t, 0, None);
        let id = b.id();
        let inst = spvgraph_ir::inst::GraphDebugInst::Graph { graph: g, name };
        b.graph_inst(Inst::GraphDebug { ty: void, result: id, set, inst });
        let y = b.tosa(TosaOp::Abs, t, vec![x]);
        b.graph_output(y, 0, None);
        b.end_graph();
        b.finish()
    }

    fn request<'a>(words: &'a [u32], entry: Option<&'a str>, inputs: &'a [TensorData]) -> ExecRequest<'a> {
        static EMPTY: BTreeMap<u32, TensorData> = BTreeMap::new();
        ExecRequest { module: words, entry_point: entry, inputs, graph_constants: &EMPTY }
    }

    #[test]
    fn bindings_come_from_the_chosen_entry_point() {
        let words = two_entry_points().encode_words().expect("encodes");
        let inputs = [TensorData::zeros(ElemType::I32, &[4])];
        let Ok(Preparation::Ready(p)) = prepare(&request(&words, Some("second"), &inputs), Workarounds::ALL) else {
            panic!("ready")
        };
        assert_eq!(p.entry, "second");
        assert_eq!((p.inputs[0].set, p.inputs[0].binding), (1, 5));
        assert_eq!((p.outputs[0].set, p.outputs[0].binding), (1, 6));
        assert_eq!(p.constants.keys().copied().collect::<Vec<_>>(), [7], "unused constants get zeros");
        assert_eq!(p.applied, [Workaround::OtherEntryPointsRemoved, Workaround::DebugInfoRemoved]);
        let m = Module::decode_words(&p.words).expect("decodes");
        let a = Analysis::new(&m);
        assert_eq!(a.graph_entry_points.len(), 1);
        assert!(!a.sets.values().any(|s| *s == ExtSet::GraphDebugInfo));
        assert!(!m.insts.iter().any(|i| matches!(i, Inst::GraphDebug { .. })));
    }

    #[test]
    fn invalid_modules_get_no_workaround() {
        let mut m = two_entry_points();
        // A second OpMemoryModel breaks a layout rule.
        let at = m.insts.iter().position(|i| matches!(i, Inst::MemoryModel { .. })).expect("memory model");
        let dup = m.insts[at].clone();
        m.insts.insert(at, dup);
        let words = m.encode_words().expect("encodes");
        let inputs = [TensorData::zeros(ElemType::I32, &[4])];
        let Ok(Preparation::Ready(p)) = prepare(&request(&words, Some("second"), &inputs), Workarounds::ALL) else {
            panic!("ready")
        };
        assert_eq!(p.words, words);
        assert!(p.applied.is_empty());
    }

    #[test]
    fn without_workarounds_the_module_is_untouched() {
        let words = two_entry_points().encode_words().expect("encodes");
        let inputs = [TensorData::zeros(ElemType::I32, &[4])];
        let Ok(Preparation::Ready(p)) = prepare(&request(&words, None, &inputs), Workarounds::NONE) else {
            panic!("ready")
        };
        assert_eq!(p.words, words);
        assert_eq!(p.entry, "first");
        assert!(p.applied.is_empty());
    }

    #[test]
    fn bad_requests_and_unbindable_modules_are_told_apart() {
        let words = two_entry_points().encode_words().expect("encodes");
        let wrong = [TensorData::zeros(ElemType::I8, &[4])];
        let e = prepare(&request(&words, None, &wrong), Workarounds::ALL).expect_err("wrong input type");
        assert!(e.0.contains("input 0"), "{e:?}");
        let missing = prepare(&request(&words, Some("third"), &wrong), Workarounds::ALL).expect("answers");
        assert!(matches!(missing, Preparation::Refused(Refusal::Unsupported, ref r) if r.contains("third")));
        let garbage = [1u32, 2, 3];
        let r = prepare(&request(&garbage, None, &[]), Workarounds::ALL).expect("answers");
        assert!(matches!(r, Preparation::Refused(Refusal::Unsupported, ref r) if r.contains("does not decode")));
    }

    #[test]
    fn tensor_arrays_cannot_be_bound() {
        let mut b = ModuleBuilder::new();
        let t = b.type_tensor(ElemType::I32, Some(&[4]));
        let arr = b.type_array(t, 2);
        let gty = b.type_graph(&[arr], &[t]);
        let vars = vec![b.interface_variable(arr, 0, 0), b.interface_variable(t, 0, 1)];
        let g = b.begin_graph(gty);
        b.graph_entry_point(g, "main", vars);
        let x = b.graph_input(t, 0, Some(1));
        b.graph_output(x, 0, None);
        b.end_graph();
        let words = b.finish().encode_words().expect("encodes");
        let inputs = [TensorData::zeros(ElemType::I32, &[4]), TensorData::zeros(ElemType::I32, &[4])];
        let r = prepare(&request(&words, None, &inputs), Workarounds::ALL).expect("answers");
        assert!(matches!(r, Preparation::Refused(Refusal::Unsupported, ref r) if r.contains("tensor arrays")));
    }
}
