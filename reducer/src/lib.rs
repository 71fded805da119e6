//! `spvgraph-reducer`: graph-aware test-case reduction for SPIR-V graph
//! modules.
//!
//! The model is wasm-shrink: a small builder, then `run(input, predicate)`.
//! The input is a [`Candidate`] (a module with its input and graph-constant
//! data); the predicate says whether a candidate is still interesting.
//!
//! ```
//! use spvgraph_reducer::{Candidate, Reducer};
//! use spvgraph_ir::inst::Inst;
//! use spvgraph_ir::tosa::TosaOp;
//! let module = spvgraph_ir::samples::elementwise_chain(6);
//! let has_abs = |c: &Candidate| c.module.insts.iter().any(|i| matches!(i, Inst::Tosa { op: TosaOp::Abs, .. }));
//! let reduced = Reducer::new().jobs(1).run(Candidate::new(module), has_abs).expect("interesting");
//! assert!(has_abs(&reduced.candidate));
//! assert!(reduced.info.result < reduced.info.initial);
//! ```
//!
//! The passes ([`passes`]) know graphs: they drop graphs, entry points,
//! functions and outputs (cutting a graph down to the sub-graph that feeds
//! what is left), remove TOSA nodes by rewiring their users to another
//! value of the same type, replace operands, shrink shapes through the
//! catalogue's shape rules, simplify attributes, constants and data, drop
//! debug information, and canonicalize ids. With a validity check
//! ([`Reducer::validity`]), every candidate must break exactly the rules
//! the input breaks (or what [`Expect`] says) before the predicate sees it.
//!
//! The search ([`search`]) runs the passes in order until none makes
//! progress; each pass's atoms are tried in ddmin-style chunks (all, then
//! halves, quarters, ... down to one), batches of candidates are judged in
//! parallel and the first interesting one in candidate order wins, so the
//! result depends on the seed only, never on `jobs` or timing. Candidates
//! already judged are remembered by a hash and never judged twice.
#![deny(missing_docs)]

pub mod passes;
pub mod search;

/// The candidate, graph editing and shape re-inference (in `spvgraph_ir::edit`, shared with the
/// mutator in `spvgraph_generator::mutate`).
pub use spvgraph_ir::edit::{candidate, graph, shapes};

pub use candidate::{Candidate, InputKey, Size};
pub use search::{Expect, Info, PassInfo, Progress, ReduceError, Reduced, Reducer, Rules};
/// Finding or adding declarations (shared with the observed form in `spvgraph_ir::observe`).
pub use spvgraph_ir::decls;
/// Id operands of instructions (shared with the equivalent forms in `spvgraph_oracle::forms`).
pub use spvgraph_ir::ids;
