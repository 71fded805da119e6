//! The generated samples in `corpus/valid/generated_seed*` stay what their
//! manifests say: every file named exists, the module decodes, spirv-val
//! accepts it, and its TOSA instructions agree with the catalogue.
//! (They are snapshots: after a generator change, `--seed` may produce a
//! different case; regenerate them with
//! `spvgraph generate --seed S --no-mlir --spvasm --prefix generated_seed -o corpus/valid`.)

use crate::support;

use spvgraph_generator::files::Manifest;
use spvgraph_ir::analysis::Analysis;
use spvgraph_ir::elem::Profile;
use spvgraph_ir::inst::Inst;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::Module;
use std::collections::BTreeMap;
use std::path::PathBuf;

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus/valid")
}

#[test]
fn generated_corpus_samples_are_complete_and_valid() {
    let dir = corpus();
    let Ok(entries) = std::fs::read_dir(&dir) else { return };
    let mut manifests: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("generated_seed")))
        .collect();
    manifests.sort();
    assert!(!manifests.is_empty(), "no generated samples in {}", dir.display());
    let val = support::spirv_val_tool();
    for path in &manifests {
        let text = std::fs::read_to_string(path).expect("read manifest");
        let m: Manifest = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(m.expect, "valid");
        let mut names: Vec<&String> = vec![&m.spv];
        names.extend(m.spvasm.iter());
        names.extend(m.inputs.iter().map(|i| &i.file));
        names.extend(m.graph_constants.values());
        for n in &names {
            assert!(dir.join(n).is_file(), "{}: {n} missing", path.display());
        }
        let bytes = std::fs::read(dir.join(&m.spv)).expect("read module");
        let module = Module::decode_bytes(&bytes).expect("decodes");
        let a = Analysis::new(&module);
        let mut gcs = BTreeMap::new();
        for inst in &module.insts {
            if let Inst::GraphConstant { ty, graph_constant_id, .. } = inst {
                let elem = a.tensor_type(*ty).and_then(|t| t.elem).expect("graph constant element type");
                let file = dir.join(&m.graph_constants[graph_constant_id]);
                gcs.insert(*graph_constant_id, TensorData::read_npy(&file, elem).expect("graph constant data"));
            }
        }
        for i in &m.inputs {
            let t = TensorData::read_npy(&dir.join(&i.file), i.elem).expect("input data");
            assert_eq!(t.shape(), i.shape.iter().map(|&d| d as usize).collect::<Vec<_>>().as_slice());
        }
        let problems = support::tosa_check::check(&module, &gcs, &Profile::ALL);
        assert!(problems.is_empty(), "{}: {problems:?}", path.display());
        if let Some(val) = &val {
            spvgraph_testkit::spirv_val_file(val, &dir.join(&m.spv))
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
    }
}
