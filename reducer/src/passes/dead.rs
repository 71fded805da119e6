//! Code that nothing uses: nodes whose results nobody reads, graph inputs
//! nothing reads, declarations nothing refers to. Edits by other passes
//! already remove what *they* leave unused; this pass offers what was
//! unused from the start (a test may depend on it, hence the predicate).

use super::{pick, Level, Pass};
use crate::candidate::Candidate;
use crate::graph::{self, Baseline};
use crate::ids;
use spvgraph_ir::analysis::Analysis;
use spvgraph_ir::inst::{Id, Inst};
use std::collections::HashSet;

/// Removes unused nodes, unread graph inputs and unreferenced declarations.
pub struct DeadCode;

#[derive(Clone, Debug, PartialEq, Eq)]
enum Item {
    Node(Id),
    Input(Id, u32),
    Declaration(Id),
}

fn items(c: &Candidate) -> Vec<Item> {
    let counts = ids::use_counts(&c.module.insts);
    let mut out = Vec::new();
    let a = Analysis::new(&c.module);
    for g in &a.graphs {
        for &i in &g.body {
            if let Some(Inst::Tosa { result, .. } | Inst::CompositeExtract { result, .. }) = c.module.insts.get(i) {
                if !counts.contains_key(result) {
                    out.push(Item::Node(*result));
                }
            }
        }
    }
    out.extend(graph::unread_inputs(c).into_iter().map(|(g, k)| Item::Input(g, k)));
    let dead = ids::dead_declarations(&c.module.insts);
    out.extend(c.module.insts.iter().filter_map(Inst::result_id).filter(|id| dead.contains(id)).map(Item::Declaration));
    out
}

impl Pass for DeadCode {
    fn name(&self) -> &'static str {
        "dead-code"
    }
    fn level(&self) -> Level {
        Level::Graph
    }
    fn atoms(&self, c: &Candidate) -> usize {
        items(c).len()
    }
    fn apply(&self, c: &Candidate, chosen: &[usize]) -> Option<Candidate> {
        let chosen = pick(&items(c), chosen);
        let mut base = Baseline::of(c);
        let mut out = c.clone();
        let nodes: HashSet<Id> =
            chosen.iter().filter_map(|i| if let Item::Node(r) = i { Some(*r) } else { None }).collect();
        // What a removed dead node read stays, dead in its turn: a dead chain
        // is trimmed from its end, so a test that needs the node at its head
        // (a dead POW before two CASTs) still holds.
        let read: HashSet<Id> = c
            .module
            .insts
            .iter()
            .filter(|i| i.result_id().is_some_and(|r| nodes.contains(&r)))
            .flat_map(|i| match i {
                Inst::Tosa { args, .. } => args.clone(),
                Inst::CompositeExtract { composite, .. } => vec![*composite],
                _ => Vec::new(),
            })
            .collect();
        base.keep(&read);
        let inputs: HashSet<(Id, u32)> =
            chosen.iter().filter_map(|i| if let Item::Input(g, k) = i { Some((*g, *k)) } else { None }).collect();
        let decls: HashSet<Id> =
            chosen.iter().filter_map(|i| if let Item::Declaration(d) = i { Some(*d) } else { None }).collect();
        out.module.insts.retain(|i| !i.result_id().is_some_and(|r| nodes.contains(&r)));
        ids::drop_dangling(&mut out.module.insts);
        graph::remove_unread_inputs(&mut out, |g, k, _| inputs.contains(&(g, k)))?;
        let keep_dead: HashSet<Id> = base.dead_decls().difference(&decls).copied().collect();
        ids::remove_declarations(&mut out.module.insts, &decls, &keep_dead);
        graph::finish(&mut out, &base)?;
        Some(out)
    }
}
