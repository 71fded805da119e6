//! The reduction passes, in order of payoff.
//!
//! A pass offers a list of *atoms* on a candidate (graphs, outputs, nodes,
//! operands, attributes, constants, data tensors, ...) and applies any
//! subset of them together, or answers `None` when that subset cannot be
//! made into a module. The search ([`crate::search`]) chunks the atoms
//! ddmin-style; every pass recomputes its atoms from the candidate, so an
//! applied atom disappears from the next list.

mod attributes;
mod bindings;
mod canon;
mod carry;
mod constants;
mod data;
mod dead;
mod debug;
mod nodes;
mod operands;
mod shrink;
mod structure;

use crate::candidate::Candidate;

/// Reshaping a graph input (in `spvgraph_ir::edit`, shared with the mutator's shape change).
pub use spvgraph_ir::edit::reshape::reshape_input;

/// The level of the hierarchy a pass works at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Graphs, entry points, functions, outputs, declarations.
    Graph,
    /// TOSA nodes.
    Node,
    /// Operands of nodes.
    Operand,
    /// Values: shapes, attributes, constants, data, names, ids.
    Value,
}

/// One kind of reduction.
pub trait Pass: Send + Sync {
    /// A short name for reports (`remove-nodes`).
    fn name(&self) -> &'static str;
    /// The level it works at.
    fn level(&self) -> Level;
    /// How many atoms the pass offers on `c`.
    fn atoms(&self, c: &Candidate) -> usize;
    /// `c` with the atoms `chosen` (indices into the list of
    /// [`Pass::atoms`], ascending) applied together.
    fn apply(&self, c: &Candidate, chosen: &[usize]) -> Option<Candidate>;
}

/// Every pass, in the order the search runs them.
pub fn all() -> Vec<Box<dyn Pass>> {
    vec![
        Box::new(structure::DropGraphs),
        Box::new(structure::DropEntryPoints),
        Box::new(structure::DropFunctions),
        Box::new(structure::DropOutputs),
        Box::new(nodes::RemoveNodes { strategy: nodes::Strategy::Reuse }),
        Box::new(nodes::RemoveNodes { strategy: nodes::Strategy::Bypass }),
        Box::new(nodes::RemoveNodes { strategy: nodes::Strategy::NewInput }),
        Box::new(operands::ReplaceOperands),
        Box::new(operands::DropConcatInputs),
        Box::new(dead::DeadCode),
        Box::new(shrink::ShrinkShapes { halve: false }),
        Box::new(shrink::ShrinkShapes { halve: true }),
        Box::new(carry::CarryShapes),
        Box::new(attributes::SimplifyAttributes),
        Box::new(constants::SimplifyConstants { replicate: false }),
        Box::new(constants::SimplifyConstants { replicate: true }),
        Box::new(data::SimplifyData { small: false }),
        Box::new(data::SimplifyData { small: true }),
        Box::new(debug::DropDebug),
        Box::new(debug::DropCapabilities),
        Box::new(bindings::DenseBindings),
        Box::new(canon::Canonicalize),
    ]
}

/// Picks the items of `list` at the indices `chosen`.
pub(crate) fn pick<T: Clone>(list: &[T], chosen: &[usize]) -> Vec<T> {
    chosen.iter().filter_map(|&i| list.get(i).cloned()).collect()
}
