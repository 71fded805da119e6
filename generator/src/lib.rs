//! `spvgraph-generator`: valid-by-construction SPIR-V graph modules
//! (`SPV_ARM_graph`, `SPV_ARM_tensors`, `TOSA.001000.1`,
//! `NonSemantic.Graph.DebugInfo`) together with input data that keeps every
//! result defined.
//!
//! ```
//! use spvgraph_generator::{generate_from_seed, Config};
//! let case = generate_from_seed(7, &Config::default());
//! assert!(case.meta.internal_errors.is_empty());
//! let words = case.module.encode_words().expect("encodes");
//! assert_eq!(words[0], 0x0723_0203);
//! ```
//!
//! The model is wasm-smith: a [`Config`] (which itself implements
//! `Arbitrary`) and [`generate`], which reads every structural choice from
//! an [`arbitrary::Unstructured`], so the same bytes always give the same
//! case and a fuzzer can steer generation. Operators, type rows, operand
//! forms and shape rules all come from the `spvgraph_ir::tosa` catalogue.
#![deny(missing_docs)]

pub mod case;
pub mod config;
pub mod coverage;
mod data;
mod dice;
pub mod files;
pub mod floats;
pub mod near_valid;
pub mod prng;
pub mod range;
mod single;
mod synth;

pub use case::{Case, CaseMeta, EntryPoint, InputTensor, InterfaceSlot, RowUse};
pub use config::{Config, ConfigError, Probabilities};
pub use coverage::Coverage;
pub use single::{single_op_case, single_op_seed};

use arbitrary::Unstructured;

/// Generates one case from `u`.
///
/// Never panics and never fails for a configuration that passes
/// [`Config::validate`]; it returns `Err(IncorrectFormat)` only when no
/// operator is usable under the configuration. Deterministic: the same bytes
/// and configuration give the same case. Running out of bytes is not an
/// error: the remaining choices take their minimum.
pub fn generate(u: &mut Unstructured, config: &Config) -> arbitrary::Result<Case> {
    if config.usable_ops().is_empty() {
        return Err(arbitrary::Error::IncorrectFormat);
    }
    let config = normalized(config);
    let built = synth::Synth::new(&config, dice::Dice::new(u)).run();
    Ok(Case {
        module: built.module,
        entry_points: built.entry_points,
        graph_constants: built.graph_constants,
        meta: built.meta,
    })
}

/// Generates the case of `seed`: the bytes are [`prng::seed_bytes`]`(seed,
/// `[`prng::SEED_BYTES`]`)`, so `spvgraph generate --seed S` reproduces it.
/// With no usable operator the case is an empty module (check
/// [`Config::validate`] first).
pub fn generate_from_seed(seed: u64, config: &Config) -> Case {
    let bytes = prng::seed_bytes(seed, prng::SEED_BYTES);
    let mut u = Unstructured::new(&bytes);
    match generate(&mut u, config) {
        Ok(mut case) => {
            case.meta.seed = Some(seed);
            case
        }
        Err(_) => Case {
            module: spvgraph_ir::builder::ModuleBuilder::new().finish(),
            entry_points: Vec::new(),
            graph_constants: Default::default(),
            meta: CaseMeta { seed: Some(seed), ..CaseMeta::default() },
        },
    }
}

/// Orders min/max pairs and clamps fields to what synthesis supports, so an
/// arbitrary configuration still generates.
fn normalized(c: &Config) -> Config {
    let mut c = c.clone();
    c.min_graphs = c.min_graphs.clamp(1, 64);
    c.max_graphs = c.max_graphs.clamp(c.min_graphs, 64);
    c.max_nodes = c.max_nodes.clamp(c.min_nodes.min(4096), 4096);
    c.min_nodes = c.min_nodes.min(c.max_nodes);
    c.max_rank = c.max_rank.clamp(1, spvgraph_ir::tosa::MAX_RANK);
    c.max_dim = c.max_dim.clamp(1, 16383);
    c.max_tensor_elements = c.max_tensor_elements.clamp(1, 1 << 28);
    c.max_graph_elements = c.max_graph_elements.max(c.max_tensor_elements);
    c.max_graph_inputs = c.max_graph_inputs.max(1);
    c.max_graph_outputs = c.max_graph_outputs.max(1);
    c.max_concat_inputs = c.max_concat_inputs.clamp(1, 64);
    c.max_long_elements = c.max_long_elements.clamp(1, 1 << 28);
    for p in c.probs.as_mut_slice() {
        *p = if p.is_nan() { 0.0 } else { p.clamp(0.0, 1.0) };
    }
    c
}
