//! Modules that model-converter (MLIR's SPIR-V serializer) produces at test
//! time: the plain module is valid for both validators; with
//! `--emit-debug-info` the converter puts NonSemantic.Graph.DebugInfo after
//! OpGraphEndARM, and that known disagreement between the producer and the
//! validators is reported with its rule and spec text.

#[path = "validate_common.rs"]
mod common;

use common::*;
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::tools::Tool;
use spvgraph_ir::Module;
use spvgraph_oracle::external::spirv_val::SpirvVal;
use spvgraph_oracle::oracle::{Oracle, ValidateOptions, Verdict};
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
fn debug_info_after_graph_end_is_reported_with_rule_and_spec_text() {
    let dir = scratch("mc-debug");
    let Some(m) = convert(&dir, true) else { return };
    let r = check(&m);
    assert!(!r.is_valid());
    assert_eq!(errors(&r), vec![RuleId::LayoutGraphSectionOutsideGraph], "{}", show(&r));
    let graph_end =
        m.word_offsets()[m.insts.iter().position(|i| matches!(i, spvgraph_ir::Inst::GraphEnd)).expect("end")];
    for f in r.errors() {
        assert!(f.word_offset.is_some_and(|w| w > graph_end), "{f:?}");
        assert!(f.instruction.as_deref().is_some_and(|t| t.contains("Debug")), "{f:?}");
    }
    // The rule carries its spec text and source, for reports.
    let info = RuleId::LayoutGraphSectionOutsideGraph.info();
    assert!(info.spec.contains("OpGraphEndARM") || info.spec.contains("graph definitions"));
    assert!(info.spirv_val_checks);
    // spirv-val rejects the same module for the same reason.
    let sv = SpirvVal::discover();
    if let Err(e) = sv.available() {
        assert!(!spvgraph_ir::tools::Tools::required(), "CI=true and {e}");
        return;
    }
    match sv.validate(&words(&m), &ValidateOptions::default()).expect("spirv-val runs") {
        Verdict::Invalid(d) => {
            assert_eq!(d[0].rule, Some(RuleId::LayoutGraphSectionOutsideGraph), "{d:?}");
            // spirv-val's first error is our first error of that rule.
            let first = r.errors().next().and_then(|f| f.word_offset);
            assert_eq!(d[0].word_offset, first, "{d:?}");
        }
        Verdict::Valid => panic!("spirv-val 2025.5 accepted debug info after OpGraphEndARM"),
    }
}
