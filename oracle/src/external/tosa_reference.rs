//! The TOSA reference model as an oracle (being written).
