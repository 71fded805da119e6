//! Tensor constants fed to nodes (data leaves, zero points, weights, graph
//! constants) become `OpConstantNull`, or a replicate of their first element.

use super::{pick, Level, Pass};
use crate::candidate::Candidate;
use crate::decls;
use crate::graph::{self, Baseline};
use spvgraph_ir::analysis::Analysis;
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::tosa::Form;
use std::collections::HashMap;

/// Replaces tensor constants by null (or replicated) ones.
pub struct SimplifyConstants {
    /// Replicate the first element instead of writing null.
    pub replicate: bool,
}

/// Tensor constants read as node operands (attribute arrays excluded: the
/// attribute pass owns them), each once, with their type.
fn constants(c: &Candidate, replicate: bool) -> Vec<(Id, Id)> {
    let a = Analysis::new(&c.module);
    let mut out: Vec<(Id, Id)> = Vec::new();
    for g in &a.graphs {
        for &i in &g.body {
            let Some(Inst::Tosa { op, args, .. }) = c.module.insts.get(i) else { continue };
            let spec = op.spec();
            for (k, &v) in args.iter().enumerate() {
                if !matches!(spec.operand(k).map(|o| o.form), Some(Form::Tensor { .. } | Form::ConstTensor { .. })) {
                    continue;
                }
                let offered = match a.def(v) {
                    Some(Inst::ConstantComposite { spec: false, .. }) => true,
                    Some(Inst::GraphConstant { .. } | Inst::ConstantCompositeReplicate { spec: false, .. }) => {
                        !replicate
                    }
                    _ => false,
                };
                let Some(ty) = a.type_of(v) else { continue };
                if offered && a.tensor_type(ty).is_some() && !out.iter().any(|(x, _)| *x == v) {
                    out.push((v, ty));
                }
            }
        }
    }
    out
}

/// The first scalar constituent of a (nested) composite constant.
fn first_scalar(a: &Analysis<'_>, v: Id) -> Option<Id> {
    let mut at = v;
    for _ in 0..16 {
        match a.def(at)? {
            Inst::ConstantComposite { constituents, .. } => at = *constituents.first()?,
            Inst::ConstantCompositeReplicate { constituent, .. } => at = *constituent,
            Inst::Constant { .. } | Inst::ConstantTrue { .. } | Inst::ConstantFalse { .. } => return Some(at),
            _ => return None,
        }
    }
    None
}

impl Pass for SimplifyConstants {
    fn name(&self) -> &'static str {
        if self.replicate {
            "replicate-constants"
        } else {
            "null-constants"
        }
    }
    fn level(&self) -> Level {
        Level::Value
    }
    fn atoms(&self, c: &Candidate) -> usize {
        constants(c, self.replicate).len()
    }
    fn apply(&self, c: &Candidate, chosen: &[usize]) -> Option<Candidate> {
        let chosen = pick(&constants(c, self.replicate), chosen);
        let base = Baseline::of(c);
        let mut out = c.clone();
        let mut map: HashMap<Id, Id> = HashMap::new();
        for (v, ty) in chosen {
            let to = if self.replicate {
                let s = first_scalar(&Analysis::new(&out.module), v)?;
                decls::replicate(&mut out.module, ty, s)
            } else {
                decls::null(&mut out.module, ty)
            };
            map.insert(v, to);
        }
        for inst in &mut out.module.insts {
            if let Inst::Tosa { args, .. } = inst {
                for a in args.iter_mut() {
                    if let Some(&to) = map.get(a) {
                        *a = to;
                    }
                }
            }
        }
        graph::finish(&mut out, &base)?;
        Some(out)
    }
}
