//! TOSA MLIR text for a graph (being written).
