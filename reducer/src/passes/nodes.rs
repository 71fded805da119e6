//! Removing TOSA nodes by rewiring their users to another value of the
//! same type: an earlier value of the graph, a constant, or a new graph
//! input.

use super::{pick, Level, Pass};
use crate::candidate::Candidate;
use crate::decls;
use crate::graph::{self, Baseline};
use crate::ids;
use crate::shapes;
use spvgraph_ir::analysis::Analysis;
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::tosa::Role;
use std::collections::{HashMap, HashSet};

/// Where the users of a removed node get their value from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// The nearest earlier value of the graph with the same type (a node
    /// defined before, or a graph input), else a constant of that type
    /// (an existing one, or a new `OpConstantNull`).
    Reuse,
    /// The node's first tensor input with the same element type (its
    /// shape may differ: the graph's shapes are re-inferred), so a layout
    /// node between two others drops out of the chain; nodes without such
    /// an input fall back to [`Strategy::Reuse`].
    Bypass,
    /// A new graph input of that type (one per type and graph), zero data.
    NewInput,
}

/// Removes TOSA nodes (and `OpCompositeExtract`s), rewiring their users.
pub struct RemoveNodes {
    /// How users are rewired.
    pub strategy: Strategy,
}

/// One node: its graph, its result, and the results that replace it for
/// its users (the result itself, or the extracts of a struct result).
#[derive(Clone, Debug)]
struct Node {
    graph: Id,
    result: Id,
}

fn nodes(c: &Candidate) -> Vec<Node> {
    let a = Analysis::new(&c.module);
    let mut out = Vec::new();
    for g in &a.graphs {
        for &i in &g.body {
            match c.module.insts.get(i) {
                Some(Inst::Tosa { result, .. }) | Some(Inst::CompositeExtract { result, .. }) => {
                    out.push(Node { graph: g.result, result: *result })
                }
                _ => {}
            }
        }
    }
    out
}

impl Pass for RemoveNodes {
    fn name(&self) -> &'static str {
        match self.strategy {
            Strategy::Reuse => "remove-nodes",
            Strategy::Bypass => "bypass-nodes",
            Strategy::NewInput => "nodes-to-inputs",
        }
    }
    fn level(&self) -> Level {
        Level::Node
    }
    fn atoms(&self, c: &Candidate) -> usize {
        nodes(c).len()
    }
    fn apply(&self, c: &Candidate, chosen: &[usize]) -> Option<Candidate> {
        let chosen = pick(&nodes(c), chosen);
        let base = Baseline::of(c);
        let mut out = c.clone();
        // A struct-typed node takes its extracts along.
        let mut removed: HashSet<Id> = chosen.iter().map(|n| n.result).collect();
        let mut graph_of: HashMap<Id, Id> = chosen.iter().map(|n| (n.result, n.graph)).collect();
        for inst in &c.module.insts {
            if let Inst::CompositeExtract { result, composite, .. } = inst {
                if removed.contains(composite) {
                    removed.insert(*result);
                    if let Some(&g) = graph_of.get(composite) {
                        graph_of.insert(*result, g);
                    }
                }
            }
        }
        let counts = ids::use_counts(&c.module.insts);
        let mut order: Vec<Id> = Vec::new();
        for inst in &c.module.insts {
            if let Some(r) = inst.result_id().filter(|r| removed.contains(r)) {
                order.push(r);
            }
        }
        let mut map: HashMap<Id, Id> = HashMap::new();
        let mut new_inputs: HashMap<(Id, Id), Id> = HashMap::new();
        for r in order {
            // Results only other removed nodes use need no replacement.
            if !counts.contains_key(&r) || only_used_by_removed(&c.module.insts, r, &removed) {
                continue;
            }
            let g = *graph_of.get(&r)?;
            let ty = {
                let a = Analysis::new(&out.module);
                a.type_of(r)?
            };
            let v = match self.strategy {
                Strategy::Reuse => reuse(&mut out, g, r, ty, &removed)?,
                Strategy::Bypass => match bypass(&out, r, &map, &removed) {
                    Some(v) => v,
                    None => reuse(&mut out, g, r, ty, &removed)?,
                },
                Strategy::NewInput => match new_inputs.get(&(g, ty)) {
                    Some(&v) => v,
                    None => {
                        let v = graph::add_input(&mut out, g, ty)?;
                        new_inputs.insert((g, ty), v);
                        v
                    }
                },
            };
            map.insert(r, v);
        }
        for inst in out.module.insts.iter_mut().filter(|i| !ids::is_descriptive(i)) {
            ids::replace_uses(inst, &map);
        }
        out.module.insts.retain(|i| !i.result_id().is_some_and(|r| removed.contains(&r)));
        if self.strategy == Strategy::Bypass {
            let mut graphs: Vec<Id> = graph_of.values().copied().collect();
            graphs.sort_unstable();
            graphs.dedup();
            for g in graphs {
                shapes::retype_graph(&mut out, g)?;
            }
        }
        graph::finish(&mut out, &base)?;
        Some(out)
    }
}

fn only_used_by_removed(insts: &[Inst], r: Id, removed: &HashSet<Id>) -> bool {
    insts.iter().filter(|i| !ids::is_descriptive(i)).all(|i| {
        let mut uses = false;
        ids::for_each_id(i, |id| uses |= *id == r);
        !uses || i.result_id().is_some_and(|x| removed.contains(&x))
    })
}

/// The replacement for `r` (type `ty`) under [`Strategy::Reuse`].
fn reuse(c: &mut Candidate, g: Id, r: Id, ty: Id, removed: &HashSet<Id>) -> Option<Id> {
    let found = {
        let a = Analysis::new(&c.module);
        let view = a.graph(g)?;
        // The nearest value defined before r: it dominates r's users and is
        // the most likely to carry what made r interesting.
        let mut found = None;
        for &i in view.inputs.iter().chain(view.body.iter()) {
            let inst = c.module.insts.get(i)?;
            let Some(v) = inst.result_id() else { continue };
            if v == r {
                break;
            }
            let value_like = matches!(
                inst,
                Inst::GraphInput { element_index: None, .. } | Inst::Tosa { .. } | Inst::CompositeExtract { .. }
            );
            if value_like && inst.result_type() == Some(ty) && !removed.contains(&v) {
                found = Some(v);
            }
        }
        found.or_else(|| {
            c.module.insts.iter().find_map(|i| match i {
                Inst::ConstantNull { ty: t, result }
                | Inst::ConstantCompositeReplicate { ty: t, result, spec: false, .. }
                    if *t == ty =>
                {
                    Some(*result)
                }
                _ => None,
            })
        })
    };
    match found {
        Some(v) => Some(v),
        None => Some(decls::null(&mut c.module, ty)),
    }
}

/// The first tensor input of node `r` whose element type is `r`'s (through
/// the replacements already chosen for removed inputs).
fn bypass(c: &Candidate, r: Id, map: &HashMap<Id, Id>, removed: &HashSet<Id>) -> Option<Id> {
    let a = Analysis::new(&c.module);
    let Some(Inst::Tosa { ty, op, args, .. }) = a.def(r) else { return None };
    let elem = a.tensor_type(*ty)?.element;
    let spec = op.spec();
    args.iter().enumerate().find_map(|(k, &v)| {
        if spec.operand(k)?.role != Role::Input {
            return None;
        }
        let v = match map.get(&v) {
            Some(&to) => to,
            // A removed input nothing else needed has no replacement.
            None if removed.contains(&v) => return None,
            None => v,
        };
        let t = a.tensor_type(a.type_of(v)?)?;
        (t.element == elem).then_some(v)
    })
}
