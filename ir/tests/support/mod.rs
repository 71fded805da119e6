//! Shared helpers for tests that drive the external tools.
#![allow(dead_code)]

use spvgraph_ir::tools::{Tool, Tools};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The path of `tool`, or `None` with a notice when it is missing outside CI.
/// Under `CI=true` a missing tool fails the test.
pub fn tool(tool: Tool) -> Option<PathBuf> {
    match Tools::discover().get(tool) {
        Ok(p) => Some(p.to_path_buf()),
        Err(e) if Tools::required() => panic!("CI=true and {e}"),
        Err(e) => {
            eprintln!("skipping: {e}");
            None
        }
    }
}

/// A scratch directory unique to this test process and name.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("spvgraph-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

/// Runs spirv-val (vulkan1.3) on a module file; `Err` carries its message.
pub fn spirv_val(val: &Path, file: &Path) -> Result<(), String> {
    let out = Command::new(val).args(["--target-env", "vulkan1.3"]).arg(file).output().expect("run spirv-val");
    if out.status.success() {
        Ok(())
    } else {
        Err(format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
    }
}
