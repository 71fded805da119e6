//! The in-tree validator against in-process spirv-val on the same generated
//! modules, and their ratios: from words (both decode the binary), and from
//! the decoded module (what `hunt` does: the generator hands the validator a
//! `Module`, while spirv-val always needs words).
//!
//! ```sh
//! cargo bench -p spvgraph-oracle --bench validate                 # 10,000 modules
//! VALIDATE_BENCH_MODULES=1000 cargo bench -p spvgraph-oracle --bench validate
//! ```
//!
//! The modules are `spvgraph_generator::generate_from_seed(seed, &Config::default())`
//! for seeds 0..N. Criterion reports the time per pass over all N modules;
//! the ratio lines at the end use medians of five more passes each.
//!
//! A second group, `validate_large_cnn`, takes one large real module:
//! model-converter's output for a 358-operator CNN
//! (`ir/benches/data/large_cnn.spv`, 126 KB, 5,205 instructions, see
//! `ir/benches/codec.rs`): the in-tree validator's full report and its
//! rules-only ruling (`Validator::rule_words`), the codec's decode and
//! encode, and in-process spirv-val, with a ratio line.
//!
//! A third group, `validate_near_valid`, takes the near-valid modules of
//! every rule the mutators cover (three seeds each, each with its own
//! target environment and profiles): the full report (messages and
//! instruction text) against the rules-only ruling that judging uses, with
//! a ratio line (`cargo bench -p spvgraph-oracle --bench validate -- near_valid`).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a test, bench or example: a failure names its place"
)]

use criterion::{criterion_group, criterion_main, Criterion};
use spvgraph_generator::near_valid::{covered_rules, near_valid_from_seed};
use spvgraph_generator::{generate_from_seed, Config};
use spvgraph_ir::Module;
use spvgraph_oracle::external::spirv_val::SpirvVal;
use spvgraph_oracle::oracle::{Oracle, ValidateOptions};
use spvgraph_oracle::validate::Validator;
use std::hint::black_box;
use std::time::{Duration, Instant};

fn modules() -> Vec<(Module, Vec<u32>)> {
    let n = std::env::var("VALIDATE_BENCH_MODULES").ok().and_then(|s| s.parse().ok()).unwrap_or(10_000u64);
    let config = Config::default();
    (0..n)
        .filter_map(|seed| {
            let m = generate_from_seed(seed, &config).module;
            let w = m.encode_words().ok()?;
            Some((m, w))
        })
        .collect()
}

/// Median wall time of `runs` passes of `f` over the modules.
fn median(runs: usize, mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

fn bench(c: &mut Criterion) {
    let all = modules();
    let mods: Vec<Vec<u32>> = all.iter().map(|(_, w)| w.clone()).collect();
    let decoded: Vec<Module> = all.into_iter().map(|(m, _)| m).collect();
    let words: usize = mods.iter().map(Vec::len).sum();
    eprintln!("{} generated modules, {:.0} words on average", mods.len(), words as f64 / mods.len().max(1) as f64);
    let options = ValidateOptions::default();
    let validator = Validator::new(options.clone());
    let env = options.target_env;
    let in_tree = |mods: &[Vec<u32>]| {
        for w in mods {
            black_box(validator.check_words(w).is_valid());
        }
    };
    let in_tree_decoded = |mods: &[Module]| {
        for m in mods {
            black_box(validator.check(m).is_valid());
        }
    };
    let sv = SpirvVal::discover();
    let spirv_val = sv.available().is_ok().then_some(&sv);
    let mut group = c.benchmark_group(format!("validate_{}_modules", mods.len()));
    group.sample_size(10).measurement_time(Duration::from_secs(10));
    group.bench_function("in-tree", |b| b.iter(|| in_tree(&mods)));
    group.bench_function("in-tree-decoded", |b| b.iter(|| in_tree_decoded(&decoded)));
    if let Some(sv) = spirv_val {
        group.bench_function("spirv-val-in-process", |b| {
            b.iter(|| {
                for w in &mods {
                    black_box(sv.validate_in_process(w, env).map(|v| v.is_valid()).unwrap_or(false));
                }
            })
        });
    } else {
        eprintln!("spirv-val unavailable: {:?}", sv.available());
    }
    group.finish();
    if let Some(sv) = spirv_val {
        let ours = median(5, || in_tree(&mods));
        let ours_decoded = median(5, || in_tree_decoded(&decoded));
        let theirs = median(5, || {
            for w in &mods {
                black_box(sv.validate_in_process(w, env).map(|v| v.is_valid()).unwrap_or(false));
            }
        });
        let per = |d: Duration| d.as_secs_f64() * 1e6 / mods.len().max(1) as f64;
        let ratio = |d: Duration| theirs.as_secs_f64() / d.as_secs_f64().max(f64::MIN_POSITIVE);
        eprintln!(
            "spirv-val in-process {:.1} µs/module; in-tree from words {:.1} µs/module ({:.1}x faster), \
             from the decoded module {:.1} µs/module ({:.1}x faster)",
            per(theirs),
            per(ours),
            ratio(ours),
            per(ours_decoded),
            ratio(ours_decoded)
        );
    }
}

/// model-converter output for `ir/benches/data/large_cnn.mlir`.
const LARGE_CNN: &[u8] = include_bytes!("../../ir/benches/data/large_cnn.spv");

fn bench_large(c: &mut Criterion) {
    let module = Module::decode_bytes(LARGE_CNN).expect("large_cnn decodes");
    let words = module.encode_words().expect("large_cnn encodes");
    let options = ValidateOptions::default();
    let validator = Validator::new(options.clone());
    assert!(validator.check_words(&words).is_valid(), "large_cnn is valid");
    let sv = SpirvVal::discover();
    let spirv_val = sv.available().is_ok().then_some(&sv);
    let env = options.target_env;
    let mut group = c.benchmark_group("validate_large_cnn");
    group.sample_size(20).measurement_time(Duration::from_secs(5));
    group.bench_function("in-tree-report", |b| {
        b.iter(|| black_box(validator.check_words(black_box(&words)).is_valid()))
    });
    group.bench_function("in-tree-rules", |b| b.iter(|| black_box(validator.rule_words(black_box(&words)).is_valid())));
    group.bench_function("decode", |b| b.iter(|| black_box(Module::decode_words(black_box(&words)).is_ok())));
    group.bench_function("encode", |b| b.iter(|| black_box(module.encode_words().map(|w| w.len()).unwrap_or(0))));
    if let Some(sv) = spirv_val {
        group.bench_function("spirv-val-in-process", |b| {
            b.iter(|| black_box(sv.validate_in_process(black_box(&words), env).map(|v| v.is_valid()).unwrap_or(false)))
        });
    }
    group.finish();
    let Some(sv) = spirv_val else { return };
    let runs = 21;
    let ours = median(runs, || {
        black_box(validator.check_words(&words).is_valid());
    });
    let rules = median(runs, || {
        black_box(validator.rule_words(&words).is_valid());
    });
    let codec = median(runs, || {
        black_box(Module::decode_words(&words).map(|m| m.encode_words().map(|w| w.len())).is_ok());
    });
    let theirs = median(runs, || {
        black_box(sv.validate_in_process(&words, env).map(|v| v.is_valid()).unwrap_or(false));
    });
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    let ratio = |d: Duration| theirs.as_secs_f64() / d.as_secs_f64().max(f64::MIN_POSITIVE);
    eprintln!(
        "large_cnn ({} words): spirv-val in-process {:.0} µs; in-tree report {:.0} µs ({:.1}x faster), \
         rules only {:.0} µs ({:.1}x faster); codec decode+encode {:.0} µs ({:.1}x faster)",
        words.len(),
        us(theirs),
        us(ours),
        ratio(ours),
        us(rules),
        ratio(rules),
        us(codec),
        ratio(codec)
    );
}

/// Near-valid modules of every covered rule, each with the validator for
/// its target environment and profiles.
fn near_valid_modules() -> Vec<(Validator, Vec<u32>)> {
    let config = Config::default();
    let mut out = Vec::new();
    for rule in covered_rules() {
        for seed in 0..3 {
            let Ok(nv) = near_valid_from_seed(seed, &config, Some(rule)) else { continue };
            let options = ValidateOptions::for_case(nv.target_env, nv.profiles.as_deref());
            out.push((Validator::new(options), nv.words));
        }
    }
    out
}

fn bench_near_valid(c: &mut Criterion) {
    let mods = near_valid_modules();
    eprintln!("{} near-valid modules", mods.len());
    let report = || {
        for (v, w) in &mods {
            black_box(v.check_words(w).is_valid());
        }
    };
    let rules = || {
        for (v, w) in &mods {
            black_box(v.rule_words(w).is_valid());
        }
    };
    let mut group = c.benchmark_group("validate_near_valid");
    group.sample_size(20).measurement_time(Duration::from_secs(5));
    group.bench_function("report", |b| b.iter(report));
    group.bench_function("rules", |b| b.iter(rules));
    group.finish();
    let (full, only) = (median(21, report), median(21, rules));
    let per = |d: Duration| d.as_secs_f64() * 1e6 / mods.len().max(1) as f64;
    eprintln!(
        "near-valid: full report {:.1} µs/module, rules only {:.1} µs/module ({:.1}x faster)",
        per(full),
        per(only),
        full.as_secs_f64() / only.as_secs_f64().max(f64::MIN_POSITIVE)
    );
}

criterion_group!(benches, bench, bench_large, bench_near_valid);
criterion_main!(benches);
