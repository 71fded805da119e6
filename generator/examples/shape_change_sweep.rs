//! Which operators the shape change carries changes through and which make
//! its attempts give up, on 24 small generated modules, every valid module
//! of `corpus/valid` and the model-converter CNN of the ir benches (a
//! measurement, not a test):
//! `cargo run -p spvgraph-generator --release --example shape_change_sweep`.

#![allow(clippy::print_stdout, clippy::print_stderr)] // a measurement prints its figures and its progress

use spvgraph_generator::mutate::shape::attempt;
use spvgraph_generator::prng::SplitMix64;
use spvgraph_ir::analysis::Analysis;
use spvgraph_ir::edit::shapes;
use spvgraph_ir::inst::Inst;
use spvgraph_ir::Module;
use spvgraph_oracle::external::spirv_val::SpirvVal;
use spvgraph_oracle::oracle::{ValidateOptions, Validator as _};
use spvgraph_oracle::tools::{locate, Tool};
use spvgraph_oracle::validate::Validator;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Small generated modules (one graph of up to 6 nodes).
fn generated() -> Vec<Module> {
    let c = spvgraph_generator::Config { max_graphs: 1, max_nodes: 6, ..Default::default() };
    (0..24).map(|s| spvgraph_generator::generate_from_seed(s, &c).module).collect()
}

/// Every module of `corpus/valid` and the model-converter CNN that `valid` accepts.
fn real(valid: &dyn Fn(&Module) -> bool) -> std::io::Result<Vec<Module>> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files: Vec<PathBuf> = std::fs::read_dir(repo.join("corpus/valid"))?
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "spv"))
        .collect();
    files.sort();
    files.push(repo.join("ir/benches/data/large_cnn.spv"));
    let mut out = Vec::new();
    for f in files {
        let bytes = std::fs::read(&f)?;
        match Module::decode_bytes(&bytes) {
            Ok(m) if valid(&m) => out.push(m),
            Ok(_) => {}
            Err(e) => eprintln!("{}: {e}", f.display()),
        }
    }
    Ok(out)
}

fn main() -> std::io::Result<()> {
    let validator = Validator::new(ValidateOptions::default());
    let valid = |m: &Module| validator.rule(m).is_valid();
    let mut modules = generated();
    modules.extend(real(&valid)?);

    let mut rng = SplitMix64::new(1);
    let mut stops: BTreeMap<String, usize> = BTreeMap::new();
    let mut carried: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut rules: BTreeMap<String, usize> = BTreeMap::new();
    let (mut ok, mut valid_n, mut tries) = (0, 0, 0);
    let sv = locate(Tool::SpirvVal).ok().flatten().map(SpirvVal::process_only);
    let accepts = |m: &Module| {
        let words = m.encode_words().ok()?;
        sv.as_ref()?.validate(&words, &ValidateOptions::default()).ok().map(|v| v.is_valid())
    };
    let (mut sv_asked, mut sv_accepted) = (0, 0);
    for m in &modules {
        let original_accepted = accepts(m) == Some(true);
        for _ in 0..8 {
            tries += 1;
            match attempt(m, &mut rng) {
                Err(s) => *stops.entry(format!("{s:?}")).or_default() += 1,
                Ok((changed, _)) => {
                    ok += 1;
                    let report = validator.check(&changed);
                    if report.is_valid() {
                        valid_n += 1;
                        if original_accepted {
                            sv_asked += 1;
                            sv_accepted += usize::from(accepts(&changed) == Some(true));
                        }
                        let before = Analysis::new(m);
                        let after = Analysis::new(&changed);
                        for i in &changed.insts {
                            if let Inst::Tosa { result, op, .. } = i {
                                if shapes::declared_shape(&before, *result) != shapes::declared_shape(&after, *result) {
                                    *carried.entry(op.name()).or_default() += 1;
                                }
                            }
                        }
                    } else if let Some(f) = report.errors().next() {
                        *rules.entry(f.rule.name().to_string()).or_default() += 1;
                    }
                }
            }
        }
    }
    println!("{} modules, {tries} attempts, {ok} changes, {valid_n} valid", modules.len());
    println!("gave up: {stops:?}");
    println!("reshaped results by operator: {carried:?}");
    println!("invalid changes, first rule: {rules:?}");
    println!("spirv-val accepts {sv_accepted} of {sv_asked} valid changes of modules it accepts");
    Ok(())
}
