//! The shape change on generated modules, `corpus/valid` and a model-converter CNN,
//! checked by the in-tree validator and spirv-val.

use super::origin::{new_attribute, refactor};
use super::plan::{follow_dims, refit};
use super::*;
use spvgraph_ir::tosa::{ShapeInputs, MAX_RANK};
use spvgraph_oracle::external::spirv_val::SpirvVal;
use spvgraph_oracle::oracle::{ValidateOptions, Validator as _};
use spvgraph_oracle::tools::{locate, Tool};
use spvgraph_oracle::validate::Validator;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

fn validator() -> &'static Validator {
    static V: OnceLock<Validator> = OnceLock::new();
    V.get_or_init(|| Validator::new(ValidateOptions::default()))
}

fn valid(m: &Module) -> bool {
    validator().rule(m).is_valid()
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Small generated modules (one graph of up to 6 nodes).
fn generated() -> Vec<(String, Module)> {
    let c = crate::Config { max_graphs: 1, max_nodes: 6, ..Default::default() };
    (0..24).map(|s| (format!("generated seed {s}"), crate::generate_from_seed(s, &c).module)).collect()
}

/// The valid modules of `corpus/valid` (every `n`-th) and the
/// model-converter CNN of the ir benches.
fn real(every: usize) -> Vec<(String, Module)> {
    let mut files: Vec<PathBuf> = crate::mutate::tests::corpus_valid().into_iter().step_by(every).collect();
    files.push(repo().join("ir/benches/data/large_cnn.spv"));
    let mut out = Vec::new();
    for f in files {
        let bytes = std::fs::read(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let m = Module::decode_bytes(&bytes).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        if valid(&m) {
            out.push((f.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned()), m));
        }
    }
    out
}

/// Up to `tries` changes of each module, with whether each is valid.
fn changes(modules: &[(String, Module)], tries: usize) -> Vec<(String, Module, ShapeChange, bool)> {
    let mut rng = SplitMix64::new(12);
    let mut out = Vec::new();
    for (name, m) in modules {
        for _ in 0..tries {
            if let Ok((changed, change)) = attempt(m, &mut rng) {
                let ok = valid(&changed);
                out.push((name.clone(), changed, change, ok));
            }
        }
    }
    out
}

/// The declared shape of `value` in `m`.
fn shape(m: &Module, value: Id) -> Option<Vec<u32>> {
    shapes::declared_shape(&Analysis::new(m), value)
}

fn assert_changed(name: &str, m: &Module, c: &ShapeChange) {
    assert_ne!(c.before, c.after, "{name}: {c:?} is no change");
    assert_eq!(shape(m, c.value).as_ref(), Some(&c.after), "{name}: the changed value's type is not the new shape");
}

/// Asserts that a good share of the changes are valid and that each
/// changed its value's type; the valid ones.
fn check_changes(what: &str, modules: &[(String, Module)], tries: usize) -> Vec<(String, Module, ShapeChange)> {
    assert!(!modules.is_empty(), "no valid {what} modules");
    let all = changes(modules, tries);
    let mut good = Vec::new();
    let mut sources = BTreeSet::new();
    for (name, m, c, ok) in all.iter().cloned() {
        assert_changed(&name, &m, &c);
        if ok {
            sources.insert(name.clone());
            good.push((name, m, c));
        }
    }
    eprintln!(
        "{what}: {} modules, {} changes, {} valid, from {} modules",
        modules.len(),
        all.len(),
        good.len(),
        sources.len()
    );
    assert!(good.len() * 2 >= all.len(), "{what}: only {} of {} changes are valid", good.len(), all.len());
    assert!(
        sources.len() * 2 >= modules.len(),
        "{what}: valid changes on {} of {} modules",
        sources.len(),
        modules.len()
    );
    good
}

#[test]
fn changed_generated_modules_are_valid_and_have_the_new_shape() {
    let good = check_changes("generated", &generated(), 8);
    // Both kinds of start and the followers all occur.
    let a = |(_, m, c): &(String, Module, ShapeChange)| {
        matches!(Analysis::new(m).def(c.value), Some(Inst::GraphInput { .. }))
    };
    assert!(good.iter().any(a), "no graph input changed");
    assert!(good.iter().any(|g| !a(g)), "no attribute changed");
    assert!(good.iter().any(|(_, _, c)| c.reshaped > 1), "no change reached a consumer");
}

#[test]
fn changed_corpus_modules_are_valid_and_have_the_new_shape() {
    let modules = real(4);
    let good = check_changes("corpus/valid and large_cnn", &modules, 4);
    assert!(good.iter().any(|(n, _, _)| n == "large_cnn.spv"), "no valid change of the model-converter CNN");
}

#[test]
fn the_model_converter_cnn_changes_its_batch_through_every_layer() {
    let modules = real(usize::MAX);
    let (name, cnn) = modules.last().expect("large_cnn.spv is valid");
    assert_eq!(name, "large_cnn.spv");
    let mut rng = SplitMix64::new(3);
    let deep = (0..64)
        .filter_map(|_| attempt(cnn, &mut rng).ok())
        .filter(|(m, _)| valid(m))
        .map(|(_, c)| c.reshaped)
        .max()
        .expect("some valid change");
    let nodes = cnn.insts.iter().filter(|i| matches!(i, Inst::Tosa { .. })).count();
    assert!(deep * 2 > nodes, "the deepest valid change reshaped {deep} values of {nodes} nodes");
}

/// spirv-val accepts every valid change of a module it accepts (the
/// pinned release rejects the debug instructions model-converter puts in
/// graph bodies; `SPVGRAPH_TOOL_SPIRV_VAL` picks another build).
#[test]
fn spirv_val_accepts_the_changed_modules() {
    let Some(exe) = locate(Tool::SpirvVal).expect("spirv-val (CI=true requires it)") else { return };
    let sv = SpirvVal::process_only(exe);
    let accepts = |m: &Module| {
        let words = m.encode_words().expect("encodes");
        sv.validate(&words, &ValidateOptions::default()).expect("spirv-val runs")
    };
    let mut modules = generated();
    modules.extend(real(8));
    let mut rng = SplitMix64::new(5);
    let (mut checked, mut rejected_before) = (0, 0);
    for (name, m) in &modules {
        if !accepts(m).is_valid() {
            rejected_before += 1;
            continue;
        }
        for (changed, c) in (0..3).filter_map(|_| attempt(m, &mut rng).ok()).filter(|(m, _)| valid(m)) {
            let verdict = accepts(&changed);
            assert!(verdict.is_valid(), "{name}: spirv-val rejects {c:?}: {verdict:?}");
            checked += 1;
        }
    }
    eprintln!(
        "{checked} changes accepted; {rejected_before} of {} originals rejected by this spirv-val",
        modules.len()
    );
    assert!(rejected_before * 4 <= modules.len(), "spirv-val rejects {rejected_before} of the valid originals");
    assert!(checked >= modules.len(), "only {checked} changes checked");
}

#[test]
fn follow_dims_moves_the_shared_dimensions() {
    assert_eq!(follow_dims(&[2, 3], &[2, 5], &[2, 3]), Some(vec![2, 5]));
    assert_eq!(follow_dims(&[2, 3], &[4, 3], &[2, 7]), Some(vec![4, 7]));
    assert_eq!(follow_dims(&[2, 3], &[2, 3, 1], &[2, 3]), Some(vec![2, 3, 1]));
    assert_eq!(follow_dims(&[2, 3], &[2, 3, 1], &[1, 3]), None);
    assert_eq!(follow_dims(&[1, 3], &[2, 3], &[4, 3]), Some(vec![4, 3]), "a broadcast 1 does not follow");
}

#[test]
fn huge_dimensions_are_drawn_from_without_listing_them() {
    // A SLICE of a 2^31-1 wide input once made the mutator list every size.
    let mut rng = SplitMix64::new(4);
    let wide = i64::from(i32::MAX);
    let inputs = ShapeInputs::new().tensor(vec![1, i32::MAX as u32]).ints(vec![0, 0]).ints(vec![1, wide - 5]);
    for _ in 0..100 {
        let (k, v) = new_attribute(TosaOp::Slice, &inputs, &mut rng).expect("a new size");
        assert_eq!(k, 2);
        assert!(v[1] >= 1 && v[1] <= wide && v[1] != wide - 5, "{v:?}");
    }
    let reshape = ShapeInputs::new().tensor(vec![u32::MAX; 6]).ints(vec![1, 1]);
    assert_eq!(refit(TosaOp::Reshape, &reshape, &mut rng), None, "the element count overflows");
}

#[test]
fn refactor_keeps_the_element_count() {
    let mut rng = SplitMix64::new(9);
    for shape in [vec![4i64, 6], vec![12], vec![2, 3, 5], vec![1, 8, 8, 3]] {
        for _ in 0..20 {
            if let Some(s) = refactor(&shape, &mut rng) {
                assert_ne!(s, shape);
                assert_eq!(s.iter().product::<i64>(), shape.iter().product::<i64>(), "{shape:?} -> {s:?}");
                assert!(s.iter().all(|&d| d >= 1) && s.len() <= MAX_RANK as usize);
            }
        }
    }
    assert_eq!(refactor(&[7], &mut rng), None, "a prime rank-1 shape has no other factorisation");
}
