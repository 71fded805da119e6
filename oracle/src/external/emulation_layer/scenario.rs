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

use crate::external::consumer::Prepared;
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

/// The file names one graph's resources have in a scenario, relative to
/// the scenario's directory (outputs: to the runner's `--output` directory).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Names {
    /// The module.
    pub spv: String,
    /// Each input's `.npy` file, in InputIndex order.
    pub inputs: Vec<String>,
    /// Each graph constant's `.npy` file, by GraphConstantID (every position
    /// up to the largest ID: unused positions get a filler).
    pub constants: Vec<String>,
    /// Each output's `.npy` file, in OutputIndex order.
    pub outputs: Vec<String>,
}

impl Names {
    /// The names the runner uses for graph `label`: `label.spv`,
    /// `label.in<i>.npy`, `label.gc<id>.npy`, `label.out<j>.npy`.
    pub fn for_label(label: &str, graph: &Prepared) -> Names {
        Names {
            spv: format!("{label}.spv"),
            inputs: (0..graph.inputs.len()).map(|i| format!("{label}.in{i}.npy")).collect(),
            constants: (0..constant_positions(graph)).map(|id| format!("{label}.gc{id}.npy")).collect(),
            outputs: (0..graph.outputs.len()).map(|j| format!("{label}.out{j}.npy")).collect(),
        }
    }
}

/// How many positions the `graph_constants` list of `graph` has.
pub fn constant_positions(graph: &Prepared) -> u32 {
    graph.constants.keys().next_back().map_or(0, |last| last + 1)
}

/// The data of graph-constant position `id`: the graph's, or a one-byte
/// filler for an ID the module does not declare.
pub fn constant_data(graph: &Prepared, id: u32) -> TensorData {
    graph.constants.get(&id).cloned().unwrap_or_else(|| TensorData::zeros(ElemType::I8, &[1]))
}

/// The scenario document for graphs with their labels and file names.
pub fn document(graphs: &[(&str, &Prepared, &Names)]) -> serde_json::Value {
    let mut resources = Vec::new();
    let mut commands = Vec::new();
    for &(label, graph, names) in graphs {
        resources.push(
            serde_json::json!({"shader": {"uid": label, "src": names.spv, "type": "SPIR-V", "entry": graph.entry}}),
        );
        let mut bindings = Vec::new();
        for (i, (slot, file)) in graph.inputs.iter().zip(&names.inputs).enumerate() {
            let uid = format!("{label}.in{i}");
            resources.push(serde_json::json!({"tensor": {
                "uid": uid, "dims": slot.shape, "format": vk_format(slot.elem),
                "shader_access": "readonly", "src": file}}));
            bindings.push(serde_json::json!({"set": slot.set, "id": slot.binding, "resource_ref": uid}));
        }
        for (j, (slot, file)) in graph.outputs.iter().zip(&names.outputs).enumerate() {
            let uid = format!("{label}.out{j}");
            resources.push(serde_json::json!({"tensor": {
                "uid": uid, "dims": slot.shape, "format": vk_format(slot.elem),
                "shader_access": "writeonly", "dst": file}}));
            bindings.push(serde_json::json!({"set": slot.set, "id": slot.binding, "resource_ref": uid}));
        }
        let mut constants = Vec::new();
        for (id, file) in (0..constant_positions(graph)).zip(&names.constants) {
            let uid = format!("{label}.gc{id}");
            let data = constant_data(graph, id);
            resources.push(serde_json::json!({"graph_constant": {
                "uid": uid, "dims": data.shape(), "format": vk_format(data.elem()), "src": file}}));
            constants.push(uid);
        }
        commands.push(serde_json::json!({"dispatch_spirv_graph": {
            "graph_ref": label, "bindings": bindings, "graph_constants": constants}}));
    }
    serde_json::json!({"resources": resources, "commands": commands})
}

/// A scenario written to `dir` (`scenario.json` plus the module, input and
/// constant files of every graph).
#[derive(Debug)]
pub struct Written {
    /// The scenario file.
    pub path: PathBuf,
}

/// Writes the scenario for `entries` into `dir`, with every file named
/// after its graph's label ([`Names::for_label`]).
pub fn write(dir: &Path, entries: &[Entry<'_>]) -> Result<Written, String> {
    let out = dir.join(OUTPUT_DIR);
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut named = Vec::with_capacity(entries.len());
    for e in entries {
        let names = Names::for_label(&e.label, e.graph);
        let bytes: Vec<u8> = e.graph.words.iter().flat_map(|w| w.to_le_bytes()).collect();
        std::fs::write(dir.join(&names.spv), bytes).map_err(|err| format!("{}: {err}", names.spv))?;
        for (data, file) in e.inputs.iter().zip(&names.inputs) {
            data.write_npy(&dir.join(file)).map_err(|err| err.to_string())?;
        }
        for (id, file) in (0..constant_positions(e.graph)).zip(&names.constants) {
            constant_data(e.graph, id).write_npy(&dir.join(file)).map_err(|err| err.to_string())?;
        }
        named.push((e.label.as_str(), e.graph, names));
    }
    let refs: Vec<(&str, &Prepared, &Names)> = named.iter().map(|(l, g, n)| (*l, *g, n)).collect();
    let path = dir.join("scenario.json");
    let text = serde_json::to_string_pretty(&document(&refs)).map_err(|e| e.to_string())?;
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Written { path })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::external::consumer::{Prepared, Slot};
    use crate::external::process::ScratchDir;
    use std::collections::BTreeMap;

    #[test]
    fn a_scenario_binds_every_interface_variable_and_numbers_constants() {
        let dir = ScratchDir::new("emulation-layer-test").expect("scratch");
        let slot = |set, binding, elem| Slot { set, binding, element: None, elem, shape: vec![2, 3] };
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
