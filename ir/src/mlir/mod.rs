//! TOSA MLIR text for one graph of a module, for MLIR-based tools
//! (`tosa-opt`, `model-converter`, the TOSA reference model via `tosa-opt
//! --tosa-serialize`).
//!
//! [`module_to_mlir`] prints the graph of one `OpGraphEntryPointARM` as a
//! single `func.func` of TOSA 1.0 operations in MLIR's **generic form with
//! properties** (`%0 = "tosa.transpose"(%arg0) <{perms = array<i32: 0, 2,
//! 1>}> : (tensor<4x3x3xi1>) -> tensor<4x3x3xi1>`). The TOSA dialect's custom
//! assembly format changes between LLVM releases (model-converter 0.12's
//! wants `perms`, `values`, `scale32` where 0.11's and tosa-opt 2026.8's take
//! an attribute dictionary), while the generic form is read by every
//! generation: tosa-opt, model-converter 0.11 and 0.12, and IREE (through
//! `tosa-opt --mlir-print-op-generic`). The function itself (`func.func`,
//! `return`) keeps its custom form, which has not changed, so the text stays
//! readable in a bug report. Every operator is printed from the catalogue
//! ([`crate::tosa`]): [`TosaOp::mlir_name`](crate::tosa::TosaOp::mlir_name)
//! is the operation, and each operand's [`MlirRepr`](crate::tosa::MlirRepr)
//! says whether it becomes an attribute (named after the grammar operand, in
//! the form its [`MlirAttr`](crate::tosa::MlirAttr) gives), an SSA operand, a
//! `tosa.const` or a `tosa.const_shape`.
//!
//! # Conventions
//!
//! * **Name.** The function is named after the entry point (`@main`; quoted,
//!   `@"my graph"`, when the name is not a bare MLIR identifier).
//! * **Arguments** are the graph type's inputs in InputIndex order. A
//!   tensor-array input (`OpTypeArray` of tensors) becomes one argument per
//!   element, in ElementIndex order, whether or not the graph reads every
//!   element. Arguments are `%arg0`, `%arg1`, … in that flattened order.
//! * **Results** are the graph type's outputs in OutputIndex order, tensor
//!   arrays flattened the same way; every result must be set exactly once.
//! * **Constants.** A tensor constant used by the graph (`OpConstantComposite`,
//!   `OpConstantNull`, `OpConstantCompositeReplicateEXT`, or
//!   `OpGraphConstantARM` with its data from the `graph_constants` map, keyed
//!   by GraphConstantID) becomes one `"tosa.const"` with a `dense<...>` value,
//!   emitted just before its first use. `shape_t` operands become
//!   `"tosa.const_shape"` values typed `!tosa.shape<N>`.
//! * **Values print exactly**: integers as signed decimals of their width
//!   (i48 must fit in 48 bits), finite floats as the shortest decimal that
//!   reads back bit-exact, NaN and infinities as hexadecimal bit patterns,
//!   all-equal tensors as splats (`dense<0>`), and other tensors of more than
//!   64 elements as one hexadecimal data string (`dense<"0x...">`).
//! * **Scalar attributes** (axis, enums, bools, CLAMP bounds) may be
//!   specialization constants; their default value is printed, since MLIR has
//!   no specialization. Composite specialization constants are refused.
//! * **FFT2D/RFFT2D** return a struct in SPIR-V; in MLIR they are two-result
//!   operations (`%5:2 = "tosa.fft2d"(...)`) and `OpCompositeExtract` member 0/1
//!   reads `%5#0`/`%5#1`.
//! * **ARGMAX of a rank-1 tensor** is rank 0 in TOSA, which SPIR-V writes as
//!   shape `[1]`; the MLIR verifier wants rank 0, so the printer emits the
//!   argmax with a `tensor<i32>` result followed by a `"tosa.reshape"` to the
//!   SPIR-V result type. This is the only operation the printer adds.
//! * `NonSemantic.Graph.DebugInfo` instructions (and `OpLine`/`OpNoLine`) in
//!   the body are skipped; any other non-TOSA instruction is an error.
//! * Enum attributes use the generic attribute form (`nan_mode =
//!   #tosa.nan_mode<PROPAGATE>`): the bare keyword is custom syntax, and the
//!   pinned `tosa-opt` silently drops the string form.

mod error;
mod literal;
mod operands;
mod printer;
mod types;

pub use error::{Location, MlirError, MlirErrorKind};
pub use literal::{mlir_elem_type, mlir_type};

use crate::analysis::Analysis;
use crate::module::Module;
use crate::tensor::TensorData;
use std::collections::BTreeMap;

/// Prints the graph of entry point `entry_point` as TOSA MLIR text: one
/// `func.func` (see the [module documentation](self) for the conventions).
///
/// `graph_constants` holds the data of the graph's `OpGraphConstantARM`s,
/// keyed by GraphConstantID; constants the graph does not use need no data.
///
/// The printer does not validate TOSA rules (types, shapes, attribute
/// values): it prints what the module says, and tools such as `tosa-opt
/// --tosa-validate` judge it. It fails only where the module has no TOSA MLIR
/// form at all; the error names the instruction and what could not be printed.
pub fn module_to_mlir(
    module: &Module,
    entry_point: &str,
    graph_constants: &BTreeMap<u32, TensorData>,
) -> Result<String, MlirError> {
    let a = Analysis::new(module);
    printer::print_entry_point(&a, graph_constants, entry_point)
        .map_err(|fail| MlirError { location: fail.at.and_then(|i| locate(module, i)), kind: fail.kind })
}

fn locate(module: &Module, index: usize) -> Option<Location> {
    let inst = module.insts.get(index)?;
    let word_offset = module.word_offsets().get(index).copied()?;
    let text = crate::text::render_one(module, inst);
    let instruction = match inst.result_id() {
        Some(id) => format!("{id} = {}", text.trim()),
        None => text.trim().to_string(),
    };
    Some(Location { word_offset, instruction })
}
