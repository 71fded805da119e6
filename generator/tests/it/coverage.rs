//! Coverage: over 3,000 seeds of the default configuration every operator
//! and every type row of every profile/extension is reached, together with
//! the constructs the issue lists. The 20,000-seed check is
//! `spvgraph generate --coverage --seed 0 --count 20000` (exit 1 if a row is missing).

use spvgraph_generator::coverage::CONSTRUCTS;
use spvgraph_generator::{generate_from_seed, Config, Coverage};
use spvgraph_ir::tosa::TosaOp;
use std::sync::OnceLock;

fn tally(seeds: u64, config: &Config) -> Coverage {
    let mut c = Coverage::new();
    for seed in 0..seeds {
        c.add(&generate_from_seed(seed, config).meta);
    }
    c
}

/// Seeds 0..3000 of the default configuration, tallied once for the tests
/// that read them.
fn default_tally() -> &'static Coverage {
    static TALLY: OnceLock<Coverage> = OnceLock::new();
    TALLY.get_or_init(|| tally(3000, &Config::default()))
}

/// Every consumer-breaking construct of issue 9 §7 (results left unused,
/// pass-through outputs, one value as several outputs, shared entry points,
/// tensor arrays, every constant form, dimensions and attributes up to the
/// level limits, special floating-point values) is reached by seeds
/// 0..3000 of the default configuration.
#[test]
fn three_thousand_seeds_reach_every_consumer_breaking_construct() {
    let config = Config::default();
    let cov = default_tally();
    let missing: Vec<&str> = cov.missing_constructs(&config).iter().map(|k| k.feature).collect();
    assert!(missing.is_empty(), "never reached: {missing:?}\n{}", cov.constructs_report(&config));
    assert_eq!(cov.missing_constructs(&config).len(), 0);
    assert!(CONSTRUCTS.iter().all(|k| k.applies(&config)));
}

#[test]
fn three_thousand_seeds_reach_every_operator_and_type_row() {
    let config = Config::default();
    let cov = default_tally();
    assert_eq!(cov.ops_reached().len(), spvgraph_ir::tosa::TosaOp::COUNT, "operators reached: {:?}", cov.ops_reached());
    for op in TosaOp::ALL {
        assert!(cov.ops_reached().contains(&op), "{op} never generated");
    }
    let missing = cov.missing(&config.usable_ops(), &config.profiles);
    assert!(missing.is_empty(), "{}", cov.report(&config.usable_ops(), &config.profiles));
    assert_eq!(cov.cases_with_internal_errors, 0);
    for feature in [
        "const:composite",
        "const:composite-nested",
        "const:null",
        "const:replicate",
        "const:replicate-rank>1",
        "const:graph-constant",
        "dag:fan-out",
        "debuginfo:graph",
        "debuginfo:operation",
        "debuginfo:tensor",
        "entry:alias",
        "entry:shared-interface",
        "iface:array-input",
        "iface:array-output",
        "iface:array-unread-element",
        "iface:inputs-out-of-order",
        "output:from-input",
        "output:from-constant",
        "output:inner-value",
        "name",
        "zero-point:nonzero",
        "fft:both-results",
        "fft:one-result",
        "resize:mode=NEAREST_NEIGHBOR",
        "resize:mode=BILINEAR",
        "rescale:rounding=SINGLE_ROUND",
        "rescale:rounding=INEXACT_ROUND",
        "rescale:rounding=DOUBLE_ROUND",
        "rescale:scale32=true",
        "rescale:scale32=false",
        "rescale:per_channel",
        "rescale:input_unsigned:i8",
        "rescale:input_unsigned:i16",
        "rescale:output_unsigned:i8",
        "rescale:output_unsigned:i16",
        "transpose_conv2d:negative-out_pad",
        "mul:shift",
    ] {
        assert!(cov.features.get(feature).copied().unwrap_or(0) > 0, "feature {feature} never reached");
    }
}

#[test]
fn restricted_profiles_only_use_their_rows() {
    use spvgraph_ir::elem::Profile;
    let config = Config { profiles: vec![Profile::ProInt], ..Config::default() };
    let cov = tally(300, &config);
    for op in cov.ops_reached() {
        for (i, row) in op.spec().type_rows.iter().enumerate() {
            if cov.count(op, i) > 0 {
                assert!(row.available(&config.profiles), "{op} row {i} used without its profile");
            }
        }
    }
    assert!(!cov.ops_reached().contains(&TosaOp::Fft2d));
    assert!(!cov.ops_reached().contains(&TosaOp::Erf));
}

#[test]
#[ignore = "about 10 s; run with --ignored, or use `spvgraph generate --coverage --count 20000`"]
fn twenty_thousand_seeds_reach_every_type_row() {
    let config = Config::default();
    let cov = tally(20_000, &config);
    let missing = cov.missing(&config.usable_ops(), &config.profiles);
    assert!(missing.is_empty(), "{}", cov.report(&config.usable_ops(), &config.profiles));
}
