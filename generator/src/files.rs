//! Writing a case to disk in the corpus format: `STEM.spv`, optionally
//! `STEM.spvasm` and `STEM.mlir`, one `.npy` per input tensor and graph
//! constant, and the `STEM.json` manifest that names them all.

use crate::case::{Case, InterfaceSlot, RowUse};
use crate::near_valid::NearValid;
use serde::{Deserialize, Serialize};
use spvgraph_ir::elem::ElemType;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The JSON manifest of a case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// The seed the case was generated from.
    pub seed: Option<u64>,
    /// What every conforming validator must say (`"valid"` for generated cases).
    pub expect: String,
    /// The module file.
    pub spv: String,
    /// Its disassembly, when written.
    pub spvasm: Option<String>,
    /// TOSA MLIR of the first entry point's graph, when written.
    pub mlir: Option<String>,
    /// Entry points whose graph the MLIR printer could not print (should be empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mlir_errors: Vec<String>,
    /// TOSA operator names used, in opcode order.
    pub ops: Vec<String>,
    /// Type rows used.
    pub type_rows: Vec<RowUseRecord>,
    /// Every input file, per entry point in module order, each in InputIndex
    /// order (tensor arrays in ElementIndex order).
    pub inputs: Vec<InputRecord>,
    /// GraphConstantID → data file.
    pub graph_constants: BTreeMap<u32, String>,
    /// Every graph entry point with its interface.
    pub entry_points: Vec<EntryPointRecord>,
    /// Constructs reached beyond type rows.
    pub features: Vec<String>,
    /// The expected value of every output of every entry point, with what
    /// judging a candidate needs (written by `spvgraph corpus build`; empty
    /// for other cases).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub expected: Vec<ExpectedOutputRecord>,
}

/// The expected value of one output of one entry point, and how to judge a
/// candidate's value of it under the TOSA compliance rules.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExpectedOutputRecord {
    /// Entry-point position (in `entry_points`).
    pub entry_point: usize,
    /// Output position in OutputIndex order (tensor arrays flattened in
    /// ElementIndex order): the `j` of `out<j>.npy`.
    pub output: usize,
    /// The expected output, `STEM.ep<k>.out<j>.npy`, in the output's own
    /// element type (the in-tree executor's result).
    pub file: String,
    /// Element type.
    pub elem: ElemType,
    /// Shape.
    pub shape: Vec<u32>,
    /// The TOSA operator that produces the output (none for an output wired
    /// straight to a graph input or a constant, which must come back exact).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operator: Option<String>,
    /// The operator's accuracy class in the catalogue (`exact`, `ulp`,
    /// `dot_product`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accuracy: Option<String>,
    /// The compliance mode with its parameters, as the oracle's
    /// `compliance::Mode` serialises it (`{"mode": "ulp", "ulp": 1.0, ...}`);
    /// `null` when it could not be worked out (the output is then not judged).
    pub compliance: serde_json::Value,
    /// The fp64 result of the TOSA reference model's precise run
    /// (`STEM.ep<k>.out<j>.ref.npy`, floating-point outputs it confirmed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
    /// The bounds tensor of the same run (`STEM.ep<k>.out<j>.bounds.npy`),
    /// for the modes that need one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bounds: Option<String>,
    /// The oracles whose results agree with `file` under the compliance
    /// rules, with their versions (`in-tree`, `tosa-ref 2025.07.0`).
    pub confirmed_by: Vec<String>,
    /// Whether an operator upstream of the one producing the output has an
    /// inexact floating-point result: two compliant implementations may then
    /// differ by more than the rule allows, so the output is not judged.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub upstream_inexact: bool,
    /// TOSA profiles the output needs (any of them).
    pub profiles: Vec<String>,
    /// TOSA extensions the output also needs (all of them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extensions: Vec<String>,
}

/// A type row in a manifest.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RowUseRecord {
    /// Operator name.
    pub op: String,
    /// Row index in the catalogue.
    pub row: usize,
    /// Slot types.
    pub types: Vec<String>,
    /// Profiles (any of).
    pub profiles: Vec<String>,
    /// Extensions also needed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<String>,
    /// Attribute value the row is tied to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub qualifier: Option<String>,
}

impl From<&RowUse> for RowUseRecord {
    fn from(r: &RowUse) -> Self {
        RowUseRecord {
            op: r.op.name().to_string(),
            row: r.row,
            types: r.types.clone(),
            profiles: r.profiles.clone(),
            also: r.also.clone(),
            qualifier: r.qualifier.clone(),
        }
    }
}

/// One input data file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InputRecord {
    /// Entry-point position (in `entry_points`).
    pub entry_point: usize,
    /// The `.npy` file.
    pub file: String,
    /// InputIndex.
    pub index: u32,
    /// ElementIndex (tensor arrays).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub element: Option<u32>,
    /// Element type (bf16/fp8 files hold raw bits).
    pub elem: ElemType,
    /// Shape.
    pub shape: Vec<u32>,
    /// Whether the graph reads it (unread tensor-array elements are still bound).
    pub used: bool,
}

/// One entry point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EntryPointRecord {
    /// Entry-point name.
    pub name: String,
    /// Graph index in module order.
    pub graph: usize,
    /// TOSA MLIR of this entry point's graph (written for the first entry
    /// point of each graph).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mlir: Option<String>,
    /// Input files in InputIndex order.
    pub inputs: Vec<String>,
    /// Input interface slots, same order.
    pub input_slots: Vec<SlotRecord>,
    /// Output interface slots in OutputIndex order.
    pub outputs: Vec<SlotRecord>,
}

/// An interface tensor: index, element, type, shape, descriptor binding.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SlotRecord {
    /// InputIndex / OutputIndex.
    pub index: u32,
    /// ElementIndex.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub element: Option<u32>,
    /// Element type.
    pub elem: ElemType,
    /// Shape.
    pub shape: Vec<u32>,
    /// DescriptorSet.
    pub descriptor_set: u32,
    /// Binding.
    pub binding: u32,
}

impl From<&InterfaceSlot> for SlotRecord {
    fn from(s: &InterfaceSlot) -> Self {
        SlotRecord {
            index: s.index,
            element: s.element,
            elem: s.elem,
            shape: s.shape.clone(),
            descriptor_set: s.descriptor_set,
            binding: s.binding,
        }
    }
}

/// Optional extra files.
#[derive(Clone, Debug, Default)]
pub struct Extras {
    /// Write `STEM.spvasm` (spvgraph's disassembly).
    pub spvasm: bool,
    /// Write TOSA MLIR (`spvgraph_ir::mlir::module_to_mlir`) for the first
    /// entry point of every graph: `STEM.mlir` for the first, `STEM.epN.mlir`
    /// for the others.
    pub mlir: bool,
}

/// A failure writing a case, naming the file.
#[derive(Debug, thiserror::Error)]
pub enum FilesError {
    /// A file could not be written.
    #[error("{path}: {reason}")]
    Write {
        /// The file.
        path: String,
        /// Why.
        reason: String,
    },
    /// The module does not encode.
    #[error("{stem}: cannot encode the module: {reason}")]
    Encode {
        /// The case.
        stem: String,
        /// Why.
        reason: String,
    },
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), FilesError> {
    std::fs::write(path, bytes)
        .map_err(|e| FilesError::Write { path: path.display().to_string(), reason: e.to_string() })
}

/// Writes `case` into `dir` as `STEM.*`; returns the manifest written.
pub fn write_case(dir: &Path, stem: &str, case: &Case, extras: &Extras) -> Result<Manifest, FilesError> {
    let file = |suffix: &str| -> (PathBuf, String) {
        let name = format!("{stem}{suffix}");
        (dir.join(&name), name)
    };
    let bytes =
        case.module.encode_bytes().map_err(|e| FilesError::Encode { stem: stem.into(), reason: e.to_string() })?;
    let (spv_path, spv) = file(".spv");
    write(&spv_path, &bytes)?;
    let spvasm = if extras.spvasm {
        let (p, name) = file(".spvasm");
        write(&p, spvgraph_ir::text::disassemble(&case.module).as_bytes())?;
        Some(name)
    } else {
        None
    };
    let mut mlir_files: Vec<Option<String>> = vec![None; case.entry_points.len()];
    let mut mlir_errors = Vec::new();
    if extras.mlir {
        let mut graphs_done = std::collections::BTreeSet::new();
        for (i, ep) in case.entry_points.iter().enumerate() {
            if !graphs_done.insert(ep.graph) {
                continue;
            }
            match spvgraph_ir::mlir::module_to_mlir(&case.module, &ep.name, &case.graph_constants) {
                Ok(text) => {
                    let (p, name) = file(&if i == 0 { ".mlir".to_string() } else { format!(".ep{i}.mlir") });
                    write(&p, text.as_bytes())?;
                    mlir_files[i] = Some(name);
                }
                Err(e) => mlir_errors.push(format!("{}: {e}", ep.name)),
            }
        }
    }
    let mlir = mlir_files.first().cloned().flatten();
    let npy_err =
        |e: spvgraph_ir::tensor::TensorError| FilesError::Write { path: String::new(), reason: e.to_string() };
    let mut inputs = Vec::new();
    let mut entry_points = Vec::new();
    for (i, ep) in case.entry_points.iter().enumerate() {
        let mut files = Vec::new();
        for t in &ep.inputs {
            let suffix = match t.slot.element {
                Some(e) => format!(".ep{i}.in{}.e{e}.npy", t.slot.index),
                None => format!(".ep{i}.in{}.npy", t.slot.index),
            };
            let (p, name) = file(&suffix);
            t.data.write_npy(&p).map_err(npy_err)?;
            inputs.push(InputRecord {
                entry_point: i,
                file: name.clone(),
                index: t.slot.index,
                element: t.slot.element,
                elem: t.slot.elem,
                shape: t.slot.shape.clone(),
                used: t.slot.used,
            });
            files.push(name);
        }
        entry_points.push(EntryPointRecord {
            name: ep.name.clone(),
            graph: ep.graph,
            mlir: mlir_files.get(i).cloned().flatten(),
            inputs: files,
            input_slots: ep.inputs.iter().map(|t| SlotRecord::from(&t.slot)).collect(),
            outputs: ep.outputs.iter().map(SlotRecord::from).collect(),
        });
    }
    let mut graph_constants = BTreeMap::new();
    for (id, data) in &case.graph_constants {
        let (p, name) = file(&format!(".gc{id}.npy"));
        data.write_npy(&p).map_err(npy_err)?;
        graph_constants.insert(*id, name);
    }
    let manifest = Manifest {
        seed: case.meta.seed,
        expect: "valid".into(),
        spv,
        spvasm,
        mlir,
        mlir_errors,
        ops: case.meta.ops.iter().map(|o| o.name().to_string()).collect(),
        type_rows: case.meta.type_rows.iter().map(RowUseRecord::from).collect(),
        inputs,
        graph_constants,
        entry_points,
        features: case.meta.features.iter().cloned().collect(),
        expected: Vec::new(),
    };
    write_manifest(dir, stem, &manifest)?;
    Ok(manifest)
}

/// Writes `manifest` as `dir/STEM.json` (pretty-printed, newline-terminated).
pub fn write_manifest(dir: &Path, stem: &str, manifest: &Manifest) -> Result<(), FilesError> {
    let json_path = dir.join(format!("{stem}.json"));
    let err = |e: serde_json::Error| FilesError::Write { path: json_path.display().to_string(), reason: e.to_string() };
    let mut value = serde_json::to_value(manifest).map_err(err)?;
    // A corpus finding's `upstream` record (owner, status, reproducer) is
    // written by people: rewriting the case's files keeps it.
    let previous =
        std::fs::read_to_string(&json_path).ok().and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok());
    if let Some(up) = previous.as_ref().and_then(|v| v.get("upstream")) {
        value["upstream"] = up.clone();
    }
    let text = serde_json::to_string_pretty(&value).map_err(err)?;
    write(&json_path, format!("{text}\n").as_bytes())
}

/// Writes a near-valid case in the corpus format: the broken module as
/// `STEM.spv` (exactly `nv.words`, little-endian), its disassembly and MLIR
/// when it decodes and `extras` asks for them, the base case's input data,
/// and the manifest with `expect` set to the rule and a `near_valid` object
/// (rule, class, mutator, note, target_env, profiles). For a pipeline rule the
/// module is valid: `expect` is `valid`, `near_valid.class` is `pipeline` and
/// a `pipeline` object names the rule and `pipeline_entry_points`, the graph
/// entry points whose pipeline it breaks (which only a validator can tell).
/// Returns the manifest.
pub fn write_near_valid(
    dir: &Path,
    stem: &str,
    nv: &NearValid,
    extras: &Extras,
    pipeline_entry_points: &[String],
) -> Result<serde_json::Value, FilesError> {
    let (case, extras) = match spvgraph_ir::Module::decode_words(&nv.words) {
        Ok(module) => (Case { module, ..nv.base.clone() }, extras.clone()),
        // Undecodable (binary rules): no text form or MLIR can be made.
        Err(_) => (nv.base.clone(), Extras { spvasm: false, mlir: false }),
    };
    let manifest = write_case(dir, stem, &case, &extras)?;
    let spv = dir.join(format!("{stem}.spv"));
    let bytes = spvgraph_ir::binary::words_to_bytes(&nv.words, spvgraph_ir::binary::Endian::Little);
    write(&spv, &bytes)?;
    let json = dir.join(format!("{stem}.json"));
    let json_err = |e: serde_json::Error| FilesError::Write { path: json.display().to_string(), reason: e.to_string() };
    let mut value = serde_json::to_value(&manifest).map_err(json_err)?;
    let pipeline = nv.is_pipeline_break();
    value["expect"] = serde_json::json!(if pipeline { "valid" } else { nv.rule.name() });
    value["near_valid"] = serde_json::json!({
        "rule": nv.rule.name(),
        "class": if pipeline { "pipeline" } else { "module" },
        "mutator": nv.mutator,
        "note": nv.note,
        "target_env": nv.target_env,
        "profiles": nv.profiles.as_ref().map(|ps| ps.iter().map(|p| p.name()).collect::<Vec<_>>()),
    });
    if pipeline {
        value["pipeline"] = serde_json::json!({ "rule": nv.rule.name(), "entry_points": pipeline_entry_points });
    }
    let text = serde_json::to_string_pretty(&value).map_err(json_err)?;
    write(&json, format!("{text}\n").as_bytes())?;
    Ok(value)
}
