//! What only describes the module: names, lines, graph debug information,
//! decorations; and capabilities and extensions it may not need.

use super::{pick, Level, Pass};
use crate::candidate::Candidate;
use crate::graph::{self, Baseline};
use crate::ids;
use spvgraph_ir::inst::Inst;
use std::collections::HashSet;

/// Removes `OpName`, `OpLine`/`OpNoLine`, NonSemantic.Graph.DebugInfo
/// instructions and decorations (their strings and import go when unused).
pub struct DropDebug;

fn descriptive(c: &Candidate) -> Vec<usize> {
    c.module
        .insts
        .iter()
        .enumerate()
        .filter(|(_, i)| ids::is_descriptive(i) || matches!(i, Inst::NoLine))
        .map(|(p, _)| p)
        .collect()
}

fn without(c: &Candidate, doomed: &HashSet<usize>) -> Candidate {
    let mut out = c.clone();
    let mut p = 0;
    out.module.insts.retain(|_| {
        p += 1;
        !doomed.contains(&(p - 1))
    });
    out
}

impl Pass for DropDebug {
    fn name(&self) -> &'static str {
        "drop-debug"
    }
    fn level(&self) -> Level {
        Level::Value
    }
    fn atoms(&self, c: &Candidate) -> usize {
        descriptive(c).len()
    }
    fn apply(&self, c: &Candidate, chosen: &[usize]) -> Option<Candidate> {
        let doomed: HashSet<usize> = pick(&descriptive(c), chosen).into_iter().collect();
        let base = Baseline::of(c);
        let mut out = without(c, &doomed);
        graph::finish(&mut out, &base)?;
        Some(out)
    }
}

/// Removes `OpCapability` and `OpExtension` instructions.
pub struct DropCapabilities;

fn declared(c: &Candidate) -> Vec<usize> {
    c.module
        .insts
        .iter()
        .enumerate()
        .filter(|(_, i)| matches!(i, Inst::Capability(_) | Inst::Extension(_)))
        .map(|(p, _)| p)
        .collect()
}

impl Pass for DropCapabilities {
    fn name(&self) -> &'static str {
        "drop-capabilities"
    }
    fn level(&self) -> Level {
        Level::Value
    }
    fn atoms(&self, c: &Candidate) -> usize {
        declared(c).len()
    }
    fn apply(&self, c: &Candidate, chosen: &[usize]) -> Option<Candidate> {
        let doomed: HashSet<usize> = pick(&declared(c), chosen).into_iter().collect();
        Some(without(c, &doomed))
    }
}
