//! Canonical form: identical type and constant declarations merged, ids
//! renumbered 1, 2, 3, … in definition order, and the bound made tight.

use super::{Level, Pass};
use crate::candidate::{Candidate, InputKey};
use crate::ids;
use spvgraph_ir::inst::{Id, Inst};
use std::collections::HashMap;

/// Merges duplicate declarations and renumbers ids compactly.
pub struct Canonicalize;

impl Pass for Canonicalize {
    fn name(&self) -> &'static str {
        "canonicalize"
    }
    fn level(&self) -> Level {
        Level::Value
    }
    fn atoms(&self, c: &Candidate) -> usize {
        usize::from(canonical(c).is_some_and(|x| x != *c))
    }
    fn apply(&self, c: &Candidate, _chosen: &[usize]) -> Option<Candidate> {
        canonical(c)
    }
}

fn canonical(c: &Candidate) -> Option<Candidate> {
    let mut out = c.clone();
    merge_duplicates(&mut out.module.insts);
    if !out.module.insts.iter().any(ids::is_opaque) {
        renumber(&mut out);
    }
    Some(out)
}

/// The operand words of a mergeable declaration (everything but its result
/// id), or `None` for declarations that must stay distinct (graph
/// constants, variables, structs, spec constants).
fn merge_key(inst: &Inst) -> Option<(u16, Vec<u32>)> {
    let mergeable = (inst.is_type() && !matches!(inst, Inst::TypeStruct { .. } | Inst::Raw { .. }))
        || matches!(
            inst,
            Inst::Constant { spec: false, .. }
                | Inst::ConstantTrue { spec: false, .. }
                | Inst::ConstantFalse { spec: false, .. }
                | Inst::ConstantComposite { spec: false, .. }
                | Inst::ConstantCompositeReplicate { spec: false, .. }
                | Inst::ConstantNull { .. }
        );
    if !mergeable {
        return None;
    }
    let mut words = Vec::new();
    inst.encode_operands(&mut words);
    // The result id follows the result type, when there is one.
    let pos = usize::from(inst.result_type().is_some());
    if pos >= words.len() {
        return None;
    }
    words.remove(pos);
    Some((inst.opcode(), words))
}

fn merge_duplicates(insts: &mut Vec<Inst>) {
    loop {
        let mut first: HashMap<(u16, Vec<u32>), Id> = HashMap::new();
        let mut map: HashMap<Id, Id> = HashMap::new();
        for inst in insts.iter() {
            let (Some(key), Some(r)) = (merge_key(inst), inst.result_id()) else { continue };
            match first.get(&key) {
                Some(&keep) => {
                    map.insert(r, keep);
                }
                None => {
                    first.insert(key, r);
                }
            }
        }
        if map.is_empty() {
            return;
        }
        insts.retain(|i| !i.result_id().is_some_and(|r| map.contains_key(&r) && merge_key(i).is_some()));
        for inst in insts.iter_mut() {
            ids::replace_uses(inst, &map);
        }
        // Names and decorations of merged ids now repeat: keep one of each.
        let mut seen = std::collections::HashSet::new();
        insts.retain(|i| match i {
            Inst::Name { .. } | Inst::Decorate { .. } => seen.insert(format!("{i:?}")),
            _ => true,
        });
    }
}

/// Renumbers ids in definition order (ids used but never defined come
/// after, in order of first use) and sets the bound to one past the last.
fn renumber(c: &mut Candidate) {
    let mut map: HashMap<Id, Id> = HashMap::new();
    let mut next = 1u32;
    for inst in &c.module.insts {
        if let Some(r) = inst.result_id() {
            map.entry(r).or_insert_with(|| {
                next += 1;
                Id(next - 1)
            });
        }
    }
    for inst in &c.module.insts {
        ids::for_each_id(inst, |id| {
            map.entry(*id).or_insert_with(|| {
                next += 1;
                Id(next - 1)
            });
        });
    }
    for inst in &mut c.module.insts {
        ids::replace_uses(inst, &map);
        if let Some(r) = inst.result_id_mut() {
            if let Some(&to) = map.get(r) {
                *r = to;
            }
        }
    }
    c.module.header.bound = next;
    let old = std::mem::take(&mut c.inputs);
    c.inputs = old
        .into_iter()
        .map(|(k, t)| (InputKey { graph: map.get(&k.graph).copied().unwrap_or(k.graph), ..k }, t))
        .collect();
}
