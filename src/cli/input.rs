//! Reading module files with errors that name the file.

use anyhow::Context;
use spvgraph_ir::{DecodeError, Module};
use std::path::Path;

/// Reads a file; I/O failures are errors (exit 2).
pub fn read_bytes(path: &Path) -> anyhow::Result<Vec<u8>> {
    std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))
}

/// Decodes bytes read from `path`; a decode failure is reported as a check
/// failure by the caller, so it is returned separately from I/O errors.
pub fn decode(path: &Path, bytes: &[u8]) -> Result<Module, String> {
    Module::decode_bytes(bytes).map_err(|e: DecodeError| format!("{}: {e}", path.display()))
}
