//! `spvgraph generate --near-valid`'s batch as a library: one near-valid
//! case per seed (`spvgraph_generator::near_valid::near_valid_from_seed`),
//! generated in parallel and written as files, counted by the rule each
//! breaks; the seeds that gave no case are collected for the caller to print.

use rayon::prelude::*;
use spvgraph_generator::files::{self, Extras};
use spvgraph_generator::near_valid::{near_valid_from_seed, NearValid};
use spvgraph_generator::Config;
use spvgraph_ir::rules::RuleId;
use spvgraph_oracle::oracle::ValidateOptions;
use spvgraph_oracle::validate::Validator;
use std::collections::BTreeMap;
use std::path::Path;

/// What to generate.
pub struct NearValidBatch<'a> {
    /// First seed: case `i` uses seed `seed + i`.
    pub seed: u64,
    /// Number of cases.
    pub count: u64,
    /// The generator configuration.
    pub config: &'a Config,
    /// The rule every case breaks (none: one chosen from each case's seed).
    pub rule: Option<RuleId>,
    /// Where each case's files go.
    pub out: &'a Path,
    /// File-name prefix: case `i` is written as `PREFIX<seed>.spv`, ...
    pub prefix: &'a str,
    /// Which extra files each case gets.
    pub extras: Extras,
}

/// What a near-valid batch wrote.
#[derive(Debug, Default)]
pub struct NearValidTally {
    /// Cases written.
    pub written: u64,
    /// Cases written per rule broken (the rule's name).
    pub by_rule: BTreeMap<String, u64>,
    /// Seeds that gave no case, or whose case could not be written, and why, by seed.
    pub failed: Vec<(u64, String)>,
}

/// Runs the batch on every core; `tick` is called once per case.
pub fn run(batch: &NearValidBatch<'_>, tick: &(dyn Fn() + Sync)) -> NearValidTally {
    let results: Vec<(u64, Result<String, String>)> = (0..batch.count)
        .into_par_iter()
        .map(|i| {
            let seed = batch.seed.wrapping_add(i);
            let r = one_case(batch, seed);
            tick();
            (seed, r)
        })
        .collect();
    let mut tally = NearValidTally::default();
    for (seed, r) in results {
        match r {
            Ok(rule) => {
                tally.written += 1;
                *tally.by_rule.entry(rule).or_default() += 1;
            }
            Err(e) => tally.failed.push((seed, e)),
        }
    }
    tally
}

/// Writes the case of `seed`; the rule it breaks, or why there is none.
fn one_case(batch: &NearValidBatch<'_>, seed: u64) -> Result<String, String> {
    let stem = format!("{}{seed}", batch.prefix);
    let nv = near_valid_from_seed(seed, batch.config, batch.rule).map_err(|e| e.to_string())?;
    files::write_near_valid(batch.out, &stem, &nv, &batch.extras, &broken_pipelines(&nv))
        .map(|_| nv.rule.name().to_string())
        .map_err(|e| format!("{e:#}"))
}

/// The graph entry points of a pipeline case for which the in-tree
/// validator reports the case's pipeline rule (none for a module rule).
fn broken_pipelines(nv: &NearValid) -> Vec<String> {
    if !nv.is_pipeline_break() {
        return Vec::new();
    }
    let Ok(module) = spvgraph_ir::Module::decode_words(&nv.words) else { return Vec::new() };
    let validator = Validator::new(ValidateOptions { target_env: nv.target_env, ..ValidateOptions::default() });
    validator
        .pipeline_rules_by_entry_point(&module)
        .into_iter()
        .filter(|(_, findings)| findings.iter().any(|f| f.rule == nv.rule))
        .map(|(name, _)| name)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_seed_is_written_or_said_why_not_and_counted_by_rule() {
        let dir = spvgraph_testkit::scratch("near-valid-batch");
        let config = Config::default();
        let batch = NearValidBatch {
            seed: 3,
            count: 4,
            config: &config,
            rule: None,
            out: &dir,
            prefix: "nv_",
            extras: Extras::default(),
        };
        let t = run(&batch, &|| ());
        assert_eq!(t.written + t.failed.len() as u64, 4, "{t:?}");
        assert_eq!(t.by_rule.values().sum::<u64>(), t.written);
        for rule in t.by_rule.keys() {
            assert!(RuleId::from_name(rule).is_some(), "{rule}");
        }
        let written = std::fs::read_dir(&dir)
            .map(|d| d.flatten().filter(|e| e.path().extension().is_some_and(|x| x == "spv")).count());
        assert_eq!(written.ok(), Some(t.written as usize));
    }
}
