//! The TOSA MLIR a translating backend (the reference model, IREE) runs in
//! place of a SPIR-V module.

use crate::oracle::{ExecOutcome, OracleError, Refusal};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::Module;
use std::collections::BTreeMap;

/// The TOSA MLIR of `entry` in `module`, or, when the module has none (it is
/// invalid, or uses what TOSA cannot express), the [`Refusal::Unsupported`]
/// answer a translating backend gives: it cannot run what it cannot be
/// handed, and that is no finding. Data that does not fit the module's graph
/// constants, or an entry point it lacks, is the caller's mistake: an error.
pub fn tosa_mlir_or_unsupported(
    oracle: &str,
    module: &Module,
    entry: &str,
    graph_constants: &BTreeMap<u32, TensorData>,
) -> Result<Result<String, ExecOutcome>, OracleError> {
    match spvgraph_ir::mlir::module_to_mlir(module, entry, graph_constants) {
        Ok(mlir) => Ok(Ok(mlir)),
        Err(e) if e.kind.is_request_mismatch() => {
            Err(OracleError::Failed { oracle: oracle.to_string(), reason: format!("entry point {entry:?}: {e}") })
        }
        Err(e) => Ok(Err(ExecOutcome::Refused {
            kind: Refusal::Unsupported,
            reason: format!("entry point {entry:?} has no TOSA MLIR form: {e}"),
        })),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use spvgraph_ir::builder::ModuleBuilder;
    use spvgraph_ir::elem::ElemType;
    use spvgraph_ir::tosa::TosaOp;

    /// `ABS(x)` on `shape` (`None`: unshaped), plus a graph constant added to it when `constant`.
    fn graph(shape: Option<&[u32]>, constant: bool) -> Module {
        let mut b = ModuleBuilder::new();
        let t = b.type_tensor(ElemType::I32, shape);
        let gty = b.type_graph(&[t], &[t]);
        let vars = vec![b.interface_variable(t, 0, 0), b.interface_variable(t, 0, 1)];
        let c = constant.then(|| b.graph_constant(t, 7));
        let g = b.begin_graph(gty);
        b.graph_entry_point(g, "main", vars);
        let x = b.graph_input(t, 0, None);
        let mut y = b.tosa(TosaOp::Abs, t, vec![x]);
        if let Some(c) = c {
            y = b.tosa(TosaOp::Add, t, vec![y, c]);
        }
        b.graph_output(y, 0, None);
        b.end_graph();
        b.finish()
    }

    #[test]
    fn a_module_without_a_tosa_form_is_unsupported_not_an_error() {
        let m = graph(None, false);
        match tosa_mlir_or_unsupported("backend", &m, "main", &BTreeMap::new()) {
            Ok(Err(ExecOutcome::Refused { kind: Refusal::Unsupported, reason })) => {
                assert!(reason.contains("no TOSA MLIR form") && reason.contains("unshaped"), "{reason}");
            }
            other => panic!("expected an unsupported refusal, got {other:?}"),
        }
        let printable = graph(Some(&[4]), false);
        assert!(matches!(tosa_mlir_or_unsupported("backend", &printable, "main", &BTreeMap::new()), Ok(Ok(_))));
    }

    #[test]
    fn data_that_does_not_fit_the_module_is_the_callers_error() {
        let m = graph(Some(&[4]), true);
        let missing = tosa_mlir_or_unsupported("backend", &m, "main", &BTreeMap::new());
        assert!(matches!(&missing, Err(OracleError::Failed { reason, .. }) if reason.contains("GraphConstantID 7")));
        let wrong = BTreeMap::from([(7, TensorData::zeros(ElemType::Fp16, &[4]))]);
        assert!(matches!(tosa_mlir_or_unsupported("backend", &m, "main", &wrong), Err(OracleError::Failed { .. })));
        let right = BTreeMap::from([(7, TensorData::zeros(ElemType::I32, &[4]))]);
        assert!(matches!(tosa_mlir_or_unsupported("backend", &m, "main", &right), Ok(Ok(_))));
        assert!(matches!(tosa_mlir_or_unsupported("backend", &m, "other", &right), Err(OracleError::Failed { .. })));
    }
}
