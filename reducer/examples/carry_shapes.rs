//! What the carry-shapes pass adds to a reduction: every per-operator case
//! of `corpus/valid` (`op-*.spv`) reduced with a planted fault in its
//! operator (interesting: the in-tree validator accepts it and it still has
//! a node of that operator), once with every pass and once without
//! carry-shapes; the total bytes and graph-input elements before and after
//! (a measurement, not a test):
//! `cargo run -p spvgraph-reducer --release --example carry_shapes [EVERY]`
//! (every EVERY-th case, default 1).
#![allow(clippy::print_stdout, reason = "a measurement prints its figures")]

use spvgraph_ir::analysis::{Analysis, Type};
use spvgraph_ir::inst::Inst;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::Module;
use spvgraph_oracle::oracle::ValidateOptions;
use spvgraph_oracle::validate::Validator;
use spvgraph_reducer::{Candidate, Reducer};
use std::path::{Path, PathBuf};

/// Elements over every graph input (tensor arrays by element).
fn input_elements(m: &Module) -> u64 {
    let a = Analysis::new(m);
    let mut n = 0;
    for g in &a.graphs {
        let Some(Type::Graph { inputs, .. }) = a.ty(g.ty) else { continue };
        for t in inputs {
            let (t, count) = match a.ty(t) {
                Some(Type::Array { element, length: Some(l) }) => (element, l),
                _ => (t, 1),
            };
            let shape = a.tensor_type(t).and_then(|t| t.shape).unwrap_or_default();
            n += count * shape.iter().product::<u64>();
        }
    }
    n
}

fn first_op(m: &Module) -> Option<TosaOp> {
    m.insts.iter().find_map(|i| if let Inst::Tosa { op, .. } = i { Some(*op) } else { None })
}

fn main() -> std::io::Result<()> {
    let every: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(1).max(1);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/valid");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)?
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| {
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            name.starts_with("op-") && name.ends_with(".spv")
        })
        .collect();
    files.sort();
    let validator = Validator::new(ValidateOptions::default());
    let all = Reducer::new().pass_names();
    let without: Vec<&str> = all.iter().copied().filter(|n| *n != "carry-shapes").collect();
    let (mut cases, mut smaller) = (0, 0);
    let mut totals = [[0u64; 2]; 3]; // [original, without, with] x [bytes, elements]
    for f in files.into_iter().step_by(every) {
        let Ok(module) = Module::decode_bytes(&std::fs::read(&f)?) else { continue };
        let Some(op) = first_op(&module) else { continue };
        let interesting = |c: &Candidate| {
            c.module.insts.iter().any(|i| matches!(i, Inst::Tosa { op: o, .. } if *o == op))
                && validator.rule(&c.module).is_valid()
        };
        if !interesting(&Candidate::new(module.clone())) {
            continue;
        }
        let reduce = |names: &[&str]| {
            Reducer::new().jobs(1).only_passes(names).run(Candidate::new(module.clone()), interesting).ok()
        };
        let (Some(a), Some(b)) = (reduce(&without), reduce(&all)) else { continue };
        let size = |m: &Module| [m.encode_bytes().map_or(0, |b| b.len() as u64), input_elements(m)];
        let sizes = [size(&module), size(&a.candidate.module), size(&b.candidate.module)];
        for (t, s) in totals.iter_mut().zip(sizes) {
            t[0] += s[0];
            t[1] += s[1];
        }
        cases += 1;
        if sizes[2] < sizes[1] {
            smaller += 1;
            println!(
                "{}: without carry-shapes {:?}, with {:?} (bytes, input elements)",
                f.display(),
                sizes[1],
                sizes[2]
            );
        }
    }
    println!(
        "{cases} cases: original {:?}, reduced without carry-shapes {:?}, with {:?} (bytes, input elements)",
        totals[0], totals[1], totals[2]
    );
    println!("{smaller} cases smaller with carry-shapes");
    Ok(())
}
