//! The in-tree validator (being written).
