//! Id operands of instructions: visiting and rewriting them, and which
//! declarations are still referenced.
//!
//! Only typed instructions are rewritten; `Inst::Raw` and unknown `OpExtInst`
//! keep their operand words (they may be literals), so for liveness every
//! word of theirs that names a defined id counts as a reference.

use crate::inst::{GraphDebugInst, Id, Inst};
use std::collections::{HashMap, HashSet};

/// Generates a visitor over the id operands (result type included, result id
/// excluded) of typed instructions, by reference or by mutable reference.
macro_rules! visitor {
    ($name:ident, $iter:ident, $($m:tt)*) => {
        /// Calls `f` on every id operand of a typed instruction (result type
        /// included, result id excluded; `Raw`/`ExtInst` operand words are not visited).
        pub fn $name(inst: & $($m)* Inst, mut f: impl FnMut(& $($m)* Id)) {
            match inst {
                Inst::Name { target, .. } | Inst::Decorate { target, .. } => f(target),
                Inst::Line { file, .. } => f(file),
                Inst::TypeArray { element, length, .. } => {
                    f(element);
                    f(length);
                }
                Inst::TypeRuntimeArray { element, .. } => f(element),
                Inst::TypeStruct { members, .. } => members.$iter().for_each(f),
                Inst::TypePointer { pointee, .. } => f(pointee),
                Inst::TypeTensor { element, rank, shape, .. } => {
                    f(element);
                    if let Some(r) = rank {
                        f(r);
                    }
                    if let Some(s) = shape {
                        f(s);
                    }
                }
                Inst::TypeGraph { io, .. } => io.$iter().for_each(f),
                Inst::ConstantTrue { ty, .. }
                | Inst::ConstantFalse { ty, .. }
                | Inst::Constant { ty, .. }
                | Inst::ConstantNull { ty, .. }
                | Inst::GraphConstant { ty, .. }
                | Inst::Graph { ty, .. } => f(ty),
                Inst::ConstantComposite { ty, constituents, .. } => {
                    f(ty);
                    constituents.$iter().for_each(f);
                }
                Inst::ConstantCompositeReplicate { ty, constituent, .. } => {
                    f(ty);
                    f(constituent);
                }
                Inst::Variable { ty, initializer, .. } => {
                    f(ty);
                    if let Some(i) = initializer {
                        f(i);
                    }
                }
                Inst::GraphEntryPoint { graph, interface, .. } => {
                    f(graph);
                    interface.$iter().for_each(f);
                }
                Inst::GraphInput { ty, input_index, element_index, .. } => {
                    f(ty);
                    f(input_index);
                    if let Some(e) = element_index {
                        f(e);
                    }
                }
                Inst::GraphSetOutput { value, output_index, element_index } => {
                    f(value);
                    f(output_index);
                    if let Some(e) = element_index {
                        f(e);
                    }
                }
                Inst::Tosa { ty, set, args, .. } => {
                    f(ty);
                    f(set);
                    args.$iter().for_each(f);
                }
                Inst::GraphDebug { ty, set, inst: d, .. } => {
                    f(ty);
                    f(set);
                    match d {
                        GraphDebugInst::Graph { graph, name } => {
                            f(graph);
                            f(name);
                        }
                        GraphDebugInst::Operation { debug_graph, name, instructions } => {
                            f(debug_graph);
                            f(name);
                            instructions.$iter().for_each(f);
                        }
                        GraphDebugInst::Tensor { tensor, name, index } => {
                            f(tensor);
                            f(name);
                            if let Some(i) = index {
                                f(i);
                            }
                        }
                    }
                }
                Inst::ExtInst { ty, set, .. } => {
                    f(ty);
                    f(set);
                }
                Inst::CompositeExtract { ty, composite, .. } => {
                    f(ty);
                    f(composite);
                }
                _ => {}
            }
        }
    };
}

visitor!(for_each_id, iter,);
visitor!(for_each_id_mut, iter_mut, mut);

/// Whether an instruction keeps its operand words opaque (ids among
/// literals), so that its references can only be guessed and not rewritten.
pub fn is_opaque(inst: &Inst) -> bool {
    matches!(inst, Inst::Raw { .. } | Inst::ExtInst { .. })
}

/// Rewrites every id operand found in `map` (result ids are not touched).
pub fn replace_uses(inst: &mut Inst, map: &HashMap<Id, Id>) {
    if map.is_empty() {
        return;
    }
    for_each_id_mut(inst, |id| {
        if let Some(&to) = map.get(id) {
            *id = to;
        }
    });
}

/// Whether an instruction only describes others (names, decorations,
/// lines, graph debug information): it never keeps what it refers to alive,
/// and goes away with it.
pub fn is_descriptive(inst: &Inst) -> bool {
    matches!(inst, Inst::Name { .. } | Inst::Decorate { .. } | Inst::GraphDebug { .. } | Inst::Line { .. })
}

/// Whether an instruction is a module-level declaration that is only
/// needed while something refers to it.
pub fn is_declaration(inst: &Inst) -> bool {
    inst.is_type()
        || inst.is_constant()
        || matches!(inst, Inst::Variable { .. } | Inst::String { .. } | Inst::ExtInstImport { .. })
}

/// Every id defined in the module.
pub fn defined(insts: &[Inst]) -> HashSet<Id> {
    insts.iter().filter_map(Inst::result_id).collect()
}

/// The ids that something other than a descriptive instruction refers to,
/// directly or through the declarations it needs. Graph debug instructions
/// keep their strings and their import alive (they are removed with the
/// values they describe, see [`drop_dangling`]).
pub fn live_ids(insts: &[Inst]) -> HashSet<Id> {
    let defs: HashMap<Id, usize> = insts.iter().enumerate().filter_map(|(i, x)| Some((x.result_id()?, i))).collect();
    let mut live: HashSet<Id> = HashSet::new();
    let mut work: Vec<Id> = Vec::new();
    let push = |id: Id, live: &mut HashSet<Id>, work: &mut Vec<Id>| {
        if live.insert(id) {
            work.push(id);
        }
    };
    for inst in insts {
        let root =
            !is_declaration(inst) && !matches!(inst, Inst::Name { .. } | Inst::Decorate { .. } | Inst::Line { .. });
        if !root {
            continue;
        }
        if let Some(r) = inst.result_id() {
            push(r, &mut live, &mut work);
        }
        refs(inst, &defs, |id| push(id, &mut live, &mut work));
    }
    while let Some(id) = work.pop() {
        let Some(&i) = defs.get(&id) else { continue };
        let Some(inst) = insts.get(i) else { continue };
        refs(inst, &defs, |r| push(r, &mut live, &mut work));
    }
    live
}

/// The references of one instruction: its typed id operands, or for opaque
/// instructions every operand word that names a defined id.
fn refs(inst: &Inst, defs: &HashMap<Id, usize>, mut f: impl FnMut(Id)) {
    if is_opaque(inst) {
        let mut words = Vec::new();
        inst.encode_operands(&mut words);
        let own = inst.result_id();
        for w in words {
            let id = Id(w);
            if Some(id) != own && defs.contains_key(&id) {
                f(id);
            }
        }
        if let Inst::ExtInst { set, ty, .. } = inst {
            f(*set);
            f(*ty);
        }
    } else {
        for_each_id(inst, |id| f(*id));
    }
}

/// The declarations nothing live refers to (result ids).
pub fn dead_declarations(insts: &[Inst]) -> HashSet<Id> {
    let live = live_ids(insts);
    insts.iter().filter(|i| is_declaration(i)).filter_map(Inst::result_id).filter(|id| !live.contains(id)).collect()
}

/// Removes descriptive instructions that refer to an id no longer defined,
/// and drops such ids from `DebugOperation` lists (the operation goes when
/// its list empties). Repeats until nothing dangles (a removed `DebugGraph`
/// takes its operations along).
pub fn drop_dangling(insts: &mut Vec<Inst>) {
    loop {
        let defined = defined(insts);
        let before = insts.len();
        let mut changed = false;
        insts.retain_mut(|inst| {
            if let Inst::GraphDebug { inst: GraphDebugInst::Operation { instructions, .. }, .. } = inst {
                let n = instructions.len();
                instructions.retain(|id| defined.contains(id));
                changed |= instructions.len() != n;
                if instructions.is_empty() {
                    return false;
                }
            }
            if !is_descriptive(inst) {
                return true;
            }
            let mut ok = true;
            for_each_id(inst, |id| ok &= defined.contains(id));
            ok
        });
        if insts.len() == before && !changed {
            return;
        }
    }
}

/// Removes the declarations in `dead` and everything describing them, then
/// whatever that leaves dead that was live before, until nothing changes.
/// Declarations that were already dead before this call and are not in
/// `dead` stay: a test may depend on them, and the dead-code pass offers
/// their removal on its own.
pub fn remove_declarations(insts: &mut Vec<Inst>, dead: &HashSet<Id>, dead_before: &HashSet<Id>) {
    drop_dangling(insts);
    let newly_dead = |insts: &[Inst]| -> HashSet<Id> {
        dead_declarations(insts).into_iter().filter(|id| !dead_before.contains(id)).collect()
    };
    let mut doomed: HashSet<Id> = if dead.is_empty() { newly_dead(insts) } else { dead.clone() };
    loop {
        spare_referenced(insts, &mut doomed);
        if doomed.is_empty() {
            return;
        }
        insts.retain(|inst| !(is_declaration(inst) && inst.result_id().is_some_and(|r| doomed.contains(&r))));
        drop_dangling(insts);
        doomed = newly_dead(insts);
    }
}

/// Takes out of `doomed` every id that an instruction staying in the
/// module (not descriptive, not doomed itself) refers to: a dead constant
/// that stays still needs its type.
fn spare_referenced(insts: &[Inst], doomed: &mut HashSet<Id>) {
    let defs: HashMap<Id, usize> = insts.iter().enumerate().filter_map(|(i, x)| Some((x.result_id()?, i))).collect();
    loop {
        let mut referenced = HashSet::new();
        for inst in insts.iter().filter(|i| !is_descriptive(i)) {
            if inst.result_id().is_some_and(|r| doomed.contains(&r)) {
                continue;
            }
            refs(inst, &defs, |id| {
                referenced.insert(id);
            });
        }
        let before = doomed.len();
        doomed.retain(|d| !referenced.contains(d));
        if doomed.len() == before {
            return;
        }
    }
}

/// Tidies after an edit: removes what dangles and the declarations the edit
/// left dead (those dead before it, `dead_before`, stay).
pub fn tidy(insts: &mut Vec<Inst>, dead_before: &HashSet<Id>) {
    remove_declarations(insts, &HashSet::new(), dead_before);
}

/// The uses of every value: id → number of non-descriptive instructions
/// referring to it.
pub fn use_counts(insts: &[Inst]) -> HashMap<Id, usize> {
    let mut counts = HashMap::new();
    for inst in insts.iter().filter(|i| !is_descriptive(i)) {
        for_each_id(inst, |id| *counts.entry(*id).or_insert(0) += 1);
    }
    counts
}

/// Reorders the type/constant/variable section so that every declaration
/// follows the declarations it refers to (an edit may retype a variable to
/// a pointer type declared after it). Stable: declarations already in
/// order keep their places; a cycle (only invalid modules have one) is
/// left in its original order.
pub fn sort_declarations(insts: &mut [Inst]) {
    let is_decl = |i: &Inst| i.is_type() || i.is_constant() || matches!(i, Inst::Variable { .. });
    let Some(begin) = insts.iter().position(is_decl) else { return };
    let end = crate::decls::declaration_end(insts).max(begin);
    let Some(section) = insts.get(begin..end) else { return };
    // Debug lines (OpLine/OpNoLine, as model-converter writes them) move
    // with the declaration they precede.
    let is_line = |i: &Inst| matches!(i, Inst::Line { .. } | Inst::NoLine);
    if !section.iter().all(|i| is_decl(i) || is_line(i)) {
        return;
    }
    let mut units: Vec<std::ops::Range<usize>> = Vec::new();
    let mut from = 0;
    for (p, i) in section.iter().enumerate() {
        if !is_line(i) {
            units.push(from..p + 1);
            from = p + 1;
        }
    }
    if from < section.len() {
        units.push(from..section.len());
    }
    let local: HashMap<Id, usize> = units
        .iter()
        .enumerate()
        .filter_map(|(u, r)| Some((section.get(r.end.checked_sub(1)?)?.result_id()?, u)))
        .collect();
    let deps: Vec<Vec<usize>> = units
        .iter()
        .map(|r| {
            let mut d = Vec::new();
            for i in section.get(r.clone()).unwrap_or_default() {
                for_each_id(i, |id| {
                    if let Some(&u) = local.get(id) {
                        d.push(u);
                    }
                });
            }
            d
        })
        .collect();
    let in_order = deps.iter().enumerate().all(|(p, d)| d.iter().all(|&q| q < p));
    if in_order {
        return;
    }
    // Depth first in module order: each declaration right after what it
    // needs, everything else where it was.
    let n = units.len();
    let mut state = vec![0u8; n]; // 0 new, 1 in progress, 2 placed
    let mut order = Vec::with_capacity(n);
    for root in 0..n {
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        while let Some((p, next)) = stack.pop() {
            if next == 0 {
                if state[p] != 0 {
                    continue;
                }
                state[p] = 1;
            }
            match deps[p].get(next) {
                Some(&q) => {
                    stack.push((p, next + 1));
                    if state[q] == 0 {
                        stack.push((q, 0));
                    }
                }
                None => {
                    state[p] = 2;
                    order.push(p);
                }
            }
        }
    }
    let sorted: Vec<Inst> =
        order.iter().filter_map(|&u| section.get(units.get(u)?.clone())).flatten().cloned().collect();
    for (slot, inst) in insts[begin..end].iter_mut().zip(sorted) {
        *slot = inst;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_lines_move_with_the_declaration_they_precede() {
        let line = |n: u32| Inst::Line { file: Id(9), line: n, column: 1 };
        let mut insts = vec![
            Inst::TypeInt { result: Id(1), width: 32, signedness: 0 },
            line(1),
            // Refers to %3, declared after it.
            Inst::Variable { ty: Id(3), result: Id(2), storage: 0, initializer: None },
            Inst::TypePointer { result: Id(3), storage: 0, pointee: Id(1) },
            line(2),
        ];
        sort_declarations(&mut insts);
        assert_eq!(
            insts,
            vec![
                Inst::TypeInt { result: Id(1), width: 32, signedness: 0 },
                Inst::TypePointer { result: Id(3), storage: 0, pointee: Id(1) },
                line(1),
                Inst::Variable { ty: Id(3), result: Id(2), storage: 0, initializer: None },
                line(2),
            ]
        );
    }

    #[test]
    fn declarations_follow_what_they_refer_to_and_dead_ones_are_found() {
        let mut insts = vec![
            Inst::Name { target: Id(4), name: "seven".into() },
            Inst::TypeInt { result: Id(1), width: 32, signedness: 0 },
            // Refers to %3, declared after it.
            Inst::Variable { ty: Id(3), result: Id(2), storage: 0, initializer: None },
            Inst::TypePointer { result: Id(3), storage: 0, pointee: Id(1) },
            Inst::Constant { ty: Id(1), result: Id(4), value: vec![7], spec: false },
        ];
        sort_declarations(&mut insts);
        let order: Vec<Option<Id>> = insts.iter().map(Inst::result_id).collect();
        assert_eq!(order, vec![None, Some(Id(1)), Some(Id(3)), Some(Id(2)), Some(Id(4))]);
        // Nothing but a name refers to %4, and nothing at all to %2 (so %3 and %1 are dead too).
        let dead = dead_declarations(&insts);
        assert!(dead.contains(&Id(4)) && dead.contains(&Id(2)));
        let mut kept = insts.clone();
        remove_declarations(&mut kept, &[Id(4)].into_iter().collect(), &dead);
        assert_eq!(kept.len(), 3, "%4 goes with its name; what was dead before stays: {kept:?}");
        remove_declarations(&mut insts, &[Id(2)].into_iter().collect(), &[Id(4)].into_iter().collect());
        let left: Vec<Option<Id>> = insts.iter().map(Inst::result_id).collect();
        assert_eq!(
            left,
            vec![None, Some(Id(1)), Some(Id(4))],
            "%3 dies with %2; %4 was dead before and keeps its type"
        );
    }
}
