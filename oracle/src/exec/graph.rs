//! Walking one graph: checking the request against its interface and the
//! memory budget, binding inputs, running each instruction of the body in
//! order (TOSA operators through [`super::instruction`], `OpCompositeExtract`
//! of FFT results, non-semantic instructions skipped), materializing
//! constants, dropping values after their last use, and collecting the outputs.

use super::budget;
use super::error::{ExecError, Location, OpError};
use super::instruction;
use super::interface::{self, Interface};
use super::operands::{self, ConstError};
use crate::compliance::flush::flush_subnormals;
use crate::oracle::Level;
use spvgraph_ir::analysis::{Analysis, GraphView, Type};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::{ExtSet, Id, Inst, Module};
use std::borrow::Cow;
use std::cell::Cell;
use std::collections::{BTreeMap, HashMap};

/// A value of the graph: a tensor, or a composite (FFT struct result, whole tensor array).
#[derive(Clone, Debug)]
pub(crate) enum Value<'a> {
    Tensor(Cow<'a, TensorData>),
    Composite(Vec<Value<'a>>),
}

/// What the executor needs to know to run a graph.
pub(crate) struct Run<'m, 'r> {
    pub(crate) module: &'m Module,
    pub(crate) entry: Option<&'r str>,
    pub(crate) inputs: &'r [TensorData],
    pub(crate) graph_constants: &'r BTreeMap<u32, TensorData>,
    pub(crate) budget: u64,
    pub(crate) level: Level,
    /// Flush every bf16/fp16/fp32 subnormal operand to sign-preserved zero
    /// before each operator reads it, counting the tensors flushed here.
    pub(crate) flush: Option<&'r Cell<usize>>,
    /// Where to record what each operator instruction is (for the
    /// judged-coverage map, [`crate::cells`]).
    pub(crate) trace: Option<&'r std::cell::RefCell<Vec<crate::cells::OperatorFacts>>>,
}

/// The module being run, with what every instruction needs.
pub(crate) struct Walker<'m, 'r> {
    pub(crate) a: Analysis<'m>,
    pub(crate) graph_constants: &'r BTreeMap<u32, TensorData>,
    /// Largest constant (in elements) read from the module.
    pub(crate) limit: u64,
    pub(crate) level: Level,
    pub(crate) flush: Option<&'r Cell<usize>>,
    pub(crate) trace: Option<&'r std::cell::RefCell<Vec<crate::cells::OperatorFacts>>>,
}

impl Walker<'_, '_> {
    fn location(&self, index: usize) -> Location {
        let module = self.a.module;
        let word_offset = module.word_offsets().get(index).copied();
        let instruction = module.insts.get(index).map(|i| spvgraph_ir::text::render_one(module, i));
        Location { word_offset, instruction }
    }

    pub(crate) fn invalid(&self, index: usize, reason: impl Into<String>) -> ExecError {
        ExecError::Invalid { location: self.location(index), reason: reason.into() }
    }

    pub(crate) fn op_error(&self, index: usize, op: TosaOp, result: Id, e: OpError) -> ExecError {
        match e {
            OpError::Invalid(reason) => self.invalid(index, reason),
            OpError::Unpredictable { require, element } => {
                ExecError::Unpredictable { op, result, location: self.location(index), require, element }
            }
        }
    }

    fn index_value(&self, id: Id) -> Option<u32> {
        operands::scalar(&self.a, id).and_then(|(_, v)| u32::try_from(v).ok())
    }
}

/// Runs the graph and returns its outputs in flat OutputIndex order.
pub(crate) fn run(req: &Run<'_, '_>) -> Result<Vec<TensorData>, ExecError> {
    let a = Analysis::new(req.module);
    let iface = interface::describe(&a, req.entry)?;
    let (view, _) = interface::select(&a, req.entry)?;
    let view = view.clone();
    check_inputs(&iface, req.inputs)?;
    let estimate = budget::estimate(&a, &view, &iface);
    if estimate.bytes > req.budget {
        return Err(ExecError::OverBudget { needed: estimate.bytes, budget: req.budget, detail: estimate.detail });
    }
    let w = Walker {
        a,
        graph_constants: req.graph_constants,
        limit: req.budget.max(1),
        level: req.level,
        flush: req.flush,
        trace: req.trace,
    };
    walk(&w, &view, &iface, req.inputs)
}

fn check_inputs(iface: &Interface, inputs: &[TensorData]) -> Result<(), ExecError> {
    if inputs.len() != iface.inputs.len() {
        let expected: Vec<String> = iface.inputs.iter().map(|p| p.describe("input")).collect();
        return Err(ExecError::Request(format!(
            "the graph takes {} input tensors ({}), {} were given",
            iface.inputs.len(),
            expected.join("; "),
            inputs.len()
        )));
    }
    for (i, (port, t)) in iface.inputs.iter().zip(inputs).enumerate() {
        if port.elem != t.elem() || port.shape.as_slice() != t.shape() {
            return Err(ExecError::Request(format!(
                "input tensor {i} ({}) was given as {} {:?}",
                port.describe("input"),
                t.elem(),
                t.shape()
            )));
        }
    }
    Ok(())
}

/// Last position (in body order; outputs count as `usize::MAX`) that reads each id.
fn last_uses(a: &Analysis<'_>, view: &GraphView) -> HashMap<Id, usize> {
    let mut last = HashMap::new();
    for (pos, &i) in view.body.iter().enumerate() {
        match a.module.insts.get(i) {
            Some(Inst::Tosa { args, .. }) => {
                for &arg in args {
                    last.insert(arg, pos);
                }
            }
            Some(Inst::CompositeExtract { composite, .. }) => {
                last.insert(*composite, pos);
            }
            _ => {}
        }
    }
    for &i in &view.outputs {
        if let Some(Inst::GraphSetOutput { value, .. }) = a.module.insts.get(i) {
            last.insert(*value, usize::MAX);
        }
    }
    last
}

fn walk<'r>(
    w: &Walker<'_, 'r>,
    view: &GraphView,
    iface: &Interface,
    inputs: &'r [TensorData],
) -> Result<Vec<TensorData>, ExecError> {
    let a = &w.a;
    let mut values: HashMap<Id, Value<'r>> = HashMap::new();
    // Graph inputs.
    for &i in &view.inputs {
        let Some(Inst::GraphInput { result, input_index, element_index, .. }) = a.module.insts.get(i) else {
            continue;
        };
        let index = w.index_value(*input_index).ok_or_else(|| w.invalid(i, "InputIndex is not a constant"))?;
        let element = match element_index {
            Some(e) => Some(w.index_value(*e).ok_or_else(|| w.invalid(i, "ElementIndex is not a constant"))?),
            None => None,
        };
        let pick = |el: Option<u32>| {
            iface.inputs.iter().position(|p| p.index == index && p.element == el).and_then(|p| inputs.get(p))
        };
        let value = match pick(element) {
            Some(t) => Value::Tensor(Cow::Borrowed(t)),
            None if element.is_none() => {
                // A whole tensor-array input.
                let parts: Vec<Value<'r>> = iface
                    .inputs
                    .iter()
                    .zip(inputs)
                    .filter(|(p, _)| p.index == index && p.element.is_some())
                    .map(|(_, t)| Value::Tensor(Cow::Borrowed(t)))
                    .collect();
                if parts.is_empty() {
                    return Err(w.invalid(i, format!("InputIndex {index} is out of range")));
                }
                Value::Composite(parts)
            }
            None => return Err(w.invalid(i, format!("input {index}[{element:?}] is out of range"))),
        };
        values.insert(*result, value);
    }
    let last = last_uses(a, view);
    let mut consts: HashMap<Id, TensorData> = HashMap::new();
    for (pos, &i) in view.body.iter().enumerate() {
        match a.module.insts.get(i) {
            Some(Inst::Tosa { ty, result, op, args, .. }) => {
                materialize(w, i, args, &values, &mut consts)?;
                let outs = match w.flush {
                    // Only this operator sees the flushed copies: a value that
                    // is also a graph output leaves the graph as it was made.
                    Some(count) => {
                        let flushed = flushed_operands(args, &values, count);
                        instruction::run(w, i, *op, *ty, *result, args, &flushed, &consts)?
                    }
                    None => instruction::run(w, i, *op, *ty, *result, args, &values, &consts)?,
                };
                let value = match outs.len() {
                    1 => outs.into_iter().next().map(|t| Value::Tensor(Cow::Owned(t))),
                    _ => Some(Value::Composite(outs.into_iter().map(|t| Value::Tensor(Cow::Owned(t))).collect())),
                };
                if let Some(v) = value {
                    values.insert(*result, v);
                }
            }
            Some(Inst::CompositeExtract { result, composite, indices, .. }) => {
                let mut v = values.get(composite).ok_or_else(|| {
                    w.invalid(i, format!("{composite} is not a composite value defined earlier in this graph"))
                })?;
                for &k in indices {
                    v = match v {
                        Value::Composite(parts) => parts
                            .get(k as usize)
                            .ok_or_else(|| w.invalid(i, format!("index {k} out of range of {composite}")))?,
                        Value::Tensor(_) => return Err(w.invalid(i, format!("{composite} is not a composite"))),
                    };
                }
                let v = v.clone();
                values.insert(*result, v);
            }
            Some(Inst::GraphDebug { .. }) => {}
            Some(Inst::ExtInst { set, number, .. }) => match a.sets.get(set) {
                Some(ExtSet::Tosa) => return Err(w.invalid(i, format!("TOSA.001000.1 has no opcode {number}"))),
                _ if is_non_semantic(a, *set) => {}
                _ => return Err(w.invalid(i, "only TOSA and non-semantic OpExtInst may appear in a graph body")),
            },
            Some(_) => return Err(w.invalid(i, "instruction not allowed in a graph body")),
            None => {}
        }
        values.retain(|id, _| last.get(id).is_some_and(|&l| l > pos));
        consts.retain(|id, _| last.get(id).is_some_and(|&l| l > pos));
    }
    collect_outputs(w, view, iface, values)
}

fn is_non_semantic(a: &Analysis<'_>, set: Id) -> bool {
    matches!(a.def(set), Some(Inst::ExtInstImport { name, .. }) if name.starts_with("NonSemantic."))
}

fn collect_outputs(
    w: &Walker<'_, '_>,
    view: &GraphView,
    iface: &Interface,
    mut values: HashMap<Id, Value<'_>>,
) -> Result<Vec<TensorData>, ExecError> {
    let mut slots: Vec<Option<TensorData>> = vec![None; iface.outputs.len()];
    // How many outputs still read each value: the last one takes it rather
    // than a copy, so a result is never held twice.
    let mut readers: HashMap<Id, usize> = HashMap::new();
    for &i in &view.outputs {
        if let Some(Inst::GraphSetOutput { value, .. }) = w.a.module.insts.get(i) {
            *readers.entry(*value).or_default() += 1;
        }
    }
    for &i in &view.outputs {
        let Some(Inst::GraphSetOutput { value, output_index, element_index }) = w.a.module.insts.get(i) else {
            continue;
        };
        let last_reader = readers.get_mut(value).is_some_and(|n| {
            *n -= 1;
            *n == 0
        });
        let index = w.index_value(*output_index).ok_or_else(|| w.invalid(i, "OutputIndex is not a constant"))?;
        let element = match element_index {
            Some(e) => Some(w.index_value(*e).ok_or_else(|| w.invalid(i, "ElementIndex is not a constant"))?),
            None => None,
        };
        let taken = if last_reader { values.remove(value) } else { values.get(value).cloned() };
        let v = match taken {
            Some(v) => v,
            // A constant (or graph constant) may be a graph output directly.
            None if w.a.def(*value).is_some_and(Inst::is_constant) => {
                match operands::tensor(&w.a, *value, w.graph_constants, w.limit) {
                    Ok(t) => Value::Tensor(Cow::Owned(t)),
                    Err(ConstError::Request(m)) => return Err(ExecError::Request(m)),
                    Err(ConstError::NotConstant(m)) => return Err(w.invalid(i, m)),
                }
            }
            None => return Err(w.invalid(i, format!("{value} is not a value of this graph"))),
        };
        let targets: Vec<usize> = iface
            .outputs
            .iter()
            .enumerate()
            .filter(|(_, p)| p.index == index && (element.is_none() || p.element == element))
            .map(|(k, _)| k)
            .collect();
        let tensors: Vec<TensorData> = match v {
            Value::Tensor(t) => vec![t.into_owned()],
            Value::Composite(parts) => parts
                .into_iter()
                .map(|p| match p {
                    Value::Tensor(t) => Ok(t.into_owned()),
                    Value::Composite(_) => Err(w.invalid(i, "nested composites cannot be graph outputs")),
                })
                .collect::<Result<_, _>>()?,
        };
        if targets.len() != tensors.len() || targets.is_empty() {
            return Err(w.invalid(i, format!("{value} does not match output {index}")));
        }
        for (k, t) in targets.into_iter().zip(tensors) {
            let port = &iface.outputs[k];
            if port.elem != t.elem() || port.shape.as_slice() != t.shape() {
                return Err(w.invalid(
                    i,
                    format!("{} is set to a {} {:?} value", port.describe("output"), t.elem(), t.shape()),
                ));
            }
            slots[k] = Some(t);
        }
    }
    values.clear();
    slots
        .into_iter()
        .zip(&iface.outputs)
        .map(|(s, p)| {
            s.ok_or_else(|| ExecError::Invalid {
                location: Location::default(),
                reason: format!("{} is never set by OpGraphSetOutputARM", p.describe("output")),
            })
        })
        .collect()
}

/// The values `args` names, each tensor with its flushable subnormals
/// flushed (borrowed when it has none), counting the tensors flushed.
fn flushed_operands<'v>(
    args: &[Id],
    values: &'v HashMap<Id, Value<'_>>,
    count: &Cell<usize>,
) -> HashMap<Id, Value<'v>> {
    let mut out = HashMap::with_capacity(args.len());
    for &arg in args {
        let Some(v) = values.get(&arg) else { continue };
        let flushed = match v {
            Value::Tensor(t) => match flush_subnormals(t) {
                Some(f) => {
                    count.set(count.get() + 1);
                    Value::Tensor(Cow::Owned(f))
                }
                None => Value::Tensor(Cow::Borrowed(t.as_ref())),
            },
            Value::Composite(_) => v.clone(),
        };
        out.insert(arg, flushed);
    }
    out
}

/// Reads every tensor-typed constant operand that is not cached yet
/// (flushed, when the run flushes: constants that are graph outputs are read
/// again by [`collect_outputs`], unflushed).
fn materialize(
    w: &Walker<'_, '_>,
    index: usize,
    args: &[Id],
    values: &HashMap<Id, Value<'_>>,
    consts: &mut HashMap<Id, TensorData>,
) -> Result<(), ExecError> {
    for &arg in args {
        if values.contains_key(&arg) || consts.contains_key(&arg) {
            continue;
        }
        let Some(def) = w.a.def(arg) else {
            return Err(w.invalid(index, format!("operand {arg} is not defined")));
        };
        let tensor_typed = def.result_type().is_some_and(|t| matches!(w.a.ty(t), Some(Type::Tensor(_))));
        if !def.is_constant() || !tensor_typed {
            continue;
        }
        match operands::tensor(&w.a, arg, w.graph_constants, w.limit) {
            Ok(t) => {
                let t = match w.flush.and_then(|count| flush_subnormals(&t).map(|f| (count, f))) {
                    Some((count, f)) => {
                        count.set(count.get() + 1);
                        f
                    }
                    None => t,
                };
                consts.insert(arg, t);
            }
            Err(ConstError::Request(m)) => return Err(ExecError::Request(m)),
            Err(ConstError::NotConstant(m)) => return Err(w.invalid(index, m)),
        }
    }
    Ok(())
}
