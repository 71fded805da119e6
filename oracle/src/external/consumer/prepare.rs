//! From an [`ExecRequest`] to what a Vulkan consumer needs: the module to
//! load (after the documented [`Workarounds`]), the entry point, one tensor
//! resource per interface variable (per element of a tensor array) at its
//! DescriptorSet/Binding, and one graph constant per GraphConstantID. Both
//! consumer oracles prepare their requests here, so they run the same
//! module with the same bindings.

use super::workarounds::{rewrite, shares_an_output, Workaround, Workarounds, SHARED_OUTPUT_REFUSAL};
use crate::exec::{self, Interface};
use crate::oracle::{ExecRequest, Refusal, ValidateOptions};
use crate::validate::Validator;
use spvgraph_ir::analysis::Analysis;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::Module;
use std::collections::{BTreeMap, HashSet};

/// One tensor resource bound to an interface variable (or to one element of
/// a tensor-array interface variable).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Slot {
    /// DescriptorSet.
    pub set: u32,
    /// Binding.
    pub binding: u32,
    /// The array element (`arrayElement`, the ElementIndex) when the
    /// interface variable is a tensor array.
    pub element: Option<u32>,
    /// Element type.
    pub elem: ElemType,
    /// Shape.
    pub shape: Vec<usize>,
}

/// A graph ready to be run by a consumer.
#[derive(Clone, Debug, PartialEq)]
pub struct Prepared {
    /// The module the consumer gets.
    pub words: Vec<u32>,
    /// The entry point's name.
    pub entry: String,
    /// Inputs in InputIndex order (tensor arrays expanded in ElementIndex order).
    pub inputs: Vec<Slot>,
    /// Outputs in OutputIndex order (tensor arrays expanded in ElementIndex order).
    pub outputs: Vec<Slot>,
    /// Graph-constant data by GraphConstantID: every graph constant the
    /// module declares (the layer resolves all of them).
    pub constants: BTreeMap<u32, TensorData>,
    /// The work-arounds applied.
    pub applied: Vec<Workaround>,
}

/// Whether a consumer can bind the elements of a tensor-array interface.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TensorArrays {
    /// Each element is bound on its own (`arrayElement`).
    Bound,
    /// The consumer cannot bind them: such graphs are refused as
    /// unsupported, with this reason.
    Unbindable(&'static str),
}

/// What became of a request.
#[derive(Clone, Debug, PartialEq)]
pub enum Preparation {
    /// Ready to run.
    Ready(Box<Prepared>),
    /// Cannot be given to the consumer; the outcome is this refusal.
    Refused(Refusal, String),
}

/// Why a request is inconsistent with its own module (a harness error).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestError(pub String);

fn unsupported(reason: impl Into<String>) -> Result<Preparation, RequestError> {
    Ok(Preparation::Refused(Refusal::Unsupported, reason.into()))
}

/// Prepares `request`. Modules no consumer can be given (they do not
/// decode, the entry point or an interface type cannot be read, an
/// interface is a tensor array the consumer cannot bind) are refused as
/// unsupported, with the reason; inputs or graph constants that do not fit
/// the module are a [`RequestError`].
pub fn prepare(
    request: &ExecRequest<'_>,
    workarounds: Workarounds,
    arrays: TensorArrays,
) -> Result<Preparation, RequestError> {
    let module = match Module::decode_words(request.module) {
        Ok(m) => m,
        Err(e) => return unsupported(format!("nothing can be bound: the module does not decode: {e}")),
    };
    let iface = match exec::interface(&module, request.entry_point) {
        Ok(i) => i,
        Err(e) => return unsupported(format!("nothing can be bound: {e}")),
    };
    let Some(entry) = iface.entry_point.clone() else {
        return unsupported("nothing can be bound: the module has no OpGraphEntryPointARM");
    };
    let a = Analysis::new(&module);
    let (inputs, outputs) = match bindings(&a, &entry, &iface, arrays) {
        Ok(b) => b,
        Err(reason) => return unsupported(reason),
    };
    if let Some(reason) = conflicting_graph_constant_ids(&a) {
        return unsupported(reason);
    }
    let valid = is_valid(&module);
    // Other data that does not fit an invalid module (a near-valid mutation
    // changed a type) cannot be bound either: nothing to run, no harness error.
    let constants =
        match check_inputs(&inputs, request.inputs).and_then(|()| constants(&a, &iface, request.graph_constants)) {
            Ok(c) => c,
            Err(e) if !valid => return unsupported(format!("nothing can be bound to this invalid module: {}", e.0)),
            Err(e) => return Err(e),
        };
    let workarounds = if workarounds == Workarounds::NONE || !valid { Workarounds::NONE } else { workarounds };
    if workarounds.skip_shared_outputs && shares_an_output(&a, &entry) {
        return unsupported(SHARED_OUTPUT_REFUSAL);
    }
    let (words, applied) = rewrite(&module, &a, &entry, workarounds)
        .map_err(|e| RequestError(format!("the module cannot be re-encoded after the work-arounds: {e}")))?;
    Ok(Preparation::Ready(Box::new(Prepared { words, entry, inputs, outputs, constants, applied })))
}

/// Whether the in-tree validator accepts the module (Vulkan 1.3, every profile).
fn is_valid(module: &Module) -> bool {
    Validator::new(ValidateOptions::default()).check(module).is_valid()
}

/// The DescriptorSet/Binding (and array element) of every input and output
/// of `entry`: interface variable `k` is graph input `k`, then the outputs
/// follow; each element of a tensor array is bound at its variable's
/// binding with its ElementIndex as array element.
fn bindings(
    a: &Analysis<'_>,
    entry: &str,
    iface: &Interface,
    arrays: TensorArrays,
) -> Result<(Vec<Slot>, Vec<Slot>), String> {
    if let TensorArrays::Unbindable(why) = arrays {
        if iface.inputs.iter().chain(&iface.outputs).any(|p| p.element.is_some()) {
            return Err(why.to_string());
        }
    }
    let vars = a
        .graph_entry_points
        .iter()
        .find_map(|&i| match a.module.insts.get(i) {
            Some(Inst::GraphEntryPoint { name, interface, .. }) if name == entry => Some(interface.clone()),
            _ => None,
        })
        .ok_or_else(|| format!("no OpGraphEntryPointARM named {entry:?}"))?;
    let count = |ports: &[exec::Port]| ports.iter().map(|p| p.index as usize + 1).max().unwrap_or(0);
    let (n_in, n_out) = (count(&iface.inputs), count(&iface.outputs));
    if vars.len() != n_in + n_out {
        return Err(format!(
            "nothing can be bound: entry point {entry:?} lists {} interface variables for {} graph inputs and {} outputs",
            vars.len(),
            n_in,
            n_out
        ));
    }
    let slot = |var: spvgraph_ir::Id, port: &exec::Port| -> Result<Slot, String> {
        let literal = |d: spirv::Decoration| a.decoration(var, d).and_then(|l| l.first().copied());
        let (Some(set), Some(binding)) =
            (literal(spirv::Decoration::DescriptorSet), literal(spirv::Decoration::Binding))
        else {
            return Err(format!(
                "nothing can be bound: interface variable {var} has no DescriptorSet and Binding decorations"
            ));
        };
        Ok(Slot { set, binding, element: port.element, elem: port.elem, shape: port.shape.clone() })
    };
    let inputs = iface.inputs.iter().map(|p| slot(vars[p.index as usize], p)).collect::<Result<Vec<_>, _>>()?;
    let outputs =
        iface.outputs.iter().map(|p| slot(vars[n_in + p.index as usize], p)).collect::<Result<Vec<_>, _>>()?;
    Ok((inputs, outputs))
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
                    "nothing can be bound: GraphConstantID {id} is declared with two types ({first} and {ty}), \
                     and a consumer binds one tensor per ID"
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

#[cfg(test)]
mod tests {
    use super::*;
    use spvgraph_ir::builder::ModuleBuilder;
    use spvgraph_ir::inst::ExtSet;
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
        let Ok(Preparation::Ready(p)) =
            prepare(&request(&words, Some("second"), &inputs), Workarounds::ALL, TensorArrays::Bound)
        else {
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
        let Ok(Preparation::Ready(p)) =
            prepare(&request(&words, Some("second"), &inputs), Workarounds::ALL, TensorArrays::Bound)
        else {
            panic!("ready")
        };
        assert_eq!(p.words, words);
        assert!(p.applied.is_empty());
    }

    #[test]
    fn data_that_does_not_fit_an_invalid_module_is_unsupported_not_an_error() {
        let mut m = two_entry_points();
        let at = m.insts.iter().position(|i| matches!(i, Inst::MemoryModel { .. })).expect("memory model");
        let dup = m.insts[at].clone();
        m.insts.insert(at, dup);
        let words = m.encode_words().expect("encodes");
        let wrong = [TensorData::zeros(ElemType::I8, &[4])];
        let r = prepare(&request(&words, None, &wrong), Workarounds::ALL, TensorArrays::Bound).expect("answers");
        assert!(matches!(r, Preparation::Refused(Refusal::Unsupported, ref r) if r.contains("input 0")), "{r:?}");
    }

    #[test]
    fn without_workarounds_the_module_is_untouched() {
        let words = two_entry_points().encode_words().expect("encodes");
        let inputs = [TensorData::zeros(ElemType::I32, &[4])];
        let Ok(Preparation::Ready(p)) =
            prepare(&request(&words, None, &inputs), Workarounds::NONE, TensorArrays::Bound)
        else {
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
        let e = prepare(&request(&words, None, &wrong), Workarounds::ALL, TensorArrays::Bound)
            .expect_err("wrong input type");
        assert!(e.0.contains("input 0"), "{e:?}");
        let missing =
            prepare(&request(&words, Some("third"), &wrong), Workarounds::ALL, TensorArrays::Bound).expect("answers");
        assert!(matches!(missing, Preparation::Refused(Refusal::Unsupported, ref r) if r.contains("third")));
        let garbage = [1u32, 2, 3];
        let r = prepare(&request(&garbage, None, &[]), Workarounds::ALL, TensorArrays::Bound).expect("answers");
        assert!(matches!(r, Preparation::Refused(Refusal::Unsupported, ref r) if r.contains("does not decode")));
    }

    #[test]
    fn tensor_array_elements_are_bound_at_their_variable_or_refused() {
        let mut b = ModuleBuilder::new();
        let t = b.type_tensor(ElemType::I32, Some(&[4]));
        let arr = b.type_array(t, 2);
        let gty = b.type_graph(&[t, arr], &[arr]);
        let vars =
            vec![b.interface_variable(t, 0, 3), b.interface_variable(arr, 1, 0), b.interface_variable(arr, 0, 7)];
        let g = b.begin_graph(gty);
        b.graph_entry_point(g, "main", vars);
        let x = b.graph_input(t, 0, None);
        let y = b.graph_input(t, 1, Some(1));
        b.graph_output(x, 0, Some(0));
        b.graph_output(y, 0, Some(1));
        b.end_graph();
        let words = b.finish().encode_words().expect("encodes");
        let inputs = vec![TensorData::zeros(ElemType::I32, &[4]); 3];
        let r = prepare(&request(&words, None, &inputs), Workarounds::ALL, TensorArrays::Unbindable("no arrays here"))
            .expect("answers");
        assert!(matches!(r, Preparation::Refused(Refusal::Unsupported, ref r) if r == "no arrays here"));
        let Ok(Preparation::Ready(p)) = prepare(&request(&words, None, &inputs), Workarounds::ALL, TensorArrays::Bound)
        else {
            panic!("ready")
        };
        let at = |s: &Slot| (s.set, s.binding, s.element);
        assert_eq!(p.inputs.iter().map(at).collect::<Vec<_>>(), [(0, 3, None), (1, 0, Some(0)), (1, 0, Some(1))]);
        assert_eq!(p.outputs.iter().map(at).collect::<Vec<_>>(), [(0, 7, Some(0)), (0, 7, Some(1))]);
    }
}
