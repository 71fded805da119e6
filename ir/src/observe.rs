//! Two rewrites of a graph that let each operator be judged on its own.
//!
//! * The **observed form** ([`observed_form`]): every intermediate value of
//!   the graph an entry point runs becomes an extra graph output, so that a
//!   backend shows what it computed at every operator, not only at the
//!   graph's outputs. Each extra output has its own interface variable with
//!   a fresh binding (in every entry point of the graph), the graph type
//!   grows by the new outputs, and a value that already is an output is
//!   never set a second time (a value set as several outputs is a
//!   construct of its own that consumers get wrong). An FFT2D/RFFT2D result
//!   is a struct, which cannot be an output: it is observed through its
//!   `OpCompositeExtract`s, added where a member has none.
//! * The **local form** ([`local_form`]): every operator of the graph cut
//!   free of the others. Each operand another operator computes becomes a
//!   graph input of its own, so the operators run side by side on given
//!   operand values (a backend's values from its run of the observed form)
//!   and the graph's outputs are every operator's result. The TOSA
//!   conformance suite judges operators this way: the reference of each
//!   one is computed from its actual inputs.
//!
//! Both keep every id of the original graph: an output of either form
//! names the value it carries by the id it has in the original module.

use crate::analysis::{Analysis, GraphView, Type};
use crate::decls;
use crate::inst::{Id, Inst};
use crate::tensor::TensorData;
use crate::tosa::TosaOp;
use crate::Module;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Why a form cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ObserveError {
    /// The entry point named is not in the module.
    #[error("no OpGraphEntryPointARM named {0:?}")]
    NoEntryPoint(String),
    /// The module has no graph entry point at all.
    #[error("the module has no OpGraphEntryPointARM")]
    NoGraph,
    /// No operator is left to cut free (a graph of pass-throughs, or every
    /// operator left out).
    #[error("the graph has no operator to judge")]
    NoOperators,
    /// The graph is not complete or its type is not a graph type.
    #[error("graph {0} is not a complete OpGraphARM with an OpTypeGraphARM")]
    Malformed(Id),
}

/// One output of the observed form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObservedOutput {
    /// Its flat position (OutputIndex order, tensor arrays in ElementIndex order).
    pub position: usize,
    /// The value it carries (an id of the original graph, or of an
    /// `OpCompositeExtract` the form added).
    pub value: Id,
    /// The TOSA instruction whose result it is (through an extract for a
    /// struct result), when it is an operator's result.
    pub node: Option<Id>,
    /// That instruction's operator.
    pub op: Option<TosaOp>,
    /// The struct member it is, for a struct result (FFT2D, RFFT2D).
    pub member: Option<u32>,
    /// Whether the original graph has it as an output already.
    pub original: bool,
}

/// A graph with every intermediate value made an output ([`observed_form`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ObservedForm {
    /// The rewritten module.
    pub module: Module,
    /// The entry point that runs the observed graph (the name it had).
    pub entry: String,
    /// Every output of the observed graph, in flat position order: the
    /// original ones first, at their own positions, then the added ones.
    pub outputs: Vec<ObservedOutput>,
    /// How many flat outputs the original graph has.
    pub original_outputs: usize,
    /// Values of the graph that could not be observed, and why.
    pub not_observed: Vec<(Id, String)>,
    /// Values shown by another output: a second `OpCompositeExtract` of a
    /// struct member, and the extract that is observed.
    pub aliases: Vec<(Id, Id)>,
    /// The graph's TOSA instructions in graph order: result id and operator.
    pub operators: Vec<(Id, TosaOp)>,
}

impl ObservedForm {
    /// The value each operator result of the graph had in `outputs` (a
    /// backend's outputs of the observed form, in flat position order).
    /// A value set as several outputs takes the first of them. `Err` when
    /// the number of outputs is not the form's.
    pub fn values(&self, outputs: &[TensorData]) -> Result<ObservedValues, String> {
        if outputs.len() != self.outputs.len() {
            return Err(format!("{} outputs where the observed form has {}", outputs.len(), self.outputs.len()));
        }
        let mut values = ObservedValues::default();
        for (o, t) in self.outputs.iter().zip(outputs) {
            if let Some(node) = o.node {
                values.insert(o.value, node, o.member, t);
            }
        }
        for (alias, shown) in &self.aliases {
            if let Some(t) = values.value(*shown).cloned() {
                values.by_value.entry(*alias).or_insert(t);
            }
        }
        Ok(values)
    }

    /// The values set as several outputs whose outputs differ: `(value,
    /// first position, other position)`. A backend must write one value
    /// the same way to every output that carries it.
    pub fn inconsistent_slots(&self, outputs: &[TensorData]) -> Vec<(Id, usize, usize)> {
        let mut first: HashMap<Id, usize> = HashMap::new();
        let mut out = Vec::new();
        for (o, t) in self.outputs.iter().zip(outputs) {
            match first.get(&o.value) {
                None => {
                    first.insert(o.value, o.position);
                }
                Some(&p) => {
                    if outputs.get(p).is_some_and(|f| f.to_bits() != t.to_bits() || f.shape() != t.shape()) {
                        out.push((o.value, p, o.position));
                    }
                }
            }
        }
        out
    }

    /// The number of TOSA operators of the graph.
    pub fn operators(&self) -> usize {
        self.operators.len()
    }
}

/// What a backend computed for each operator result of a graph (see
/// [`ObservedForm::values`]): by value id, and struct members (FFT results)
/// also by their operator and member index, since a form may read them
/// through extracts of its own.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ObservedValues {
    by_value: BTreeMap<Id, TensorData>,
    by_member: BTreeMap<(Id, u32), TensorData>,
}

impl ObservedValues {
    /// Records `t` as the value of `value`, the result of `node` (its
    /// struct member `member`); the first value recorded stays.
    pub fn insert(&mut self, value: Id, node: Id, member: Option<u32>, t: &TensorData) {
        self.by_value.entry(value).or_insert_with(|| t.clone());
        if let Some(k) = member {
            self.by_member.entry((node, k)).or_insert_with(|| t.clone());
        }
    }

    /// The value of `value`.
    pub fn value(&self, value: Id) -> Option<&TensorData> {
        self.by_value.get(&value)
    }

    /// Member `k` of the struct result of `node`.
    pub fn member(&self, node: Id, k: u32) -> Option<&TensorData> {
        self.by_member.get(&(node, k))
    }

    /// The number of values recorded.
    pub fn len(&self) -> usize {
        self.by_value.len()
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.by_value.is_empty()
    }
}

/// The graph entry point `entry` names (`None`: the first one): its
/// instruction index, name and graph.
fn entry_point(a: &Analysis<'_>, entry: Option<&str>) -> Result<(usize, String, Id), ObserveError> {
    for &i in &a.graph_entry_points {
        if let Some(Inst::GraphEntryPoint { graph, name, .. }) = a.module.insts.get(i) {
            if entry.is_none_or(|e| e == name) {
                return Ok((i, name.clone(), *graph));
            }
        }
    }
    match entry {
        Some(e) => Err(ObserveError::NoEntryPoint(e.to_string())),
        None => Err(ObserveError::NoGraph),
    }
}

/// The graph's view and its input and output types.
fn graph_of<'a>(a: &'a Analysis<'_>, g: Id) -> Result<(&'a GraphView, Vec<Id>, Vec<Id>), ObserveError> {
    let view = a.graph(g).filter(|v| v.end.is_some()).ok_or(ObserveError::Malformed(g))?;
    match a.ty(view.ty) {
        Some(Type::Graph { inputs, outputs }) => Ok((view, inputs, outputs)),
        _ => Err(ObserveError::Malformed(g)),
    }
}

/// The TOSA instruction whose result `value` is (directly, or through an
/// `OpCompositeExtract` of a struct result).
fn node_of(a: &Analysis<'_>, value: Id) -> Option<Id> {
    match a.def(value)? {
        Inst::Tosa { result, .. } => Some(*result),
        Inst::CompositeExtract { composite, .. } => match a.def(*composite)? {
            Inst::Tosa { result, .. } => Some(*result),
            _ => None,
        },
        _ => None,
    }
}

/// The struct member `value` extracts from an operator's result, if it does.
fn member_of(a: &Analysis<'_>, value: Id) -> Option<u32> {
    match a.def(value)? {
        Inst::CompositeExtract { indices, composite, .. } if matches!(a.def(*composite), Some(Inst::Tosa { .. })) => {
            indices.first().copied()
        }
        _ => None,
    }
}

fn op_of(a: &Analysis<'_>, node: Id) -> Option<TosaOp> {
    match a.def(node)? {
        Inst::Tosa { op, .. } => Some(*op),
        _ => None,
    }
}

/// Why a value of type `ty` cannot be a graph output: only shaped tensor
/// types can (a pipeline needs every interface's shape).
fn unobservable(a: &Analysis<'_>, ty: Id) -> Option<String> {
    match a.ty(ty) {
        Some(Type::Tensor(t)) if t.shaped && t.shape.as_ref().is_some_and(|s| !s.is_empty()) => None,
        Some(Type::Tensor(_)) => Some("its tensor type has no shape".into()),
        _ => Some("it is not a tensor".into()),
    }
}

/// The flat position of the first element of each output index.
fn first_positions(a: &Analysis<'_>, types: &[Id]) -> (Vec<usize>, usize) {
    let mut first = Vec::with_capacity(types.len());
    let mut next = 0usize;
    for &ty in types {
        first.push(next);
        next += match a.ty(ty) {
            Some(Type::Array { length: Some(n), .. }) => usize::try_from(n).unwrap_or(1),
            _ => 1,
        };
    }
    (first, next)
}

/// Struct members of TOSA results as `(node, member index, member type)`.
type Members = Vec<(Id, u32, Id)>;

/// The first `OpCompositeExtract` of each struct member, by `(node, member index)`.
type FirstExtracts = BTreeMap<(Id, u32), Id>;

/// The struct members of a TOSA result that no `OpCompositeExtract` in
/// `body` reads, as `(node, member index, member type)`; and the first
/// extract of each member that has one, by `(node, member index)`.
fn extracts(a: &Analysis<'_>, body: &[usize]) -> (Members, FirstExtracts) {
    let mut firsts: BTreeMap<(Id, u32), Id> = BTreeMap::new();
    for &i in body {
        if let Some(Inst::CompositeExtract { result, composite, indices, .. }) = a.module.insts.get(i) {
            if let ([k], Some(Inst::Tosa { .. })) = (indices.as_slice(), a.def(*composite)) {
                firsts.entry((*composite, *k)).or_insert(*result);
            }
        }
    }
    let mut missing = Vec::new();
    for &i in body {
        if let Some(Inst::Tosa { ty, result, .. }) = a.module.insts.get(i) {
            if let Some(Type::Struct(members)) = a.ty(*ty) {
                for (k, &m) in members.iter().enumerate() {
                    let k = k as u32;
                    if !firsts.contains_key(&(*result, k)) {
                        missing.push((*result, k, m));
                    }
                }
            }
        }
    }
    (missing, firsts)
}

/// The observed form of the graph `entry` runs (`None`: the first entry
/// point): see the [module documentation](self). Values that cannot be an
/// output (not a shaped tensor) are listed in
/// [`ObservedForm::not_observed`].
pub fn observed_form(module: &Module, entry: Option<&str>) -> Result<ObservedForm, ObserveError> {
    let a = Analysis::new(module);
    let (_, name, g) = entry_point(&a, entry)?;
    let (view, _, output_types) = graph_of(&a, g)?;
    let (first, original_outputs) = first_positions(&a, &output_types);
    // The outputs the graph has.
    let mut outputs = Vec::new();
    let mut already: BTreeSet<Id> = BTreeSet::new();
    for &i in &view.outputs {
        let Some(Inst::GraphSetOutput { value, output_index, element_index }) = module.insts.get(i) else { continue };
        already.insert(*value);
        let (Some(k), element) = (a.const_uint(*output_index), element_index.and_then(|e| a.const_uint(e))) else {
            continue;
        };
        let Some(&base) = usize::try_from(k).ok().and_then(|k| first.get(k)) else { continue };
        let position = base + element.and_then(|e| usize::try_from(e).ok()).unwrap_or(0);
        let node = node_of(&a, *value);
        outputs.push(ObservedOutput {
            position,
            value: *value,
            node,
            op: node.and_then(|n| op_of(&a, n)),
            member: member_of(&a, *value),
            original: true,
        });
    }
    outputs.sort_by_key(|o| o.position);
    // The values to add, in graph order.
    let (missing, first_extracts) = extracts(&a, &view.body);
    let mut added: Vec<(Id, Id, Id)> = Vec::new(); // (value, type, node)
    let mut not_observed = Vec::new();
    let mut aliases = Vec::new();
    let mut operators = Vec::new();
    for &i in &view.body {
        let (value, ty, node) = match module.insts.get(i) {
            Some(Inst::Tosa { ty, result, op, .. }) => {
                operators.push((*result, *op));
                match a.ty(*ty) {
                    Some(Type::Struct(_)) => continue,
                    _ => (*result, *ty, *result),
                }
            }
            Some(Inst::CompositeExtract { ty, result, composite, indices }) => {
                let Some(&first) = indices.first().and_then(|k| first_extracts.get(&(*composite, *k))) else {
                    continue;
                };
                if first != *result {
                    // A second extract of the same member: the first one shows it.
                    aliases.push((*result, first));
                    continue;
                }
                (*result, *ty, *composite)
            }
            _ => continue,
        };
        if already.contains(&value) {
            continue;
        }
        match unobservable(&a, ty) {
            Some(why) => not_observed.push((value, why)),
            None => added.push((value, ty, node)),
        }
    }
    let mut m = module.clone();
    // New extracts for struct members nobody reads.
    let mut new_extracts = Vec::new();
    for (node, k, member) in missing {
        match unobservable(&a, member) {
            Some(why) => not_observed.push((node, format!("member {k}: {why}"))),
            None => {
                let result = decls::fresh_id(&mut m);
                new_extracts.push(Inst::CompositeExtract { ty: member, result, composite: node, indices: vec![k] });
                added.push((result, member, node));
            }
        }
    }
    if added.is_empty() {
        return Ok(ObservedForm {
            module: m,
            entry: name,
            outputs,
            original_outputs,
            not_observed,
            aliases,
            operators,
        });
    }
    // Declarations: a variable per new output in every entry point of the
    // graph, the output indices, the grown graph type.
    let entry_points = a
        .graph_entry_points
        .iter()
        .filter(|&&i| matches!(module.insts.get(i), Some(Inst::GraphEntryPoint { graph, .. }) if *graph == g))
        .count();
    let mut vars: Vec<Vec<Id>> = vec![Vec::new(); entry_points];
    for &(_, ty, _) in &added {
        for v in vars.iter_mut() {
            v.push(decls::interface_variable(&mut m, ty));
        }
    }
    let mut types = output_types.clone();
    let mut indices = Vec::new();
    for (n, &(_, ty, _)) in added.iter().enumerate() {
        types.push(ty);
        indices.push(decls::const_u32(&mut m, (output_types.len() + n) as u32));
    }
    let input_types = match a.ty(view.ty) {
        Some(Type::Graph { inputs, .. }) => inputs,
        _ => return Err(ObserveError::Malformed(g)),
    };
    let gty = decls::graph_type(&mut m, &input_types, &types);
    let mut k = 0;
    for inst in &mut m.insts {
        match inst {
            Inst::Graph { ty, result } if *result == g => *ty = gty,
            Inst::GraphEntryPoint { graph, interface, .. } if *graph == g => {
                if let Some(v) = vars.get(k) {
                    interface.extend_from_slice(v);
                }
                k += 1;
            }
            _ => {}
        }
    }
    // The body: new extracts before the first output, new outputs before the end.
    let b = Analysis::new(&m);
    let grown = b.graph(g).ok_or(ObserveError::Malformed(g))?;
    let end = grown.end.ok_or(ObserveError::Malformed(g))?;
    let first_output = grown.outputs.first().copied().unwrap_or(end);
    let sets: Vec<Inst> = added
        .iter()
        .zip(&indices)
        .map(|(&(value, _, _), &index)| Inst::GraphSetOutput { value, output_index: index, element_index: None })
        .collect();
    drop(b);
    m.insts.splice(end..end, sets);
    m.insts.splice(first_output..first_output, new_extracts);
    for (n, &(value, _, node)) in added.iter().enumerate() {
        let member = match m.insts.iter().find(|i| i.result_id() == Some(value)) {
            Some(Inst::CompositeExtract { indices, .. }) => indices.first().copied(),
            _ => None,
        };
        outputs.push(ObservedOutput {
            position: original_outputs + n,
            value,
            node: Some(node),
            op: op_of(&a, node),
            member,
            original: false,
        });
    }
    Ok(ObservedForm { module: m, entry: name, outputs, original_outputs, not_observed, aliases, operators })
}

/// One output of the local form: an operator's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocalOutput {
    /// The value (an id of the original graph, or of an extract the form added
    /// for a struct member no extract reads).
    pub value: Id,
    /// The TOSA instruction computing it.
    pub node: Id,
    /// Its operator.
    pub op: TosaOp,
    /// The struct member it is, for a struct result (FFT2D, RFFT2D).
    pub member: Option<u32>,
    /// The operator's place in the graph (0 for the first TOSA instruction).
    pub order: usize,
}

/// A graph with every operator cut free of the others ([`local_form`]).
#[derive(Clone, Debug, PartialEq)]
pub struct LocalForm {
    /// The rewritten module.
    pub module: Module,
    /// The entry point that runs the local graph.
    pub entry: String,
    /// The values that feed the inputs added after the graph's own, in
    /// InputIndex order: results of other operators, as ids of the
    /// original graph.
    pub operands: Vec<Id>,
    /// Every output of the local graph, in OutputIndex order (graph order
    /// of the operators).
    pub outputs: Vec<LocalOutput>,
    /// The operators the graph has, in graph order (left-out ones too).
    pub operators: Vec<LocalOperator>,
}

/// One operator of the graph a local form is made of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocalOperator {
    /// Its result id.
    pub node: Id,
    /// Its operator.
    pub op: TosaOp,
    /// The operands other operators compute (ids of the original graph),
    /// each once, in operand order.
    pub operands: Vec<Id>,
    /// The number of members of its struct result; `None` for a tensor result.
    pub members: Option<u32>,
}

/// Whether `value` is computed by an operator of the graph (an operator's
/// result, or an extract of one).
fn computed(a: &Analysis<'_>, value: Id) -> bool {
    node_of(a, value).is_some()
}

/// The local form of the graph `entry` runs (`None`: the first entry
/// point): see the [module documentation](self). The operators whose
/// result ids are in `leave_out` are not in it (their results still feed
/// the others, as inputs). The module keeps the graph's id and its own
/// inputs (the original request's inputs come first), the other graph
/// entry points of the graph are removed, and non-semantic instructions in
/// the graph are dropped.
pub fn local_form(module: &Module, entry: Option<&str>, leave_out: &BTreeSet<Id>) -> Result<LocalForm, ObserveError> {
    let a = Analysis::new(module);
    let (ep, name, g) = entry_point(&a, entry)?;
    let (view, input_types, _) = graph_of(&a, g)?;
    let operators = list_operators(&a, view);
    let mut m = module.clone();
    let mut operands: Vec<Id> = Vec::new();
    let mut operand_inputs: HashMap<Id, Id> = HashMap::new();
    let mut body: Vec<Inst> = Vec::new();
    let mut outputs: Vec<LocalOutput> = Vec::new();
    let mut seen_operators = 0usize;
    let (missing, _) = extracts(&a, &view.body);
    let mut extracts_of: BTreeMap<Id, Vec<(u32, Id)>> = BTreeMap::new();
    for &i in &view.body {
        if let Some(Inst::CompositeExtract { result, composite, indices, .. }) = module.insts.get(i) {
            if let [k] = indices.as_slice() {
                extracts_of.entry(*composite).or_default().push((*k, *result));
            }
        }
    }
    let mut new_extracts = Vec::new();
    for &i in &view.body {
        match module.insts.get(i) {
            Some(Inst::Tosa { ty, result, set, op, args }) => {
                let order = seen_operators;
                seen_operators += 1;
                if leave_out.contains(result) {
                    continue;
                }
                let mut new_args = Vec::with_capacity(args.len());
                for &arg in args {
                    if !computed(&a, arg) {
                        new_args.push(arg);
                        continue;
                    }
                    let input = match operand_inputs.get(&arg) {
                        Some(&x) => x,
                        None => {
                            let x = decls::fresh_id(&mut m);
                            operand_inputs.insert(arg, x);
                            operands.push(arg);
                            x
                        }
                    };
                    new_args.push(input);
                }
                body.push(Inst::Tosa { ty: *ty, result: *result, set: *set, op: *op, args: new_args });
                match a.ty(*ty) {
                    Some(Type::Struct(_)) => {
                        let mut members: Vec<(u32, Id)> = extracts_of.get(result).cloned().unwrap_or_default();
                        for &(node, k, member) in missing.iter().filter(|(n, _, _)| n == result) {
                            let x = decls::fresh_id(&mut m);
                            new_extracts.push(Inst::CompositeExtract {
                                ty: member,
                                result: x,
                                composite: node,
                                indices: vec![k],
                            });
                            members.push((k, x));
                        }
                        members.sort();
                        members.dedup_by_key(|(k, _)| *k);
                        for (k, value) in members {
                            outputs.push(LocalOutput { value, node: *result, op: *op, member: Some(k), order });
                        }
                    }
                    _ => outputs.push(LocalOutput { value: *result, node: *result, op: *op, member: None, order }),
                }
            }
            // Extracts of results left out have nothing to read.
            Some(inst @ Inst::CompositeExtract { composite, .. }) if !leave_out.contains(composite) => {
                body.push(inst.clone());
            }
            // Non-semantic instructions (debug information) say nothing about values.
            _ => {}
        }
    }
    if outputs.is_empty() {
        return Err(ObserveError::NoOperators);
    }
    body.extend(new_extracts);
    // Types and declarations.
    let mut types = input_types.clone();
    let mut new_inputs = Vec::new();
    for (k, &v) in operands.iter().enumerate() {
        let ty = a.type_of(v).ok_or(ObserveError::Malformed(g))?;
        types.push(ty);
        let index = decls::const_u32(&mut m, (input_types.len() + k) as u32);
        let result = operand_inputs.get(&v).copied().ok_or(ObserveError::Malformed(g))?;
        new_inputs.push(Inst::GraphInput { ty, result, input_index: index, element_index: None });
    }
    let mut out_types = Vec::new();
    let mut sets = Vec::new();
    for (k, o) in outputs.iter().enumerate() {
        let ty = match a.type_of(o.value) {
            Some(t) => t,
            None => body
                .iter()
                .find_map(|i| match i {
                    Inst::CompositeExtract { ty, result, .. } if *result == o.value => Some(*ty),
                    _ => None,
                })
                .ok_or(ObserveError::Malformed(g))?,
        };
        out_types.push(ty);
        sets.push(Inst::GraphSetOutput {
            value: o.value,
            output_index: decls::const_u32(&mut m, k as u32),
            element_index: None,
        });
    }
    let gty = decls::graph_type(&mut m, &types, &out_types);
    let old_interface = match module.insts.get(ep) {
        Some(Inst::GraphEntryPoint { interface, .. }) => interface.clone(),
        _ => return Err(ObserveError::Malformed(g)),
    };
    let mut interface: Vec<Id> = old_interface.iter().take(input_types.len()).copied().collect();
    for &ty in types.iter().skip(input_types.len()).chain(&out_types) {
        interface.push(decls::interface_variable(&mut m, ty));
    }
    // The graph section: only this entry point for the graph, the new body.
    let mut kept_entry = false;
    m.insts.retain(|inst| match inst {
        Inst::GraphEntryPoint { graph, name: n, .. } if *graph == g => {
            let keep = !kept_entry && *n == name;
            kept_entry |= keep;
            keep
        }
        _ => true,
    });
    for inst in &mut m.insts {
        match inst {
            Inst::GraphEntryPoint { graph, interface: i, .. } if *graph == g => *i = interface.clone(),
            Inst::Graph { ty, result } if *result == g => *ty = gty,
            _ => {}
        }
    }
    let b = Analysis::new(&m);
    let view = b.graph(g).ok_or(ObserveError::Malformed(g))?;
    let end = view.end.ok_or(ObserveError::Malformed(g))?;
    let after_inputs = view.inputs.last().map_or(view.begin + 1, |&i| i + 1);
    drop(b);
    let mut section = new_inputs;
    section.extend(body);
    section.extend(sets);
    m.insts.splice(after_inputs..end, section);
    Ok(LocalForm { module: m, entry: name, operands, outputs, operators })
}

/// The operators of `view`'s graph, in graph order.
fn list_operators(a: &Analysis<'_>, view: &GraphView) -> Vec<LocalOperator> {
    let mut out = Vec::new();
    for &i in &view.body {
        let Some(Inst::Tosa { ty, result, op, args, .. }) = a.module.insts.get(i) else { continue };
        let mut operands: Vec<Id> = Vec::new();
        for &arg in args {
            if computed(a, arg) && !operands.contains(&arg) {
                operands.push(arg);
            }
        }
        let members = match a.ty(*ty) {
            Some(Type::Struct(m)) => Some(m.len() as u32),
            _ => None,
        };
        out.push(LocalOperator { node: *result, op: *op, operands, members });
    }
    out
}

/// The operators of the graph `entry` runs (`None`: the first entry
/// point), in graph order, with the operands other operators compute.
pub fn operators(module: &Module, entry: Option<&str>) -> Result<Vec<LocalOperator>, ObserveError> {
    let a = Analysis::new(module);
    let (_, _, g) = entry_point(&a, entry)?;
    let (view, _, _) = graph_of(&a, g)?;
    Ok(list_operators(&a, view))
}
