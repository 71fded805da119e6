//! Neighbours of a finding: when a case shows a new signature, the
//! structure-aware mutator (`spvgraph_generator::mutate`) makes a few
//! mutants of its module, each one mutation away and kept only when the
//! in-tree validator accepts it, and each runs through the same oracles and
//! the same judgement as any case. A mutant that shows the signature again
//! is counted, not filed again (the store keeps one finding per signature);
//! one that shows a new signature is a finding like any other, whose
//! `neighbour_of` names the seed it was mutated from.
//!
//! The mutants are drawn from the case's seed alone, so a hunt finds the
//! same neighbours every time. Only cases of the generator (not near-valid
//! ones, which are invalid on purpose, and not neighbours themselves) have
//! neighbours, which keeps their number bounded by `--neighbours` per
//! finding.

use super::case::{CaseOutcome, Hunter, Pending, Subject};
use spvgraph_generator::mutate::{self, Mutation};
use spvgraph_ir::Module;
use spvgraph_oracle::oracle::ValidateOptions;
use spvgraph_oracle::validate::Validator;

/// Where a neighbour comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NeighbourOf {
    /// The seed of the case that found something.
    pub seed: u64,
    /// Which of its mutants this is (0, 1, ...).
    pub mutant: usize,
    /// The mutation that made it.
    pub mutation: Mutation,
}

impl NeighbourOf {
    /// As a finding records it.
    pub fn to_json(self) -> serde_json::Value {
        serde_json::json!({
            "seed": self.seed,
            "mutant": self.mutant,
            "mutation": self.mutation.name(),
            "provenance": format!("neighbour of seed {} (mutant {}, {})", self.seed, self.mutant, self.mutation.name()),
        })
    }
}

/// What the neighbours of the hunt's findings showed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct NeighbourTally {
    /// Findings whose case had neighbours run.
    pub findings: u64,
    /// Mutants run.
    pub run: u64,
    /// Mutants that showed a signature of the case they came from.
    pub same_signature: u64,
    /// Mutants that showed a signature new to the hunt (each filed).
    pub new_signature: u64,
}

impl NeighbourTally {
    /// Adds another tally.
    pub fn merge(&mut self, o: &NeighbourTally) {
        self.findings += o.findings;
        self.run += o.run;
        self.same_signature += o.same_signature;
        self.new_signature += o.new_signature;
    }
}

impl Hunter<'_> {
    /// Up to `count` mutants of `parent`'s module, each through the first
    /// phase (round-trip, validators, in-tree executor, judgement), with
    /// what the sampled oracles need; none for a near-valid case or a
    /// neighbour.
    pub fn neighbours(&self, parent: &CaseOutcome, count: usize) -> Vec<(CaseOutcome, Option<Pending>)> {
        let Subject::Valid(case) = &parent.subject else { return Vec::new() };
        if parent.neighbour.is_some() || count == 0 {
            return Vec::new();
        }
        let validator = Validator::new(ValidateOptions::for_case(parent.target_env, parent.profiles.as_deref()));
        let valid = |m: &Module| validator.rule(m).is_valid();
        let mutants = mutate::neighbours(&case.module, parent.seed, count, &valid);
        let mut out = Vec::with_capacity(mutants.len());
        for (mutant, (module, mutation)) in mutants.into_iter().enumerate() {
            let Ok(words) = module.encode_words() else { continue };
            let mut c = case.clone();
            c.module = module;
            let mut o = CaseOutcome {
                subject: Subject::Valid(c),
                words: Some(words.clone()),
                target_env: parent.target_env,
                profiles: parent.profiles.clone(),
                neighbour: Some(NeighbourOf { seed: parent.seed, mutant, mutation }),
                // A mutant of a network's neighbour is still of that network.
                network: parent.network.clone(),
                ..CaseOutcome::empty(parent.index, parent.seed)
            };
            self.check(&mut o, &words);
            let pending = self.pending(&mut o, words);
            out.push((o, pending));
        }
        out
    }
}
