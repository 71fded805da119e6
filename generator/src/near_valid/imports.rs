//! Mutators for `imports.version`: a versioned instruction-set import
//! naming a version that does not exist.

use super::{no_bias, Edit, Mutator};
use spvgraph_ir::inst::{Inst, TOSA_SET_NAME};
use spvgraph_ir::rules::RuleId;

/// The mutators of this category.
pub(super) fn mutators() -> Vec<Mutator> {
    vec![
        Mutator { rule: RuleId::ImportsVersion, name: "tosa-set-version", bias: no_bias, apply: tosa_set_version },
        Mutator {
            rule: RuleId::ImportsVersion,
            name: "arm-ml-operations-version",
            bias: no_bias,
            apply: arm_ml_operations_version,
        },
    ]
}

/// The TOSA import names another TOSA version or set revision (or does not
/// follow the naming convention). Its instructions then belong to a set no
/// consumer knows: they decode as plain `OpExtInst`, which a graph body may
/// hold, so nothing else breaks.
fn tosa_set_version(e: &mut Edit) -> Option<()> {
    let imports = e.indices(|i| matches!(i, Inst::ExtInstImport { name, .. } if name == TOSA_SET_NAME));
    let at = e.choose(&imports)?;
    let other = [
        "TOSA.001000.2",
        "TOSA.001000.0",
        "TOSA.001001.1",
        "TOSA.002000.1",
        "TOSA.000080.1",
        "TOSA.1000.1",
        "TOSA.001000.01",
        "TOSA.001000",
        "TOSA.",
    ];
    let name = e.choose(&other)?;
    let Some(Inst::ExtInstImport { name: n, .. }) = e.module.insts.get_mut(at) else { return None };
    *n = name.to_string();
    e.note(format!("TOSA.001000.1 imported as \"{name}\""));
    Some(())
}

/// A new, unused import of Arm.ExperimentalMLOperations with a version
/// that is not an integer from 1 to the set's revision (1).
fn arm_ml_operations_version(e: &mut Edit) -> Option<()> {
    let at = e.module.insts.iter().rposition(|i| matches!(i, Inst::ExtInstImport { .. }))? + 1;
    let bad = ["0", "2", "10", "", "1a", "1.0", "+1", " 1", "-1", "4294967297"];
    let version = e.choose(&bad)?;
    let result = e.fresh_id();
    e.insert(at, Inst::ExtInstImport { result, name: format!("Arm.ExperimentalMLOperations.{version}") });
    e.note(format!("unused import %{} of Arm.ExperimentalMLOperations version \"{version}\"", result.0));
    Some(())
}
