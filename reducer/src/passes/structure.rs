//! Whole graphs, entry points, functions, and graph outputs (which cuts a
//! graph down to the sub-graph that feeds the outputs left).

use super::{pick, Level, Pass};
use crate::candidate::Candidate;
use crate::graph::{self, Baseline};
use spirv::Op;
use spvgraph_ir::analysis::Analysis;
use spvgraph_ir::inst::{Id, Inst};
use std::collections::HashSet;

/// Removes whole graph definitions with their entry points and data.
pub struct DropGraphs;

fn graph_ids(c: &Candidate) -> Vec<Id> {
    Analysis::new(&c.module).graphs.iter().map(|g| g.result).collect()
}

impl Pass for DropGraphs {
    fn name(&self) -> &'static str {
        "drop-graphs"
    }
    fn level(&self) -> Level {
        Level::Graph
    }
    fn atoms(&self, c: &Candidate) -> usize {
        graph_ids(c).len()
    }
    fn apply(&self, c: &Candidate, chosen: &[usize]) -> Option<Candidate> {
        let doomed: HashSet<Id> = pick(&graph_ids(c), chosen).into_iter().collect();
        let base = Baseline::of(c);
        let mut out = c.clone();
        let spans: Vec<(usize, usize)> = {
            let a = Analysis::new(&c.module);
            a.graphs
                .iter()
                .filter(|g| doomed.contains(&g.result))
                .map(|g| (g.begin, g.end.unwrap_or(c.module.insts.len().saturating_sub(1))))
                .collect()
        };
        let mut keep = vec![true; out.module.insts.len()];
        for (b, e) in spans {
            for k in keep.iter_mut().take(e + 1).skip(b) {
                *k = false;
            }
        }
        let mut it = keep.iter();
        out.module.insts.retain(|_| it.next().copied().unwrap_or(true));
        out.module.insts.retain(|i| !matches!(i, Inst::GraphEntryPoint { graph, .. } if doomed.contains(graph)));
        out.inputs.retain(|k, _| !doomed.contains(&k.graph));
        graph::finish(&mut out, &base)?;
        Some(out)
    }
}

/// Removes graph entry points (their interface variables go with them).
pub struct DropEntryPoints;

fn entry_points(c: &Candidate) -> Vec<usize> {
    c.module
        .insts
        .iter()
        .enumerate()
        .filter(|(_, i)| matches!(i, Inst::GraphEntryPoint { .. }))
        .map(|(p, _)| p)
        .collect()
}

impl Pass for DropEntryPoints {
    fn name(&self) -> &'static str {
        "drop-entry-points"
    }
    fn level(&self) -> Level {
        Level::Graph
    }
    fn atoms(&self, c: &Candidate) -> usize {
        entry_points(c).len()
    }
    fn apply(&self, c: &Candidate, chosen: &[usize]) -> Option<Candidate> {
        let doomed: HashSet<usize> = pick(&entry_points(c), chosen).into_iter().collect();
        let base = Baseline::of(c);
        let mut out = c.clone();
        let mut p = 0;
        out.module.insts.retain(|_| {
            p += 1;
            !doomed.contains(&(p - 1))
        });
        graph::finish(&mut out, &base)?;
        Some(out)
    }
}

/// Removes shader functions (`OpFunction` … `OpFunctionEnd`) with the
/// `OpEntryPoint`s and `OpExecutionMode`s that name them.
pub struct DropFunctions;

fn functions(c: &Candidate) -> Vec<(usize, usize, Id)> {
    let mut out = Vec::new();
    let mut open: Option<(usize, Id)> = None;
    for (i, inst) in c.module.insts.iter().enumerate() {
        if let Inst::Raw { opcode, operands } = inst {
            if *opcode == Op::Function as u16 {
                open = operands.get(1).map(|&r| (i, Id(r)));
            } else if *opcode == Op::FunctionEnd as u16 {
                if let Some((b, id)) = open.take() {
                    out.push((b, i, id));
                }
            }
        }
    }
    out
}

impl Pass for DropFunctions {
    fn name(&self) -> &'static str {
        "drop-functions"
    }
    fn level(&self) -> Level {
        Level::Graph
    }
    fn atoms(&self, c: &Candidate) -> usize {
        functions(c).len()
    }
    fn apply(&self, c: &Candidate, chosen: &[usize]) -> Option<Candidate> {
        let doomed = pick(&functions(c), chosen);
        let ids: HashSet<u32> = doomed.iter().map(|(_, _, id)| id.0).collect();
        let base = Baseline::of(c);
        let mut out = c.clone();
        let mut keep = vec![true; out.module.insts.len()];
        for (b, e, _) in &doomed {
            for k in keep.iter_mut().take(e + 1).skip(*b) {
                *k = false;
            }
        }
        for (i, inst) in out.module.insts.iter().enumerate() {
            if let Inst::Raw { opcode, operands } = inst {
                let named = (*opcode == Op::EntryPoint as u16 && operands.get(1).is_some_and(|w| ids.contains(w)))
                    || (*opcode == Op::ExecutionMode as u16 && operands.first().is_some_and(|w| ids.contains(w)));
                if named {
                    keep[i] = false;
                }
            }
        }
        let mut it = keep.iter();
        out.module.insts.retain(|_| it.next().copied().unwrap_or(true));
        graph::finish(&mut out, &base)?;
        Some(out)
    }
}

/// Removes graph outputs; the nodes that fed only them go too, which cuts
/// each graph down to the sub-graph feeding the outputs that stay.
pub struct DropOutputs;

/// `(graph, OutputIndex)` of every output written without an ElementIndex.
fn outputs(c: &Candidate) -> Vec<(Id, u32)> {
    let a = Analysis::new(&c.module);
    let mut out = Vec::new();
    for g in &a.graphs {
        let mut seen = HashSet::new();
        let mut arrays = HashSet::new();
        for &i in &g.outputs {
            if let Some(Inst::GraphSetOutput { output_index, element_index, .. }) = c.module.insts.get(i) {
                if let Some(k) = a.const_uint(*output_index).and_then(|k| u32::try_from(k).ok()) {
                    if element_index.is_some() {
                        arrays.insert(k);
                    }
                    seen.insert(k);
                }
            }
        }
        let mut ks: Vec<u32> = seen.difference(&arrays).copied().collect();
        ks.sort_unstable();
        out.extend(ks.into_iter().map(|k| (g.result, k)));
    }
    out
}

impl Pass for DropOutputs {
    fn name(&self) -> &'static str {
        "drop-outputs"
    }
    fn level(&self) -> Level {
        Level::Graph
    }
    fn atoms(&self, c: &Candidate) -> usize {
        outputs(c).len()
    }
    fn apply(&self, c: &Candidate, chosen: &[usize]) -> Option<Candidate> {
        let mut doomed = pick(&outputs(c), chosen);
        // Highest index first, so the lower ones keep their numbers.
        doomed.sort_by_key(|d| std::cmp::Reverse(d.1));
        let base = Baseline::of(c);
        let mut out = c.clone();
        for (g, k) in doomed {
            let drop: Vec<usize> = {
                let a = Analysis::new(&out.module);
                let view = a.graph(g)?;
                view.outputs
                    .iter()
                    .copied()
                    .filter(|&i| {
                        matches!(out.module.insts.get(i), Some(Inst::GraphSetOutput { output_index, .. })
                            if a.const_uint(*output_index) == Some(u64::from(k)))
                    })
                    .collect()
            };
            for i in drop.into_iter().rev() {
                out.module.insts.remove(i);
            }
            graph::remove_output(&mut out, g, k)?;
        }
        graph::finish(&mut out, &base)?;
        Some(out)
    }
}
