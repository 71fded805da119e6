//! Acceptance: spirv-val 2025.5 (`--target-env vulkan1.3`) accepts every
//! generated module; every module round-trips through the codec; every TOSA
//! instruction agrees with the catalogue (`find_row`, `infer_shapes`, value
//! ERROR_IFs); no generator invariant fails.
//!
//! Every tenth seed's graphs also go through the MLIR printer and `tosa-opt`
//! (parse, verify, and MLIR's own `--tosa-validate`).
//!
//! 2,000 seeds: three quarters with the default configuration (all profiles
//! and extensions), one quarter with swarm configurations (random profile
//! subsets and probabilities from `Config::arbitrary`). The 100,000-seed run
//! is `spvgraph generate --seed 0 --count 100000 --check-spirv-val`.

use crate::support;

use arbitrary::{Arbitrary, Unstructured};
use rayon::prelude::*;
use spvgraph_generator::prng::seed_bytes;
use spvgraph_generator::{generate_from_seed, Config};
use spvgraph_ir::Module;
use std::path::{Path, PathBuf};

const SEEDS: u64 = 2000;

/// The configuration of seed `seed`: default, or every fourth a swarm one.
fn config_for(seed: u64) -> Config {
    if seed % 4 != 0 {
        return Config::default();
    }
    let bytes = seed_bytes(seed ^ 0x5eed_5eed, 4096);
    let mut c = Config::arbitrary(&mut Unstructured::new(&bytes)).unwrap_or_default();
    // Keep the swarm cases small so the whole run stays quick.
    c.max_graphs = c.max_graphs.min(3);
    c.max_nodes = c.max_nodes.min(12);
    c.max_tensor_elements = c.max_tensor_elements.min(4096);
    c.max_graph_elements = c.max_graph_elements.clamp(c.max_tensor_elements, 65536);
    // Constructs spirv-val accepts but the spec does not (see Probabilities docs) stay off.
    c.probs.duplicate_entry_point_name = 0.0;
    c.probs.unshaped_input = 0.0;
    if c.validate().is_err() {
        return Config::default();
    }
    c
}

/// Prints every graph of the case as TOSA MLIR and runs tosa-opt on it.
fn check_mlir(seed: u64, case: &spvgraph_generator::Case, tosa_opt: &Path, dir: &Path) -> Option<String> {
    let mut graphs = std::collections::BTreeSet::new();
    for ep in &case.entry_points {
        if !graphs.insert(ep.graph) {
            continue;
        }
        let text = match spvgraph_ir::mlir::module_to_mlir(&case.module, &ep.name, &case.graph_constants) {
            Ok(t) => t,
            Err(e) => return Some(format!("seed {seed}: MLIR printer, entry point {}: {e}", ep.name)),
        };
        let file = dir.join(format!("seed{seed}_{}.mlir", ep.graph));
        if let Err(e) = std::fs::write(&file, text) {
            return Some(format!("seed {seed}: write {}: {e}", file.display()));
        }
        let verdict = support::tosa_opt_validate(tosa_opt, &file);
        let _ = std::fs::remove_file(&file);
        if let Err(e) = verdict {
            return Some(format!("seed {seed}: tosa-opt on entry point {}: {}", ep.name, e.trim()));
        }
    }
    None
}

fn check_seed(seed: u64, tools: &Tools, dir: &Path) -> Option<String> {
    let config = config_for(seed);
    let case = generate_from_seed(seed, &config);
    if !case.meta.internal_errors.is_empty() {
        return Some(format!("seed {seed}: internal errors {:?}", case.meta.internal_errors));
    }
    let words = match case.module.encode_words() {
        Ok(w) => w,
        Err(e) => return Some(format!("seed {seed}: encode: {e}")),
    };
    match Module::decode_words(&words) {
        Ok(m) if m.insts == case.module.insts => {}
        Ok(_) => return Some(format!("seed {seed}: decode(encode(m)) != m")),
        Err(e) => return Some(format!("seed {seed}: decode: {e}")),
    }
    let problems = support::tosa_check::check(&case.module, &case.graph_constants, &config.profiles);
    if !problems.is_empty() {
        return Some(format!("seed {seed}: TOSA: {}", problems.join("; ")));
    }
    if case.entry_points.is_empty() {
        return Some(format!("seed {seed}: no entry point"));
    }
    if seed % 10 == 0 {
        if let Some(tosa_opt) = &tools.tosa_opt {
            if let Some(e) = check_mlir(seed, &case, tosa_opt, dir) {
                return Some(e);
            }
        }
    }
    let val = tools.spirv_val.as_deref()?;
    let file = dir.join(format!("seed{seed}.spv"));
    let bytes = match case.module.encode_bytes() {
        Ok(b) => b,
        Err(e) => return Some(format!("seed {seed}: encode: {e}")),
    };
    if let Err(e) = std::fs::write(&file, bytes) {
        return Some(format!("seed {seed}: write {}: {e}", file.display()));
    }
    let verdict = spvgraph_testkit::spirv_val_file(val, &file);
    let _ = std::fs::remove_file(&file);
    verdict.err().map(|e| format!("seed {seed}: spirv-val: {}", e.trim()))
}

struct Tools {
    spirv_val: Option<PathBuf>,
    tosa_opt: Option<PathBuf>,
}

#[test]
fn spirv_val_accepts_two_thousand_seeds_across_all_profiles() {
    let tools = Tools { spirv_val: support::spirv_val_tool(), tosa_opt: support::tosa_opt_tool() };
    let dir = spvgraph_testkit::scratch("accept");
    let failures: Vec<String> = (0..SEEDS).into_par_iter().filter_map(|seed| check_seed(seed, &tools, &dir)).collect();
    assert!(
        failures.is_empty(),
        "{} of {SEEDS} seeds failed; first ones:\n{}",
        failures.len(),
        failures.iter().take(12).cloned().collect::<Vec<_>>().join("\n")
    );
}
