//! What to generate: operators, profiles, sizes, and the probability of every
//! optional construct.
//!
//! `Config` derives [`arbitrary::Arbitrary`] (a fuzzer can draw a whole
//! configuration, wasm-smith style: random profile subsets give swarm
//! testing) and serde (config files, manifests). Every field can also be set
//! from the command line with `--set path=value` ([`Config::set`]).

mod table;

use crate::network::Network;
use arbitrary::{Arbitrary, Unstructured};
use serde::{Deserialize, Serialize};
use spvgraph_ir::elem::Profile;
use spvgraph_ir::tosa::{LevelLimits, TosaOp, MAX_RANK};
use table::define_config;

/// A tensor is long and thin when its element count divided by its largest
/// dimension is at most this (see [`Config::max_long_elements`]).
pub const THIN_FACTOR: u64 = 8;

/// The TOSA 8K level's MAX_KERNEL (8192): the bound of kernel sizes,
/// dilated kernels, pads and FFT sizes, and the scale of the dimensions
/// drawn near the level limits.
pub const LEVEL_8K: u32 = LevelLimits::EIGHT_K.max_kernel as u32;

define_config! {
    /// Generation parameters.
    #[derive(Clone, Debug, PartialEq, Arbitrary, Serialize, Deserialize)]
    #[serde(default, deny_unknown_fields)]
    pub struct Config / ConfigFlags {
        /// Operators that may be used; empty means all 66.
        #[arbitrary(with = arbitrary_ops)]
        pub allow_ops: Vec<TosaOp> = Vec::new(),
            flag(long = "ops", value_delimiter = ',', value_name = "LIST") "Operators to use (grammar names, comma-separated; default all)." : Vec<String> => |names| parse_ops("--ops", names);
        /// Operators never used (applied after `allow_ops`).
        #[arbitrary(with = arbitrary_ops)]
        pub deny_ops: Vec<TosaOp> = Vec::new(),
            flag(long, value_delimiter = ',', value_name = "LIST") "Operators never to use." : Vec<String> => |names| parse_ops("--deny-ops", names);
        /// Enabled TOSA profiles and extensions (`"PRO-INT"`, `"EXT-BF16"`, ...):
        /// a type row is used only if it is available with these.
        #[serde(with = "profile_names")]
        #[arbitrary(with = arbitrary_profiles)]
        pub profiles: Vec<Profile> = Profile::ALL.to_vec(),
            flag(long, value_delimiter = ',', value_name = "LIST") "Enabled profiles/extensions, comma-separated (PRO-INT,PRO-FP,EXT-INT16,EXT-BF16,EXT-FP8E4M3,EXT-FP8E5M2,EXT-FFT,EXT-DOUBLEROUND,EXT-INEXACTROUND)." : Vec<String> => |names| parse_profiles(names);
        /// Fewest graphs per module (at least 1).
        #[arbitrary(with = |u: &mut Unstructured| u.int_in_range(1..=2))]
        pub min_graphs: u32 = 1,
            flag(long) "Fewest graphs per module." : u32 => same;
        /// Most graphs per module.
        #[arbitrary(with = |u: &mut Unstructured| u.int_in_range(1..=4))]
        pub max_graphs: u32 = 3,
            flag(long) "Most graphs per module." : u32 => same;
        /// Fewest TOSA operations per graph (0 allows pass-through graphs).
        #[arbitrary(with = |u: &mut Unstructured| u.int_in_range(0..=4))]
        pub min_nodes: u32 = 1,
            flag(long) "Fewest TOSA operations per graph." : u32 => same;
        /// Most TOSA operations per graph.
        #[arbitrary(with = |u: &mut Unstructured| u.int_in_range(1..=24))]
        pub max_nodes: u32 = 12,
            flag(long) "Most TOSA operations per graph." : u32 => same;
        /// Largest rank of a free-rank tensor (1..=6, TOSA level 8K's MAX_RANK).
        /// Operators whose operands have a fixed larger rank (CONV3D: 5) are not
        /// used when it is smaller.
        #[arbitrary(with = |u: &mut Unstructured| u.int_in_range(1..=MAX_RANK))]
        pub max_rank: u32 = MAX_RANK,
            flag(long) "Largest tensor rank (1..=6)." : u32 => same;
        /// Largest dimension of a freshly chosen shape (results may grow past it,
        /// e.g. TILE, CONCAT, PAD, RESIZE, within `max_tensor_elements`).
        #[arbitrary(with = |u: &mut Unstructured| u.int_in_range(1..=32))]
        pub max_dim: u32 = 8,
            flag(long) "Largest dimension of a freshly chosen shape." : u32 => same;
        /// Most elements in any one tensor.
        #[arbitrary(with = |u: &mut Unstructured| u.int_in_range(16..=1 << 14))]
        pub max_tensor_elements: u64 = 2048,
            flag(long) "Most elements per tensor." : u64 => same;
        /// Most elements over all tensors of one graph; no operation is added
        /// once it is reached.
        #[arbitrary(with = |u: &mut Unstructured| u.int_in_range(64..=1 << 17))]
        pub max_graph_elements: u64 = 32768,
            flag(long) "Most elements over the tensors of one graph." : u64 => same;
        /// Most graph inputs (interface tensors) per graph; further leaves
        /// become constants.
        #[arbitrary(with = |u: &mut Unstructured| u.int_in_range(1..=12))]
        pub max_graph_inputs: u32 = 8;
        /// Most graph outputs per graph.
        #[arbitrary(with = |u: &mut Unstructured| u.int_in_range(1..=12))]
        pub max_graph_outputs: u32 = 8;
        /// Largest tensor written as an inline `OpConstantComposite`; larger
        /// constants become `OpGraphConstantARM` (or null/replicated).
        #[arbitrary(with = |u: &mut Unstructured| u.int_in_range(1..=600))]
        pub max_inline_elements: u64 = 64;
        /// Most inputs of one CONCAT (TOSA 8K allows 64); an operation drawn
        /// with wide attributes may use up to 64 regardless.
        #[arbitrary(with = |u: &mut Unstructured| u.int_in_range(1..=8))]
        pub max_concat_inputs: u32 = 4;
        /// Most elements of a long, thin tensor: one whose elements, divided by
        /// its largest dimension, number at most [`THIN_FACTOR`]. Such tensors
        /// (dimensions near the TOSA 8K level limits, see
        /// [`Probabilities::level_shape`]) may exceed `max_tensor_elements`.
        #[arbitrary(with = |u: &mut Unstructured| u.int_in_range(16..=1 << 16))]
        pub max_long_elements: u64 = 16384;
        /// Probabilities of the optional constructs.
        pub probs: Probabilities = Probabilities::default();
        /// Graphs shaped like real networks instead of grown operator by
        /// operator (`None`, the default); see [`Config::network`]. A fuzzer's
        /// configuration never sets it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[arbitrary(default)]
        pub network: Option<Network> = None;
    }
    nested { probs: ProbabilityFlags }
}

define_config! {
    /// The probability (0..=1) of each optional construct.
    #[derive(Clone, Debug, PartialEq, Arbitrary, Serialize, Deserialize)]
    #[serde(default, deny_unknown_fields)]
    pub struct Probabilities / ProbabilityFlags: each f64 {
        /// A tensor operand reuses an existing value (fan-out, DAGs) instead of a fresh leaf.
        #[arbitrary(with = arbitrary_prob)]
        pub reuse_value: f64 = 0.7;
        /// A fresh data leaf is a constant rather than a graph input.
        #[arbitrary(with = arbitrary_prob)]
        pub constant_leaf: f64 = 0.2;
        /// A fresh weight or bias leaf (convolutions, MATMUL B) is a constant.
        #[arbitrary(with = arbitrary_prob)]
        pub weight_constant: f64 = 0.7;
        /// A constant tensor (leaf or CTC input) is an `OpGraphConstantARM`.
        #[arbitrary(with = arbitrary_prob)]
        pub graph_constant: f64 = 0.3;
        /// A constant whose data may be all zero is, and is written `OpConstantNull`.
        #[arbitrary(with = arbitrary_prob)]
        pub null_constant: f64 = 0.15;
        /// A constant whose data may be uniform is, and is written
        /// `OpConstantCompositeReplicateEXT`.
        #[arbitrary(with = arbitrary_prob)]
        pub replicate_constant: f64 = 0.15;
        /// An attribute tensor (kernel, stride, pad, perms, shape_t inputs) is an
        /// `OpGraphConstantARM`. Legal (it is a constant instruction) but
        /// consumers read these only from inline constants; 0 by default.
        #[arbitrary(with = arbitrary_prob)]
        pub attribute_graph_constant: f64 = 0.0;
        /// An i8 zero point (or RESCALE zero point) is non-zero.
        #[arbitrary(with = arbitrary_prob)]
        pub nonzero_zero_point: f64 = 0.5;
        /// Graph inputs of one tensor type are grouped into a tensor-array input
        /// read with ElementIndex.
        #[arbitrary(with = arbitrary_prob)]
        pub tensor_array_input: f64 = 0.15;
        /// Graph outputs of one tensor type are grouped into a tensor-array output.
        #[arbitrary(with = arbitrary_prob)]
        pub tensor_array_output: f64 = 0.15;
        /// A tensor-array input has one more element that the graph never reads.
        #[arbitrary(with = arbitrary_prob)]
        pub unread_array_element: f64 = 0.3;
        /// A graph input's interface type is ranked-only or unranked. spirv-val
        /// 2025.5 accepts it, but Vulkan (VUID-StandaloneSpirv-OpTypeGraphARM-09919/09920,
        /// added after 2025.5) requires shaped graph interfaces and TOSA needs
        /// static shapes, so it is 0 by default.
        #[arbitrary(with = arbitrary_prob)]
        pub unshaped_input: f64 = 0.0;
        /// Given an unshaped input, it is ranked (else unranked).
        #[arbitrary(with = arbitrary_prob)]
        pub ranked_unshaped: f64 = 0.5;
        /// A graph is exported a second time under another entry-point name.
        #[arbitrary(with = arbitrary_prob)]
        pub alias_entry_point: f64 = 0.1;
        /// An alias entry point shares the interface variables of the first.
        #[arbitrary(with = arbitrary_prob)]
        pub shared_interface: f64 = 0.5;
        /// An alias entry point reuses the name of another entry point. Accepted
        /// by spirv-val 2025.5 but invalid under SPV_ARM_graph revision 3, so 0
        /// by default.
        #[arbitrary(with = arbitrary_prob)]
        pub duplicate_entry_point_name: f64 = 0.0;
        /// A graph input is also written straight to an output.
        #[arbitrary(with = arbitrary_prob)]
        pub output_from_input: f64 = 0.05;
        /// A constant is written straight to an output.
        #[arbitrary(with = arbitrary_prob)]
        pub output_from_constant: f64 = 0.05;
        /// A value that other operations consume is also a graph output.
        #[arbitrary(with = arbitrary_prob)]
        pub output_inner_value: f64 = 0.1;
        /// A graph carries NonSemantic.Graph.DebugInfo (inside its body, the
        /// placement spirv-val 2025.5 accepts).
        #[arbitrary(with = arbitrary_prob)]
        pub debug_info: f64 = 0.2;
        /// Given debug info, an operation gets a DebugOperation.
        #[arbitrary(with = arbitrary_prob)]
        pub debug_operation: f64 = 0.6;
        /// Given debug info, a value gets a DebugTensor.
        #[arbitrary(with = arbitrary_prob)]
        pub debug_tensor: f64 = 0.3;
        /// An id (graph, variable, value, constant) gets an `OpName`.
        #[arbitrary(with = arbitrary_prob)]
        pub op_name: f64 = 0.3;
        /// Descriptor bindings are permuted instead of numbered in interface order.
        #[arbitrary(with = arbitrary_prob)]
        pub shuffle_bindings: f64 = 0.1;
        /// `OpGraphInputARM`s appear in a permuted order.
        #[arbitrary(with = arbitrary_prob)]
        pub shuffle_inputs: f64 = 0.1;
        /// Both results of FFT2D/RFFT2D are extracted (else one of the two).
        #[arbitrary(with = arbitrary_prob)]
        pub fft_both_results: f64 = 0.8;
        /// Per element of a leaf whose domain admits them: a special value (NaN,
        /// ±Inf, ±0, subnormals, extremes). 0 by default ("on request"); see
        /// also `special_leaf`. Never put into the input of RESIZE, whose
        /// compliance bound grows with the largest input magnitude.
        #[arbitrary(with = arbitrary_prob)]
        pub special_values: f64 = 0.0,
            flag(long, value_name = "P") "Per-element probability of special values (NaN, ±Inf, ±0, subnormals, extremes) where defined." : f64 => same;
        /// A fresh floating-point leaf (graph input or constant) mixes special
        /// values into its data (a quarter of its elements, or `special_values`
        /// if larger), where its domain admits them and its consumer defines
        /// the result for them.
        #[arbitrary(with = arbitrary_prob)]
        pub special_leaf: f64 = 0.05;
        /// A narrowing CAST (float to int, to a narrower float, i32 to fp16)
        /// gets a fresh input drawn over the whole input type, mostly beyond the
        /// output's range (saturation, infinities, fp8 NaN).
        #[arbitrary(with = arbitrary_prob)]
        pub cast_out_of_range: f64 = 0.3;
        /// A result nothing consumes is left out of the graph outputs (a dead
        /// value; the graph writes another output, a pass-through input if need be).
        #[arbitrary(with = arbitrary_prob)]
        pub unused_result: f64 = 0.15;
        /// Given both FFT2D/RFFT2D results extracted, one of the two is never
        /// read (extracted, then dead).
        #[arbitrary(with = arbitrary_prob)]
        pub unused_extracted_member: f64 = 0.3;
        /// A value already written to a graph output is written to another
        /// output too (the same value as several outputs).
        #[arbitrary(with = arbitrary_prob)]
        pub duplicate_output: f64 = 0.1;
        /// A graph has no operation at all: its outputs are its inputs and
        /// constants (regardless of `min_nodes`).
        #[arbitrary(with = arbitrary_prob)]
        pub pass_through_graph: f64 = 0.02;
        /// Given an alias entry point, the graph is exported once more (up to
        /// four entry points per graph).
        #[arbitrary(with = arbitrary_prob)]
        pub more_entry_points: f64 = 0.3;
        /// A rank > 1 constant leaf gets whole rows of zeros or of one value,
        /// written (when inline) as `OpConstantNull` /
        /// `OpConstantCompositeReplicateEXT` constituents of an `OpConstantComposite`.
        #[arbitrary(with = arbitrary_prob)]
        pub constant_rows: f64 = 0.3;
        /// A zero scalar constant (a zero element of an inline tensor constant,
        /// axis 0, a false flag, a 0.0 CLAMP bound) is written `OpConstantNull`.
        #[arbitrary(with = arbitrary_prob)]
        pub null_scalar: f64 = 0.3;
        /// A fresh shape is long and thin: one dimension in 4096..=8192 (the
        /// TOSA 8K MAX_KERNEL scale), the others 1 (at most one of them 2).
        #[arbitrary(with = arbitrary_prob)]
        pub level_shape: f64 = 0.01;
        /// An operation draws its attributes over their whole legal range, up to
        /// the level limits (kernels, strides, dilations, pads up to 8192, FFT
        /// sizes 4096 or 8192, RESIZE scales up to 2048, ratios up to 256 and
        /// extents up to 16383, CONCAT up to 64 inputs, MUL and RESCALE shifts up
        /// to 63/62, degenerate or infinite CLAMP bounds), instead of small values.
        #[arbitrary(with = arbitrary_prob)]
        pub wide_attributes: f64 = 0.15;
    }
}

/// A configuration that cannot produce a module.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ConfigError {
    /// A numeric field is out of its range.
    #[error("config field {field} = {value} {requirement}")]
    Range {
        /// Field path.
        field: String,
        /// The value.
        value: String,
        /// What it must satisfy.
        requirement: &'static str,
    },
    /// No operator is both allowed and available with the enabled profiles.
    #[error("no operator is allowed and has a type row under the enabled profiles {profiles:?}")]
    NoOperator {
        /// Enabled profiles.
        profiles: Vec<String>,
    },
    /// `--set` named no field, or its value has the wrong type.
    #[error("cannot set {path}: {reason}")]
    Set {
        /// The field path given.
        path: String,
        /// Why.
        reason: String,
    },
    /// A command-line flag's value names no operator or profile.
    #[error("{flag}: {reason}")]
    Flag {
        /// The flag (`--ops`).
        flag: &'static str,
        /// Why.
        reason: String,
    },
}

/// A flag's value taken as it is.
fn same<T: Clone>(value: &T) -> Result<T, ConfigError> {
    Ok(value.clone())
}

/// The operators named by `flag` (grammar names in any case, or MLIR names).
fn parse_ops(flag: &'static str, names: &[String]) -> Result<Vec<TosaOp>, ConfigError> {
    names
        .iter()
        .filter(|n| !n.trim().is_empty())
        .map(|n| {
            let n = n.trim();
            TosaOp::from_name(&n.to_ascii_uppercase()).or_else(|| TosaOp::from_mlir_name(n)).ok_or_else(|| {
                ConfigError::Flag { flag, reason: format!("unknown operator {n:?} (use grammar names such as CONV2D)") }
            })
        })
        .collect()
}

/// The profiles named by `--profiles`.
fn parse_profiles(names: &[String]) -> Result<Vec<Profile>, ConfigError> {
    names
        .iter()
        .map(|n| {
            Profile::from_name(n.trim())
                .ok_or_else(|| ConfigError::Flag { flag: "--profiles", reason: format!("unknown profile {n:?}") })
        })
        .collect()
}

impl Config {
    /// The operators generation may use: allowed, not denied, with at least
    /// one type row under the enabled profiles, and whose fixed ranks fit
    /// `max_rank`. In opcode order.
    pub fn usable_ops(&self) -> Vec<TosaOp> {
        TosaOp::ALL
            .into_iter()
            .filter(|op| self.allow_ops.is_empty() || self.allow_ops.contains(op))
            .filter(|op| !self.deny_ops.contains(op))
            .filter(|op| op.spec().rows_for(&self.profiles).next().is_some())
            .filter(|op| fixed_rank_needed(*op) <= self.max_rank.min(MAX_RANK))
            .collect()
    }

    /// Checks ranges and that some operator is usable.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let range = |field: &str, value: String, requirement: &'static str| ConfigError::Range {
            field: field.to_string(),
            value,
            requirement,
        };
        if self.min_graphs < 1 || self.min_graphs > self.max_graphs || self.max_graphs > 64 {
            return Err(range(
                "min_graphs/max_graphs",
                format!("{}..{}", self.min_graphs, self.max_graphs),
                "must satisfy 1 <= min <= max <= 64",
            ));
        }
        if self.min_nodes > self.max_nodes || self.max_nodes > 4096 {
            return Err(range(
                "min_nodes/max_nodes",
                format!("{}..{}", self.min_nodes, self.max_nodes),
                "must satisfy min <= max <= 4096",
            ));
        }
        if !(1..=MAX_RANK).contains(&self.max_rank) {
            return Err(range("max_rank", self.max_rank.to_string(), "must be in 1..=6 (TOSA level 8K)"));
        }
        if !(1..=16383).contains(&self.max_dim) {
            return Err(range("max_dim", self.max_dim.to_string(), "must be in 1..=16383"));
        }
        if self.max_tensor_elements < 1 || self.max_tensor_elements > 1 << 28 {
            return Err(range("max_tensor_elements", self.max_tensor_elements.to_string(), "must be in 1..=2^28"));
        }
        if self.max_graph_elements < self.max_tensor_elements {
            return Err(range(
                "max_graph_elements",
                self.max_graph_elements.to_string(),
                "must be >= max_tensor_elements",
            ));
        }
        if self.max_graph_inputs < 1 || self.max_graph_outputs < 1 {
            return Err(range(
                "max_graph_inputs/max_graph_outputs",
                format!("{}/{}", self.max_graph_inputs, self.max_graph_outputs),
                "must be >= 1",
            ));
        }
        if self.max_long_elements < 1 || self.max_long_elements > 1 << 28 {
            return Err(range("max_long_elements", self.max_long_elements.to_string(), "must be in 1..=2^28"));
        }
        if !(1..=64).contains(&self.max_concat_inputs) {
            return Err(range(
                "max_concat_inputs",
                self.max_concat_inputs.to_string(),
                "must be in 1..=64 (TOSA level 8K)",
            ));
        }
        for (name, p) in self.probs.entries() {
            if !(0.0..=1.0).contains(&p) {
                return Err(range(&format!("probs.{name}"), p.to_string(), "must be in 0..=1"));
            }
        }
        if let Some(net) = &self.network {
            net_ranges(net)?;
        }
        if self.usable_ops().is_empty() {
            return Err(ConfigError::NoOperator {
                profiles: self.profiles.iter().map(|p| p.name().to_string()).collect(),
            });
        }
        Ok(())
    }

    /// Sets one field from text: `path` is a field name, `probs.<name>` for a
    /// probability; `value` is JSON (`0.5`, `["ADD","SUB"]`) or, failing
    /// that, a bare string. Lists also accept comma-separated names
    /// (`profiles=PRO-INT,EXT-FFT`).
    pub fn set(&mut self, path: &str, value: &str) -> Result<(), ConfigError> {
        let err = |reason: String| ConfigError::Set { path: path.to_string(), reason };
        let mut tree = serde_json::to_value(&*self).map_err(|e| err(e.to_string()))?;
        let parsed = parse_value(value);
        let mut slot = &mut tree;
        for key in path.split('.') {
            let serde_json::Value::Object(map) = slot else { return Err(err("not a field".into())) };
            slot = map.get_mut(key).ok_or_else(|| err(format!("no field {key:?}")))?;
        }
        let parsed = match (&*slot, parsed) {
            (serde_json::Value::Array(_), serde_json::Value::String(s)) => serde_json::Value::Array(
                s.split(',')
                    .filter(|x| !x.trim().is_empty())
                    .map(|x| serde_json::Value::String(x.trim().into()))
                    .collect(),
            ),
            (_, p) => p,
        };
        *slot = parsed;
        *self = serde_json::from_value(tree).map_err(|e| err(e.to_string()))?;
        Ok(())
    }
}

/// Checks the ranges of the network settings.
fn net_ranges(net: &Network) -> Result<(), ConfigError> {
    let range = |field: &str, value: String, requirement: &'static str| ConfigError::Range {
        field: format!("network.{field}"),
        value,
        requirement,
    };
    if net.min_input_elements < 64 || net.min_input_elements > net.max_input_elements {
        return Err(range(
            "min_input_elements/max_input_elements",
            format!("{}..{}", net.min_input_elements, net.max_input_elements),
            "must satisfy 64 <= min <= max",
        ));
    }
    if net.max_macs < 1 {
        return Err(range("max_macs", net.max_macs.to_string(), "must be >= 1"));
    }
    for (name, p) in net.probabilities() {
        if !(0.0..=1.0).contains(&p) {
            return Err(range(name, p.to_string(), "must be in 0..=1"));
        }
    }
    Ok(())
}

/// A named configuration: what `--profile NAME` selects (`--print-config`
/// shows it as the JSON that `--config` takes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConfigProfile {
    /// [`Config::default`]: small graphs grown operator by operator, every
    /// construct and type row.
    Default,
    /// [`Config::network`]: graphs shaped like real networks.
    Network,
}

impl ConfigProfile {
    /// Every profile.
    pub const ALL: [ConfigProfile; 2] = [ConfigProfile::Default, ConfigProfile::Network];

    /// The name `--profile` takes.
    pub fn name(self) -> &'static str {
        match self {
            ConfigProfile::Default => "default",
            ConfigProfile::Network => "network",
        }
    }

    /// The profile called `name`.
    pub fn from_name(name: &str) -> Option<ConfigProfile> {
        ConfigProfile::ALL.into_iter().find(|p| p.name() == name)
    }

    /// Its configuration.
    pub fn config(self) -> Config {
        match self {
            ConfigProfile::Default => Config::default(),
            ConfigProfile::Network => Config::network(),
        }
    }
}

impl Config {
    /// The `network` profile: one graph per module of 50-200 operators
    /// shaped like a real network ([`Network`]), with activations of 10^5 to
    /// 10^7 elements. Its element budget keeps the in-tree executor's memory
    /// estimate (inputs, constants and every result alive at once, plus the
    /// largest operator's scratch) under its 1 GiB default. Constructs that
    /// make a consumer refuse or skip a whole case (tensor-array interfaces,
    /// graph constants as compile-time operands, null scalars and null rows,
    /// pass-through graphs) are off or rare, so the large graphs get judged;
    /// the default configuration covers them.
    pub fn network() -> Config {
        let probs = Probabilities {
            graph_constant: 0.0,
            null_constant: 0.1,
            replicate_constant: 0.1,
            tensor_array_input: 0.0,
            tensor_array_output: 0.0,
            alias_entry_point: 0.05,
            output_from_input: 0.0,
            output_from_constant: 0.0,
            output_inner_value: 0.1,
            special_leaf: 0.0,
            cast_out_of_range: 0.0,
            unused_result: 0.0,
            duplicate_output: 0.02,
            pass_through_graph: 0.0,
            constant_rows: 0.0,
            null_scalar: 0.0,
            level_shape: 0.0,
            wide_attributes: 0.0,
            ..Probabilities::default()
        };
        Config {
            min_graphs: 1,
            max_graphs: 1,
            min_nodes: 50,
            max_nodes: 200,
            max_tensor_elements: 10_000_000,
            max_graph_elements: 40_000_000,
            max_graph_inputs: 4,
            max_graph_outputs: 4,
            probs,
            network: Some(Network::default()),
            ..Config::default()
        }
    }
}

fn parse_value(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|_| serde_json::Value::String(text.to_string()))
}

/// The largest fixed operand rank of an operator (1 for free-rank operators).
fn fixed_rank_needed(op: TosaOp) -> u32 {
    op.spec()
        .operands
        .iter()
        .filter_map(|o| match o.form {
            spvgraph_ir::tosa::Form::Tensor { rank: spvgraph_ir::tosa::RankReq::Exact(n), .. } => Some(n),
            _ => None,
        })
        .max()
        .unwrap_or(1)
}

fn arbitrary_prob(u: &mut Unstructured) -> arbitrary::Result<f64> {
    Ok(f64::from(u.int_in_range(0u8..=100)?) / 100.0)
}

/// The bytes of one swarm mask: a bit per operator (and per profile).
const SWARM_MASK_BYTES: usize = 9;
// An operator past the mask's bits could never be picked alone.
const _: () = assert!(TosaOp::ALL.len() <= SWARM_MASK_BYTES * 8 && Profile::ALL.len() <= SWARM_MASK_BYTES * 8);

impl Config {
    /// A configuration for one fuzz input, drawn from its leading bytes
    /// (swarm testing, as wasm-smith does): `base`'s sizes are upper bounds,
    /// and each input enables a subset of the operators and profiles, its
    /// own sizes, and switches optional constructs off, to their base
    /// probability or on for sure. A fuzzer can then steer the shape of the
    /// graphs, and each case concentrates on a few features instead of
    /// diluting every one. Reads about 30 bytes; running out of bytes gives
    /// `base` with minimal sizes.
    pub fn swarm(u: &mut Unstructured, base: &Config) -> Config {
        let mut c = base.clone();
        let mask = |u: &mut Unstructured| -> u128 {
            let mut bytes = [0u8; SWARM_MASK_BYTES];
            let _ = u.fill_buffer(&mut bytes);
            bytes.iter().rev().fold(0u128, |m, &b| (m << 8) | u128::from(b))
        };
        let ops_mode = u.int_in_range(0u8..=3).unwrap_or(0);
        let (a, b) = (mask(u), mask(u));
        let picked = |m: u128| -> Vec<TosaOp> {
            TosaOp::ALL.iter().enumerate().filter(|(i, _)| m >> i & 1 == 1).map(|(_, op)| *op).collect()
        };
        match ops_mode {
            // About half the operators left out.
            1 => c.deny_ops.extend(picked(a)),
            // About a quarter of them, alone.
            2 => c.allow_ops = picked(a & b),
            // Every operator (the base's choice), as often as the two above.
            _ => {}
        }
        if u.ratio(1u8, 2).unwrap_or(false) {
            let profiles = mask(u);
            let subset: Vec<Profile> =
                c.profiles.iter().enumerate().filter(|(i, _)| profiles >> i & 1 == 1).map(|(_, p)| *p).collect();
            if !subset.is_empty() {
                c.profiles = subset;
            }
        }
        let at_most = |u: &mut Unstructured, lo: u32, hi: u32| u.int_in_range(lo..=hi.max(lo)).unwrap_or(lo);
        c.max_graphs = at_most(u, 1, base.max_graphs);
        c.min_graphs = c.min_graphs.min(c.max_graphs).max(1);
        c.max_nodes = at_most(u, 1, base.max_nodes);
        c.min_nodes = c.min_nodes.min(c.max_nodes);
        c.max_rank = at_most(u, 1, base.max_rank.min(MAX_RANK));
        c.max_dim = at_most(u, 1, base.max_dim);
        let elements = [16u64, 64, 256, 2048][usize::from(u.int_in_range(0u8..=3).unwrap_or(0))];
        c.max_tensor_elements = elements.min(base.max_tensor_elements);
        c.max_graph_elements = base.max_graph_elements.min(elements * 16).max(c.max_tensor_elements);
        c.max_graph_inputs = at_most(u, 1, base.max_graph_inputs);
        c.max_graph_outputs = at_most(u, 1, base.max_graph_outputs);
        for p in c.probs.as_mut_slice() {
            *p = match u.int_in_range(0u8..=7).unwrap_or(0) {
                0 => 0.0,
                1 if *p > 0.0 => 1.0,
                _ => *p,
            };
        }
        c
    }
}

fn arbitrary_ops(u: &mut Unstructured) -> arbitrary::Result<Vec<TosaOp>> {
    // Mostly empty (all operators / none denied), sometimes a small subset.
    if u.ratio(3u8, 4)? {
        return Ok(Vec::new());
    }
    let n = u.int_in_range(1usize..=8)?;
    let mut ops = Vec::with_capacity(n);
    for _ in 0..n {
        ops.push(*u.choose(&TosaOp::ALL)?);
    }
    ops.sort();
    ops.dedup();
    Ok(ops)
}

fn arbitrary_profiles(u: &mut Unstructured) -> arbitrary::Result<Vec<Profile>> {
    let mut out = Vec::new();
    for p in Profile::ALL {
        if u.ratio(2u8, 3)? {
            out.push(p);
        }
    }
    // At least one base profile, so that some operator is always usable.
    if !out.contains(&Profile::ProInt) && !out.contains(&Profile::ProFp) {
        out.insert(0, *u.choose(&[Profile::ProInt, Profile::ProFp])?);
    }
    Ok(out)
}

/// Profiles serialize as their TOSA names (`"PRO-INT"`), not Rust variant names.
mod profile_names {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use spvgraph_ir::elem::Profile;

    pub fn serialize<S: Serializer>(profiles: &[Profile], s: S) -> Result<S::Ok, S::Error> {
        profiles.iter().map(|p| p.name()).collect::<Vec<_>>().serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Profile>, D::Error> {
        let names = Vec::<String>::deserialize(d)?;
        names
            .iter()
            .map(|n| {
                Profile::from_name(n).ok_or_else(|| {
                    serde::de::Error::custom(format!("unknown profile {n:?} (expected e.g. PRO-INT, EXT-BF16)"))
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The flags from the config table set their fields (nested ones too),
    /// convert names, name the flag in an error, and leave the rest alone.
    #[test]
    fn flags_set_their_fields_only() {
        let mut c = Config::default();
        ConfigFlags::default().apply(&mut c).expect("no flags");
        assert_eq!(c, Config::default());
        let flags = ConfigFlags {
            allow_ops: Some(vec!["add".into(), "tosa.sub".into(), " ".into()]),
            profiles: Some(vec!["PRO-INT".into()]),
            max_nodes: Some(5),
            probs: ProbabilityFlags { special_values: Some(0.5) },
            ..ConfigFlags::default()
        };
        flags.apply(&mut c).expect("flags");
        assert_eq!(c.allow_ops, [TosaOp::Add, TosaOp::Sub]);
        assert_eq!(c.profiles, [Profile::ProInt]);
        assert_eq!(c.max_nodes, 5);
        assert_eq!(c.probs.special_values, 0.5);
        assert_eq!(
            Config { allow_ops: Vec::new(), profiles: Profile::ALL.to_vec(), max_nodes: 12, ..c.clone() },
            Config { probs: Probabilities { special_values: 0.5, ..Probabilities::default() }, ..Config::default() }
        );
        let bad = ConfigFlags { deny_ops: Some(vec!["NOPE".into()]), ..ConfigFlags::default() };
        let e = bad.apply(&mut c).expect_err("unknown operator");
        assert_eq!(e.to_string(), "--deny-ops: unknown operator \"NOPE\" (use grammar names such as CONV2D)");
    }

    /// `entries` lists every probability once, by its serde key.
    #[test]
    fn entries_are_the_serialized_probabilities() {
        let p = Probabilities::default();
        let json = serde_json::to_value(&p).expect("json");
        let keys: Vec<&str> = p.entries().iter().map(|(k, _)| *k).collect();
        let mut serialized: Vec<&str> = json.as_object().expect("object").keys().map(String::as_str).collect();
        let mut sorted = keys.clone();
        sorted.sort_unstable();
        serialized.sort_unstable();
        assert_eq!(sorted, serialized);
        assert_eq!(keys.len(), 38);
    }

    #[test]
    fn default_is_valid_and_uses_every_operator() {
        let c = Config::default();
        assert_eq!(c.validate(), Ok(()));
        assert_eq!(c.usable_ops().len(), TosaOp::COUNT);
    }

    #[test]
    fn arbitrary_configs_are_valid() {
        let bytes: Vec<u8> = (0..4096u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect();
        for start in 0..64 {
            let mut u = Unstructured::new(&bytes[start * 37..]);
            let c = Config::arbitrary(&mut u).expect("enough bytes");
            let mut c = c;
            // min/max pairs are drawn independently; the generator orders them.
            c.max_graphs = c.max_graphs.max(c.min_graphs);
            c.max_nodes = c.max_nodes.max(c.min_nodes);
            c.max_graph_elements = c.max_graph_elements.max(c.max_tensor_elements);
            match c.validate() {
                Ok(()) | Err(ConfigError::NoOperator { .. }) => {}
                Err(e) => panic!("{e}"),
            }
        }
    }

    #[test]
    fn serde_round_trip_with_profile_names() {
        let c = Config { profiles: vec![Profile::ProInt, Profile::ExtFft], ..Config::default() };
        let text = serde_json::to_string(&c).expect("serialize");
        assert!(text.contains("\"PRO-INT\"") && text.contains("\"EXT-FFT\""), "{text}");
        let back: Config = serde_json::from_str(&text).expect("deserialize");
        assert_eq!(back, c);
        let partial: Config =
            serde_json::from_str(r#"{"max_nodes": 3, "probs": {"debug_info": 1.0}}"#).expect("partial");
        assert_eq!(partial.max_nodes, 3);
        assert_eq!(partial.probs.debug_info, 1.0);
        assert_eq!(partial.min_graphs, Config::default().min_graphs);
        assert!(serde_json::from_str::<Config>(r#"{"max_nodez": 3}"#).is_err());
    }

    #[test]
    fn set_reaches_every_field() {
        let mut c = Config::default();
        c.set("max_nodes", "5").expect("number");
        c.set("probs.special_values", "0.25").expect("nested");
        c.set("profiles", "PRO-FP,EXT-BF16").expect("comma list");
        c.set("allow_ops", r#"["ADD","CONV2D"]"#).expect("json list");
        assert_eq!(c.max_nodes, 5);
        assert_eq!(c.probs.special_values, 0.25);
        assert_eq!(c.profiles, vec![Profile::ProFp, Profile::ExtBf16]);
        assert_eq!(c.allow_ops, vec![TosaOp::Add, TosaOp::Conv2d]);
        assert!(c.set("nope", "1").is_err());
        assert!(c.set("max_nodes", "many").is_err());
        assert!(c.set("profiles", "PRO-NOPE").is_err());
        // Every field named by serialization is settable.
        let tree = serde_json::to_value(Config::default()).expect("tree");
        let serde_json::Value::Object(map) = tree else { panic!("object") };
        for (k, v) in map {
            let mut c = Config::default();
            if let serde_json::Value::Object(inner) = v {
                for (k2, v2) in inner {
                    c.set(&format!("{k}.{k2}"), &v2.to_string()).expect("nested field");
                }
            } else {
                c.set(&k, &v.to_string()).expect("field");
            }
        }
    }

    #[test]
    fn probability_lists_name_every_field() {
        let tree = serde_json::to_value(Probabilities::default()).expect("tree");
        let n = tree.as_object().map_or(0, |m| m.len());
        let mut p = Probabilities::default();
        assert_eq!(p.entries().len(), n);
        assert_eq!(p.as_mut_slice().len(), n);
        for (name, _) in Probabilities::default().entries() {
            assert!(tree.get(name).is_some(), "{name}");
        }
    }

    #[test]
    fn validation_names_the_field() {
        let c = Config { max_rank: 7, ..Config::default() };
        assert!(c.validate().err().map(|e| e.to_string()).unwrap_or_default().contains("max_rank"));
        let c = Config { allow_ops: vec![TosaOp::Fft2d], profiles: vec![Profile::ProInt], ..Config::default() };
        assert!(matches!(c.validate(), Err(ConfigError::NoOperator { .. })));
        let c = Config { allow_ops: vec![TosaOp::Conv3d], max_rank: 4, ..Config::default() };
        assert!(matches!(c.validate(), Err(ConfigError::NoOperator { .. })));
    }
}
