//! A form that narrows a choice the specification leaves to the backend:
//! RESCALE with INEXACT_ROUND computed with SINGLE_ROUND.

use super::edit::{self, Case, Made};
use super::FormError;
use spvgraph_ir::analysis::Analysis;
use spvgraph_ir::decls;
use spvgraph_ir::inst::Inst;
use spvgraph_ir::tosa::TosaOp;

/// `rounding_mode_t` SINGLE_ROUND.
const SINGLE_ROUND: u32 = 1;
/// `rounding_mode_t` INEXACT_ROUND (EXT-INEXACTROUND).
const INEXACT_ROUND: u64 = 2;
/// RESCALE's operand that is its rounding mode.
const ROUNDING_MODE: usize = 1;

/// [`super::Form::SingleRound`]: every RESCALE of the graph with
/// INEXACT_ROUND rounds with SINGLE_ROUND instead. A SINGLE_ROUND result
/// lies inside the interval INEXACT_ROUND allows, so a backend's compliant
/// answer to this form is a compliant answer to the case; the reverse does
/// not hold, so its results are judged on their own, not bit for bit
/// against the case's. Backends without EXT-INEXACTROUND (IREE's TOSA
/// validation does not enable it) run the case in this form.
pub(super) fn single_round(mut case: Case) -> Result<Made, FormError> {
    let g = edit::graph_of(&case.module, &case.entry)?;
    let any = {
        let a = Analysis::new(&case.module);
        case.module.insts.iter().any(|i| inexact(&a, i))
    };
    if !any {
        return Err(FormError::NothingToChange);
    }
    let dead = edit::dead_before(&case.module);
    // Declared first: declaring shifts the graph's instructions.
    let single = decls::const_u32(&mut case.module, SINGLE_ROUND);
    let (begin, end) = edit::span(&case.module, g)?;
    let targets: Vec<usize> = {
        let a = Analysis::new(&case.module);
        (begin..end).filter(|&k| case.module.insts.get(k).is_some_and(|i| inexact(&a, i))).collect()
    };
    if targets.is_empty() {
        return Err(FormError::NothingToChange);
    }
    for k in targets {
        if let Some(Inst::Tosa { args, .. }) = case.module.insts.get_mut(k) {
            if let Some(mode) = args.get_mut(ROUNDING_MODE) {
                *mode = single;
            }
        }
    }
    edit::tidy(&mut case.module, &dead);
    Made::one(case)
}

/// Whether `inst` is a RESCALE with INEXACT_ROUND.
fn inexact(a: &Analysis<'_>, inst: &Inst) -> bool {
    match inst {
        Inst::Tosa { op: TosaOp::Rescale, args, .. } => {
            args.get(ROUNDING_MODE).and_then(|&m| a.const_uint(m)) == Some(INEXACT_ROUND)
        }
        _ => false,
    }
}
