//! The TOSA.001000.1 operator catalogue (being written).

mod ops;

pub use ops::TosaOp;
