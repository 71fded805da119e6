//! Generated modules (valid by construction) are accepted by the in-tree
//! validator, and spirv-val agrees on them.
//!
//! CI runs a few hundred seeds; `VALIDATE_SEEDS=N cargo test --release -p
//! spvgraph-oracle --test it -- --ignored validate_generated::` runs N.

use crate::validate_common as common;
use spvgraph_oracle::oracle::Validator as _;

use common::*;
use spvgraph_generator::{generate_from_seed, Config};
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::tosa::{ResultKind, TosaOp};
use spvgraph_ir::Module;
use spvgraph_oracle::oracle::ValidateOptions;
use spvgraph_oracle::validate::Validator;
use std::collections::BTreeSet;

fn check_seeds(seeds: std::ops::Range<u64>) {
    let config = Config::default();
    let v = Validator::new(ValidateOptions::default());
    let sv = spirv_val();
    let mut failures = Vec::new();
    for seed in seeds {
        let case = generate_from_seed(seed, &config);
        let w = words(&case.module);
        let r = v.check_words(&w);
        if !r.is_valid() {
            failures.push(format!("seed {seed}: in-tree rejects a generated module:\n{}", show(&r)));
        }
        if let Some(sv) = &sv {
            let verdict = sv.validate(&w, &ValidateOptions::default()).expect("spirv-val runs");
            if !verdict.is_valid() {
                failures.push(format!("seed {seed}: spirv-val rejects a generated module: {verdict:?}"));
            }
        }
        if failures.len() > 10 {
            break;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn generated_modules_are_accepted() {
    check_seeds(0..300);
}

/// Gives instruction `at` (a TOSA instruction with a shaped tensor result)
/// a new result type whose first dimension is one larger; returns the module
/// and the instruction's new index, or `None` when the result is not a
/// shaped tensor of a module with a 32-bit integer type.
fn grow_result(m: &Module, at: usize) -> Option<(Module, usize)> {
    let Some(Inst::Tosa { ty, .. }) = m.insts.get(at) else { return None };
    let (element, shape_id) = match m.insts.iter().find(|i| i.result_id() == Some(*ty))? {
        Inst::TypeTensor { element, shape: Some(s), .. } => (*element, *s),
        _ => return None,
    };
    let dims: Vec<u32> = match m.insts.iter().find(|i| i.result_id() == Some(shape_id))? {
        Inst::ConstantComposite { constituents, .. } => constituents
            .iter()
            .map(|c| match m.insts.iter().find(|i| i.result_id() == Some(*c)) {
                Some(Inst::Constant { value, .. }) => value.first().copied(),
                _ => None,
            })
            .collect::<Option<Vec<u32>>>()?,
        _ => return None,
    };
    let u32t = m.insts.iter().find(|i| matches!(i, Inst::TypeInt { width: 32, signedness: 0, .. }))?.result_id()?;
    let mut m = m.clone();
    let mut new_id = || fresh(&mut m);
    let mut globals = Vec::new();
    let konst = |v: u32, globals: &mut Vec<Inst>, id: Id| {
        globals.push(Inst::Constant { ty: u32t, result: id, value: vec![v], spec: false });
        id
    };
    let rank = konst(dims.len() as u32, &mut globals, new_id());
    let arr = new_id();
    globals.push(Inst::TypeArray { result: arr, element: u32t, length: rank });
    let mut grown = dims.clone();
    grown[0] += 1;
    let parts: Vec<Id> = grown.iter().map(|&d| konst(d, &mut globals, new_id())).collect();
    let shape = new_id();
    globals.push(Inst::ConstantComposite { ty: arr, result: shape, constituents: parts, spec: false });
    let tensor = new_id();
    globals.push(Inst::TypeTensor { result: tensor, element, rank: Some(rank), shape: Some(shape) });
    if let Some(Inst::Tosa { ty, .. }) = m.insts.get_mut(at) {
        *ty = tensor;
    }
    let place = m.insts.iter().position(|i| matches!(i, Inst::GraphEntryPoint { .. } | Inst::Graph { .. }))?;
    let added = globals.len();
    for (k, g) in globals.into_iter().enumerate() {
        m.insts.insert(place + k, g);
    }
    Some((m, at + added))
}

/// Every operator's shape rule is enforced: growing the declared result of
/// any TOSA instruction of a generated module by one is reported at that
/// instruction with a `tosa.*` rule. The seeds cover all 66 operators.
#[test]
fn a_wrong_result_shape_is_caught_for_every_operator() {
    let config = Config::default();
    let mut covered = BTreeSet::new();
    let mut failures = Vec::new();
    for seed in 0..300 {
        let case = generate_from_seed(seed, &config);
        for at in 0..case.module.insts.len() {
            let Some(Inst::Tosa { op, .. }) = case.module.insts.get(at) else { continue };
            let Some((broken, moved)) = grow_result(&case.module, at) else { continue };
            let r = check(&broken);
            let target = broken.word_offsets().get(moved).copied();
            let caught = r.errors().any(|f| f.word_offset == target && f.rule.name().starts_with("tosa."));
            if caught {
                covered.insert(op.opcode());
            } else {
                failures.push(format!("seed {seed}, {op} at {at}:\n{}", show(&r)));
            }
            if failures.len() > 5 {
                break;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // FFT2D and RFFT2D return a struct of two tensors, which this mutation
    // does not touch (their shapes are covered by validate_rules.rs).
    let missing: Vec<TosaOp> = TosaOp::ALL
        .into_iter()
        .filter(|o| !covered.contains(&o.opcode()) && o.spec().result.kind == ResultKind::Tensor)
        .collect();
    assert!(missing.is_empty(), "operators never mutated: {missing:?}");
}

#[test]
#[ignore = "long sweep: VALIDATE_SEEDS=N (default 10000)"]
fn generated_modules_are_accepted_sweep() {
    let n = std::env::var("VALIDATE_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(10_000);
    check_seeds(0..n);
}
