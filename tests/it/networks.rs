//! The real networks of `corpus/networks/`: `spvgraph diff` takes a network
//! file as it is (no flags: the fixed inputs from its manifest, the
//! producer's graph constants), INT8 graphs run on model-converter's real
//! constants, and the library loads every network as a module with its data.

use spvgraph::networks::{self, Network};
use spvgraph_oracle::exec::Executor;
use spvgraph_oracle::external::model_converter::ModelConverter;
use spvgraph_oracle::oracle::ExecOutcome;
use spvgraph_oracle::tools::Tool;
use spvgraph_testkit::{bin, scratch};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

fn run(cmd: &mut Command) -> (i32, String, String) {
    let Output { status, stdout, stderr } = cmd.output().expect("run spvgraph");
    (status.code().unwrap_or(-1), String::from_utf8_lossy(&stdout).into(), String::from_utf8_lossy(&stderr).into())
}

/// The INT8 network with the smallest flatbuffer.
fn smallest_int8() -> Network {
    let nets = networks::list(&corpus(), None).expect("list the networks");
    nets.into_iter()
        .filter(|n| n.manifest.precision == "int8")
        .min_by_key(|n| std::fs::metadata(n.file()).map(|m| m.len()).unwrap_or(u64::MAX))
        .expect("an INT8 network in corpus/networks")
}

/// The tools a network needs: tosa-opt to read it, model-converter to make
/// the module, the reference model as referee.
fn tools_present() -> bool {
    [Tool::TosaOpt, Tool::ModelConverter, Tool::VgfDump, Tool::TosaReferenceModel]
        .into_iter()
        .all(|t| spvgraph_testkit::tool(t).is_some())
}

#[test]
fn every_committed_network_has_its_files_and_a_manifest_that_reads() {
    let nets = networks::list(&corpus(), None).unwrap();
    // Ten architectures or more, each in FP32 and INT8 (the Arm quantizer
    // takes every one of them).
    let names: std::collections::BTreeSet<&str> = nets.iter().map(|n| n.manifest.network.as_str()).collect();
    assert!(names.len() >= 10, "ten networks expected, found {names:?}");
    for name in &names {
        for precision in ["fp32", "int8"] {
            assert!(
                nets.iter().any(|n| n.manifest.network == *name && n.manifest.precision == precision),
                "{name} has no {precision} variant"
            );
        }
    }
    let families: std::collections::BTreeSet<&str> = nets.iter().map(|n| n.manifest.family.as_str()).collect();
    for family in ["cnn", "segmentation", "detection", "attention", "sequence"] {
        assert!(families.contains(family), "no {family} network: {families:?}");
    }
    // The folder stays small enough for the repository.
    let bytes: u64 = std::fs::read_dir(corpus().join(networks::FOLDER))
        .unwrap()
        .flatten()
        .filter_map(|e| e.metadata().ok())
        .map(|m| m.len())
        .sum();
    assert!(bytes < 10 << 20, "corpus/networks holds {bytes} bytes");
    for n in &nets {
        assert!(n.file().is_file(), "{}: no {}", n.manifest.name, n.file().display());
        let inputs = n.inputs().unwrap();
        assert_eq!(inputs.len(), n.manifest.inputs.len());
        let expected = n.expected().unwrap();
        assert!(!expected.is_empty(), "{}: no expected outputs", n.manifest.name);
        for (t, f) in expected.iter().zip(&n.manifest.expected) {
            let shape: Vec<usize> = f.shape.iter().map(|&d| d as usize).collect();
            assert_eq!(t.shape(), shape.as_slice(), "{}: {}", n.manifest.name, f.file);
        }
        assert!(n.manifest.operators > 0, "{}", n.manifest.name);
        assert!(matches!(n.manifest.precision.as_str(), "fp32" | "int8"), "{}", n.manifest.name);
        // The flatbuffer decompresses, and is a TOSA flatbuffer (file identifier "TOSA").
        let fb = networks::read_decompressed(&n.file()).unwrap();
        assert_eq!(fb.get(4..8), Some(b"TOSA".as_slice()), "{}", n.manifest.name);
    }
}

#[test]
fn the_smallest_int8_network_agrees_through_every_oracle_with_no_flags() {
    if !tools_present() {
        return;
    }
    let net = smallest_int8();
    let (code, out, err) =
        run(bin!().arg("diff").arg(net.file()).args(["--oracles", "in-tree,tosa-ref,model-converter"]));
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("every oracle agrees"), "{out}");
    assert!(out.contains("the network's fixed inputs"), "inputs from the manifest: {out}");
    // The in-tree executor's int8 outputs on the producer's constants are
    // the reference model's on the flatbuffer, bit for bit.
    assert!(out.contains("expected output (tosa_reference_model on the flatbuffer): identical"), "{out}");
    let judged = out.lines().find(|l| l.contains("judged: tosa-ref")).unwrap_or_default();
    assert!(judged.contains("each on its own"), "every operator judged: {out}");
}

#[test]
fn int8_mlir_takes_the_producers_constants_with_inputs_given_or_drawn() {
    let (true, Some(opt)) = (tools_present(), spvgraph_testkit::tool(Tool::TosaOpt)) else { return };
    let net = smallest_int8();
    let dir = scratch("int8-mlir");
    let mlir = dir.join("net.mlir");
    std::fs::write(&mlir, networks::mlir_of(&net.file(), Some(&opt)).unwrap()).unwrap();
    // An input file and no --graph-constant: the producer's constants are used.
    let input = net.dir.join(&net.manifest.inputs[0].file);
    let (code, out, err) =
        run(bin!().arg("diff").arg(&mlir).args(["--oracles", "in-tree,model-converter", "--input"]).arg(&input));
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("every oracle agrees") && out.contains("from --input"), "{out}");
    // No input at all: drawn, and checked for definedness against the real
    // constants (random RESCALE shifts used to leave no defined input).
    let (code, out, err) = run(bin!().arg("diff").arg(&mlir).args(["--oracles", "in-tree,model-converter"]));
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("generated (1 attempt(s)"), "{out}");
}

#[test]
fn the_loader_gives_each_network_as_a_module_with_its_data() {
    let (true, Some(opt)) = (tools_present(), spvgraph_testkit::tool(Tool::TosaOpt)) else { return };
    let producer = ModelConverter::discover();
    let net = smallest_int8();
    let filter = net.case_name();
    let loaded = networks::load(&corpus(), Some(&filter), &producer, Some(&opt)).unwrap();
    assert_eq!(loaded.len(), 1);
    let (name, loaded) = &loaded[0];
    let loaded = loaded.as_ref().unwrap_or_else(|e| panic!("{name}: {e:#}"));
    assert_eq!(name, &net.manifest.name);
    // The module is the request's, and running it on its data gives the
    // expected outputs (INT8: bit-exact).
    assert_eq!(loaded.module.encode_words().unwrap(), loaded.request.module);
    assert!(!loaded.request.graph_constants.is_empty(), "the weights are graph constants");
    let ExecOutcome::Outputs(outs) = Executor::default().execute(&loaded.request.request()).unwrap() else {
        panic!("the in-tree executor ran it")
    };
    assert_eq!(outs.len(), loaded.expected.len());
    for (got, want) in outs.iter().zip(&loaded.expected) {
        assert_eq!(Some(got), want.as_ref());
    }
}

#[test]
fn a_short_networks_hunt_judges_neighbours_of_a_corpus_network_at_every_operator() {
    if !tools_present() {
        return;
    }
    let net = smallest_int8();
    let dir = scratch("networks-hunt");
    // Every case to the referee (no guided pick), so each one is judged.
    let (code, out, err) = run(bin!()
        .args(["hunt", "--profile", "networks", "--networks"])
        .arg(net.case_name())
        .arg("--corpus")
        .arg(corpus())
        .args(["--count", "12", "--seed", "3", "--oracles", "in-tree,tosa-ref", "--sample", "tosa-ref=1"])
        .args(["--no-reduce", "--neighbours", "0", "--quiet", "--json", "--out"])
        .arg(&dir));
    assert!(code == 0 || code == 1, "{out}{err}");
    let summary: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    assert_eq!(summary["valid"], 12, "every case a valid neighbour: {summary}");
    assert_eq!(summary["near_valid"], 0);
    // Every case is a neighbour of the one network, of more than one kind.
    let kinds = summary["networks"][&net.manifest.name].as_object().unwrap_or_else(|| panic!("{summary}"));
    assert_eq!(kinds.values().filter_map(|n| n.as_u64()).sum::<u64>(), 12, "{kinds:?}");
    assert!(kinds.len() >= 2, "one kind of change only: {kinds:?}");
    // The referee ran them, and judged the network's operators one by one.
    let judged = &summary["judged"]["backends"]["tosa-ref"];
    assert_eq!(judged["cases_run"], 12, "{judged}");
    assert!(judged["cases_judged_at_every_operator"].as_u64().unwrap_or(0) >= 6, "{judged}");
    assert!(judged["operators_judged"].as_u64().unwrap_or(0) >= 6 * 10, "{judged}");
    // The same seed makes the same cases: a second hunt's summary says so.
    let again = scratch("networks-hunt-again");
    let (_, out2, _) = run(bin!()
        .args(["hunt", "--profile", "networks", "--networks"])
        .arg(net.case_name())
        .arg("--corpus")
        .arg(corpus())
        .args(["--count", "12", "--seed", "3", "--oracles", "in-tree", "--no-reduce", "--quiet", "--json", "--out"])
        .arg(&again));
    let summary2: serde_json::Value = serde_json::from_str(&out2).unwrap_or_else(|e| panic!("{e}: {out2}"));
    assert_eq!(summary2["networks"], summary["networks"]);
}

#[test]
fn networks_is_a_profile_of_its_own_and_needs_its_networks() {
    // --networks without the profile is a usage error, as is a filter that matches nothing.
    let (code, _, err) = run(bin!().args(["hunt", "--count", "1", "--networks", "networks/x"]));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--profile networks"), "{err}");
    if !tools_present() {
        return;
    }
    let dir = scratch("networks-none");
    let (code, _, err) = run(bin!()
        .args(["hunt", "--profile", "networks", "--networks", "networks/no-such-net", "--corpus"])
        .arg(corpus())
        .args(["--count", "1", "--oracles", "in-tree", "--out"])
        .arg(&dir));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no network"), "{err}");
}
