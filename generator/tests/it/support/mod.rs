//! Shared helpers for the generator's tests.

pub mod tosa_check;

use spvgraph_generator::Case;
use spvgraph_ir::analysis::Analysis;
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::tensor::TensorData;
use spvgraph_oracle::tools::Tool;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// spirv-val (`tools.json` names the native binary, not the Python wrapper).
pub fn spirv_val_tool() -> Option<PathBuf> {
    spvgraph_testkit::tool(Tool::SpirvVal)
}

/// tosa-opt.
pub fn tosa_opt_tool() -> Option<PathBuf> {
    spvgraph_testkit::tool(Tool::TosaOpt)
}

/// Parses and validates TOSA MLIR with tosa-opt: MLIR's verifier plus
/// `--tosa-validate=strict-op-spec-alignment` for every profile and extension
/// at level 8K. `Err` carries the diagnostics.
pub fn tosa_opt_validate(tosa_opt: &Path, file: &Path) -> Result<(), String> {
    let target = concat!(
        "--tosa-attach-target=profiles=pro_int,pro_fp ",
        "extensions=int16,bf16,fp8e4m3,fp8e5m2,fft,doubleround,inexactround level=8k"
    );
    let out = Command::new(tosa_opt)
        .arg(target)
        .arg("--tosa-validate=strict-op-spec-alignment")
        .arg(file)
        .args(["-o", "/dev/null"])
        .output()
        .expect("run tosa-opt");
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// The data behind every leaf id of the module: graph inputs (from the
/// first entry point exporting their graph), inline tensor constants, and
/// graph constants.
pub fn leaf_data(case: &Case) -> HashMap<Id, TensorData> {
    let m = &case.module;
    let a = Analysis::new(m);
    let mut out = HashMap::new();
    for (gi, g) in a.graphs.iter().enumerate() {
        let Some(ep) = case.entry_points.iter().find(|e| e.graph == gi) else { continue };
        for &i in &g.inputs {
            let Some(Inst::GraphInput { result, input_index, element_index, .. }) = m.insts.get(i) else { continue };
            let index = a.const_uint(*input_index).map(|v| v as u32);
            let element = element_index.and_then(|e| a.const_uint(e)).map(|v| v as u32);
            if let Some(t) = ep.inputs.iter().find(|t| Some(t.slot.index) == index && t.slot.element == element) {
                out.insert(*result, t.data.clone());
            }
        }
    }
    for inst in &m.insts {
        match inst {
            Inst::GraphConstant { result, graph_constant_id, .. } => {
                if let Some(d) = case.graph_constants.get(graph_constant_id) {
                    out.insert(*result, d.clone());
                }
            }
            i if i.is_constant() => {
                let Some(id) = i.result_id() else { continue };
                let Some(ty) = i.result_type().and_then(|t| a.tensor_type(t)) else { continue };
                let (Some(elem), Some(shape)) = (ty.elem, ty.shape.clone()) else { continue };
                if let Some(bits) = a.const_tensor_bits(id, 1 << 20) {
                    let dims: Vec<usize> = shape.iter().map(|&d| d as usize).collect();
                    if let Ok(t) = TensorData::from_bits(elem, &dims, &bits) {
                        out.insert(id, t);
                    }
                }
            }
            _ => {}
        }
    }
    out
}
