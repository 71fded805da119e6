//! The reference TOSA executor (being written).
