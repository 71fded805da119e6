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
mod datasets;
mod dice;
pub mod files;
pub mod floats;
pub mod mutate;
pub mod near_valid;
pub mod network;
pub mod prng;
pub mod range;
mod single;
mod synth;

pub use case::{Case, CaseMeta, EntryPoint, InputTensor, InterfaceSlot, RowUse};
pub use config::{Config, ConfigError, ConfigFlags, ConfigProfile, Probabilities, ProbabilityFlags};
pub use coverage::Coverage;
pub use network::Network;
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
    // One 64 KiB expansion per thread, refilled per seed: allocating and
    // faulting in a fresh one per case cost more than a small module.
    thread_local! {
        static BYTES: std::cell::RefCell<Vec<u8>> = std::cell::RefCell::new(vec![0; prng::SEED_BYTES]);
    }
    BYTES.with(|bytes| {
        let mut bytes = bytes.borrow_mut();
        // The generator reads its bytes front to back and otherwise asks only
        // how many remain, so expanding a prefix is enough when the case reads
        // no further; the bytes beyond it (left from an earlier seed) are
        // never read, only counted. A case reading past it is redone with the
        // whole expansion, so the result is always that of all 64 KiB.
        prng::fill_seed_bytes(seed, &mut bytes[..SEED_PREFIX]);
        match case_of_bytes(seed, &bytes, config) {
            (case, read) if read <= SEED_PREFIX => case,
            _ => {
                prng::fill_seed_bytes(seed, &mut bytes);
                case_of_bytes(seed, &bytes, config).0
            }
        }
    })
}

/// How much of a seed's expansion [`generate_from_seed`] fills first: more
/// than default-sized modules usually read.
const SEED_PREFIX: usize = 8 * 1024;

/// The case of `bytes` and how many of them it read.
fn case_of_bytes(seed: u64, bytes: &[u8], config: &Config) -> (Case, usize) {
    let mut u = Unstructured::new(bytes);
    let case = match generate(&mut u, config) {
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
    };
    (case, bytes.len() - u.len())
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
    if let Some(net) = &mut c.network {
        net.min_input_elements = net.min_input_elements.clamp(64, 1 << 28);
        net.max_input_elements = net.max_input_elements.clamp(net.min_input_elements, 1 << 28);
        net.max_macs = net.max_macs.max(1);
        for p in net.probabilities_mut() {
            *p = if p.is_nan() { 0.0 } else { p.clamp(0.0, 1.0) };
        }
    }
    c
}
