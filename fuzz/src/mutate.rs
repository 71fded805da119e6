//! A structure-aware mutator for graph modules (the model is wasm-mutate):
//! decode the input as a module, apply one semantic mutation, keep it only
//! if the in-tree validator still accepts the module (otherwise try another),
//! and encode it again. Inputs that do not decode, or valid modules no
//! mutation applies to, are left to libFuzzer's byte mutation.
//!
//! Mutations ([`Mutation`]):
//! - swap two operands of a TOSA instruction that have the same type;
//! - change the value of a scalar constant;
//! - change an attribute: point a TOSA operand that reads a constant at
//!   another constant of the same type;
//! - duplicate a node (with a fresh result id; half the time one later use
//!   reads the duplicate);
//! - replace a node's operator with another taking as many operands;
//! - insert a node: a one-operand operator on a tensor value, whose later
//!   uses then read its result;
//! - change a shape consistently: a graph input's dimension or rank, or a
//!   RESHAPE/TILE/PAD/SLICE attribute, carried through every consumer by
//!   the shape rules ([`crate::shape_change`]).

use spvgraph_generator::prng::SplitMix64;
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::tosa::{Form, TosaOp};
use spvgraph_ir::Module;
use spvgraph_oracle::oracle::ValidateOptions;
use spvgraph_oracle::validate::Validator;
use std::collections::HashMap;
use std::sync::OnceLock;

/// One kind of semantic mutation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mutation {
    /// Swap two same-typed operands of a TOSA instruction.
    SwapOperands,
    /// Change a scalar `OpConstant`'s value.
    ChangeConstant,
    /// Read another constant of the same type as a TOSA operand.
    ChangeAttribute,
    /// Duplicate a TOSA instruction.
    DuplicateNode,
    /// Replace a TOSA instruction's operator with one of the same arity.
    ReplaceOperator,
    /// Insert a one-operand TOSA instruction on a tensor value.
    InsertNode,
    /// Change a shape and carry it through the graph by the shape rules.
    ChangeShape,
}

impl Mutation {
    /// Every mutation.
    pub const ALL: [Mutation; 7] = [
        Mutation::SwapOperands,
        Mutation::ChangeConstant,
        Mutation::ChangeAttribute,
        Mutation::DuplicateNode,
        Mutation::ReplaceOperator,
        Mutation::InsertNode,
        Mutation::ChangeShape,
    ];
}

/// Whether the custom mutator is on (`SPVGRAPH_FUZZ_MUTATOR=0` turns it off,
/// for coverage comparisons with byte mutation alone).
pub fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var("SPVGRAPH_FUZZ_MUTATOR").map_or(true, |v| v.trim() != "0"))
}

/// How many mutations [`mutate_valid`] tries before giving up.
pub const ATTEMPTS: usize = 16;

fn validator() -> &'static Validator {
    static V: OnceLock<Validator> = OnceLock::new();
    V.get_or_init(|| Validator::new(ValidateOptions::default()))
}

/// `data` mutated in place by one semantic mutation that keeps the module
/// valid; the new length, or `None` when `data` does not decode as a valid
/// module, no mutation applied within [`ATTEMPTS`], or the result would not
/// fit `max_size` (the caller then falls back to byte mutation).
pub fn mutate_in_place(data: &mut [u8], size: usize, max_size: usize, seed: u32) -> Option<usize> {
    let module = Module::decode_bytes(data.get(..size)?).ok()?;
    let mut rng = SplitMix64::new(u64::from(seed) ^ 0x5eed_5eed_0000_0000);
    let (mutated, _) = mutate_valid(&module, &mut rng)?;
    let bytes = mutated.encode_bytes().ok()?;
    if bytes.len() > max_size.min(data.len()) {
        return None;
    }
    data[..bytes.len()].copy_from_slice(&bytes);
    Some(bytes.len())
}

/// One mutation of `module` that the in-tree validator accepts, and which
/// one it was; `None` when `module` itself is invalid or no attempt gave a
/// valid module.
pub fn mutate_valid(module: &Module, rng: &mut SplitMix64) -> Option<(Module, Mutation)> {
    if !validator().rule(module).is_valid() {
        return None;
    }
    for _ in 0..ATTEMPTS {
        let kind = Mutation::ALL[rng.below(Mutation::ALL.len() as u64) as usize];
        if let Some(m) = mutate(module, kind, rng) {
            if validator().rule(&m).is_valid() {
                return Some((m, kind));
            }
        }
    }
    None
}

/// `module` with one mutation of kind `kind` applied (valid or not), or
/// `None` when the module has nothing it applies to or it changed nothing.
pub fn mutate(module: &Module, kind: Mutation, rng: &mut SplitMix64) -> Option<Module> {
    let mut m = module.clone();
    let types = result_types(&m);
    let done = match kind {
        Mutation::SwapOperands => swap_operands(&mut m, &types, rng),
        Mutation::ChangeConstant => change_constant(&mut m, rng),
        Mutation::ChangeAttribute => change_attribute(&mut m, &types, rng),
        Mutation::DuplicateNode => duplicate_node(&mut m, rng),
        Mutation::ReplaceOperator => replace_operator(&mut m, rng),
        Mutation::InsertNode => insert_node(&mut m, &types, rng),
        Mutation::ChangeShape => match crate::shape_change::change_shape(&m, rng) {
            Some((changed, _)) => {
                m = changed;
                true
            }
            None => false,
        },
    };
    // A mutation that lands on the same value (0 -> 0) is no mutation.
    (done && m != *module).then_some(m)
}

/// Result id -> result type id, for every typed result.
fn result_types(m: &Module) -> HashMap<Id, Id> {
    m.insts.iter().filter_map(|i| Some((i.result_id()?, i.result_type()?))).collect()
}

fn pick<T: Copy>(items: &[T], rng: &mut SplitMix64) -> Option<T> {
    items.get(rng.below(items.len() as u64) as usize).copied()
}

fn tosa_indices(m: &Module) -> Vec<usize> {
    m.insts.iter().enumerate().filter(|(_, i)| matches!(i, Inst::Tosa { .. })).map(|(k, _)| k).collect()
}

fn fresh_id(m: &mut Module) -> Id {
    let id = Id(m.header.bound);
    m.header.bound += 1;
    id
}

fn swap_operands(m: &mut Module, types: &HashMap<Id, Id>, rng: &mut SplitMix64) -> bool {
    let Some(at) = pick(&tosa_indices(m), rng) else { return false };
    let Some(Inst::Tosa { args, .. }) = m.insts.get_mut(at) else { return false };
    let mut pairs = Vec::new();
    for i in 0..args.len() {
        for j in i + 1..args.len() {
            if args[i] != args[j] && types.get(&args[i]).is_some_and(|t| types.get(&args[j]) == Some(t)) {
                pairs.push((i, j));
            }
        }
    }
    let Some((i, j)) = pick(&pairs, rng) else { return false };
    args.swap(i, j);
    true
}

fn change_constant(m: &mut Module, rng: &mut SplitMix64) -> bool {
    let constants: Vec<usize> = m
        .insts
        .iter()
        .enumerate()
        .filter(|(_, i)| matches!(i, Inst::Constant { value, spec: false, .. } if !value.is_empty()))
        .map(|(k, _)| k)
        .collect();
    let Some(at) = pick(&constants, rng) else { return false };
    let Some(Inst::Constant { value, .. }) = m.insts.get_mut(at) else { return false };
    let Some(w) = value.first_mut() else { return false };
    *w = match rng.below(5) {
        0 => w.wrapping_add(1),
        1 => w.wrapping_sub(1),
        2 => *w ^ (1 << rng.below(32)),
        3 => 0,
        _ => rng.next_u64() as u32,
    };
    true
}

fn is_constant(i: &Inst) -> bool {
    matches!(
        i,
        Inst::Constant { .. }
            | Inst::ConstantTrue { .. }
            | Inst::ConstantFalse { .. }
            | Inst::ConstantComposite { .. }
            | Inst::ConstantCompositeReplicate { .. }
            | Inst::ConstantNull { .. }
            | Inst::GraphConstant { .. }
    )
}

fn change_attribute(m: &mut Module, types: &HashMap<Id, Id>, rng: &mut SplitMix64) -> bool {
    let constants: Vec<(Id, Id)> =
        m.insts.iter().filter(|i| is_constant(i)).filter_map(|i| Some((i.result_id()?, i.result_type()?))).collect();
    let Some(at) = pick(&tosa_indices(m), rng) else { return false };
    let Some(Inst::Tosa { args, .. }) = m.insts.get_mut(at) else { return false };
    let slots: Vec<usize> = (0..args.len()).filter(|&k| constants.iter().any(|(c, _)| *c == args[k])).collect();
    let Some(k) = pick(&slots, rng) else { return false };
    let Some(ty) = types.get(&args[k]) else { return false };
    let others: Vec<Id> = constants.iter().filter(|(c, t)| t == ty && *c != args[k]).map(|(c, _)| *c).collect();
    let Some(other) = pick(&others, rng) else { return false };
    args[k] = other;
    true
}

/// Replaces `from` by `to` in the value operands of graph instructions at or
/// after `start` (TOSA operands and graph outputs); how many were replaced,
/// at most `limit`.
fn rewire(m: &mut Module, start: usize, from: Id, to: Id, limit: usize) -> usize {
    let mut n = 0;
    for inst in m.insts.iter_mut().skip(start) {
        let slots: Vec<&mut Id> = match inst {
            Inst::Tosa { args, .. } => args.iter_mut().filter(|a| **a == from).collect(),
            Inst::GraphSetOutput { value, .. } if *value == from => vec![value],
            _ => Vec::new(),
        };
        for s in slots {
            if n == limit {
                return n;
            }
            *s = to;
            n += 1;
        }
    }
    n
}

fn duplicate_node(m: &mut Module, rng: &mut SplitMix64) -> bool {
    let Some(at) = pick(&tosa_indices(m), rng) else { return false };
    let Some(mut copy) = m.insts.get(at).cloned() else { return false };
    let Some(old) = copy.result_id() else { return false };
    let new = fresh_id(m);
    if let Some(r) = copy.result_id_mut() {
        *r = new;
    }
    m.insts.insert(at + 1, copy);
    if rng.chance(0.5) {
        rewire(m, at + 2, old, new, 1);
    }
    true
}

fn replace_operator(m: &mut Module, rng: &mut SplitMix64) -> bool {
    let Some(at) = pick(&tosa_indices(m), rng) else { return false };
    let Some(Inst::Tosa { op, args, .. }) = m.insts.get_mut(at) else { return false };
    let same_arity: Vec<TosaOp> =
        TosaOp::ALL.into_iter().filter(|o| *o != *op && o.spec().operands.len() == args.len()).collect();
    let Some(other) = pick(&same_arity, rng) else { return false };
    *op = other;
    true
}

/// Operators with one operand, a tensor (ABS, CEIL, ... , IDENTITY).
fn unary_ops() -> &'static [TosaOp] {
    static OPS: OnceLock<Vec<TosaOp>> = OnceLock::new();
    OPS.get_or_init(|| {
        TosaOp::ALL
            .into_iter()
            .filter(|o| matches!(o.spec().operands, [only] if matches!(only.form, Form::Tensor { .. })))
            .collect()
    })
}

fn insert_node(m: &mut Module, types: &HashMap<Id, Id>, rng: &mut SplitMix64) -> bool {
    let Some(set) = m.insts.iter().find_map(|i| if let Inst::Tosa { set, .. } = i { Some(*set) } else { None }) else {
        return false;
    };
    // Values of a graph body: TOSA results, and graph inputs (the new node
    // then goes after the block's last input, where body instructions start).
    let values: Vec<usize> = m
        .insts
        .iter()
        .enumerate()
        .filter(|(_, i)| matches!(i, Inst::Tosa { .. } | Inst::GraphInput { .. }))
        .map(|(k, _)| k)
        .collect();
    let Some(at) = pick(&values, rng) else { return false };
    let Some(x) = m.insts.get(at).and_then(Inst::result_id) else { return false };
    let Some(&ty) = types.get(&x) else { return false };
    let Some(op) = pick(unary_ops(), rng) else { return false };
    let mut pos = at + 1;
    while matches!(m.insts.get(pos), Some(Inst::GraphInput { .. })) {
        pos += 1;
    }
    let y = fresh_id(m);
    m.insts.insert(pos, Inst::Tosa { ty, result: y, set, op, args: vec![x] });
    rewire(m, pos + 1, x, y, usize::MAX);
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn seeds() -> Vec<Module> {
        let mut out = vec![spvgraph_ir::samples::elementwise_chain(6)];
        for seed in 0..12 {
            let c = spvgraph_generator::Config { max_graphs: 1, max_nodes: 6, ..Default::default() };
            out.push(spvgraph_generator::generate_from_seed(seed, &c).module);
        }
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("seeds/roundtrip");
        for f in crate::corpus_files(&dir) {
            if let Ok(m) = std::fs::read(&f).map_err(|_| ()).and_then(|b| Module::decode_bytes(&b).map_err(|_| ())) {
                out.push(m);
            }
        }
        out
    }

    #[test]
    fn every_mutation_gives_a_valid_module_on_some_seed() {
        let mut valid_by_kind: HashSet<Mutation> = HashSet::new();
        let mut rng = SplitMix64::new(1);
        for module in seeds().iter().filter(|m| validator().rule(m).is_valid()) {
            for kind in Mutation::ALL {
                for _ in 0..20 {
                    if let Some(m) = mutate(module, kind, &mut rng) {
                        assert_ne!(&m, module, "{kind:?} changed nothing");
                        // Every mutation encodes and decodes back.
                        let bytes = m.encode_bytes().expect("mutated modules encode");
                        assert!(Module::decode_bytes(&bytes).is_ok(), "{kind:?}");
                        if validator().rule(&m).is_valid() {
                            valid_by_kind.insert(kind);
                        }
                    }
                }
            }
        }
        for kind in Mutation::ALL {
            assert!(valid_by_kind.contains(&kind), "{kind:?} never gave a valid module");
        }
    }

    #[test]
    fn mutate_valid_keeps_modules_valid() {
        let mut rng = SplitMix64::new(7);
        let mut mutated = 0;
        for module in seeds() {
            let mut current = module;
            for _ in 0..10 {
                let Some((m, kind)) = mutate_valid(&current, &mut rng) else { break };
                let report = validator().check(&m);
                assert!(report.is_valid(), "{kind:?}: {:?}", report.errors().next());
                current = m;
                mutated += 1;
            }
        }
        assert!(mutated > 50, "only {mutated} valid mutations");
    }

    /// Long chains of mutations from every valid module of `corpus/valid`,
    /// as a fuzzing run makes them (a panic or an invalid result fails):
    /// `cargo test --lib mutate::tests::chains -- --ignored`.
    #[test]
    #[ignore]
    fn chains_from_the_valid_corpus() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/valid");
        let mut rng = SplitMix64::new(99);
        let mut by_kind: HashMap<Mutation, usize> = HashMap::new();
        for f in crate::corpus_files(&dir).into_iter().filter(|p| p.extension().is_some_and(|e| e == "spv")) {
            let Ok(mut current) =
                std::fs::read(&f).map_err(|_| ()).and_then(|b| Module::decode_bytes(&b).map_err(|_| ()))
            else {
                continue;
            };
            for _ in 0..30 {
                let Some((m, kind)) = mutate_valid(&current, &mut rng) else { break };
                assert!(validator().rule(&m).is_valid(), "{}: {kind:?}", f.display());
                *by_kind.entry(kind).or_default() += 1;
                current = m;
            }
        }
        eprintln!("{by_kind:?}");
        assert!(Mutation::ALL.iter().all(|k| by_kind.contains_key(k)), "{by_kind:?}");
    }

    #[test]
    fn bytes_that_do_not_decode_are_left_to_byte_mutation() {
        let mut data = vec![1u8, 2, 3, 4, 5, 6, 7];
        assert_eq!(mutate_in_place(&mut data, 7, 64, 3), None);
        let module = spvgraph_ir::samples::elementwise_chain(4);
        let bytes = module.encode_bytes().expect("encodes");
        let mut buf = bytes.clone();
        buf.resize(bytes.len() * 2, 0);
        let max = buf.len();
        let n = mutate_in_place(&mut buf, bytes.len(), max, 11).expect("a chain has mutations");
        let m = Module::decode_bytes(&buf[..n]).expect("the mutated bytes decode");
        assert!(validator().rule(&m).is_valid());
        assert_ne!(m, module);
    }
}
