//! Versioned extended-instruction-set imports (`imports.version`): a
//! `TOSA.*` import must be the one published set, `TOSA.001000.1`, and
//! `Arm.ExperimentalMLOperations.<ver>` must name a version from 1 to the
//! set's revision. (`NonSemantic.Graph.DebugInfo.<ver>` is
//! `debuginfo.version`, checked with the DebugInfo rules.)

use super::context::Cx;
use spvgraph_ir::inst::{Inst, TOSA_SET_NAME};
use spvgraph_ir::rules::RuleId;

/// Prefix of every TOSA instruction set name (`TOSA.<major><minor>.<revision>`).
const TOSA_PREFIX: &str = "TOSA.";
/// Import name prefix of Arm.ExperimentalMLOperations (a version follows).
pub const ARM_ML_PREFIX: &str = "Arm.ExperimentalMLOperations.";
/// The revision of Arm.ExperimentalMLOperations (SPIRV-Headers' grammar).
const ARM_ML_REVISION: u64 = 1;

/// The version an import name ends with: an integer in decimal digits
/// (leading zeros allowed), as the sets' '2. Version' sections ask. `None`
/// for anything else: empty, a sign, spaces, other characters, or a value
/// too large for any version (no wrapping: SPIRV-Tools main reads
/// "4294967297" as 1 through a 32-bit truncation, which is its bug).
pub fn set_version(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse::<u64>().ok()
}

/// Runs the import-version checks.
pub fn check(cx: &mut Cx<'_>) {
    let insts = cx.insts;
    let list = std::mem::take(&mut cx.lists.imports);
    for &i in &list {
        let Some(Inst::ExtInstImport { name, .. }) = insts.get(i) else { continue };
        if name.starts_with(TOSA_PREFIX) && name != TOSA_SET_NAME {
            cx.at(
                i,
                RuleId::ImportsVersion,
                format_args!(
                    "\"{name}\" is not a published TOSA instruction set: TOSA.001000.1 (TOSA 1.0, revision 1) is the only one"
                ),
            );
        } else if let Some(ver) = name.strip_prefix(ARM_ML_PREFIX) {
            if !set_version(ver).is_some_and(|v| (1..=ARM_ML_REVISION).contains(&v)) {
                cx.at(
                    i,
                    RuleId::ImportsVersion,
                    format_args!(
                        "Arm.ExperimentalMLOperations version \"{ver}\" is not an integer from 1 to {ARM_ML_REVISION}"
                    ),
                );
            }
        }
    }
    cx.lists.imports = list;
}

#[cfg(test)]
mod tests {
    use super::set_version;

    #[test]
    fn versions_are_decimal_digits_without_wrapping() {
        assert_eq!(set_version("1"), Some(1));
        assert_eq!(set_version("01"), Some(1));
        assert_eq!(set_version("4294967297"), Some(4_294_967_297));
        for bad in ["", "+1", "-1", " 1", "1 ", "1.0", "1a", "x", "99999999999999999999999"] {
            assert_eq!(set_version(bad), None, "{bad:?}");
        }
    }
}
