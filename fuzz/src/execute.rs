//! The `execute` property: the reference executor is total, bounded and
//! deterministic on whatever module it is handed.
//!
//! The input is read as a SPIR-V module (the seeds are valid graph modules;
//! libFuzzer mutates them into anything). When it decodes and its first
//! graph has an interface the executor can describe, the graph runs on
//! inputs and graph constants filled from a PRNG seeded by the input bytes,
//! with a memory budget of [`BUDGET`] bytes. Then:
//! - the executor returns (an error is fine; a panic is the bug);
//! - with the counting allocator installed (the fuzz target does), the heap
//!   it holds stays within the budget it was given: the estimate it checks
//!   before running is documented as an upper bound;
//! - a second run on the same request gives the same outputs, bit for bit,
//!   or the same error.

use spvgraph_generator::prng::SplitMix64;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::Module;
use spvgraph_oracle::exec::{self, ExecConfig, Executor, Port};
use std::collections::BTreeMap;

/// The memory budget the executor runs under: small, so the fuzzer reaches
/// the over-budget refusals and the graphs that just fit.
pub const BUDGET: u64 = 64 << 20;

/// Heap the executor may use beyond its estimate for bookkeeping (the
/// analysis of the module, error strings, rayon's per-thread state).
const SLACK: usize = 8 << 20;

/// A tensor of `port`'s type filled from `rng` (any bit pattern: NaNs,
/// infinities and subnormals included), or `None` when it is too large to
/// fill (the executor refuses such requests by its budget anyway).
fn filled(port: &Port, rng: &mut SplitMix64) -> Option<TensorData> {
    let n = port.shape.iter().try_fold(1usize, |acc, &d| acc.checked_mul(d))?;
    if n > (BUDGET as usize) / 8 {
        return None;
    }
    let width = port.elem.storage_bits();
    let mask = if width >= 64 { u64::MAX } else { (1u64 << width) - 1 };
    let bits: Vec<u64> = (0..n).map(|_| rng.next_u64() & mask).collect();
    TensorData::from_bits(port.elem, &port.shape, &bits).ok()
}

/// What the determinism check compares: each output's type, shape and
/// bits, or the error's text.
type Digest = Result<Vec<(String, Vec<usize>, Vec<u64>)>, String>;

/// A digest of a run for the determinism check.
fn digest(r: &Result<exec::Outputs, exec::ExecError>) -> Digest {
    match r {
        Ok(outs) => Ok(outs.iter().map(|t| (t.elem().to_string(), t.shape().to_vec(), t.to_bits())).collect()),
        Err(e) => Err(e.to_string()),
    }
}

/// Checks the property on one input; panics on a violation.
pub fn check(data: &[u8]) {
    let Ok(module) = Module::decode_bytes(data) else { return };
    let Ok(iface) = exec::interface(&module, None) else { return };
    let mut rng = SplitMix64::new(spvgraph_oracle::judge::fnv1a(data));
    let mut inputs = Vec::new();
    for p in &iface.inputs {
        let Some(t) = filled(p, &mut rng) else { return };
        inputs.push(t);
    }
    let mut constants = BTreeMap::new();
    for p in &iface.graph_constants {
        let Some(t) = filled(p, &mut rng) else { return };
        constants.insert(p.index, t);
    }
    let executor = Executor::new(ExecConfig { memory_budget_bytes: BUDGET, ..ExecConfig::default() });
    let entry = iface.entry_point.as_deref();
    let (first, peak) = crate::meter::peak_during(|| executor.run(&module, entry, &inputs, &constants));
    if crate::meter::installed() {
        assert!(
            peak <= BUDGET as usize + SLACK,
            "the executor held {peak} bytes of heap under a budget of {BUDGET} (+{SLACK} slack): {}",
            match &first {
                Ok(_) => "the run succeeded".to_string(),
                Err(e) => format!("the run failed: {e}"),
            }
        );
    }
    let second = executor.run(&module, entry, &inputs, &constants);
    let (a, b) = (digest(&first), digest(&second));
    assert!(a == b, "two runs of the same request differ: {:?} vs {:?}", short(&a), short(&b));
}

/// The start of a digest, for a readable panic message.
fn short(d: &Digest) -> String {
    let s = format!("{d:?}");
    s.chars().take(400).collect()
}
