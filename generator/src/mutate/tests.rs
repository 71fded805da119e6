//! Every mutation on generated modules and `corpus/valid`, judged by the
//! in-tree validator.

use super::*;
use spvgraph_oracle::oracle::ValidateOptions;
use spvgraph_oracle::validate::Validator;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

fn validator() -> &'static Validator {
    static V: OnceLock<Validator> = OnceLock::new();
    V.get_or_init(|| Validator::new(ValidateOptions::default()))
}

fn valid(m: &Module) -> bool {
    validator().rule(m).is_valid()
}

/// The `.spv` files of `corpus/valid`, sorted.
pub(super) fn corpus_valid() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/valid");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "spv"))
        .collect();
    files.sort();
    files
}

fn seeds() -> Vec<Module> {
    let mut out = vec![spvgraph_ir::samples::elementwise_chain(6)];
    for seed in 0..12 {
        let c = crate::Config { max_graphs: 1, max_nodes: 6, ..Default::default() };
        out.push(crate::generate_from_seed(seed, &c).module);
    }
    for f in corpus_valid().into_iter().step_by(20) {
        let bytes = std::fs::read(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        out.push(Module::decode_bytes(&bytes).unwrap_or_else(|e| panic!("{}: {e}", f.display())));
    }
    out
}

#[test]
fn every_mutation_gives_a_valid_module_on_some_seed() {
    let mut valid_by_kind: HashSet<Mutation> = HashSet::new();
    let mut rng = SplitMix64::new(1);
    for module in seeds().iter().filter(|m| valid(m)) {
        for kind in Mutation::ALL {
            for _ in 0..20 {
                if let Some(m) = mutate(module, kind, &mut rng) {
                    assert_ne!(&m, module, "{kind:?} changed nothing");
                    // Every mutation encodes and decodes back.
                    let bytes = m.encode_bytes().expect("mutated modules encode");
                    assert!(Module::decode_bytes(&bytes).is_ok(), "{kind:?}");
                    if valid(&m) {
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
            let Some((m, kind)) = mutate_valid(&current, &mut rng, &valid) else { break };
            let report = validator().check(&m);
            assert!(report.is_valid(), "{kind:?}: {:?}", report.errors().next());
            current = m;
            mutated += 1;
        }
    }
    assert!(mutated > 50, "only {mutated} valid mutations");
}

#[test]
fn neighbours_are_distinct_valid_and_drawn_from_the_seed_alone() {
    let module = spvgraph_ir::samples::elementwise_chain(6);
    let a = neighbours(&module, 42, 5, &valid);
    assert_eq!(a.len(), 5, "a six-node chain has five neighbours");
    for (i, (m, kind)) in a.iter().enumerate() {
        assert!(valid(m), "{kind:?}");
        assert_ne!(m, &module);
        assert!(a[..i].iter().all(|(o, _)| o != m), "neighbour {i} repeats one");
    }
    let again = neighbours(&module, 42, 5, &valid);
    assert_eq!(a, again, "the same seed gives the same neighbours");
    assert_ne!(a, neighbours(&module, 43, 5, &valid), "another seed gives others");
    assert!(neighbours(&module, 42, 0, &valid).is_empty());
    // A module the check rejects has no neighbours.
    assert!(neighbours(&module, 42, 5, &|_| false).is_empty());
}

/// Long chains of mutations from every valid module of `corpus/valid`,
/// as a fuzzing run makes them (a panic or an invalid result fails):
/// `cargo test -p spvgraph-generator --release --lib mutate::tests::chains -- --ignored`.
#[test]
#[ignore]
fn chains_from_the_valid_corpus() {
    let mut rng = SplitMix64::new(99);
    let mut by_kind: HashMap<Mutation, usize> = HashMap::new();
    for f in corpus_valid() {
        let bytes = std::fs::read(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let Ok(mut current) = Module::decode_bytes(&bytes) else { continue };
        for _ in 0..30 {
            let Some((m, kind)) = mutate_valid(&current, &mut rng, &valid) else { break };
            assert!(valid(&m), "{}: {kind:?}", f.display());
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
    assert_eq!(mutate_bytes(&mut data, 7, 64, 3, &valid), None);
    let module = spvgraph_ir::samples::elementwise_chain(4);
    let bytes = module.encode_bytes().expect("encodes");
    let mut buf = bytes.clone();
    buf.resize(bytes.len() * 2, 0);
    let max = buf.len();
    let n = mutate_bytes(&mut buf, bytes.len(), max, 11, &valid).expect("a chain has mutations");
    let m = Module::decode_bytes(&buf[..n]).expect("the mutated bytes decode");
    assert!(valid(&m));
    assert_ne!(m, module);
}

/// `ALL` is derived from the declaration: it must still be the list
/// that was written by hand, in the same order.
#[test]
fn all_mutations_are_the_hand_written_list() {
    let hand_written = [
        Mutation::SwapOperands,
        Mutation::ChangeConstant,
        Mutation::ChangeAttribute,
        Mutation::DuplicateNode,
        Mutation::ReplaceOperator,
        Mutation::InsertNode,
        Mutation::ChangeShape,
    ];
    assert_eq!(Mutation::ALL, hand_written);
}
