//! The observed form and the local form of generated graphs
//! (`spvgraph_ir::observe`): both stay valid for the in-tree validator and
//! for spirv-val, the observed form shows every operator result once (and
//! the original outputs unchanged, at their positions), and the local form
//! run on the values of the observed form gives those values back, every
//! operator on its own.

use spvgraph_generator::{generate_from_seed, Config};
use spvgraph_ir::analysis::{Analysis, Type};
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::observe::{local_form, observed_form, ObserveError};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::Module;
use spvgraph_oracle::exec::Executor;
use spvgraph_oracle::external::spirv_val::SpirvVal;
use spvgraph_oracle::oracle::Validator as _;
use spvgraph_oracle::oracle::{ValidateOptions, Verdict};
use spvgraph_oracle::tools::Tool;
use spvgraph_oracle::validate::Validator;
use std::collections::BTreeSet;

const SEEDS: u64 = 400;

fn spirv_val() -> Option<SpirvVal> {
    let lib = spvgraph_testkit::tool(Tool::LibSpirvTools)?;
    Some(SpirvVal::with_paths(Some(lib), None))
}

fn valid_in_tree(m: &Module) -> Result<(), String> {
    let report = Validator::new(ValidateOptions::default()).check(m);
    let errors: Vec<String> = report.errors().map(|f| format!("[{}] {}", f.rule, f.message)).collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.join("; "))
    }
}

/// Every value a TOSA instruction of `entry`'s graph computes that can be
/// an output (tensor results, and one extract per member of struct results).
fn computed_values(m: &Module, entry: &str) -> (usize, BTreeSet<(Id, Option<u32>)>) {
    let a = Analysis::new(m);
    let g = a
        .graph_entry_points
        .iter()
        .find_map(|&i| match m.insts.get(i) {
            Some(Inst::GraphEntryPoint { graph, name, .. }) if name == entry => Some(*graph),
            _ => None,
        })
        .expect("entry point");
    let view = a.graph(g).expect("graph");
    let mut out = BTreeSet::new();
    let mut nodes = 0;
    for &i in &view.body {
        if let Some(Inst::Tosa { ty, result, .. }) = m.insts.get(i) {
            nodes += 1;
            match a.ty(*ty) {
                Some(Type::Struct(members)) => out.extend((0..members.len() as u32).map(|k| (*result, Some(k)))),
                _ => {
                    out.insert((*result, None));
                }
            }
        }
    }
    (nodes, out)
}

#[test]
fn observed_and_local_forms_of_generated_graphs_are_valid_and_show_every_operator() {
    let spirv_val = spirv_val();
    let config = Config::default();
    let mut checked = 0;
    let mut added_outputs = 0;
    let mut struct_results = 0;
    let mut several_entry_points = 0;
    for seed in 0..SEEDS {
        let case = generate_from_seed(seed, &config);
        let k = (seed % case.entry_points.len().max(1) as u64) as usize;
        let Some(ep) = case.entry_points.get(k) else { continue };
        several_entry_points += usize::from(case.entry_points.len() > 1);
        let form = observed_form(&case.module, Some(&ep.name)).expect("observed form");
        assert_eq!(form.entry, ep.name);
        valid_in_tree(&form.module).unwrap_or_else(|e| panic!("seed {seed}: the observed form is invalid: {e}"));
        let words = form.module.encode_words().expect("encodes");
        if let Some(sv) = &spirv_val {
            let verdict = sv.validate(&words, &ValidateOptions::default()).expect("spirv-val answers");
            assert_eq!(verdict, Verdict::Valid, "seed {seed}: spirv-val rejects the observed form");
        }
        // Every operator result is an output exactly once more than it was
        // (none when it already was one), in the positions after the original ones.
        let (nodes, computed) = computed_values(&case.module, &ep.name);
        assert_eq!(form.operators(), nodes);
        let shown: Vec<(Id, Option<u32>)> = form.outputs.iter().filter_map(|o| o.node.map(|n| (n, o.member))).collect();
        let distinct: BTreeSet<(Id, Option<u32>)> = shown.iter().copied().collect();
        let unobserved: BTreeSet<Id> = form.not_observed.iter().map(|(v, _)| *v).collect();
        for c in &computed {
            assert!(distinct.contains(c) || unobserved.contains(&c.0), "seed {seed}: {c:?} is not observed");
        }
        let added: Vec<_> = form.outputs.iter().filter(|o| !o.original).collect();
        let added_values: BTreeSet<Id> = added.iter().map(|o| o.value).collect();
        assert_eq!(added_values.len(), added.len(), "seed {seed}: a value added twice");
        assert!(added.iter().all(|o| !form.outputs.iter().any(|p| p.original && p.value == o.value)));
        added_outputs += added.len();
        struct_results += added.iter().filter(|o| o.member.is_some()).count();
        // The in-tree executor: the original outputs unchanged, then the values.
        let inputs: Vec<TensorData> = ep.inputs.iter().map(|t| t.data.clone()).collect();
        let plain = Executor::default().run(&case.module, Some(&ep.name), &inputs, &case.graph_constants);
        let observed = Executor::default().run(&form.module, Some(&ep.name), &inputs, &case.graph_constants);
        let (Ok(plain), Ok(observed)) = (plain, observed) else { continue };
        assert_eq!(observed.len(), form.outputs.len());
        for (j, p) in plain.iter().enumerate() {
            assert_eq!(p.to_bits(), observed[j].to_bits(), "seed {seed}: output {j} changed");
        }
        // The local form on those values gives each operator's result back.
        let values = form.values(&observed).expect("one value per output");
        let local = match local_form(&case.module, Some(&ep.name), &BTreeSet::new()) {
            Ok(l) => l,
            Err(ObserveError::NoOperators) if nodes == 0 => continue,
            Err(e) => panic!("seed {seed}: no local form: {e}"),
        };
        valid_in_tree(&local.module).unwrap_or_else(|e| panic!("seed {seed}: the local form is invalid: {e}"));
        if let Some(sv) = &spirv_val {
            let w = local.module.encode_words().expect("encodes");
            let verdict = sv.validate(&w, &ValidateOptions::default()).expect("spirv-val answers");
            assert_eq!(verdict, Verdict::Valid, "seed {seed}: spirv-val rejects the local form");
        }
        let mut local_inputs = inputs.clone();
        for v in &local.operands {
            local_inputs.push(values.value(*v).cloned().expect("every operand observed"));
        }
        let again = Executor::default()
            .run(&local.module, Some(&local.entry), &local_inputs, &case.graph_constants)
            .unwrap_or_else(|e| panic!("seed {seed}: the local form does not run: {e}"));
        assert_eq!(again.len(), local.outputs.len());
        for (o, t) in local.outputs.iter().zip(&again) {
            let expected = match o.member {
                Some(k) => values.member(o.node, k),
                None => values.value(o.value),
            }
            .expect("observed");
            assert_eq!(expected.to_bits(), t.to_bits(), "seed {seed}: {} ({}) differs on its own", o.op, o.value);
        }
        checked += 1;
    }
    assert!(checked > SEEDS / 2, "only {checked} cases ran");
    assert!(added_outputs > 1000, "{added_outputs} outputs added");
    assert!(struct_results > 0, "no FFT result observed");
    assert!(several_entry_points > 0);
}

#[test]
fn a_value_already_an_output_is_not_set_again() {
    let m = spvgraph_ir::samples::elementwise_chain(3);
    let form = observed_form(&m, None).expect("observed form");
    let values: Vec<Id> = form.outputs.iter().map(|o| o.value).collect();
    let distinct: BTreeSet<Id> = values.iter().copied().collect();
    assert_eq!(values.len(), distinct.len());
    assert_eq!(form.outputs.iter().filter(|o| o.original).count(), form.original_outputs);
    assert!(form.outputs.len() > form.original_outputs, "the chain has intermediates");
    assert!(observed_form(&m, Some("no such entry")).is_err());
}
