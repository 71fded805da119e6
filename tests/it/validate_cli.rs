//! `spvgraph validate`: output format and exit status (0 every file valid,
//! 1 any invalid, 2 usage or I/O error).

use spvgraph_ir::elem::ElemType;
use spvgraph_ir::inst::Inst;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::Module;
use spvgraph_oracle::tools::{Tool, Tools};
use spvgraph_testkit::{bin, scratch};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn run(cmd: &mut Command) -> (i32, String, String) {
    let Output { status, stdout, stderr } = cmd.output().expect("run spvgraph");
    (status.code().unwrap_or(-1), String::from_utf8_lossy(&stdout).into(), String::from_utf8_lossy(&stderr).into())
}

/// A unary `op` graph on `elem` tensors of shape `shape`.
fn unary(elem: ElemType, shape: &[u32], op: TosaOp) -> Module {
    spvgraph_testkit::unary_module(op, elem, shape)
}

fn write(dir: &Path, name: &str, m: &Module) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, m.encode_bytes().expect("encode")).expect("write");
    p
}

fn no_output() -> Module {
    let mut m = unary(ElemType::Fp32, &[2, 4], TosaOp::Abs);
    m.insts.retain(|i| !matches!(i, Inst::GraphSetOutput { .. }));
    m
}

#[test]
fn valid_files_exit_0_and_say_so() {
    let d = scratch("ok");
    let f = write(&d, "abs.spv", &unary(ElemType::Fp32, &[2, 4], TosaOp::Abs));
    let (code, out, err) = run(bin!().arg("validate").arg(&f));
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), format!("{}: valid", f.display()));
    assert!(err.is_empty(), "{err}");
}

#[test]
fn invalid_files_exit_1_with_rule_instruction_offset_and_spec_text() {
    let d = scratch("bad");
    let m = no_output();
    let f = write(&d, "bad.spv", &m);
    let (code, out, err) = run(bin!().arg("validate").arg(&f));
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("invalid (1 error(s), 0 warning(s))"), "{out}");
    let end = m.insts.iter().position(|i| matches!(i, Inst::GraphEnd)).expect("end");
    let offset = m.word_offsets()[end];
    let line = format!("{}: word {offset}: OpGraphEndARM: [graph.output.missing] ", f.display());
    assert!(err.contains(&line), "{err}");
    // The rule's spec text and source follow once.
    assert!(err.contains("note: [graph.output.missing] error (SPV_ARM_graph;"), "{err}");
    assert!(err.contains("at least one OpGraphSetOutputARM"), "{err}");
}

#[test]
fn several_files_exit_1_if_any_is_invalid() {
    let d = scratch("mixed");
    let good = write(&d, "good.spv", &unary(ElemType::Fp32, &[2, 4], TosaOp::Abs));
    let bad = write(&d, "bad.spv", &no_output());
    let (code, out, err) = run(bin!().arg("validate").arg(&good).arg(&bad));
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("good.spv: valid") && out.contains("bad.spv: invalid"), "{out}");
    assert!(err.contains("1 of 2 file(s) invalid"), "{err}");
}

#[test]
fn undecodable_files_are_invalid_with_a_binary_rule() {
    let d = scratch("undecodable");
    let mut bytes = unary(ElemType::Fp32, &[2, 4], TosaOp::Abs).encode_bytes().expect("encode");
    // Cut into the last OpGraphSetOutputARM (the module ends with it and a one-word OpGraphEndARM).
    bytes.truncate(bytes.len() - 8);
    let f = d.join("cut.spv");
    std::fs::write(&f, &bytes).expect("write");
    let (code, _, err) = run(bin!().arg("validate").arg(&f));
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("[binary.framing]"), "{err}");
}

#[test]
fn usage_and_io_errors_exit_2() {
    let d = scratch("usage");
    let f = write(&d, "abs.spv", &unary(ElemType::Fp32, &[2, 4], TosaOp::Abs));
    let (code, _, err) = run(bin!().args(["validate", "--target-env", "vulkan9.0"]).arg(&f));
    assert_eq!(code, 2);
    assert!(err.contains("unknown target environment") && err.contains("vulkan1.3"), "{err}");
    let (code, _, err) = run(bin!().args(["validate", "--profiles", "PRO-NOTHING"]).arg(&f));
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = run(bin!().arg("validate").arg(d.join("missing.spv")));
    assert_eq!(code, 2);
    assert!(err.contains("missing.spv"), "{err}");
    let (code, _, _) = run(bin!().arg("validate"));
    assert_eq!(code, 2);
}

#[test]
fn json_output_is_machine_readable() {
    let d = scratch("json");
    let good = write(&d, "good.spv", &unary(ElemType::Fp32, &[2, 4], TosaOp::Abs));
    let bad = write(&d, "bad.spv", &no_output());
    let (code, out, _) = run(bin!().args(["validate", "--json"]).arg(&good).arg(&bad));
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON document");
    assert_eq!(v["target_env"], "vulkan1.3");
    assert_eq!(v["files"][0]["valid"], true);
    assert_eq!(v["files"][1]["valid"], false);
    let f = &v["files"][1]["in_tree"]["findings"][0];
    assert_eq!(f["rule"], "graph.output.missing");
    assert_eq!(f["severity"], "error");
    assert!(f["word_offset"].is_u64());
    assert!(f["instruction"].as_str().is_some_and(|s| s.contains("OpGraphEndARM")));
    let rule = &v["files"][1]["in_tree"]["rules"]["graph.output.missing"];
    assert_eq!(rule["source"], "SPV_ARM_graph");
    assert_eq!(rule["spirv_val_checks"], true);
}

#[test]
fn level_and_profile_options_change_the_verdict() {
    let d = scratch("options");
    // Rank 7 breaks only the 8K level limit: a warning, still valid.
    let deep = write(&d, "deep.spv", &unary(ElemType::Fp32, &[1, 1, 1, 1, 1, 1, 2], TosaOp::Abs));
    let (code, out, err) = run(bin!().arg("validate").arg(&deep));
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("warning: [level.rank]"), "{err}");
    assert!(out.contains("valid (0 error(s), 1 warning(s))"), "{out}");
    let (code, _, err) = run(bin!().args(["validate", "--level", "none"]).arg(&deep));
    assert_eq!(code, 0);
    assert!(!err.contains("level.rank"), "{err}");
    // bf16 needs EXT-BF16.
    let bf = write(&d, "bf16.spv", &unary(ElemType::Bf16, &[2, 4], TosaOp::Abs));
    let (code, _, err) = run(bin!().arg("validate").arg(&bf));
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run(bin!().args(["validate", "--no-profile", "EXT-BF16"]).arg(&bf));
    assert_eq!(code, 1);
    assert!(err.contains("[tosa.type.profile]"), "{err}");
    let (code, _, err) = run(bin!().args(["validate", "--profiles", "PRO-INT,PRO-FP"]).arg(&bf));
    assert_eq!(code, 1, "{err}");
    // universal environments do not apply Vulkan rules; the spelling
    // universal1.6 is accepted for spv1.6.
    let mut m = unary(ElemType::Fp32, &[2, 4], TosaOp::Abs);
    m.insts.retain(|i| !matches!(i, Inst::Decorate { .. }));
    let undecorated = write(&d, "undecorated.spv", &m);
    let (code, _, err) = run(bin!().arg("validate").arg(&undecorated));
    assert_eq!(code, 1);
    assert!(err.contains("[vulkan.interface.descriptor-set-binding]"), "{err}");
    let (code, _, err) = run(bin!().args(["validate", "--target-env", "universal1.6"]).arg(&undecorated));
    assert_eq!(code, 0, "{err}");
}

/// Whether spirv-val is missing here (the test then skips with a notice;
/// under `CI=true` it fails).
fn spirv_val_missing() -> bool {
    if Tools::discover().get(Tool::LibSpirvTools).is_ok() || Tools::discover().get(Tool::SpirvVal).is_ok() {
        return false;
    }
    assert!(!Tools::required(), "CI=true and spirv-val is missing");
    eprintln!("skipping: spirv-val is not installed");
    true
}

#[test]
fn spirv_val_oracle_and_both() {
    if spirv_val_missing() {
        return;
    }
    let d = scratch("oracles");
    // CAST fp32 -> fp32 is not a TOSA type row: only the in-tree validator sees it.
    let cast = write(&d, "cast.spv", &unary(ElemType::Fp32, &[2, 4], TosaOp::Cast));
    let (code, out, err) = run(bin!().args(["validate", "--oracle", "spirv-val"]).arg(&cast));
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = run(bin!().args(["validate", "--oracle", "both"]).arg(&cast));
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("the in-tree validator rejects it but spirv-val accepts it"), "{out}");
    assert!(err.contains("[tosa.type.no-row]"), "{err}");
    let bad = write(&d, "bad.spv", &no_output());
    let (code, _, err) = run(bin!().args(["validate", "--oracle", "spirv-val"]).arg(&bad));
    assert_eq!(code, 1);
    assert!(err.contains("[spirv-val]") && err.contains("(rule: graph.output.missing)"), "{err}");
}

/// A valid module the pinned spirv-val rejects, as its documented table
/// says (`SPIRV_VAL_REJECTS_VALID`): `--oracle both` reports the rejection
/// as documented and passes the file, where spirv-val alone fails it.
#[test]
fn both_reports_a_documented_spirv_val_rejection_as_documented() {
    if spirv_val_missing() {
        return;
    }
    let finding = "corpus/findings/spirv-val-rejects-arm-ml-operations-import.spv";
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(finding);
    let (code, out, err) = run(bin!().args(["validate", "--oracle", "spirv-val"]).arg(&file));
    assert_eq!(code, 1, "the pinned spirv-val rejects it: {out}{err}");
    let (code, out, err) = run(bin!().args(["validate", "--oracle", "both"]).arg(&file));
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("the in-tree validator accepts it but spirv-val rejects it"), "{out}");
    assert!(out.contains(&format!("(documented: {finding})")), "{out}");
    let (code, out, err) = run(bin!().args(["validate", "--oracle", "both", "--json"]).arg(&file));
    assert_eq!(code, 0, "{out}{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(doc["files"][0]["valid"], true, "{out}");
    assert_eq!(doc["files"][0]["spirv_val"]["documented"]["finding"], finding, "{out}");
}

#[test]
fn an_oracle_directory_without_tools_is_named_not_replaced() {
    // A SPVGRAPH_ORACLES that names a directory without tools.json must not
    // fall back to another installation: spirv-val is unavailable, and the
    // message says which variable pointed where.
    let dir = scratch("empty-oracles");
    let file = write(&dir, "ok.spv", &unary(ElemType::Fp32, &[2, 2], TosaOp::Abs));
    let (code, _, stderr) =
        run(bin!().env("SPVGRAPH_ORACLES", &dir).args(["validate", "--oracle", "spirv-val"]).arg(&file));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("SPVGRAPH_ORACLES=") && stderr.contains("tools.json"), "{stderr}");
}
