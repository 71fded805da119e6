//! Operands: pointing a node's tensor input at the graph's first value of
//! the same type (which frees the value it read before), and dropping
//! CONCAT inputs.

use super::{pick, Level, Pass};
use crate::candidate::Candidate;
use crate::graph::{self, Baseline};
use crate::shapes;
use spvgraph_ir::analysis::Analysis;
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::tosa::{Role, TosaOp};
use std::collections::HashMap;

/// Replaces a node's input operand by the earliest value of the graph that
/// has the same type and is defined before the node.
pub struct ReplaceOperands;

/// `(node result, operand index, replacement)`.
fn replaceable(c: &Candidate) -> Vec<(Id, usize, Id)> {
    let a = Analysis::new(&c.module);
    let mut out = Vec::new();
    for g in &a.graphs {
        // Earliest value of each type seen so far, and where each value is defined.
        let mut first: HashMap<Id, Id> = HashMap::new();
        let mut position: HashMap<Id, (usize, bool)> = HashMap::new();
        for (p, &i) in g.inputs.iter().chain(g.body.iter()).enumerate() {
            let Some(inst) = c.module.insts.get(i) else { continue };
            if let Inst::Tosa { result, op, args, .. } = inst {
                let spec = op.spec();
                for (k, &v) in args.iter().enumerate() {
                    if spec.operand(k).is_none_or(|o| o.role != Role::Input) {
                        continue;
                    }
                    let Some(ty) = a.type_of(v) else { continue };
                    if let Some(&w) = first.get(&ty) {
                        // Only graph values count as "further" than the
                        // first one (constants are left to other passes);
                        // an element of a tensor-array input always does.
                        let further = match position.get(&v) {
                            Some(&(pv, array)) => array || position.get(&w).is_some_and(|&(pw, _)| pv > pw),
                            None => false,
                        };
                        if w != v && further {
                            out.push((*result, k, w));
                        }
                    }
                }
            }
            let array = matches!(inst, Inst::GraphInput { element_index: Some(_), .. });
            let value_like =
                matches!(inst, Inst::GraphInput { .. } | Inst::Tosa { .. } | Inst::CompositeExtract { .. });
            if let (true, Some(r), Some(t)) = (value_like, inst.result_id(), inst.result_type()) {
                if !array {
                    first.entry(t).or_insert(r);
                }
                position.insert(r, (p, array));
            }
        }
    }
    out
}

impl Pass for ReplaceOperands {
    fn name(&self) -> &'static str {
        "replace-operands"
    }
    fn level(&self) -> Level {
        Level::Operand
    }
    fn atoms(&self, c: &Candidate) -> usize {
        replaceable(c).len()
    }
    fn apply(&self, c: &Candidate, chosen: &[usize]) -> Option<Candidate> {
        let chosen = pick(&replaceable(c), chosen);
        let base = Baseline::of(c);
        let mut out = c.clone();
        for (node, k, w) in chosen {
            for inst in &mut out.module.insts {
                if let Inst::Tosa { result, args, .. } = inst {
                    if *result == node {
                        *args.get_mut(k)? = w;
                    }
                }
            }
        }
        graph::finish(&mut out, &base)?;
        Some(out)
    }
}

/// Drops inputs of CONCAT beyond its first (the output shrinks along the
/// axis, and the graph's shapes are re-inferred).
pub struct DropConcatInputs;

/// `(graph, CONCAT result, operand index)` for every input but the first.
fn concat_inputs(c: &Candidate) -> Vec<(Id, Id, usize)> {
    let a = Analysis::new(&c.module);
    let mut out = Vec::new();
    for g in &a.graphs {
        for &i in &g.body {
            if let Some(Inst::Tosa { result, op: TosaOp::Concat, args, .. }) = c.module.insts.get(i) {
                out.extend((2..args.len()).map(|k| (g.result, *result, k)));
            }
        }
    }
    out
}

impl Pass for DropConcatInputs {
    fn name(&self) -> &'static str {
        "drop-concat-inputs"
    }
    fn level(&self) -> Level {
        Level::Operand
    }
    fn atoms(&self, c: &Candidate) -> usize {
        concat_inputs(c).len()
    }
    fn apply(&self, c: &Candidate, chosen: &[usize]) -> Option<Candidate> {
        let mut chosen = pick(&concat_inputs(c), chosen);
        chosen.sort_by_key(|c| std::cmp::Reverse(c.2));
        let base = Baseline::of(c);
        let mut out = c.clone();
        let mut graphs: Vec<Id> = Vec::new();
        for (g, node, k) in chosen {
            for inst in &mut out.module.insts {
                if let Inst::Tosa { result, args, .. } = inst {
                    if *result == node && k < args.len() {
                        args.remove(k);
                    }
                }
            }
            if !graphs.contains(&g) {
                graphs.push(g);
            }
        }
        for g in graphs {
            shapes::retype_graph(&mut out, g)?;
        }
        graph::finish(&mut out, &base)?;
        Some(out)
    }
}
