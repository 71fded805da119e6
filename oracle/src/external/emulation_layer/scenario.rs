//! Scenario files for `scenario-runner` 0.11: one `dispatch_spirv_graph`
//! command per graph, each with its own `shader` resource (`type: SPIR-V`),
//! a `tensor` resource per interface variable bound at its
//! DescriptorSet/Binding, and a `graph_constant` resource per
//! GraphConstantID. Every path in the scenario is relative to the directory
//! it is written in (the runner's working directory); outputs (`dst`) are
//! relative to the runner's `--output` directory, [`OUTPUT_DIR`].
//!
//! Conventions of the runner, found by running it:
//!
//! * Input `.npy` files are checked for their dims and byte size only, not
//!   their dtype, so `TensorData::write_npy`'s files serve every format.
//! * Outputs are written as bool `|b1`, i8 `|i1`, i16 `<i2`, i32 `<i4`,
//!   i48 `<i8` (`VK_FORMAT_R64_SINT`), fp16 `<f2`, fp32 `<f4`, bf16 `<V2`,
//!   fp8e4m3 `<V1` and fp8e5m2 `|u1`: the TOSA reference model's dtypes.
//! * Graph constants are `graph_constant` resources (not `tensor`s); the
//!   position of each in the command's `graph_constants` list is the
//!   GraphConstantID the pipeline gives it, so unused positions are filled.

use super::prepare::Prepared;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;
use std::path::{Path, PathBuf};

/// The runner's `--output` directory, relative to the scenario's.
pub const OUTPUT_DIR: &str = "out";

/// The `VkFormat` the runner is given for a tensor of `elem`.
pub fn vk_format(elem: ElemType) -> &'static str {
    match elem {
        ElemType::Bool => "VK_FORMAT_R8_BOOL_ARM",
        ElemType::I8 => "VK_FORMAT_R8_SINT",
        ElemType::I16 => "VK_FORMAT_R16_SINT",
        ElemType::I32 => "VK_FORMAT_R32_SINT",
        ElemType::I48 => "VK_FORMAT_R64_SINT",
        ElemType::Fp16 => "VK_FORMAT_R16_SFLOAT",
        ElemType::Bf16 => "VK_FORMAT_R16_SFLOAT_FPENCODING_BFLOAT16_ARM",
        ElemType::Fp32 => "VK_FORMAT_R32_SFLOAT",
        ElemType::Fp8E4M3 => "VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E4M3_ARM",
        ElemType::Fp8E5M2 => "VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E5M2_ARM",
    }
}

/// One graph of a scenario: its label (the uid prefix of its resources and
/// the name of its pipeline in the runner's log), what to run and its inputs.
pub struct Entry<'a> {
    /// Unique within the scenario; `g0`, `g1`, ...
    pub label: String,
    /// The prepared graph.
    pub graph: &'a Prepared,
    /// Its inputs, in InputIndex order.
    pub inputs: &'a [TensorData],
}

/// The output files of one graph, relative to the scenario's directory.
pub fn output_files(label: &str, count: usize) -> Vec<PathBuf> {
    (0..count).map(|j| Path::new(OUTPUT_DIR).join(format!("{label}.out{j}.npy"))).collect()
}

/// A scenario written to `dir` (`scenario.json` plus the module, input and
/// constant files of every graph).
#[derive(Debug)]
pub struct Written {
    /// The scenario file.
    pub path: PathBuf,
}

/// Writes the scenario for `entries` into `dir`.
pub fn write(dir: &Path, entries: &[Entry<'_>]) -> Result<Written, String> {
    let mut resources = Vec::new();
    let mut commands = Vec::new();
    let out = dir.join(OUTPUT_DIR);
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    for e in entries {
        let l = &e.label;
        let spv = format!("{l}.spv");
        let bytes: Vec<u8> = e.graph.words.iter().flat_map(|w| w.to_le_bytes()).collect();
        std::fs::write(dir.join(&spv), bytes).map_err(|err| format!("{spv}: {err}"))?;
        resources.push(serde_json::json!({"shader": {"uid": l, "src": spv, "type": "SPIR-V", "entry": e.graph.entry}}));
        let mut bindings = Vec::new();
        for (i, (slot, data)) in e.graph.inputs.iter().zip(e.inputs).enumerate() {
            let uid = format!("{l}.in{i}");
            let file = format!("{uid}.npy");
            data.write_npy(&dir.join(&file)).map_err(|err| err.to_string())?;
            resources.push(serde_json::json!({"tensor": {
                "uid": uid, "dims": slot.shape, "format": vk_format(slot.elem),
                "shader_access": "readonly", "src": file}}));
            bindings.push(serde_json::json!({"set": slot.set, "id": slot.binding, "resource_ref": uid}));
        }
        for (j, slot) in e.graph.outputs.iter().enumerate() {
            let uid = format!("{l}.out{j}");
            resources.push(serde_json::json!({"tensor": {
                "uid": uid, "dims": slot.shape, "format": vk_format(slot.elem),
                "shader_access": "writeonly", "dst": format!("{uid}.npy")}}));
            bindings.push(serde_json::json!({"set": slot.set, "id": slot.binding, "resource_ref": uid}));
        }
        let mut constants = Vec::new();
        let last = e.graph.constants.keys().next_back().copied();
        for id in 0..last.map_or(0, |l| l + 1) {
            let uid = format!("{l}.gc{id}");
            let file = format!("{uid}.npy");
            // A position no graph constant has still needs an entry.
            let filler;
            let data = match e.graph.constants.get(&id) {
                Some(d) => d,
                None => {
                    filler = TensorData::zeros(ElemType::I8, &[1]);
                    &filler
                }
            };
            data.write_npy(&dir.join(&file)).map_err(|err| err.to_string())?;
            resources.push(serde_json::json!({"graph_constant": {
                "uid": uid, "dims": data.shape(), "format": vk_format(data.elem()), "src": file}}));
            constants.push(uid);
        }
        commands.push(serde_json::json!({"dispatch_spirv_graph": {
            "graph_ref": l, "bindings": bindings, "graph_constants": constants}}));
    }
    let doc = serde_json::json!({"resources": resources, "commands": commands});
    let path = dir.join("scenario.json");
    let text = serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?;
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Written { path })
}

#[cfg(test)]
mod tests {
    use super::super::prepare::{Prepared, Slot};
    use super::*;
    use crate::external::process::ScratchDir;
    use std::collections::BTreeMap;

    #[test]
    fn a_scenario_binds_every_interface_variable_and_numbers_constants() {
        let dir = ScratchDir::new("emulation-layer-test").expect("scratch");
        let slot = |set, binding, elem| Slot { set, binding, elem, shape: vec![2, 3] };
        let mut constants = BTreeMap::new();
        constants.insert(2, TensorData::zeros(ElemType::Bf16, &[4]));
        let p = Prepared {
            words: vec![0x0723_0203, 0x0001_0600, 0, 1, 0],
            entry: "main".into(),
            inputs: vec![slot(0, 3, ElemType::Fp16)],
            outputs: vec![slot(1, 0, ElemType::I48)],
            constants,
            applied: vec![],
        };
        let inputs = [TensorData::zeros(ElemType::Fp16, &[2, 3])];
        let w = write(dir.path(), &[Entry { label: "g0".into(), graph: &p, inputs: &inputs }]).expect("writes");
        let doc: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&w.path).expect("read")).expect("json");
        let cmd = &doc["commands"][0]["dispatch_spirv_graph"];
        assert_eq!(cmd["graph_ref"], "g0");
        assert_eq!(cmd["bindings"][0], serde_json::json!({"set": 0, "id": 3, "resource_ref": "g0.in0"}));
        assert_eq!(cmd["bindings"][1], serde_json::json!({"set": 1, "id": 0, "resource_ref": "g0.out0"}));
        assert_eq!(cmd["graph_constants"], serde_json::json!(["g0.gc0", "g0.gc1", "g0.gc2"]));
        let res = doc["resources"].as_array().expect("resources");
        assert_eq!(res[0]["shader"]["entry"], "main");
        assert_eq!(res[2]["tensor"]["format"], "VK_FORMAT_R64_SINT");
        assert_eq!(res[5]["graph_constant"]["format"], "VK_FORMAT_R16_SFLOAT_FPENCODING_BFLOAT16_ARM");
        assert_eq!(std::fs::read(dir.join("g0.spv")).expect("spv").len(), 20);
        assert!(dir.join("g0.in0.npy").is_file() && dir.join("g0.gc2.npy").is_file());
        assert_eq!(output_files("g0", 1), vec![PathBuf::from("out/g0.out0.npy")]);
    }
}
