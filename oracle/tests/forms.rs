//! Every equivalent form (`spvgraph_oracle::forms`) of generated valid
//! cases: the rewritten modules are valid (the in-tree validator, which
//! `forms::apply` runs, and spirv-val), and the in-tree executor computes
//! the same bits from them as from the case. Each form must apply to some
//! of the cases, so that the test says something about every one.
//!
//! `FORMS_SEEDS` sets the number of generated cases (default 400).

use spvgraph_generator::{generate_from_seed, Config};
use spvgraph_oracle::exec::Executor;
use spvgraph_oracle::external::spirv_val::SpirvVal;
use spvgraph_oracle::forms::run::run_form;
use spvgraph_oracle::forms::{apply, rescue, Form, FormError};
use spvgraph_oracle::oracle::{runnable, ExecOutcome, Oracle, OwnedExecRequest, ValidateOptions, Verdict};
use std::collections::BTreeMap;

fn seeds() -> u64 {
    std::env::var("FORMS_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(400)
}

/// The request of generated case `seed` (its first entry point).
fn request(seed: u64, config: &Config) -> Option<OwnedExecRequest> {
    let case = generate_from_seed(seed, config);
    let ep = case.entry_points.first()?;
    Some(OwnedExecRequest {
        module: case.module.encode_words().ok()?,
        entry_point: Some(ep.name.clone()),
        inputs: ep.inputs.iter().map(|t| t.data.clone()).collect(),
        graph_constants: case.graph_constants.clone(),
    })
}

fn same_bits(a: &ExecOutcome, b: &ExecOutcome) -> bool {
    match (a, b) {
        (ExecOutcome::Outputs(x), ExecOutcome::Outputs(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|(p, q)| p.elem() == q.elem() && p.shape() == q.shape() && p.to_bits() == q.to_bits())
        }
        _ => false,
    }
}

#[test]
fn every_form_is_valid_and_computes_the_same_bits() {
    let spirv_val = runnable(SpirvVal::discover()).unwrap_or_else(|e| panic!("CI=true and {e}"));
    let config = Config::default();
    let executor = Executor::default();
    let mut applied: BTreeMap<Form, u64> = Form::ALL.iter().map(|f| (*f, 0)).collect();
    let mut failures = Vec::new();
    let mut rescued = 0;
    for seed in 0..seeds() {
        let Some(req) = request(seed, &config) else { continue };
        let Ok(plain @ ExecOutcome::Outputs(_)) = executor.execute(&req.request()) else { continue };
        for form in Form::ALL {
            let r = match apply(form, &req) {
                Ok(r) => r,
                Err(FormError::NothingToChange | FormError::NotApplicable(_)) => continue,
                Err(e) => {
                    failures.push(format!("seed {seed}, {form}: {e}"));
                    continue;
                }
            };
            *applied.entry(form).or_default() += 1;
            if let Some(sv) = &spirv_val {
                for (k, stage) in r.stages.iter().enumerate() {
                    match sv.validate(&stage.request.module, &ValidateOptions::default()) {
                        Ok(Verdict::Valid) => {}
                        other => failures.push(format!("seed {seed}, {form}, stage {k}: spirv-val: {other:?}")),
                    }
                }
            }
            match run_form(&executor, &r) {
                Ok(o) if same_bits(&o, &plain) => {}
                other => failures.push(format!("seed {seed}, {form}: the executor gives {other:?}")),
            }
        }
        if let Some(r) = rescue(&req) {
            rescued += 1;
            match run_form(&executor, &r) {
                Ok(o) if same_bits(&o, &plain) => {}
                other => failures.push(format!("seed {seed}, rescue {}: the executor gives {other:?}", r.label())),
            }
        }
    }
    eprintln!("cases per form: {applied:?}; rescue forms: {rescued}");
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    let never: Vec<&Form> = applied.iter().filter(|(_, n)| **n == 0).map(|(f, _)| f).collect();
    assert!(never.is_empty(), "forms that applied to none of the cases: {never:?}");
}
