//! `spvgraph diff`: one module (or TOSA MLIR, through a producer) through the
//! oracles named, one judgement, exit 0 when all agree, 1 when any disagree,
//! 2 on usage or I/O errors.

use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_oracle::tools::Tool;
use spvgraph_testkit::{bin, scratch};
use std::process::{Command, Output};

fn run(cmd: &mut Command) -> (i32, String, String) {
    let Output { status, stdout, stderr } = cmd.output().expect("run spvgraph");
    (status.code().unwrap_or(-1), String::from_utf8_lossy(&stdout).into(), String::from_utf8_lossy(&stderr).into())
}

/// ABS of an i32 `[4]` input.
fn abs_module() -> Vec<u8> {
    spvgraph_testkit::unary_module(TosaOp::Abs, ElemType::I32, &[4]).encode_bytes().expect("encodes")
}

#[test]
fn a_valid_module_on_the_in_tree_oracle_agrees_with_generated_inputs() {
    let dir = scratch("valid");
    let spv = dir.join("abs.spv");
    std::fs::write(&spv, abs_module()).expect("write");
    let (code, out, err) = run(bin!().arg("diff").arg(&spv).args(["--oracles", "in-tree"]));
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("every oracle agrees"), "{out}");
    assert!(out.contains("in-tree executor"), "the module ran: {out}");
}

#[test]
fn save_outputs_writes_each_executors_outputs_as_npy() {
    let dir = scratch("save");
    let spv = dir.join("abs.spv");
    std::fs::write(&spv, abs_module()).expect("write");
    let input = dir.join("x.npy");
    TensorData::from_bits(ElemType::I32, &[4], &[(-3i64) as u64, 0, 7, (-1i64) as u64])
        .expect("[4]")
        .write_npy(&input)
        .expect("write input");
    let saved = dir.join("outputs");
    let (code, out, err) = run(bin!()
        .arg("diff")
        .arg(&spv)
        .args(["--oracles", "in-tree", "--input"])
        .arg(&input)
        .arg("--save-outputs")
        .arg(&saved));
    assert_eq!(code, 0, "{out}{err}");
    let abs = TensorData::read_npy(&saved.join("in-tree").join("out0.npy"), ElemType::I32).expect("saved output");
    assert_eq!(abs.to_f64(), [3.0, 0.0, 7.0, 1.0]);
}

#[test]
fn mlir_without_a_producer_is_a_usage_error() {
    let dir = scratch("no-producer");
    let mlir = dir.join("abs.mlir");
    std::fs::write(&mlir, "func.func @f() { return }\n").expect("write");
    let (code, out, err) = run(bin!().arg("diff").arg(&mlir).args(["--oracles", "in-tree"]));
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("needs a producer"), "{err}");
}

#[test]
fn mlir_the_producer_refuses_is_a_producer_rejects_disagreement() {
    let Some(_) = spvgraph_testkit::tool(Tool::ModelConverter) else { return };
    let dir = scratch("refused");
    let mlir = dir.join("bad.mlir");
    let text = "func.func @bad(%a: tensor<2xf32>) -> tensor<2xf32> {\n  \
                %0 = tosa.no_such_operator %a : (tensor<2xf32>) -> tensor<2xf32>\n  \
                return %0 : tensor<2xf32>\n}\n";
    std::fs::write(&mlir, text).expect("write");
    let (code, out, err) = run(bin!().arg("diff").arg(&mlir).args(["--oracles", "model-converter"]));
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("producer-rejects"), "{out}");
}

/// A hunt finding's `STEM.mlir` has the case manifest `STEM.json` beside it
/// (the note's "see it again" command runs exactly this): it is not a
/// network's manifest, and the produced module is judged as valid.
#[test]
fn mlir_beside_a_case_manifest_is_not_taken_for_a_network() {
    let Some(_) = spvgraph_testkit::tool(Tool::ModelConverter) else { return };
    let dir = scratch("mlir-case-manifest");
    let mlir = dir.join("case.mlir");
    let text = "func.func @graph0(%a: tensor<4xi32>) -> tensor<4xi32> {\n  \
                %0 = \"tosa.clz\"(%a) : (tensor<4xi32>) -> tensor<4xi32>\n  \
                return %0 : tensor<4xi32>\n}\n";
    std::fs::write(&mlir, text).expect("write");
    std::fs::write(dir.join("case.json"), r#"{"expect": "valid", "seed": 1}"#).expect("write the case manifest");
    let (code, out, err) = run(bin!().arg("diff").arg(&mlir).args(["--oracles", "model-converter", "--json"]));
    assert!(code == 0 || code == 1, "{out}{err}");
    let reports: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    assert_eq!(reports[0]["expect"], "valid", "{out}");
}

/// `STEM.json` beside a module is read as its case manifest only when it is
/// one (it has `expect`): a scenario-runner scenario there states nothing,
/// so the module alone sets the expectation, and a module that breaks a
/// rule is not taken for a valid one the in-tree validator wrongly rejects.
#[test]
fn a_json_that_is_not_a_case_manifest_is_ignored_with_a_note() {
    let dir = scratch("foreign-json");
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let spv = dir.join("broken.spv");
    std::fs::copy(corpus.join("invalid/tosa.clamp.bounds.1.spv"), &spv).expect("copy a module that breaks a rule");
    let scenario = corpus.join("findings/emulation-layer-shared-output.scenario.json");
    std::fs::copy(&scenario, dir.join("broken.json")).expect("a scenario beside it");
    let (code, out, err) = run(bin!().arg("diff").arg(&spv).args(["--oracles", "in-tree", "--json"]));
    assert!(code == 0 || code == 1, "{out}{err}");
    let reports: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    let r = &reports[0];
    assert!(
        r["expect_source"].as_str().is_some_and(|s| s.contains("in-tree validator")),
        "the scenario must not state the expectation: {r}"
    );
    assert_ne!(r["expect"], "valid", "{r}");
    let kinds: Vec<&str> =
        r["disagreements"].as_array().into_iter().flatten().filter_map(|d| d["kind"].as_str()).collect();
    assert!(!kinds.contains(&"rejects-valid"), "the in-tree validator is blamed for a rule the module breaks: {r}");
    assert!(
        r["notes"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|n| n.as_str().is_some_and(|n| n.contains("not a case manifest"))),
        "{r}"
    );
    // The case's own manifest beside it is still read.
    std::fs::copy(corpus.join("invalid/tosa.clamp.bounds.1.json"), dir.join("broken.json")).expect("its manifest");
    let input = "tosa.clamp.bounds.1.ep0.in0.npy";
    std::fs::copy(corpus.join("invalid").join(input), dir.join(input)).expect("its input");
    let (_, out, err) = run(bin!().arg("diff").arg(&spv).args(["--oracles", "in-tree", "--json"]));
    let reports: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    assert_eq!(reports[0]["expect_source"], "the case manifest", "{}", reports[0]);
}
