//! Shared helpers for tests that drive the external tools.
#![allow(dead_code)]

use spvgraph_oracle::tools::Tool;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The path of `tool`, or `None` with a notice when it is missing outside CI.
/// Under `CI=true` a missing tool fails the test.
pub fn tool(tool: Tool) -> Option<PathBuf> {
    spvgraph_oracle::tools::locate(tool).unwrap_or_else(|e| panic!("CI=true and {e}"))
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

/// The hand-written fixtures (`ir/tests/fixtures`).
pub fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// Builds every fixture with the real tools (`fixtures/build.sh`: spirv-as
/// for the `.spvasm`, model-converter + vgf_dump for the `.mlir`), once per
/// test process; `None` when a tool is missing outside CI.
pub fn build_fixtures() -> Option<PathBuf> {
    static BUILT: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    BUILT.get_or_init(build_fixtures_now).clone()
}

fn build_fixtures_now() -> Option<PathBuf> {
    let spirv_as = tool(Tool::SpirvAs)?;
    let mc = tool(Tool::ModelConverter)?;
    let vgf = tool(Tool::VgfDump)?;
    let out = scratch("fixtures-build");
    let status = Command::new("bash")
        .arg(fixtures_dir().join("build.sh"))
        .arg(&out)
        .env("SPIRV_AS", spirv_as)
        .env("MODEL_CONVERTER", mc)
        .env("VGF_DUMP", vgf)
        .status()
        .expect("run build.sh");
    assert!(status.success(), "fixtures/build.sh failed");
    Some(out)
}

/// One installed model-converter with its `vgf_dump`: the release channel's
/// and every other channel's (`ci/setup-oracles --channel dev`) that pins one.
pub struct Converter {
    /// `release`, or the channel's name.
    pub channel: String,
    /// `model-converter`.
    pub mc: PathBuf,
    /// `vgf_dump`.
    pub dump: PathBuf,
}

/// Every installed model-converter, the release one first. Empty, with a
/// notice, when the release's is missing outside CI (under `CI=true` that
/// fails the test); a channel without its own converter is left out.
pub fn converters() -> Vec<Converter> {
    let (Some(mc), Some(dump)) = (tool(Tool::ModelConverter), tool(Tool::VgfDump)) else { return Vec::new() };
    let mut out = vec![Converter { channel: "release".into(), mc: mc.clone(), dump }];
    let tools = spvgraph_oracle::tools::Tools::discover();
    for name in tools.channels() {
        let Ok(channel) = tools.channel(&name) else { continue };
        let (Ok(c_mc), Ok(c_dump)) = (channel.get(Tool::ModelConverter), channel.get(Tool::VgfDump)) else {
            continue;
        };
        if c_mc != mc {
            out.push(Converter { channel: name, mc: c_mc.to_path_buf(), dump: c_dump.to_path_buf() });
        }
    }
    eprintln!("model-converters: {}", out.iter().map(|c| c.channel.as_str()).collect::<Vec<_>>().join(", "));
    out
}
