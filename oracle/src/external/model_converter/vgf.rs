//! What `vgf_dump -i MODEL.vgf` says about a VGF file (its JSON description:
//! modules, the model sequence with its segments, bindings and constants,
//! and the resources), and the interface map derived from it.
//!
//! The model sequence names the model's inputs `input_<k>` and outputs
//! `output_<k>`, `k` being the position of the MLIR function's argument or
//! result; each points at a resource (`mrt_index`) and a binding. A segment
//! lists the resources its module binds. A model output that no segment
//! writes but that carries the binding of a model input is a pass-through:
//! model-converter serves it from the input's binding.
//!
//! Which argument a model input is comes from its binding, not from its
//! position: model-converter gives argument `i` binding `i`, and when its
//! folding leaves an argument unused it drops it from the model, so the
//! remaining inputs are renumbered (`{binding: 1, index: 0}` is argument 1,
//! the only input left) and lose their `input_<k>` names.

use crate::produced::{Binding, InputLink, InterfaceMap, OutputSource, ProducerNote, Side};
use serde::Deserialize;
use spvgraph_ir::info::ModuleInfo;

/// The JSON description `vgf_dump` prints (the fields spvgraph reads).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct VgfDescription {
    /// The constant table.
    pub constants: Vec<ConstantEntry>,
    /// The model's interface and its segments.
    pub model_sequence: ModelSequence,
    /// The modules (one SPIR-V module per graph segment).
    pub modules: Vec<ModuleEntry>,
    /// Resources (inputs, outputs, constants, intermediates).
    pub resources: Vec<Resource>,
}

/// An entry of the constant table.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct ConstantEntry {
    /// Position in the table (what `--dump-constant` takes).
    pub index: u32,
    /// The resource describing its type and shape.
    pub mrt_index: u32,
}

/// The model's inputs, outputs and segments.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct ModelSequence {
    /// Model inputs, in MLIR argument order.
    pub inputs: Vec<NamedSlot>,
    /// Model outputs, in MLIR result order.
    pub outputs: Vec<NamedSlot>,
    /// Segments, in execution order.
    pub segments: Vec<Segment>,
}

/// A model input or output.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct NamedSlot {
    /// Binding number.
    pub binding: u32,
    /// Position among the model's inputs or outputs.
    pub index: u32,
    /// Its resource.
    pub mrt_index: u32,
    /// `input_<k>` / `output_<k>`.
    pub name: String,
}

/// A binding of a segment.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct Slot {
    /// Binding number.
    pub binding: u32,
    /// Position.
    pub index: u32,
    /// Its resource.
    pub mrt_index: u32,
}

/// A descriptor set of a segment.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct DescriptorSetInfo {
    /// The bindings of the set.
    pub bindings: Vec<Slot>,
    /// The set number.
    pub set_index: u32,
}

/// Which constant a GraphConstantID of a segment's module is.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct ConstantBinding {
    /// Index into the constant table.
    pub constant_table_index: u32,
    /// The `OpGraphConstantARM` GraphConstantID.
    pub graph_constant_id: u32,
}

/// One segment: a module run with some bindings.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct Segment {
    /// GraphConstantID → constant table entry.
    pub constant_bindings: Vec<ConstantBinding>,
    /// Descriptor sets and their bindings.
    pub descriptor_set_infos: Vec<DescriptorSetInfo>,
    /// Inputs of the segment.
    pub inputs: Vec<Slot>,
    /// Outputs of the segment.
    pub outputs: Vec<Slot>,
    /// The module it runs.
    pub module_index: u32,
    /// Its name.
    pub name: String,
    /// `GRAPH` or `COMPUTE`.
    #[serde(rename = "type")]
    pub kind: String,
}

impl Segment {
    /// The set and binding the segment gives resource `mrt_index`.
    pub fn binding_of(&self, mrt_index: u32) -> Option<Binding> {
        self.descriptor_set_infos.iter().find_map(|set| {
            set.bindings
                .iter()
                .find(|b| b.mrt_index == mrt_index)
                .map(|b| Binding { set: set.set_index, binding: b.binding })
        })
    }
}

/// A module of the VGF file.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct ModuleEntry {
    /// Its entry point name.
    pub entry_point: String,
    /// Its position (what `--dump-spirv` takes).
    pub index: u32,
    /// Its name.
    pub name: String,
    /// `GRAPH` or `COMPUTE`.
    #[serde(rename = "type")]
    pub kind: String,
}

/// A resource (tensor) of the model.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct Resource {
    /// `INPUT`, `OUTPUT`, `CONSTANT`, `INTERMEDIATE`.
    pub category: String,
    /// Its index (what `mrt_index` refers to).
    pub index: u32,
    /// Its shape as the source had it (rank 0 is `[]`).
    pub shape: Vec<i64>,
    /// Its Vulkan format name.
    pub vk_format: String,
}

impl VgfDescription {
    /// Reads `vgf_dump`'s JSON.
    pub fn parse(text: &str) -> Result<VgfDescription, String> {
        serde_json::from_str(text).map_err(|e| format!("vgf_dump's description is not the expected JSON: {e}"))
    }

    /// The graph segments.
    pub fn graph_segments(&self) -> Vec<&Segment> {
        self.model_sequence.segments.iter().filter(|s| s.kind == "GRAPH").collect()
    }

    /// The resource with this index.
    pub fn resource(&self, mrt_index: u32) -> Option<&Resource> {
        self.resources.iter().find(|r| r.index == mrt_index)
    }

    /// The source-side shape of a resource (negative dimensions, i.e.
    /// dynamic ones, make it unknown).
    pub fn shape(&self, mrt_index: u32) -> Option<Vec<usize>> {
        self.resource(mrt_index)?.shape.iter().map(|&d| usize::try_from(d).ok()).collect()
    }
}

/// One interface variable of the produced entry point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpirvSlot {
    /// Its position among the graph's inputs or outputs.
    pub index: usize,
    /// Its binding, when decorated with both DescriptorSet and Binding.
    pub binding: Option<Binding>,
}

/// The produced entry point's inputs and outputs with their bindings, from
/// the module summary.
pub fn spirv_slots(info: &ModuleInfo, entry_point: &str) -> Option<(Vec<SpirvSlot>, Vec<SpirvSlot>)> {
    let ep = info.entry_points.iter().find(|e| e.name == entry_point)?;
    let slot = |i: &spvgraph_ir::info::InterfaceInfo| SpirvSlot {
        index: i.index,
        binding: match (i.descriptor_set, i.binding) {
            (Some(set), Some(binding)) => Some(Binding { set, binding }),
            _ => None,
        },
    };
    let inputs = ep.interface.iter().filter(|i| i.role == "input").map(slot).collect();
    let outputs = ep.interface.iter().filter(|i| i.role == "output").map(slot).collect();
    Some((inputs, outputs))
}

/// The source argument a model input is: its binding (see the module
/// documentation; its `index` is only its position among the inputs kept).
fn argument(input: &NamedSlot) -> usize {
    input.binding as usize
}

/// A model input's name: `input_<k>`, also for the inputs model-converter
/// left unnamed after dropping an argument.
fn input_name(input: &NamedSlot) -> String {
    if input.name.is_empty() {
        format!("input_{}", argument(input))
    } else {
        input.name.clone()
    }
}

/// The interface map of a graph segment whose module has entry point
/// `entry_point` with these inputs and outputs, with notes on what the
/// producer did to the interfaces (pass-through outputs, reordering).
pub fn interface_map(
    desc: &VgfDescription,
    segment: &Segment,
    entry_point: &str,
    inputs: &[SpirvSlot],
    outputs: &[SpirvSlot],
) -> Result<(InterfaceMap, Vec<ProducerNote>), String> {
    let mut notes = Vec::new();
    let seq = &desc.model_sequence;
    let model_input = |mrt: u32| seq.inputs.iter().find(|s| s.mrt_index == mrt);
    let mut links = Vec::with_capacity(inputs.len());
    for slot in inputs {
        let binding =
            slot.binding.ok_or_else(|| format!("produced input {} has no DescriptorSet/Binding", slot.index))?;
        // The segment's binding table says which resource the binding holds.
        let mrt = segment
            .descriptor_set_infos
            .iter()
            .filter(|s| s.set_index == binding.set)
            .flat_map(|s| &s.bindings)
            .find(|b| b.binding == binding.binding)
            .map(|b| b.mrt_index)
            .ok_or_else(|| {
                format!("produced input {} ({binding}) is not in the segment's binding table", slot.index)
            })?;
        let input = model_input(mrt)
            .ok_or_else(|| format!("produced input {} ({binding}) binds resource {mrt}, no model input", slot.index))?;
        links.push(InputLink { source: argument(input), name: input_name(input), binding });
    }
    let mut sources = Vec::with_capacity(seq.outputs.len());
    let mut ordered: Vec<&NamedSlot> = seq.outputs.iter().collect();
    ordered.sort_by_key(|s| s.index);
    for (k, out) in ordered.iter().enumerate() {
        if out.index as usize != k {
            return Err(format!("model outputs are not numbered 0..{}: {}", seq.outputs.len(), out.name));
        }
        let source = match segment.binding_of(out.mrt_index) {
            Some(binding) if segment.outputs.iter().any(|o| o.mrt_index == out.mrt_index) => {
                match outputs.iter().find(|s| s.binding == Some(binding)) {
                    Some(slot) => OutputSource::Output { index: slot.index, name: out.name.clone(), binding },
                    None => OutputSource::Missing {
                        name: out.name.clone(),
                        reason: format!("the segment writes it at {binding}, which no graph output of the module has"),
                    },
                }
            }
            _ => match seq.inputs.iter().find(|i| i.binding == out.binding) {
                Some(input) => {
                    notes.push(ProducerNote::PassThroughOutput { output: k, input: argument(input) });
                    let binding =
                        segment.binding_of(input.mrt_index).unwrap_or(Binding { set: 0, binding: input.binding });
                    OutputSource::Input { source: argument(input), name: out.name.clone(), binding }
                }
                None => OutputSource::Missing {
                    name: out.name.clone(),
                    reason: format!("no segment writes resource {} (binding {})", out.mrt_index, out.binding),
                },
            },
        };
        sources.push(source);
    }
    let map = InterfaceMap { entry_point: entry_point.to_string(), inputs: links, outputs: sources };
    let arguments: Vec<usize> = map.inputs.iter().map(|l| l.source).collect();
    if arguments.windows(2).any(|w| w[0] >= w[1]) {
        notes.push(ProducerNote::Reordered { side: Side::Input });
    }
    // Arguments below the highest one kept that no input is (an argument
    // after the last one kept cannot be seen from the VGF).
    let highest = arguments.iter().max().map_or(0, |m| m + 1);
    let dropped: Vec<usize> = (0..highest).filter(|a| !arguments.contains(a)).collect();
    if !dropped.is_empty() {
        notes.push(ProducerNote::DroppedInputs { inputs: dropped });
    }
    let outputs_in_order = map
        .outputs
        .iter()
        .filter_map(|o| match o {
            OutputSource::Output { index, .. } => Some(*index),
            _ => None,
        })
        .collect::<Vec<_>>();
    if outputs_in_order.windows(2).any(|w| w[0] > w[1]) {
        notes.push(ProducerNote::Reordered { side: Side::Output });
    }
    Ok((map, notes))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What model-converter 0.11 wrote for a graph returning `(b, a + b, a)`:
    /// two of the three outputs are pass-throughs.
    const PASS_THROUGH: &str = r#"{
      "constants": [],
      "model_sequence": {
        "inputs": [{"binding":0,"index":0,"mrt_index":0,"name":"input_0"},{"binding":1,"index":1,"mrt_index":1,"name":"input_1"}],
        "outputs": [{"binding":1,"index":0,"mrt_index":2,"name":"output_0"},{"binding":2,"index":1,"mrt_index":3,"name":"output_1"},{"binding":0,"index":2,"mrt_index":4,"name":"output_2"}],
        "segments": [{"constant_bindings": [], "constants": [],
          "descriptor_set_infos": [{"bindings":[{"binding":0,"index":0,"mrt_index":0},{"binding":1,"index":1,"mrt_index":1},{"binding":2,"index":2,"mrt_index":3}],"set_index":0}],
          "dispatch_shape": [0,0,0], "index": 0,
          "inputs": [{"binding":0,"index":0,"mrt_index":0},{"binding":1,"index":1,"mrt_index":1}],
          "module_index": 0, "name": "graph_segment_0",
          "outputs": [{"binding":2,"index":0,"mrt_index":3}], "push_constant_ranges": [], "type": "GRAPH"}]
      },
      "modules": [{"entry_point":"graph_partition_0","index":0,"name":"graph_partition_0","shader_code_available":true,"shader_type":"SPIR-V","type":"GRAPH"}],
      "resources": [{"category":"INPUT","index":0,"shape":[2,3],"stride":[],"vk_descriptor_type":"VK_DESCRIPTOR_TYPE_TENSOR_ARM","vk_format":"VK_FORMAT_R32_SFLOAT"}]
    }"#;

    fn slot(index: usize, binding: u32) -> SpirvSlot {
        SpirvSlot { index, binding: Some(Binding { set: 0, binding }) }
    }

    #[test]
    fn pass_through_outputs_map_to_their_inputs() {
        let desc = VgfDescription::parse(PASS_THROUGH).expect("parses");
        let segments = desc.graph_segments();
        assert_eq!(segments.len(), 1);
        let (map, notes) =
            interface_map(&desc, segments[0], "graph_partition_0", &[slot(0, 0), slot(1, 1)], &[slot(0, 2)])
                .expect("maps");
        assert_eq!(map.inputs.iter().map(|l| l.source).collect::<Vec<_>>(), [0, 1]);
        assert!(matches!(&map.outputs[0], OutputSource::Input { source: 1, .. }), "{:?}", map.outputs[0]);
        assert!(matches!(&map.outputs[1], OutputSource::Output { index: 0, .. }), "{:?}", map.outputs[1]);
        assert!(matches!(&map.outputs[2], OutputSource::Input { source: 0, .. }), "{:?}", map.outputs[2]);
        assert_eq!(
            notes,
            [
                ProducerNote::PassThroughOutput { output: 0, input: 1 },
                ProducerNote::PassThroughOutput { output: 2, input: 0 }
            ]
        );
        assert_eq!(desc.shape(0), Some(vec![2, 3]));
        assert_eq!(desc.shape(7), None);
    }

    #[test]
    fn swapped_bindings_are_a_reordering_and_unknown_bindings_an_error() {
        let desc = VgfDescription::parse(PASS_THROUGH).expect("parses");
        let seg = desc.graph_segments()[0];
        let (map, notes) = interface_map(&desc, seg, "g", &[slot(0, 1), slot(1, 0)], &[slot(0, 2)]).expect("maps");
        assert_eq!(map.inputs.iter().map(|l| l.source).collect::<Vec<_>>(), [1, 0]);
        assert!(notes.contains(&ProducerNote::Reordered { side: Side::Input }));
        let e = interface_map(&desc, seg, "g", &[slot(0, 9)], &[]).expect_err("binding 9 is unknown");
        assert!(e.contains("binding 9"), "{e}");
        assert!(VgfDescription::parse("[").is_err());
    }

    /// What model-converter 0.11 wrote for `ADD(MUL(a, zeros), b)` after
    /// folding the MUL away: argument 0 is dropped, and argument 1 is the
    /// only input left, `{binding: 1, index: 0}`, with no name.
    const DROPPED: &str = r#"{
      "model_sequence": {
        "inputs": [{"binding": 1, "index": 0, "mrt_index": 0, "name": ""}],
        "outputs": [{"binding": 2, "index": 0, "mrt_index": 1, "name": "output_0"}],
        "segments": [{"constant_bindings": [], "constants": [],
          "descriptor_set_infos": [{"bindings": [{"binding": 1, "index": 0, "mrt_index": 0}, {"binding": 2, "index": 1, "mrt_index": 1}], "set_index": 0}],
          "index": 0, "inputs": [{"binding": 1, "index": 0, "mrt_index": 0}], "module_index": 0,
          "name": "graph_segment_0", "outputs": [{"binding": 2, "index": 0, "mrt_index": 1}], "type": "GRAPH"}]
      },
      "modules": [{"entry_point": "graph_partition_0", "index": 0, "name": "graph_partition_0", "type": "GRAPH"}]
    }"#;

    #[test]
    fn an_input_is_the_argument_its_binding_numbers() {
        let desc = VgfDescription::parse(DROPPED).expect("parses");
        let seg = desc.graph_segments()[0];
        let (map, notes) = interface_map(&desc, seg, "graph_partition_0", &[slot(0, 1)], &[slot(0, 2)]).expect("maps");
        assert_eq!(map.inputs.iter().map(|l| l.source).collect::<Vec<_>>(), [1], "{map:?}");
        assert_eq!(map.inputs[0].name, "input_1");
        assert!(matches!(&map.outputs[0], OutputSource::Output { index: 0, .. }), "{:?}", map.outputs[0]);
        assert_eq!(notes, [ProducerNote::DroppedInputs { inputs: vec![0] }], "not a reordering");
        assert!(!map.is_identity());
    }
}
