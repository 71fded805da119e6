//! Modules that model-converter (MLIR's SPIR-V serializer) produces at test
//! time: the plain module is valid for both validators; with
//! `--emit-debug-info` the converter puts NonSemantic.Graph.DebugInfo after
//! OpGraphEndARM, which is valid (non-semantic instructions may stand
//! anywhere in the graph section) and which spirv-val 2025.5 rejects (a
//! documented 2025.5 disagreement, fixed in SPIRV-Tools v2026.3).

use crate::validate_common as common;
use spvgraph_oracle::oracle::Validator as _;

use common::*;
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::Module;
use spvgraph_oracle::external::spirv_val::SpirvVal;
use spvgraph_oracle::oracle::{Oracle, ValidateOptions, Verdict};
use spvgraph_oracle::tools::Tool;
use std::path::Path;
use std::process::Command;

const MLIR: &str = r#"func.func @main(%a: tensor<1x8x8x4xf32>, %b: tensor<1x8x8x4xf32>) -> tensor<1x4x4x4xf32> {
  %s = tosa.add %a, %b : (tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %r = tosa.clamp %s {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %p = tosa.max_pool2d %r {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>} : (tensor<1x8x8x4xf32>) -> tensor<1x4x4x4xf32>
  return %p : tensor<1x4x4x4xf32>
}
"#;

/// Converts `MLIR` and extracts the SPIR-V module; `None` when a tool is missing.
fn convert(dir: &Path, debug: bool) -> Option<Module> {
    let (mc, dump) = (tool(Tool::ModelConverter)?, tool(Tool::VgfDump)?);
    let src = dir.join("g.mlir");
    std::fs::write(&src, MLIR).expect("write mlir");
    let vgf = dir.join(if debug { "g.debug.vgf" } else { "g.vgf" });
    let spv = dir.join(if debug { "g.debug.spv" } else { "g.spv" });
    let mut cmd = Command::new(mc);
    cmd.arg("-i").arg(&src).arg("-o").arg(&vgf);
    if debug {
        cmd.arg("--emit-debug-info");
    }
    let out = cmd.output().expect("run model-converter");
    assert!(out.status.success(), "model-converter: {}", String::from_utf8_lossy(&out.stderr));
    let out = Command::new(dump).arg("-i").arg(&vgf).arg("-o").arg(&spv).args(["--dump-spirv", "0"]).output();
    let out = out.expect("run vgf_dump");
    assert!(out.status.success(), "vgf_dump: {}", String::from_utf8_lossy(&out.stderr));
    Some(Module::decode_bytes(&std::fs::read(&spv).expect("read spv")).expect("converter output decodes"))
}

#[test]
fn plain_conversion_is_valid() {
    let dir = scratch("mc-plain");
    let Some(m) = convert(&dir, false) else { return };
    let r = check(&m);
    assert!(r.is_valid() && r.findings.is_empty(), "{}", show(&r));
    let sv = SpirvVal::discover();
    if sv.available().is_ok() {
        assert_eq!(sv.validate(&words(&m), &ValidateOptions::default()), Ok(Verdict::Valid));
    }
}

#[test]
fn debug_info_after_graph_end_is_valid() {
    let dir = scratch("mc-debug");
    let Some(m) = convert(&dir, true) else { return };
    // The converter does put the debug instructions after OpGraphEndARM, and
    // DebugTensor instructions there name values of the graph body.
    let graph_end = m.insts.iter().position(|i| matches!(i, spvgraph_ir::Inst::GraphEnd)).expect("end");
    let after = &m.insts[graph_end + 1..];
    assert!(after.iter().any(|i| matches!(i, spvgraph_ir::Inst::GraphDebug { .. })), "no debug info after the graph");
    // Non-semantic instructions may stand anywhere in the graph section
    // (SPV_KHR_non_semantic_info; SPIRV-Tools v2026.3): the module is valid.
    let r = check(&m);
    assert!(r.is_valid() && r.findings.is_empty(), "{}", show(&r));
    let info = RuleId::LayoutGraphSectionOutsideGraph.info();
    assert!(info.spec.contains("model-converter") && info.spec.contains("Non-semantic"));
    // spirv-val 2025.5 rejects it (documented in external::spirv_val::known::SPIRV_VAL_REJECTS_VALID).
    let sv = SpirvVal::discover();
    if let Err(e) = sv.available() {
        assert!(!spvgraph_oracle::tools::Tools::required(), "CI=true and {e}");
        return;
    }
    match sv.validate(&words(&m), &ValidateOptions::default()).expect("spirv-val runs") {
        Verdict::Invalid(d) => {
            assert_eq!(d[0].rule, Some(RuleId::LayoutGraphSectionOutsideGraph), "{d:?}");
            let first_after = m.word_offsets()[graph_end + 1];
            assert_eq!(d[0].word_offset, Some(first_after), "{d:?}");
        }
        Verdict::Valid => {
            panic!("spirv-val 2025.5 now accepts debug info after OpGraphEndARM: update external::spirv_val::known")
        }
    }
}
