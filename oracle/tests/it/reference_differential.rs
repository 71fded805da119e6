//! The in-tree executor against the TOSA reference model on generated
//! single-operator graphs, compared with the TOSA compliance rules: a CI-sized
//! sample (one case per operator × type row). The full sweep (≥ 20 cases per
//! row, with a per-operator table) is `spvgraph diff-exec --per-row 20`.
//! Skipped with a notice when tosa-tools is missing (a failure under `CI=true`).

use spvgraph_generator::{generate_from_seed, Case, Config};
use spvgraph_ir::elem::Profile;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_oracle::exec::Executor;
use spvgraph_oracle::external::tosa_reference::{check_against_reference, SweepTally, TosaReferenceModel};
use spvgraph_oracle::tools::{Tool, Tools};
use std::collections::BTreeSet;

/// Known reference-model disagreements, each documented under
/// `corpus/findings/ref-*` (operator, row index).
const KNOWN: &[(TosaOp, usize)] = &[];

fn model() -> Option<TosaReferenceModel> {
    let tools = Tools::discover();
    for t in [Tool::TosaOpt, Tool::TosaReferenceModel] {
        if let Err(e) = tools.get(t) {
            assert!(!Tools::required(), "CI=true and {e}");
            eprintln!("skipping: {e}");
            return None;
        }
    }
    Some(TosaReferenceModel::discover())
}

/// A single-operator graph of `op` using type row `row`, or `None` if the
/// generator did not reach that row within its attempts.
fn case_for(op: TosaOp, row: usize, seed: u64) -> Option<Case> {
    let spec = op.spec();
    let r = spec.type_rows.get(row)?;
    let mut profiles: Vec<Profile> = r.profiles.iter().take(1).chain(r.also.iter()).copied().collect();
    // The rounding-mode extensions only widen RESCALE's attribute choices.
    profiles.extend([Profile::ExtDoubleRound, Profile::ExtInexactRound]);
    let config = Config {
        allow_ops: vec![op],
        profiles,
        min_graphs: 1,
        max_graphs: 1,
        min_nodes: 1,
        max_nodes: 1,
        ..Config::default()
    };
    (0..200u64)
        .map(|k| generate_from_seed(seed.wrapping_mul(1000).wrapping_add(k), &config))
        .find(|c| c.meta.internal_errors.is_empty() && c.meta.type_rows.iter().any(|u| u.op == op && u.row == row))
}

#[test]
fn executor_agrees_with_the_reference_model_on_every_type_row() {
    let Some(model) = model() else { return };
    let executor = Executor::default();
    let mut tally = SweepTally::new();
    let mut unreached = Vec::new();
    for op in TosaOp::ALL {
        for row in 0..op.spec().type_rows.len() {
            let seed = u64::from(op.opcode()) * 100 + row as u64;
            let Some(case) = case_for(op, row, seed) else {
                unreached.push(format!("{op} row {row}"));
                continue;
            };
            let Some(owned) = spvgraph_testkit::request(&case, 0) else { continue };
            let request = owned.request();
            let outcome = check_against_reference(&model, &executor, &request);
            tally.record(op, row, &format!("seed {}", case.meta.seed.unwrap_or(0)), &outcome);
        }
    }
    println!("{}", tally.table());
    if !unreached.is_empty() {
        println!("rows the generator did not reach: {}", unreached.join(", "));
    }
    let known: BTreeSet<(TosaOp, usize)> = KNOWN.iter().copied().collect();
    let unexplained: Vec<String> = tally
        .rows()
        .filter(|(op, row, t)| (t.fail > 0 || t.errors > 0) && !known.contains(&(*op, *row)))
        .map(|(op, row, t)| format!("{op} row {row}: {:?}", t.first_problem))
        .collect();
    assert!(unexplained.is_empty(), "undocumented disagreements:\n{}", unexplained.join("\n"));
    assert!(tally.total().pass > 0, "nothing was compared");
}
