//! The `spvgraph generate` contract: files per case, a manifest naming them,
//! determinism, coverage and spirv-val checks, and exit status (0 success,
//! 1 a check failed, 2 usage or I/O error).

use spvgraph_testkit::{bin, scratch};
use std::path::Path;
use std::process::{Command, Output};

fn run(cmd: &mut Command) -> (i32, String, String) {
    let Output { status, stdout, stderr } = cmd.output().expect("run spvgraph");
    (status.code().unwrap_or(-1), String::from_utf8_lossy(&stdout).into(), String::from_utf8_lossy(&stderr).into())
}

fn manifest(dir: &Path, seed: u64) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join(format!("case_{seed}.json"))).expect("manifest exists");
    serde_json::from_str(&text).expect("manifest is JSON")
}

#[test]
fn writes_module_mlir_data_and_manifest_per_case() {
    let d = scratch("files");
    let (code, out, err) = run(bin!().args(["generate", "--seed", "40", "--count", "6", "--spvasm", "-o"]).arg(&d));
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("generated 6 case(s), seeds 40..=45"), "{out}");
    for seed in 40..46u64 {
        let m = manifest(&d, seed);
        assert_eq!(m["seed"], seed);
        assert_eq!(m["expect"], "valid");
        for key in ["spv", "spvasm", "mlir"] {
            let f = m[key].as_str().unwrap_or_else(|| panic!("seed {seed}: no {key}: {m}"));
            assert!(d.join(f).is_file(), "{f}");
        }
        assert!(!m["ops"].as_array().expect("ops list").is_empty());
        assert!(!m["type_rows"].as_array().expect("rows").is_empty());
        let eps = m["entry_points"].as_array().expect("entry points");
        assert!(!eps.is_empty());
        // Inputs are listed per entry point in InputIndex (then ElementIndex) order.
        let inputs = m["inputs"].as_array().expect("inputs");
        for ep in 0..eps.len() {
            let keys: Vec<(u64, u64)> = inputs
                .iter()
                .filter(|i| i["entry_point"] == ep)
                .map(|i| (i["index"].as_u64().unwrap_or(0), i["element"].as_u64().unwrap_or(0)))
                .collect();
            let mut sorted = keys.clone();
            sorted.sort_unstable();
            assert_eq!(keys, sorted, "seed {seed}: inputs out of order");
        }
        for i in inputs {
            assert!(d.join(i["file"].as_str().expect("file")).is_file());
        }
        for (_, f) in m["graph_constants"].as_object().expect("graph constants map") {
            assert!(d.join(f.as_str().expect("file")).is_file());
        }
    }
    // The module decodes and the other subcommands read it.
    let (code, _, err) = run(bin!().arg("roundtrip").arg(d.join("case_40.spv")));
    assert_eq!(code, 0, "{err}");
}

#[test]
fn the_same_seed_writes_the_same_bytes() {
    let (a, b) = (scratch("det-a"), scratch("det-b"));
    for d in [&a, &b] {
        let (code, _, err) = run(bin!().args(["generate", "--seed", "7", "--count", "3", "--no-mlir", "-o"]).arg(d));
        assert_eq!(code, 0, "{err}");
    }
    for seed in 7..10 {
        for ext in ["spv", "json"] {
            let name = format!("case_{seed}.{ext}");
            assert_eq!(std::fs::read(a.join(&name)).expect("a"), std::fs::read(b.join(&name)).expect("b"), "{name}");
        }
    }
    // Case 8 alone equals case 8 of the batch.
    let c = scratch("det-c");
    let (code, _, _) = run(bin!().args(["generate", "--seed", "8", "--no-mlir", "-o"]).arg(&c));
    assert_eq!(code, 0);
    assert_eq!(std::fs::read(a.join("case_8.spv")).expect("a"), std::fs::read(c.join("case_8.spv")).expect("c"));
}

#[test]
fn configuration_from_file_flags_and_set() {
    let d = scratch("config");
    let cfg = d.join("c.json");
    std::fs::write(&cfg, r#"{"max_nodes": 2, "min_nodes": 1, "profiles": ["PRO-INT"], "probs": {"debug_info": 1.0}}"#)
        .expect("write");
    let (code, out, err) = run(bin!()
        .args(["generate", "--print-config", "--max-graphs", "1", "--set", "probs.op_name=0.5", "--config"])
        .arg(&cfg));
    assert_eq!(code, 0, "{err}");
    let c: serde_json::Value = serde_json::from_str(&out).expect("config JSON");
    assert_eq!(c["max_nodes"], 2);
    assert_eq!(c["max_graphs"], 1);
    assert_eq!(c["profiles"], serde_json::json!(["PRO-INT"]));
    assert_eq!(c["probs"]["debug_info"], 1.0);
    assert_eq!(c["probs"]["op_name"], 0.5);
    // Only PRO-INT rows appear.
    let (code, _, err) =
        run(bin!().args(["generate", "--count", "5", "--no-mlir", "--config"]).arg(&cfg).arg("-o").arg(&d));
    assert_eq!(code, 0, "{err}");
    for seed in 0..5 {
        for row in manifest(&d, seed)["type_rows"].as_array().expect("rows") {
            let profiles: Vec<&str> =
                row["profiles"].as_array().expect("profiles").iter().filter_map(|p| p.as_str()).collect();
            assert!(profiles.contains(&"PRO-INT"), "{row}");
        }
    }
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        vec!["generate", "--count", "1"],
        vec!["generate", "--profiles", "PRO-NOPE", "--coverage"],
        vec!["generate", "--ops", "NOT_AN_OP", "--coverage"],
        vec!["generate", "--set", "max_rank=9", "--coverage"],
        vec!["generate", "--set", "no_such_field=1", "--coverage"],
        vec!["generate", "--ops", "FFT2D", "--profiles", "PRO-INT", "--coverage"],
    ] {
        let (code, _, err) = run(bin!().args(&args));
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains("error"), "{args:?}: {err}");
    }
    let (code, _, err) =
        run(bin!().args(["generate", "--count", "1", "--config", "/nonexistent/c.json", "--coverage"]));
    assert_eq!(code, 2);
    assert!(err.contains("/nonexistent/c.json"), "{err}");
}

#[test]
fn coverage_reports_rows_and_fails_when_incomplete() {
    let (code, out, _) = run(bin!().args(["generate", "--count", "3000", "--coverage"]));
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("type rows (100.0%), 66/66 operators"), "{out}");
    let (code, out, _) = run(bin!().args(["generate", "--count", "3", "--coverage"]));
    assert_eq!(code, 1, "three cases cannot reach every row: {out}");
    assert!(out.contains("CAST#"), "missing rows are named: {out}");
}

#[test]
fn check_spirv_val_counts_rejections() {
    if spvgraph_oracle::tools::Tools::discover().get(spvgraph_oracle::tools::Tool::SpirvVal).is_err() {
        assert!(!spvgraph_oracle::tools::Tools::required(), "CI=true and spirv-val is unavailable");
        eprintln!("skipping: spirv-val unavailable");
        return;
    }
    let (code, out, err) = run(bin!().args(["generate", "--seed", "1000", "--count", "40", "--check-spirv-val"]));
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("spirv-val (vulkan1.3): 0 of 40 module(s) rejected"), "{out}");
}
