//! One-operation cases for a chosen operator × type row: the configuration
//! that makes them ([`Config::single_op`]) and the seed search that lands on
//! the wanted row ([`single_op_case`]). Used by the differential sweep and
//! by the regression corpus, so both pick cases the same way.

use crate::{generate_from_seed, Case, Config};
use spvgraph_ir::elem::Profile;
use spvgraph_ir::tosa::TosaOp;

impl Config {
    /// The generation settings for row `row` of `op`: only `op`, one graph
    /// of one operation, the row's first profile plus its required
    /// extensions (and the RESCALE rounding extensions, which only widen
    /// attribute choices); every other field is `base`'s.
    pub fn single_op(op: TosaOp, row: usize, base: &Config) -> Config {
        let mut profiles: Vec<Profile> = op
            .spec()
            .type_rows
            .get(row)
            .map(|r| r.profiles.iter().take(1).chain(r.also.iter()).copied().collect())
            .unwrap_or_default();
        profiles.extend([Profile::ExtDoubleRound, Profile::ExtInexactRound]);
        Config {
            allow_ops: vec![op],
            deny_ops: Vec::new(),
            profiles,
            min_graphs: 1,
            max_graphs: 1,
            min_nodes: 1,
            max_nodes: 1,
            ..base.clone()
        }
    }
}

/// The seed of attempt `k` for row `row` of `op`, offset by `base`
/// (`spvgraph generate --seed` with [`Config::single_op`] regenerates it).
pub fn single_op_seed(base: u64, op: TosaOp, row: usize, k: u64) -> u64 {
    base.wrapping_mul(1_000_000_007).wrapping_add((u64::from(op.opcode()) * 100 + row as u64) * 1_000_000 + k)
}

/// The first case among `attempts` seeds ([`single_op_seed`]`(seed, op,
/// row, k)`) generated with [`Config::single_op`]`(op, row, base)` whose
/// operation landed on `row` (the generator picks a row among those the
/// profiles allow) and that has no internal error; `None` when no attempt
/// did.
pub fn single_op_case(op: TosaOp, row: usize, seed: u64, base: &Config, attempts: u64) -> Option<Case> {
    let config = Config::single_op(op, row, base);
    (0..attempts).map(|k| generate_from_seed(single_op_seed(seed, op, row, k), &config)).find(|case| {
        case.meta.internal_errors.is_empty() && case.meta.type_rows.iter().any(|u| u.op == op && u.row == row)
    })
}
