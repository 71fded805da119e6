//! What every rewrite shares: the case being rewritten, finding its graph,
//! replacing uses, tidying dead declarations, and checking the result.

use super::{valid, Feed, Form, FormError, Rewritten, Stage};
use crate::oracle::{OwnedExecRequest, ValidateOptions};
use crate::validate::Validator;
use spvgraph_ir::analysis::Analysis;
use spvgraph_ir::ids;
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::{OperandSpec, TosaOp};
use spvgraph_ir::Module;
use std::collections::{BTreeMap, HashMap, HashSet};

/// The most elements a rewrite writes into a module as constants (each
/// element is an instruction): larger constants are left as they are.
pub(super) const MAX_INLINE_ELEMENTS: usize = 1 << 14;

/// A case being rewritten.
#[derive(Clone, Debug)]
pub(super) struct Case {
    /// The module.
    pub module: Module,
    /// The graph entry point run.
    pub entry: String,
    /// Inputs, flat (InputIndex order, arrays in ElementIndex order).
    pub inputs: Vec<TensorData>,
    /// Graph-constant data by GraphConstantID.
    pub graph_constants: BTreeMap<u32, TensorData>,
}

/// One stage of a rewrite before it is checked.
#[derive(Clone, Debug)]
pub(super) struct MadeStage {
    pub case: Case,
    pub fed: Vec<Feed>,
}

/// A rewrite's result before it is checked ([`Made::finish`]).
#[derive(Clone, Debug)]
pub(super) struct Made {
    pub stages: Vec<MadeStage>,
    /// Each case output's stage and position; `None`: the same outputs as
    /// the case, from the one stage.
    pub outputs: Option<Vec<(usize, usize)>>,
}

impl Made {
    /// One stage with the case's outputs in place.
    pub fn one(case: Case) -> Result<Made, FormError> {
        Ok(Made { stages: vec![MadeStage { case, fed: Vec::new() }], outputs: None })
    }

    /// Checks every stage (valid in-tree, a pipeline can still be created
    /// for its entry point where one could for the case's, the request fits
    /// the interface) and encodes it.
    pub fn finish(self, form: Form, original: &OwnedExecRequest) -> Result<Rewritten, FormError> {
        let validator = Validator::new(ValidateOptions::default());
        let original_module = Module::decode_words(&original.module).map_err(|e| FormError::BadCase(e.to_string()))?;
        let original_entry = match &original.entry_point {
            Some(e) => e.clone(),
            None => first_entry(&original_module).unwrap_or_default(),
        };
        let pipeline_ok =
            validator.pipeline_rules(&original_module, &original_entry).map(|f| f.is_empty()).unwrap_or(false);
        let outputs_before = crate::exec::interface(&original_module, Some(&original_entry))
            .map(|i| i.outputs.len())
            .map_err(|e| FormError::BadCase(e.to_string()))?;
        let invalid = |rules: String| FormError::Invalid { form, rules };
        let mut stages = Vec::with_capacity(self.stages.len());
        for s in self.stages {
            valid(&s.case.module).map_err(invalid)?;
            if pipeline_ok {
                let ok = validator.pipeline_rules(&s.case.module, &s.case.entry).map(|f| f.is_empty()).unwrap_or(false);
                if !ok {
                    return Err(invalid(format!("no pipeline can be created for entry point {:?}", s.case.entry)));
                }
            }
            let iface = crate::exec::interface(&s.case.module, Some(&s.case.entry))
                .map_err(|e| invalid(format!("no interface: {e}")))?;
            let fits = iface.inputs.len() == s.case.inputs.len()
                && iface.inputs.iter().zip(&s.case.inputs).all(|(p, t)| p.elem == t.elem() && p.shape == t.shape());
            if !fits {
                return Err(invalid("the request does not fit the rewritten interface".into()));
            }
            let words = s.case.module.encode_words().map_err(|e| invalid(e.to_string()))?;
            let request = OwnedExecRequest {
                module: words,
                entry_point: Some(s.case.entry),
                inputs: s.case.inputs,
                graph_constants: s.case.graph_constants,
            };
            stages.push(Stage { request, fed: s.fed });
        }
        let outputs = self.outputs.unwrap_or_else(|| (0..outputs_before).map(|j| (0, j)).collect());
        if outputs.len() != outputs_before {
            return Err(invalid(format!("{} outputs where the case has {outputs_before}", outputs.len())));
        }
        Ok(Rewritten { forms: vec![form], stages, outputs })
    }
}

/// The name of the module's first graph entry point.
pub(super) fn first_entry(m: &Module) -> Option<String> {
    m.insts.iter().find_map(|i| match i {
        Inst::GraphEntryPoint { name, .. } => Some(name.clone()),
        _ => None,
    })
}

/// The graph entry point `entry` runs.
pub(super) fn graph_of(m: &Module, entry: &str) -> Result<Id, FormError> {
    m.insts
        .iter()
        .find_map(|i| match i {
            Inst::GraphEntryPoint { graph, name, .. } if name == entry => Some(*graph),
            _ => None,
        })
        .ok_or_else(|| FormError::BadCase(format!("no graph entry point named {entry:?}")))
}

/// The positions of `OpGraphARM` and `OpGraphEndARM` of graph `g`.
pub(super) fn span(m: &Module, g: Id) -> Result<(usize, usize), FormError> {
    let begin = m
        .insts
        .iter()
        .position(|i| matches!(i, Inst::Graph { result, .. } if *result == g))
        .ok_or_else(|| FormError::BadCase(format!("no OpGraphARM {g}")))?;
    let end = m.insts[begin..]
        .iter()
        .position(|i| matches!(i, Inst::GraphEnd))
        .map(|k| begin + k)
        .ok_or_else(|| FormError::BadCase(format!("graph {g} has no OpGraphEndARM")))?;
    Ok((begin, end))
}

/// The catalogue's description of operand `k` of `op` (the last one
/// repeats for variadic operators).
pub(super) fn operand_spec(op: TosaOp, k: usize) -> Option<&'static OperandSpec> {
    let spec = op.spec();
    spec.operands.get(k).or_else(|| if spec.variadic { spec.operands.last() } else { None })
}

/// Each TOSA instruction of the span `(begin, end)`: position, operator, arguments.
pub(super) fn operators(m: &Module, (begin, end): (usize, usize)) -> Vec<(usize, TosaOp, Vec<Id>)> {
    m.insts[begin..end]
        .iter()
        .enumerate()
        .filter_map(|(k, i)| match i {
            Inst::Tosa { op, args, .. } => Some((begin + k, *op, args.clone())),
            _ => None,
        })
        .collect()
}

/// The declarations nothing refers to, before an edit: the tidy after it
/// leaves them (a dead declaration is valid, and the edit is not about it).
pub(super) fn dead_before(m: &Module) -> HashSet<Id> {
    ids::dead_declarations(&m.insts)
}

/// Removes what an edit left dead or dangling (see [`ids::tidy`]).
pub(super) fn tidy(m: &mut Module, dead_before: &HashSet<Id>) {
    ids::tidy(&mut m.insts, dead_before);
}

/// Replaces the uses of `map`'s keys in the instructions at `range`
/// (declarations excepted: a constant keeps its constituents).
pub(super) fn replace_in(m: &mut Module, range: std::ops::Range<usize>, map: &HashMap<Id, Id>) {
    for inst in m.insts.get_mut(range).into_iter().flatten() {
        if !ids::is_declaration(inst) {
            ids::replace_uses(inst, map);
        }
    }
}

/// The graph `g`'s input and output interface types.
pub(super) fn io_types(m: &Module, g: Id) -> Result<(Vec<Id>, Vec<Id>), FormError> {
    let a = Analysis::new(m);
    let ty = a.graph(g).map(|v| v.ty).ok_or_else(|| FormError::BadCase(format!("no graph {g}")))?;
    match a.ty(ty) {
        Some(spvgraph_ir::analysis::Type::Graph { inputs, outputs }) => Ok((inputs, outputs)),
        _ => Err(FormError::BadCase(format!("graph {g} has no OpTypeGraphARM"))),
    }
}

/// Gives graph `g` the graph type with these inputs and outputs.
pub(super) fn set_io_types(m: &mut Module, g: Id, inputs: &[Id], outputs: &[Id]) {
    let ty = spvgraph_ir::decls::graph_type(m, inputs, outputs);
    for inst in &mut m.insts {
        if let Inst::Graph { ty: t, result } = inst {
            if *result == g {
                *t = ty;
            }
        }
    }
}

/// The (element type, shape) of a shaped tensor type.
pub(super) fn tensor_of(a: &Analysis<'_>, ty: Id) -> Option<(spvgraph_ir::elem::ElemType, Vec<u32>)> {
    let t = a.tensor_type(ty)?;
    let shape = t.shape?.iter().map(|&d| u32::try_from(d).ok()).collect::<Option<Vec<u32>>>()?;
    Some((t.elem?, shape))
}

/// A name no graph entry point of `m` has, starting from `base`.
pub(super) fn fresh_entry_name(m: &Module, base: &str) -> String {
    let taken: HashSet<&str> = m
        .insts
        .iter()
        .filter_map(|i| match i {
            Inst::GraphEntryPoint { name, .. } => Some(name.as_str()),
            _ => None,
        })
        .collect();
    (0..)
        .map(|k| if k == 0 { base.to_string() } else { format!("{base}{k}") })
        .find(|n| !taken.contains(n.as_str()))
        .unwrap_or_default()
}

/// Operand `arg` of the TOSA instruction whose result is `consumer`: the
/// instruction's index, its extended-instruction-set id and the operand's
/// value (`None` when there is no such instruction or operand).
pub(super) fn operand_of(m: &Module, consumer: Id, arg: usize) -> Option<(usize, Id, Id)> {
    let at = m.insts.iter().position(|i| matches!(i, Inst::Tosa { result, .. } if *result == consumer))?;
    match m.insts.get(at)? {
        Inst::Tosa { set, args, .. } => args.get(arg).map(|v| (at, *set, *v)),
        _ => None,
    }
}
