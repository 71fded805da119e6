//! Round-trip identity over real modules: hand-written `.spvasm` assembled by
//! spirv-as (covering every construct the model types), and modules produced
//! by model-converter from TOSA MLIR, with and without `--emit-debug-info`.

use crate::support;

use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::{Inst, Module};
use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};

fn spv_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "spv")).collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// Decodes, checks encode is the identity, and returns the module.
fn round_trip(path: &Path) -> Module {
    let bytes = std::fs::read(path).expect("read fixture");
    let m = Module::decode_bytes(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let again = m.encode_bytes().expect("encode");
    if again != bytes {
        let a = spvgraph_ir::binary::bytes_to_words(&bytes).expect("words").0;
        let b = m.encode_words().expect("words");
        panic!("{}: differs at word {:?}", path.display(), spvgraph_ir::module::first_difference(&a, &b));
    }
    m
}

/// Graph-module instructions that must never be kept as `Raw`.
fn modelled_opcode(op: u16) -> bool {
    use spirv::Op;
    [
        Op::TypeTensorARM,
        Op::TypeGraphARM,
        Op::GraphConstantARM,
        Op::GraphEntryPointARM,
        Op::GraphARM,
        Op::GraphInputARM,
        Op::GraphSetOutputARM,
        Op::GraphEndARM,
        Op::ConstantCompositeReplicateEXT,
        Op::ExtInst,
        Op::CompositeExtract,
        Op::Constant,
        Op::ConstantComposite,
    ]
    .iter()
    .any(|o| *o as u16 == op)
}

#[test]
fn spvasm_fixtures_round_trip_and_cover_every_tosa_operator() {
    let Some(out) = support::build_fixtures() else { return };
    let files = spv_files(&out.join("spvasm"));
    assert!(files.len() >= 10, "expected the spvasm fixtures, found {}", files.len());
    let mut ops = BTreeSet::new();
    let mut kinds = HashSet::new();
    for f in &files {
        let m = round_trip(f);
        for inst in &m.insts {
            match inst {
                Inst::Tosa { op, .. } => {
                    ops.insert(op.opcode());
                }
                Inst::Raw { opcode, .. } => {
                    assert!(!modelled_opcode(*opcode), "{}: opcode {opcode} left untyped", f.display())
                }
                _ => {}
            }
            kinds.insert(std::mem::discriminant(inst));
        }
    }
    let missing: Vec<&str> = TosaOp::ALL.iter().filter(|o| !ops.contains(&o.opcode())).map(|o| o.name()).collect();
    assert!(missing.is_empty(), "TOSA operators not covered by the spvasm fixtures: {missing:?}");
    // Every typed variant of the model appears at least once.
    assert!(kinds.len() >= 35, "only {} instruction kinds covered", kinds.len());
}

#[test]
fn model_converter_modules_round_trip_with_and_without_debug_info() {
    let Some(out) = support::build_fixtures() else { return };
    let files = spv_files(&out.join("mlir"));
    let debug: Vec<_> = files.iter().filter(|f| f.to_string_lossy().ends_with(".debug.spv")).collect();
    assert!(files.len() >= 6 && !debug.is_empty(), "expected model-converter outputs, found {}", files.len());
    for f in &files {
        let m = round_trip(f);
        let has_debug = m.insts.iter().any(|i| matches!(i, Inst::GraphDebug { .. }));
        let is_debug = f.to_string_lossy().ends_with(".debug.spv");
        assert_eq!(has_debug, is_debug, "{}: DebugInfo instructions typed iff --emit-debug-info", f.display());
        assert!(m.insts.iter().any(|i| matches!(i, Inst::Tosa { .. })), "{}: no TOSA ops", f.display());
    }
}
