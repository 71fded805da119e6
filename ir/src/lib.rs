//! `spvgraph-ir`: the typed model of SPIR-V graph modules.
//!
//! It owns everything the rest of spvgraph agrees on: element types and
//! profiles ([`elem`]), the TOSA.001000.1 operator catalogue ([`tosa`]), the
//! lossless SPIR-V codec and typed instruction model, and the text form.
#![deny(missing_docs)]

pub mod analysis;
pub mod binary;
pub mod builder;
pub mod count;
pub mod decls;
pub mod edit;
pub mod elem;
pub mod enum_all;
pub mod env;
pub mod ids;
pub mod info;
pub mod inst;
pub mod mlir;
pub mod module;
pub mod npy;
pub mod observe;
pub mod opname;
pub mod rules;
pub mod samples;
pub mod scalar;
pub mod shader;
pub mod tensor;
pub mod tensor_access;
pub mod text;
pub mod tosa;

pub use binary::{DecodeError, DecodeErrorKind, Endian, Header};
pub use inst::{ExtSet, GraphDebugInst, Id, Inst};
pub use module::Module;
