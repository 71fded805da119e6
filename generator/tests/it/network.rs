//! The `network` profile (`Config::network()`): graphs shaped like real
//! networks, each TOSA instruction consistent with the catalogue, operator
//! counts and tensor sizes in the profile's ranges, the block structure
//! (convolutions followed by activations, residual ADDs, CONCATs,
//! normalisation, RESCALE chains) present, and the conformance data sets
//! holding their edge values. Validity by the in-tree validator and
//! spirv-val, and a run on the in-tree executor, are in
//! `oracle/tests/it/network_graphs.rs`.
//!
//! `NETWORK_SEEDS=N cargo test --release -p spvgraph-generator --test
//! network -- --nocapture` runs N seeds and prints the size figures.

use crate::support;

use rayon::prelude::*;
use spvgraph_generator::{generate_from_seed, Case, Config, ConfigProfile};
use spvgraph_ir::analysis::Analysis;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::inst::Inst;
use spvgraph_ir::tosa::TosaOp;
use std::collections::BTreeMap;

fn seeds() -> u64 {
    std::env::var("NETWORK_SEEDS").ok().and_then(|v| v.parse().ok()).unwrap_or(120)
}

/// Element counts of every TOSA result of the case's graphs.
fn result_sizes(case: &Case) -> Vec<u64> {
    let a = Analysis::new(&case.module);
    case.module
        .insts
        .iter()
        .filter_map(|i| match i {
            Inst::Tosa { ty, .. } => a.tensor_type(*ty).and_then(|t| t.shape.clone()),
            _ => None,
        })
        .map(|s| s.iter().product())
        .collect()
}

/// The TOSA operators in instruction order, with the ids they read.
fn tosa_ops(case: &Case) -> Vec<(TosaOp, spvgraph_ir::inst::Id, Vec<spvgraph_ir::inst::Id>)> {
    case.module
        .insts
        .iter()
        .filter_map(|i| match i {
            Inst::Tosa { op, result, args, .. } => Some((*op, *result, args.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn network_cases_are_consistent_and_in_range() {
    let config = Config::network();
    assert_eq!(ConfigProfile::from_name("network").map(|p| p.config()), Some(config.clone()));
    config.validate().expect("the profile validates");
    let n = seeds();
    let results: Vec<(u64, Case)> = (0..n).into_par_iter().map(|s| (s, generate_from_seed(s, &config))).collect();
    let mut problems = Vec::new();
    let mut nodes = Vec::new();
    let mut largest = Vec::new();
    let mut features: BTreeMap<String, u64> = BTreeMap::new();
    for (seed, case) in &results {
        if !case.meta.internal_errors.is_empty() {
            problems.push(format!("seed {seed}: generator invariants: {:?}", case.meta.internal_errors));
        }
        let tosa = support::tosa_check::check(&case.module, &case.graph_constants, &config.profiles);
        if !tosa.is_empty() {
            problems.push(format!("seed {seed}: {}", tosa.join("; ")));
        }
        if case.meta.features.contains("net:fallback-random") {
            problems.push(format!("seed {seed}: fell back to random growth with every operator enabled"));
        }
        let count = case.meta.nodes;
        if !(50..=200).contains(&count) {
            problems.push(format!("seed {seed}: {count} operators, outside 50..=200"));
        }
        let inputs = case.entry_points.iter().flat_map(|e| e.inputs.iter().map(|i| i.data.len() as u64));
        let max = result_sizes(case).into_iter().chain(inputs).max().unwrap_or(0);
        if !(100_000..=config.max_tensor_elements).contains(&max) {
            problems.push(format!("seed {seed}: largest tensor {max} elements, outside 10^5..=10^7"));
        }
        let input = case.entry_points.first().and_then(|e| e.inputs.first()).map_or(0, |i| i.data.len() as u64);
        if input < 100_000 {
            problems.push(format!("seed {seed}: graph input of {input} elements"));
        }
        nodes.push(count);
        largest.push(max);
        for f in case.meta.features.iter().filter(|f| f.starts_with("net:")) {
            *features.entry(f.clone()).or_default() += 1;
        }
    }
    nodes.sort_unstable();
    largest.sort_unstable();
    let q = |v: &[u64], f: f64| v[((v.len() - 1) as f64 * f) as usize];
    let nodes64: Vec<u64> = nodes.iter().map(|&x| x as u64).collect();
    println!(
        "{n} cases: operators min {} median {} max {}; largest tensor min {} median {} max {}",
        nodes64[0],
        q(&nodes64, 0.5),
        q(&nodes64, 1.0),
        largest[0],
        q(&largest, 0.5),
        q(&largest, 1.0)
    );
    for (f, k) in &features {
        println!("  {f:40} {k}");
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // The blocks the profile promises all appear in a run of this size.
    for f in [
        "net:block=conv",
        "net:block=depthwise-separable",
        "net:block=residual",
        "net:block=inception",
        "net:block=layer-norm",
        "net:block=token-mlp",
        "net:block=max-pool",
        "net:block=avg-pool",
        "net:quantized-i8",
        "net:float-fp32",
        "net:float-fp16",
        "net:softmax",
        "net:act=relu",
        "net:act=sigmoid",
        "net:act=tanh",
        "net:act=gelu",
        "net:act=relu-i8",
    ] {
        assert!(features.contains_key(f), "no case reached {f}");
    }
}

/// Blocks are chains: a convolution's result feeds an activation or a
/// requantisation, residual ADDs read a value produced before their
/// branch, CONCATs join several computed values, and int8 accumulators are
/// rescaled.
#[test]
fn network_graphs_have_network_structure() {
    let config = Config::network();
    let mut conv_then_act = 0;
    let mut residual_adds = 0;
    let mut branch_concats = 0;
    let mut rescale_after_conv = 0;
    for seed in 0..40 {
        let case = generate_from_seed(seed, &config);
        let ops = tosa_ops(&case);
        let producer: BTreeMap<_, _> = ops.iter().enumerate().map(|(i, (op, r, _))| (*r, (i, *op))).collect();
        for (i, (op, _, args)) in ops.iter().enumerate() {
            let inputs: Vec<(usize, TosaOp)> = args.iter().filter_map(|a| producer.get(a).copied()).collect();
            match op {
                TosaOp::Clamp | TosaOp::Sigmoid | TosaOp::Tanh | TosaOp::Erf | TosaOp::Table => {
                    conv_then_act +=
                        inputs.iter().any(|(_, p)| matches!(p, TosaOp::Conv2d | TosaOp::DepthwiseConv2d)) as u32;
                }
                TosaOp::Rescale => {
                    rescale_after_conv +=
                        inputs.iter().any(|(_, p)| matches!(p, TosaOp::Conv2d | TosaOp::Matmul)) as u32;
                }
                // An ADD joining a value from well before it (the skip) and a recent one.
                TosaOp::Add if inputs.len() == 2 && inputs.iter().any(|&(j, _)| i - j >= 3) => residual_adds += 1,
                TosaOp::Concat if inputs.len() >= 2 => branch_concats += 1,
                _ => {}
            }
        }
    }
    assert!(conv_then_act >= 40, "{conv_then_act} activations of a convolution");
    assert!(residual_adds >= 10, "{residual_adds} residual ADDs");
    assert!(branch_concats >= 3, "{branch_concats} CONCATs of branches");
    assert!(rescale_after_conv >= 10, "{rescale_after_conv} RESCALEs of an accumulator");
}

/// The data sets of the conformance generator hold what defines them:
/// dot-product set 0 pairs every product with a zero factor, sets 2 and 3
/// lead each sum with 1 and 16, set 1 stays within [B/2, B]/sqrt(KS+1)
/// (values of large exponent), sets 4 and 5 reach large magnitudes of both
/// signs; the integer sets fill the input with the type's extreme (or
/// zero); the special branch feeds NaN, both infinities and the largest
/// finite value in.
#[test]
fn network_datasets_hit_their_edge_values() {
    let config = Config {
        network: Some(spvgraph_generator::Network { test_sets: 1.0, special_branch: 1.0, ..Default::default() }),
        ..Config::network()
    };
    let mut seen: BTreeMap<String, u32> = BTreeMap::new();
    for seed in 0..160 {
        let case = generate_from_seed(seed, &config);
        let Some(ep) = case.entry_points.first() else { continue };
        let Some(stem) = ep.inputs.first() else { continue };
        let v = stem.data.to_f64();
        let elem = stem.data.elem();
        // The sets' scale B / sqrt(KS + 1) for the stem convolution: B as
        // the specification gives it for the accumulator, capped so that B²
        // is finite in the output type.
        let ks = stem_terms(&case);
        let (b_spec, largest) = match elem {
            ElemType::Fp32 => (18_446_742_974_197_923_840.0, f64::from(f32::MAX)),
            ElemType::Bf16 => (18_374_686_479_671_623_680.0, 3.3895313892515355e38),
            _ => (255.875, 65504.0),
        };
        let b: f64 = f64::min(b_spec, largest.sqrt() * (1.0 - 1.0 / 256.0));
        let big = b / (ks + 1.0).sqrt();
        let max = v.iter().fold(0.0f64, |a, x| a.max(x.abs()));
        for f in case.meta.features.iter().filter(|f| f.starts_with("net:dataset=")) {
            let name = f.trim_start_matches("net:dataset=");
            let ok = match name {
                "dot-s0" => v.iter().filter(|x| **x == 0.0).count() * 4 >= v.len() && max > 0.0,
                "dot-s1" => {
                    let min = v.iter().fold(f64::INFINITY, |a, x| a.min(x.abs()));
                    max <= big * 1.01 && min >= big / 2.0 * 0.99
                }
                "dot-s2" => v[0] == 1.0 && v.iter().filter(|x| **x == 1.0).count() * 2 < v.len(),
                "dot-s3" => v[0] == 16.0,
                "dot-s4" => {
                    // B / sqrt(KS) here, not B / sqrt(KS + 1).
                    max <= b / ks.sqrt() * 1.01
                        && max >= big * 0.9
                        && v.iter().any(|x| x.abs() == 0.5)
                        && v.contains(&0.0)
                }
                "dot-s5" => {
                    max <= big * 1.01 && max >= big * 0.9 && v.iter().any(|x| *x < 0.0) && v.iter().any(|x| *x > 0.0)
                }
                "int-conv-max-input-small-weights" | "int-conv-max-input-zero-weights" => v.iter().all(|x| *x == 127.0),
                "int-conv-lowest-input-small-weights" => v.iter().all(|x| *x == -128.0),
                "int-conv-zero-input-max-weights" => v.iter().all(|x| *x == 0.0),
                // Weight-only sets: checked through the module's constants below.
                _ if name.ends_with("-weights") && name.starts_with("dot-") => true,
                other => panic!("seed {seed}: unknown data set {other}"),
            };
            assert!(
                ok,
                "seed {seed}: {name} does not hold its values ({elem}, KS {ks}, scale {big}, max {max}, first {:?})",
                &v[..4.min(v.len())]
            );
            *seen.entry(name.to_string()).or_default() += 1;
        }
        if case.meta.features.iter().any(|f| f.starts_with("net:special-branch=")) {
            let all: Vec<f64> = support::leaf_data(&case).values().flat_map(|d| d.to_f64()).collect();
            let has = |p: &dyn Fn(f64) -> bool| all.iter().any(|&x| p(x));
            let largest = all.iter().filter(|x| x.is_finite()).fold(0.0f64, |a, x| a.max(x.abs()));
            assert!(has(&|x| x.is_nan()), "seed {seed}: special branch without NaN");
            assert!(
                has(&|x| x == f64::INFINITY) || has(&|x| x == f64::NEG_INFINITY) || largest > 1e4,
                "seed {seed}: no infinity"
            );
            *seen.entry("special-branch".into()).or_default() += 1;
        }
    }
    println!("{seen:?}");
    for s in ["dot-s0", "dot-s1", "dot-s2", "dot-s3", "dot-s4", "dot-s5", "special-branch"] {
        assert!(seen.contains_key(s), "no case drew {s}: {seen:?}");
    }
    assert!(seen.keys().any(|k| k.starts_with("int-conv-")), "no integer set: {seen:?}");
}

/// KH * KW * IC of the first CONV2D's weight (the stem's).
fn stem_terms(case: &Case) -> f64 {
    let a = Analysis::new(&case.module);
    let weight = case.module.insts.iter().find_map(|i| match i {
        Inst::Tosa { op: TosaOp::Conv2d, args, .. } => args.get(6).copied(),
        _ => None,
    });
    let shape = weight.and_then(|w| a.type_of(w)).and_then(|t| a.tensor_type(t)).and_then(|t| t.shape.clone());
    shape.map_or(1.0, |s| s.iter().skip(1).map(|&d| d as f64).product())
}

#[test]
fn network_cases_are_deterministic() {
    let config = Config::network();
    for seed in [3u64, 17] {
        let a = generate_from_seed(seed, &config);
        let b = generate_from_seed(seed, &config);
        assert_eq!(a.module.encode_words().ok(), b.module.encode_words().ok());
        let da: Vec<Vec<u8>> =
            a.entry_points.iter().flat_map(|e| e.inputs.iter().map(|i| i.data.to_le_bytes())).collect();
        let db: Vec<Vec<u8>> =
            b.entry_points.iter().flat_map(|e| e.inputs.iter().map(|i| i.data.to_le_bytes())).collect();
        assert_eq!(da, db);
    }
}

/// A configuration without convolutions or without floating point still
/// generates: a quantised network, or random growth.
#[test]
fn restricted_network_configs_still_generate() {
    let int_only = Config { profiles: vec![spvgraph_ir::elem::Profile::ProInt], ..Config::network() };
    let case = generate_from_seed(5, &int_only);
    assert!(case.meta.internal_errors.is_empty(), "{:?}", case.meta.internal_errors);
    assert!(case.meta.features.contains("net:quantized-i8"), "{:?}", case.meta.features);
    let no_conv = Config { deny_ops: vec![TosaOp::Conv2d], max_tensor_elements: 4096, ..Config::network() };
    let case = generate_from_seed(5, &no_conv);
    assert!(case.meta.internal_errors.is_empty(), "{:?}", case.meta.internal_errors);
    assert!(case.meta.features.contains("net:fallback-random"));
}
