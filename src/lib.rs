//! `spvgraph`: the campaign as a library. The one place that uses the
//! generator, the oracles and the reducer together: the bug hunt
//! ([`hunt`]), the comparison of one module across every oracle
//! ([`diff`]), the reduction of cases on disk ([`reduce`]) and the real
//! networks of the corpus as modules with their data ([`networks`]). The command-line front end (`src/main.rs`, `src/cli/`) only
//! parses arguments, calls into this library and prints.
#![deny(missing_docs)]

pub mod bench;
pub mod corpus;
pub mod diff;
pub mod diff_exec;
pub mod generate;
pub mod hunt;
pub mod networks;
pub mod reduce;
pub mod validate;
