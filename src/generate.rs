//! `spvgraph generate`'s batch as a library: cases `seed..seed+count`
//! generated in parallel, written as files, counted for coverage and, when
//! asked, validated by the registry's spirv-val oracle (in process when the
//! SPIRV-Tools library is there, else the `spirv-val` executable), with the
//! rejections collected for the caller to print.

pub mod near_valid;

use rayon::prelude::*;
use spvgraph_generator::files::{self, Extras};
use spvgraph_generator::{generate_from_seed, Config, Coverage};
use spvgraph_ir::env::TargetEnv;
use spvgraph_oracle::oracle::{Oracle, ValidateOptions, Verdict};
use std::path::Path;

/// What to generate.
pub struct Batch<'a> {
    /// First seed: case `i` uses seed `seed + i`.
    pub seed: u64,
    /// Number of cases.
    pub count: u64,
    /// The generator configuration.
    pub config: &'a Config,
    /// Where each case's files go (none: nothing is written).
    pub out: Option<&'a Path>,
    /// File-name prefix: case `i` is written as `PREFIX<seed>.spv`, ...
    pub prefix: &'a str,
    /// Which extra files each case gets.
    pub extras: Extras,
    /// The validator every module goes through (the registry's `spirv-val`),
    /// at Vulkan 1.3: the generator's modules must all be accepted.
    pub validator: Option<&'a dyn Oracle>,
}

/// What a batch found.
#[derive(Default)]
pub struct Tally {
    /// Operator × type-row coverage and the constructs reached.
    pub coverage: Coverage,
    /// Cases generated.
    pub cases: u64,
    /// Graphs over every case.
    pub graphs: u64,
    /// TOSA instructions over every case.
    pub nodes: u64,
    /// Modules the validator rejected: (seed, its diagnostics on one line), by seed.
    pub rejected: Vec<(u64, String)>,
    /// The generator's internal errors (operations dropped): (seed, error), by seed.
    pub internal: Vec<(u64, String)>,
    /// Graphs the MLIR printer could not print: (seed, error), by seed.
    pub mlir: Vec<(u64, String)>,
    /// Errors writing files or running the validator.
    pub io: Vec<String>,
}

impl Tally {
    fn merge(mut self, o: Tally) -> Tally {
        self.coverage.merge(&o.coverage);
        self.cases += o.cases;
        self.graphs += o.graphs;
        self.nodes += o.nodes;
        self.rejected.extend(o.rejected);
        self.internal.extend(o.internal);
        self.mlir.extend(o.mlir);
        self.io.extend(o.io);
        self
    }
}

/// Runs the batch on every core; `tick` is called once per case.
pub fn run(batch: &Batch<'_>, tick: &(dyn Fn() + Sync)) -> Tally {
    let mut tally = (0..batch.count)
        .into_par_iter()
        .map(|i| {
            let t = one_case(batch, batch.seed.wrapping_add(i));
            tick();
            t
        })
        .reduce(Tally::default, Tally::merge);
    for list in [&mut tally.internal, &mut tally.mlir, &mut tally.rejected] {
        list.sort();
    }
    tally
}

fn one_case(batch: &Batch<'_>, seed: u64) -> Tally {
    let case = generate_from_seed(seed, batch.config);
    let mut t = Tally { cases: 1, graphs: case.meta.graphs as u64, nodes: case.meta.nodes as u64, ..Tally::default() };
    t.coverage.add(&case.meta);
    t.internal.extend(case.meta.internal_errors.iter().map(|e| (seed, e.clone())));
    if let Some(dir) = batch.out {
        let stem = format!("{}{seed}", batch.prefix);
        match files::write_case(dir, &stem, &case, &batch.extras) {
            Ok(m) => t.mlir.extend(m.mlir_errors.into_iter().map(|e| (seed, e))),
            Err(e) => {
                t.io.push(e.to_string());
                return t;
            }
        }
    }
    if let Some(validator) = batch.validator {
        let options = ValidateOptions { target_env: TargetEnv::VULKAN_1_3, ..ValidateOptions::default() };
        match case.module.encode_words() {
            Err(e) => t.io.push(format!("seed {seed}: the generated module does not encode: {e}")),
            Ok(words) => match validator.validator().and_then(|v| v.validate(&words, &options)) {
                Ok(Verdict::Valid) => {}
                Ok(Verdict::Invalid(diagnostics)) => {
                    let messages: Vec<&str> = diagnostics.iter().map(|d| d.message.trim()).collect();
                    t.rejected.push((seed, messages.join(" | ").replace('\n', " | ")));
                }
                Err(e) => t.io.push(format!("seed {seed}: {} failed: {e}", validator.name())),
            },
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use spvgraph_ir::rules::RuleId;
    use spvgraph_oracle::attribution::Owner;
    use spvgraph_oracle::oracle::{Diagnostic, Instance, OracleError};
    use spvgraph_oracle::oracle::{RuleClaim, Validator};
    use spvgraph_oracle::registry::{self, OracleConfig};

    /// A validator that rejects every module with a two-line message, to see
    /// rejections collected, sorted and put on one line.
    struct RejectAll;

    /// The stand-in's name.
    static REJECT_ALL: Instance = Instance::release("reject-all");

    impl Oracle for RejectAll {
        fn instance(&self) -> &Instance {
            &REJECT_ALL
        }
        fn available(&self) -> Result<(), OracleError> {
            Ok(())
        }
        fn version(&self) -> Option<String> {
            None
        }
        fn components(&self) -> &'static [Owner] {
            &[]
        }
        spvgraph_oracle::capabilities! { validator: yes, executor: no, producer: no, reader: no, referee: no }
    }

    impl Validator for RejectAll {
        fn rule_claim(&self, _: RuleId) -> RuleClaim {
            RuleClaim::Unknown
        }
        fn validate(&self, _: &[u32], _: &ValidateOptions) -> Result<Verdict, OracleError> {
            Ok(Verdict::Invalid(vec![Diagnostic {
                rule: None,
                operator: None,
                message: "no\nthanks".into(),
                word_offset: None,
                instruction: None,
            }]))
        }
    }

    fn batch<'a>(config: &'a Config, validator: Option<&'a dyn Oracle>) -> Batch<'a> {
        Batch { seed: 10, count: 6, config, out: None, prefix: "case_", extras: Extras::default(), validator }
    }

    #[test]
    fn rejections_are_collected_by_seed() {
        let config = Config::default();
        let t = run(&batch(&config, Some(&RejectAll)), &|| ());
        assert_eq!(t.cases, 6);
        let seeds: Vec<u64> = t.rejected.iter().map(|(s, _)| *s).collect();
        assert_eq!(seeds, vec![10, 11, 12, 13, 14, 15]);
        assert_eq!(t.rejected[0].1, "no | thanks");
        assert!(run(&batch(&config, None), &|| ()).rejected.is_empty());
    }

    /// The registry's spirv-val accepts generated modules (skipped without it, unless CI=true).
    #[test]
    fn the_registry_spirv_val_accepts_generated_modules() {
        let Ok(sv) = registry::build(registry::SPIRV_VAL, &OracleConfig::default()) else {
            panic!("the registry builds spirv-val");
        };
        if let Err(e) = sv.available() {
            assert!(!spvgraph_oracle::tools::Tools::required(), "CI=true and {e}");
            return;
        }
        let config = Config::default();
        let t = run(&batch(&config, Some(sv.as_ref())), &|| ());
        assert!(t.io.is_empty(), "{:?}", t.io);
        assert_eq!((t.cases, t.rejected.len()), (6, 0), "{:?}", t.rejected);
    }
}
