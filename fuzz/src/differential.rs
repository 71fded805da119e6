//! The `differential` property: a generated case goes through every
//! in-process oracle of the registry (the in-tree validator, the binary
//! round-trip, the in-tree executor) and the one judgement
//! (`spvgraph_oracle::judge`) finds no disagreement that is not documented.
//!
//! The input drives the generator directly: its first byte picks a valid
//! (even) or near-valid (odd) case, the rest are the generator's choices
//! (as in `graph_validator`). spirv-val is left out: it runs in process
//! only when its shared library was built, which a fuzzing build does not
//! have, and its known disagreements are the hunt's business.
//!
//! A disagreement panics with its signature, so libFuzzer saves the input;
//! `spvgraph generate` cannot replay fuzzer bytes, but `cd fuzz && cargo
//! test` replays saved artifacts through this same function.
#![expect(clippy::panic, reason = "a property reports a violation by panicking: libFuzzer saves the input as a crash")]

use arbitrary::Unstructured;
use spvgraph_generator::near_valid::generate_near_valid;
use spvgraph_generator::{generate, Config};
use spvgraph_ir::env::TargetEnv;
use spvgraph_ir::Module;
use spvgraph_oracle::exec::ExecConfig;
use spvgraph_oracle::judge::{judge, Disagreement, DocumentedPolicy, Expectation, Observations, ValidityAnswer};
use spvgraph_oracle::oracle::{Executor as _, OwnedExecRequest, ValidateOptions, Validator as _};
use spvgraph_oracle::registry::InTree;

/// Small graphs: thousands of cases a second rather than tens.
fn config() -> Config {
    Config {
        max_graphs: 2,
        max_nodes: 8,
        max_rank: 4,
        max_dim: 8,
        max_tensor_elements: 4096,
        max_graph_elements: 65536,
        ..Config::default()
    }
}

/// The words, how they are expected to be judged, the options to validate
/// them with, and (valid cases) the request the executor runs.
struct Subject {
    words: Vec<u32>,
    expectation: Expectation,
    options: ValidateOptions,
    request: Option<OwnedExecRequest>,
}

fn subject(data: &[u8]) -> Option<Subject> {
    let (&first, rest) = data.split_first()?;
    let mut u = Unstructured::new(rest);
    let config = config();
    if first % 2 == 0 {
        let case = generate(&mut u, &config).ok()?;
        let words = case.module.encode_words().ok()?;
        let request = case.entry_points.first().map(|ep| OwnedExecRequest {
            module: words.clone(),
            entry_point: Some(ep.name.clone()),
            inputs: ep.inputs.iter().map(|t| t.data.clone()).collect(),
            graph_constants: case.graph_constants.clone(),
        });
        let options = ValidateOptions { target_env: TargetEnv::VULKAN_1_3, ..ValidateOptions::default() };
        Some(Subject { words, expectation: Expectation::Valid, options, request })
    } else {
        let nv = generate_near_valid(&mut u, &config, None).ok()?;
        let options = ValidateOptions::for_case(nv.target_env, nv.profiles.as_deref());
        let expectation = Expectation::Breaks { rule: nv.rule, mutator: Some(nv.mutator.to_string()) };
        Some(Subject { words: nv.words, expectation, options, request: None })
    }
}

/// Checks the property on one input; panics on a disagreement that is not documented.
pub fn check(data: &[u8]) {
    let Some(s) = subject(data) else { return };
    let mut found: Vec<Disagreement> = Vec::new();

    // Round-trip: a valid module must decode and re-encode to the same words;
    // a near-valid one may not decode (binary rules), but if it does it must
    // re-encode exactly.
    match Module::decode_words(&s.words) {
        Ok(m) => match m.encode_words() {
            Ok(again) if again == s.words => {}
            Ok(_) => panic!("round-trip: the module decodes but re-encodes to other words"),
            Err(e) => panic!("round-trip: the module decodes but does not encode: {e}"),
        },
        Err(e) => assert!(
            !matches!(s.expectation, Expectation::Valid),
            "round-trip: a generated valid module does not decode: {e}"
        ),
    }

    let oracle = InTree::new(ExecConfig::default());
    let verdict = oracle.validate(&s.words, &s.options);
    let reference = s.request.as_ref().map(|r| oracle.execute(&r.request()));
    let reference = match reference {
        Some(Ok(o)) => Some(o),
        Some(Err(e)) => panic!("the in-tree executor could not answer: {e}"),
        None => None,
    };
    let observations = Observations {
        validity: vec![ValidityAnswer { oracle: &oracle, verdict }],
        request: s.request.as_ref().map(|r| r.request()),
        reference,
        ..Observations::default()
    };
    found.extend(judge(&s.expectation, &observations));
    let findings: Vec<String> =
        found.iter().filter(|d| d.disposition(DocumentedPolicy::Known).counts()).map(describe).collect();
    assert!(findings.is_empty(), "undocumented disagreement(s): {}", findings.join("; "));
}

fn describe(d: &Disagreement) -> String {
    format!("{} ({})", d.signature().key(), d.detail.chars().take(300).collect::<String>())
}
