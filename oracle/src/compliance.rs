//! TOSA floating-point compliance comparison (being written).
