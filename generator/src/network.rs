//! Settings of graphs shaped like real networks ([`Config::network`]).
//!
//! With [`Config::network`](crate::Config::network) set, each graph is grown
//! block by block instead of operator by operator: a stem convolution on a
//! large NHWC graph input, then convolution / depthwise / fully connected
//! blocks followed by activations, normalisation chains, pooling, residual
//! ADDs and CONCATs joining branches, RESHAPE/TRANSPOSE between blocks, and
//! a classifier head; int8 networks requantise every accumulator with a
//! RESCALE chain. The operators, type rows, ranges and constant forms still
//! come from the same catalogue and helpers as random growth, so the graphs
//! stay valid by construction. `Config::network()` is the named profile
//! (`spvgraph generate --profile network`, `spvgraph hunt --profile network`).

use serde::{Deserialize, Serialize};

/// How network-shaped graphs are drawn.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Network {
    /// Fewest elements of the image-like graph input the stem reads.
    pub min_input_elements: u64,
    /// Most elements of that input (further bounded so the whole graph fits
    /// `max_graph_elements`).
    pub max_input_elements: u64,
    /// Most multiply-accumulates of the dot-product operators of one graph
    /// (convolutions, MATMUL, AVG_POOL2D windows): what the slower backends'
    /// run time grows with.
    pub max_macs: u64,
    /// Share of quantised networks (int8 activations, int32 accumulators,
    /// RESCALE chains) when PRO-INT is enabled; the rest are floating point.
    pub quantized: f64,
    /// A dot-product operator whose operands are graph inputs or constants
    /// draws them from one of the TOSA conformance generator's data sets
    /// (dot-product test sets 0-5 for floating point, the extreme-value sets
    /// for integers) instead of trained-network-like values.
    pub test_sets: f64,
    /// A convolution or pooling takes wide attributes: patchify stems
    /// (kernel = stride up to 16), strides up to 8, dilations up to 4 and
    /// paddings beyond "same".
    pub wide_convolution: f64,
    /// A floating-point graph gets a side branch that carries NaN, ±inf,
    /// ±0, subnormals and values at the type's range through operators that
    /// propagate them (the conformance generator's special-value pairs).
    pub special_branch: f64,
}

impl Default for Network {
    fn default() -> Network {
        Network {
            min_input_elements: 100_000,
            max_input_elements: 4_000_000,
            max_macs: 1_500_000_000,
            quantized: 0.35,
            test_sets: 0.25,
            wide_convolution: 0.15,
            special_branch: 0.3,
        }
    }
}

impl Network {
    /// Every probability with its field name (for range checks).
    pub fn probabilities(&self) -> [(&'static str, f64); 4] {
        [
            ("quantized", self.quantized),
            ("test_sets", self.test_sets),
            ("wide_convolution", self.wide_convolution),
            ("special_branch", self.special_branch),
        ]
    }

    /// The probabilities, mutably (for normalization).
    pub(crate) fn probabilities_mut(&mut self) -> [&mut f64; 4] {
        [&mut self.quantized, &mut self.test_sets, &mut self.wide_convolution, &mut self.special_branch]
    }
}
