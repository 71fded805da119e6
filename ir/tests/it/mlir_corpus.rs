//! The TOSA MLIR of the regression corpus (`corpus/valid/*.mlir`, and the
//! findings' `corpus/findings/*.mlir`):
//!
//! * each file is what the printer prints today from the case's `.spv` and
//!   graph-constant `.npy` files (so the corpus is regenerated when the
//!   printed form changes: `spvgraph corpus build`), and
//! * every one converts with every installed model-converter: the release
//!   channel's and each other channel's (`ci/setup-oracles --channel dev`),
//!   whose TOSA dialects read different custom syntax but the same generic
//!   form.

use crate::mlir_common as common;
use crate::support;

use spvgraph_ir::analysis::{Analysis, Type};
use spvgraph_ir::inst::Inst;
use spvgraph_ir::mlir::module_to_mlir;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::Module;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn corpus(folder: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus").join(folder)
}

/// One stored `.mlir` file: its name, the entry point it prints, and the
/// text printed from the case now.
struct Printed {
    file: String,
    stored: String,
    now: Result<String, String>,
}

/// The graph-constant data of a case, read with the element types its module gives.
fn graph_constants(dir: &Path, m: &Module, files: &serde_json::Value) -> Result<BTreeMap<u32, TensorData>, String> {
    let a = Analysis::new(m);
    let mut out = BTreeMap::new();
    for inst in &m.insts {
        let Inst::GraphConstant { ty, graph_constant_id, .. } = inst else { continue };
        let Some(file) = files.get(graph_constant_id.to_string()).and_then(|f| f.as_str()) else { continue };
        let Some(Type::Tensor(t)) = a.ty(*ty) else { return Err(format!("graph constant {graph_constant_id}")) };
        let elem = t.elem.ok_or_else(|| format!("graph constant {graph_constant_id}: no TOSA element type"))?;
        let data = TensorData::read_npy(&dir.join(file), elem).map_err(|e| e.to_string())?;
        out.insert(*graph_constant_id, data);
    }
    Ok(out)
}

/// Every `.mlir` of `corpus/<folder>` that a manifest lists, with what the printer prints now.
fn printed(folder: &str) -> Vec<Printed> {
    let dir = corpus(folder);
    let mut manifests: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("corpus/valid")
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json") && !p.to_string_lossy().ends_with(".scenario.json"))
        .collect();
    manifests.sort();
    let mut out = Vec::new();
    for path in manifests {
        let manifest: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("manifest")).expect("manifest JSON");
        let Some(spv) = manifest["spv"].as_str() else { continue };
        // A finding's module need not decode (a near-valid one breaking a binary rule); it has no MLIR then.
        let module = Module::decode_bytes(&std::fs::read(dir.join(spv)).expect("case module"));
        for ep in manifest["entry_points"].as_array().into_iter().flatten() {
            let (Some(name), Some(file)) = (ep["name"].as_str(), ep["mlir"].as_str()) else { continue };
            let stored = std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
            let now = module.as_ref().map_err(|e| format!("{spv} does not decode: {e}")).and_then(|module| {
                let data = graph_constants(&dir, module, &manifest["graph_constants"])?;
                module_to_mlir(module, name, &data).map_err(|e| e.to_string())
            });
            out.push(Printed { file: file.to_string(), stored, now });
        }
    }
    out
}

/// With `SPVGRAPH_BLESS=1` the stale files are rewritten instead (the
/// `generated_seed*` samples, which `corpus build` does not write, and whose
/// seeds no longer give the same modules; the findings, whose tests write
/// them with `--ignored write_findings`).
#[test]
fn stored_mlir_is_what_the_printer_prints() {
    let valid = printed("valid");
    assert!(valid.len() >= 400, "only {} .mlir files in corpus/valid", valid.len());
    let printed: Vec<(&str, Printed)> = valid
        .into_iter()
        .map(|p| ("valid", p))
        .chain(printed("findings").into_iter().map(|p| ("findings", p)))
        .collect();
    if std::env::var_os("SPVGRAPH_BLESS").is_some_and(|v| v == "1") {
        for (folder, p) in &printed {
            if let Some(now) = p.now.as_ref().ok().filter(|now| **now != p.stored) {
                std::fs::write(corpus(folder).join(&p.file), now).expect("rewrite");
                eprintln!("rewrote {folder}/{}", p.file);
            }
        }
        return;
    }
    let printed: Vec<Printed> = printed.into_iter().map(|(_, p)| p).collect();
    let stale: Vec<String> = printed
        .iter()
        .filter(|p| p.now.as_ref() != Ok(&p.stored))
        .map(|p| match &p.now {
            Ok(now) => format!("--- {}: stored\n{}--- printed now\n{now}", p.file, p.stored),
            Err(e) => format!("--- {}: no longer prints: {e}", p.file),
        })
        .collect();
    assert!(stale.is_empty(), "{} stale (run spvgraph corpus build):\n{}", stale.len(), stale.join("\n"));
}

#[test]
fn every_corpus_case_converts_with_every_installed_model_converter() {
    let printed = printed("valid");
    for converter in support::converters() {
        let dir = spvgraph_testkit::scratch(&format!("mlir-corpus-{}", converter.channel));
        let results = common::parallel(&printed, |k, p| {
            common::convert(&converter.mc, &converter.dump, &dir, &format!("c{k}"), &p.stored).map(|_| ())
        });
        let failed: Vec<String> = printed
            .iter()
            .zip(&results)
            .filter_map(|(p, r)| r.as_ref().err().map(|e| format!("--- {}: {e}", p.file)))
            .collect();
        eprintln!(
            "model-converter ({}): {} of {} corpus files converted",
            converter.channel,
            printed.len() - failed.len(),
            printed.len()
        );
        assert!(
            failed.is_empty(),
            "model-converter ({}) refused {} of {} corpus files:\n{}",
            converter.channel,
            failed.len(),
            printed.len(),
            failed.join("\n")
        );
    }
}
