//! What the structure-aware mutator (`spvgraph_generator::mutate`) can carry
//! on the real networks of `corpus/networks/`: for each network and each
//! mutation kind, how many of N attempts applied, how many of those the
//! in-tree validator accepts, how many distinct valid mutants that made,
//! and, for the first few valid ones, whether the in-tree executor still
//! runs them on the network's own inputs and graph constants.
//!
//! ```sh
//! cargo run --release --example network_mutants -- [ATTEMPTS_PER_KIND] [FILTER]
//! ```
//!
//! Then the hunt's own neighbours (`--profile networks`,
//! `spvgraph_generator::mutate::network::neighbour`, seeds 0..ATTEMPTS per
//! network): per kind of change, how many, and how many the in-tree
//! executor runs to defined outputs on their data.
//!
//! Needs tosa-opt and model-converter (`ci/setup-oracles`). Prints
//! Markdown tables (docs/figures.md keeps the figures).
#![allow(clippy::print_stdout, reason = "an example's output is its table")]

use anyhow::{anyhow, Context};
use spvgraph::networks;
use spvgraph_generator::mutate::{self, network, Mutation};
use spvgraph_generator::prng::SplitMix64;
use spvgraph_oracle::exec::{self, Executor};
use spvgraph_oracle::external::model_converter::ModelConverter;
use spvgraph_oracle::oracle::{ExecOutcome, Oracle, OwnedExecRequest, Refusal, ValidateOptions};
use spvgraph_oracle::validate::Validator;
use std::collections::BTreeSet;
use std::path::Path;

/// Valid mutants per network and kind that the executor runs (it takes up
/// to seconds per run on the larger networks).
const RUNS_PER_KIND: usize = 3;

/// How one network and one kind went.
#[derive(Default)]
struct Tally {
    applied: usize,
    valid: usize,
    distinct: usize,
    ran: usize,
    defined: usize,
    undefined: usize,
    unfit: usize,
    refused: usize,
}

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let attempts: usize = args.next().map(|a| a.parse()).transpose().context("ATTEMPTS_PER_KIND")?.unwrap_or(50);
    let filter = args.next();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let producer = ModelConverter::discover();
    producer.available().map_err(|e| anyhow!("{e}"))?;
    let tosa_opt = networks::tosa_opt().ok_or_else(|| anyhow!("tosa-opt not found: run ci/setup-oracles"))?;
    let validator = Validator::new(ValidateOptions::default());
    println!("| network | operators | mutation | applied | valid | distinct valid | run on its data: outputs / undefined / inputs no longer fit / refused |");
    println!("|---|---|---|---|---|---|---|");
    let mut totals: Vec<(Mutation, Tally)> = Mutation::ALL.iter().map(|&k| (k, Tally::default())).collect();
    let loaded_all = networks::load(&root, filter.as_deref(), &producer, Some(&tosa_opt))?;
    for (name, loaded) in loaded_all.iter().map(|(n, l)| (n.clone(), l.as_ref().map_err(|e| anyhow!("{e:#}")))) {
        let net = match loaded {
            Ok(n) => n,
            Err(e) => {
                println!("| {name} | - | does not load: {e:#} | | | | |");
                continue;
            }
        };
        let ops = net.module.insts.iter().filter(|i| matches!(i, spvgraph_ir::Inst::Tosa { .. })).count();
        for (k, &kind) in Mutation::ALL.iter().enumerate() {
            let mut rng = SplitMix64::new(0x6e65_7477 ^ (k as u64));
            let mut t = Tally::default();
            let mut seen = BTreeSet::new();
            for _ in 0..attempts {
                let Some(m) = mutate::mutate(&net.module, kind, &mut rng) else { continue };
                t.applied += 1;
                if !validator.rule(&m).is_valid() {
                    continue;
                }
                t.valid += 1;
                let Ok(words) = m.encode_words() else { continue };
                if !seen.insert(words.clone()) {
                    continue;
                }
                t.distinct += 1;
                if t.ran < RUNS_PER_KIND {
                    t.ran += 1;
                    run_on_data(&m, words, &net.request, &mut t);
                }
            }
            println!(
                "| {name} | {ops} | {} | {}/{attempts} | {} | {} | {} / {} / {} / {} (of {}) |",
                kind.name(),
                t.applied,
                t.valid,
                t.distinct,
                t.defined,
                t.undefined,
                t.unfit,
                t.refused,
                t.ran
            );
            if let Some((_, total)) = totals.iter_mut().find(|(k, _)| *k == kind) {
                total.applied += t.applied;
                total.valid += t.valid;
                total.distinct += t.distinct;
                total.ran += t.ran;
                total.defined += t.defined;
                total.undefined += t.undefined;
                total.unfit += t.unfit;
                total.refused += t.refused;
            }
        }
    }
    println!();
    println!(
        "| kind of change (hunt --profile networks) | neighbours | in-tree executor: outputs / undefined / refused |"
    );
    println!("|---|---|---|");
    let mut kinds: std::collections::BTreeMap<String, [usize; 4]> = std::collections::BTreeMap::new();
    for (_, loaded) in &loaded_all {
        let Ok(net) = loaded else { continue };
        let Some(entry) = net.request.entry_point.clone() else { continue };
        let data = network::NetworkData {
            inputs: net.request.inputs.clone(),
            graph_constants: net.request.graph_constants.clone(),
        };
        let valid = |m: &spvgraph_ir::Module| validator.rule(m).is_valid();
        for seed in 0..attempts as u64 {
            let n = network::neighbour(&net.module, &data, seed, &valid);
            let kind = n.mutation.name().split('/').next().unwrap_or_default().to_string();
            let t = kinds.entry(kind).or_default();
            t[0] += 1;
            let Ok(words) = n.module.encode_words() else { continue };
            let mut req = OwnedExecRequest {
                module: words,
                entry_point: Some(entry.clone()),
                inputs: n.data.inputs,
                graph_constants: n.data.graph_constants,
            };
            // As the hunt does: what a module change made stale is fitted (here: zeros).
            req.fit_to_module();
            match Executor::default().execute(&req.request()) {
                Ok(ExecOutcome::Outputs(_)) => t[1] += 1,
                Ok(ExecOutcome::Refused { kind: Refusal::Unpredictable, .. }) => t[2] += 1,
                _ => t[3] += 1,
            }
        }
    }
    for (kind, t) in &kinds {
        println!("| {kind} | {} | {} / {} / {} |", t[0], t[1], t[2], t[3]);
    }
    println!();
    println!("| mutation | applied | valid | distinct valid | run: outputs / undefined / unfit / refused |");
    println!("|---|---|---|---|---|");
    for (kind, t) in &totals {
        println!(
            "| {} | {} | {} | {} | {} / {} / {} / {} (of {}) |",
            kind.name(),
            t.applied,
            t.valid,
            t.distinct,
            t.defined,
            t.undefined,
            t.unfit,
            t.refused,
            t.ran
        );
    }
    Ok(())
}

/// Runs a valid mutant on the network's inputs and graph constants, when
/// its interface still takes them.
fn run_on_data(m: &spvgraph_ir::Module, words: Vec<u32>, data: &OwnedExecRequest, t: &mut Tally) {
    let Ok(ports) = exec::interface(m, data.entry_point.as_deref()) else {
        t.unfit += 1;
        return;
    };
    let inputs_fit = ports.inputs.len() == data.inputs.len()
        && ports.inputs.iter().zip(&data.inputs).all(|(p, x)| p.shape == x.shape() && p.elem == x.elem());
    let constants_fit = ports.graph_constants.iter().all(|p| {
        data.graph_constants.get(&p.index).is_some_and(|c| c.shape() == p.shape.as_slice() && c.elem() == p.elem)
    });
    if !inputs_fit || !constants_fit {
        t.unfit += 1;
        return;
    }
    let req = OwnedExecRequest { module: words, ..data.clone() };
    match Executor::default().execute(&req.request()) {
        Ok(ExecOutcome::Outputs(_)) => t.defined += 1,
        Ok(ExecOutcome::Refused { kind: Refusal::Unpredictable, .. }) => t.undefined += 1,
        _ => t.refused += 1,
    }
}
