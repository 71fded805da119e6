//! Shared helpers for tests that drive the external tools.

use spvgraph_oracle::tools::Tool;
use std::path::{Path, PathBuf};

/// The hand-written fixtures (`ir/tests/fixtures`).
pub fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// Builds every fixture with the real tools (`fixtures/build.sh`: spirv-as
/// for the `.spvasm`, model-converter + vgf_dump for the `.mlir`), once per
/// test process; `None` when a tool is missing outside CI.
pub fn build_fixtures() -> Option<PathBuf> {
    static BUILT: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(|| {
            let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ir-fixtures");
            spvgraph_testkit::build_fixtures(&out).map(|()| out)
        })
        .clone()
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
    let (Some(mc), Some(dump)) = (spvgraph_testkit::tool(Tool::ModelConverter), spvgraph_testkit::tool(Tool::VgfDump))
    else {
        return Vec::new();
    };
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
