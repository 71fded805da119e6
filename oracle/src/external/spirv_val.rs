//! spirv-val as an oracle (being written).
