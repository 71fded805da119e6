//! The spirv-val oracle: in-process and process backends agree (verdicts,
//! messages, word offsets, target environments), it is safe to call from
//! many threads and on any bytes, and it says clearly when it is missing.

use crate::validate_common as common;
use spvgraph_oracle::oracle::Validator as _;

use common::*;
use spvgraph_ir::builder::ModuleBuilder;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::inst::Inst;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::Module;
use spvgraph_oracle::external::spirv_val::{Backend, SpirvVal};
use spvgraph_oracle::oracle::{Oracle, OracleError, ValidateOptions, Verdict};
use spvgraph_oracle::tools::{Tool, Tools};
use spvgraph_oracle::validate::TargetEnv;

/// Both backends, or `None` (skip; failure under CI) when either is missing.
fn backends() -> Option<(SpirvVal, SpirvVal)> {
    let lib = tool(Tool::LibSpirvTools)?;
    let exe = tool(Tool::SpirvVal)?;
    let in_process = SpirvVal::with_paths(Some(lib), None);
    assert!(matches!(in_process.backend(), Ok(Backend::Library(_))), "{:?}", in_process.backend());
    Some((in_process, SpirvVal::process_only(exe)))
}

fn module() -> Module {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(ElemType::Fp32, Some(&[1, 8, 8, 4]));
    graph(&mut b, &[t, t], &[t], |b, xs| vec![b.tosa(TosaOp::Add, t, vec![xs[0], xs[1]])]);
    b.finish()
}

/// A few modules: valid, and broken in several ways.
fn samples() -> Vec<(&'static str, Vec<u32>)> {
    let valid = module();
    let mut no_output = valid.clone();
    no_output.insts.retain(|i| !matches!(i, Inst::GraphSetOutput { .. }));
    let mut bad_magic = words(&valid);
    bad_magic[0] = 1;
    let mut truncated = words(&valid);
    truncated.truncate(truncated.len() - 1);
    let debug_after = {
        let mut b = ModuleBuilder::new();
        let t = b.type_tensor(ElemType::Fp32, Some(&[1, 8, 8, 4]));
        let set = b.graph_debug_set();
        let void = b.type_void();
        let name = b.string("g");
        let g = graph(&mut b, &[t, t], &[t], |b, xs| vec![b.tosa(TosaOp::Add, t, vec![xs[0], xs[1]])]);
        let result = b.id();
        b.after_graphs(Inst::GraphDebug {
            ty: void,
            result,
            set,
            inst: spvgraph_ir::GraphDebugInst::Graph { graph: g, name },
        });
        b.finish()
    };
    vec![
        ("valid", words(&valid)),
        ("no output", words(&no_output)),
        ("bad magic", bad_magic),
        ("truncated", truncated),
        ("debug info after the graph", words(&debug_after)),
        ("empty", Vec::new()),
    ]
}

#[test]
fn library_and_process_agree_on_verdicts_messages_and_offsets() {
    let Some((lib, exe)) = backends() else { return };
    let opts = ValidateOptions::default();
    for (what, w) in samples() {
        let a = lib.validate(&w, &opts).expect("library runs");
        let b = exe.validate(&w, &opts).expect("process runs");
        match (&a, &b) {
            (Verdict::Valid, Verdict::Valid) => assert_eq!(what, "valid"),
            (Verdict::Invalid(x), Verdict::Invalid(y)) => {
                assert_eq!(x[0].message, y[0].message, "{what}");
                assert_eq!(x[0].rule, y[0].rule, "{what}");
                assert_eq!(x[0].word_offset, y[0].word_offset, "{what}");
            }
            _ => panic!("{what}: library {a:?} but process {b:?}"),
        }
    }
}

#[test]
fn word_offsets_point_at_the_instruction_spirv_val_names() {
    let Some((lib, _)) = backends() else { return };
    let (_, w) = samples().into_iter().find(|(n, _)| *n == "debug info after the graph").expect("sample");
    let Verdict::Invalid(d) = lib.validate(&w, &ValidateOptions::default()).expect("runs") else {
        panic!("debug info after OpGraphEndARM is rejected by spirv-val 2025.5");
    };
    let m = Module::decode_words(&w).expect("decodes");
    let offsets = m.word_offsets();
    let at = offsets.iter().position(|o| Some(*o) == d[0].word_offset).expect("an instruction boundary");
    assert!(matches!(m.insts[at], Inst::GraphDebug { .. }), "{:?}", m.insts[at]);
    assert_eq!(d[0].rule, Some(spvgraph_ir::rules::RuleId::LayoutGraphSectionOutsideGraph));
}

#[test]
fn every_target_environment_maps_to_the_same_spirv_tools_environment() {
    let Some((lib, exe)) = backends() else { return };
    let v16 = words(&module());
    let mut v10 = module();
    v10.header.version = 0x0001_0000;
    let v10 = words(&v10);
    for name in TargetEnv::names() {
        let opts = ValidateOptions { target_env: TargetEnv::parse(name).expect("listed"), ..Default::default() };
        for w in [&v16, &v10] {
            let a = lib.validate(w, &opts).expect("library runs");
            let b = exe.validate(w, &opts).expect("process runs");
            assert_eq!(a.is_valid(), b.is_valid(), "{name}: library {a:?}, process {b:?}");
            if let (Verdict::Invalid(x), Verdict::Invalid(y)) = (&a, &b) {
                assert_eq!(x[0].message, y[0].message, "{name}");
            }
        }
    }
}

#[test]
fn concurrent_validation_is_consistent() {
    let Some((lib, _)) = backends() else { return };
    let samples = samples();
    let opts = ValidateOptions::default();
    let expected: Vec<Verdict> = samples.iter().map(|(_, w)| lib.validate(w, &opts).expect("runs")).collect();
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                for _ in 0..25 {
                    for ((_, w), want) in samples.iter().zip(&expected) {
                        assert_eq!(&lib.validate(w, &opts).expect("runs"), want);
                    }
                }
            });
        }
    });
}

#[test]
fn arbitrary_words_never_crash_the_library() {
    let Some((lib, _)) = backends() else { return };
    let base = words(&module());
    let opts = ValidateOptions::default();
    // Deterministic corruption: flip one word at a time, including word counts.
    let mut state = 0x9e37_79b9_u32;
    for i in 0..400 {
        let mut w = base.clone();
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        let at = 5 + (state as usize % (w.len() - 5));
        w[at] = if i % 3 == 0 { state } else { w[at] ^ (1 << (state % 32)) };
        if i % 7 == 0 {
            w.truncate(at);
        }
        lib.validate(&w, &opts).expect("spirv-val answers on any words");
    }
}

#[test]
fn a_missing_tool_is_unavailable_with_a_reason() {
    let none = SpirvVal::with_paths(None, None);
    match none.validate(&words(&module()), &ValidateOptions::default()) {
        Err(OracleError::Unavailable { oracle, reason }) => {
            assert_eq!(oracle, "spirv-val");
            assert!(reason.contains("setup-oracles"), "{reason}");
        }
        other => panic!("expected Unavailable, got {other:?}"),
    }
    let tools = Tools::from_dir(std::path::Path::new("/nonexistent"));
    let missing = SpirvVal::from_tools(&tools);
    assert!(matches!(missing.available(), Err(OracleError::Unavailable { .. })));
}
