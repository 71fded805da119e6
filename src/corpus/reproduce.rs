//! A corpus finding's upstream reproducers, run as written: the command
//! lines of `upstream.reproduce` (and `reproduce_mlir`, `reproduce_api`,
//! `fixed_behind` where the manifest has them) in a scratch copy of the
//! finding's files, with the tools they name by bare name (`spirv-val`,
//! `scenario-runner`, `iree-compile`, ...) resolved through [`Tools`] for one
//! installed version ([`Toolset`]: the release tools, a channel such as
//! `dev`, or a user's build), and what they print checked against
//! `shows`. `tests/it/upstream_reproducers.rs` and `spvgraph findings
//! status` ([`super::status`]) both run them through here.

use serde_json::Value;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;
use spvgraph_oracle::external::emulation_layer::EmulationLayer;
use spvgraph_oracle::external::model_explorer::SDK_CHANNEL;
use spvgraph_oracle::external::process::{self, Ended, Limits, ScratchDir};
use spvgraph_oracle::oracle::Abnormal;
use spvgraph_oracle::tools::{find_executable, Tool, Tools};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The reproducers a manifest's `upstream` may carry, each of the same
/// shape (`commands`, `env`, `tools`, `shows`), in the order they run:
/// the owner's tools, the same bug in upstream MLIR's own terms (a lit file
/// run with `iree-opt`), and a C program for what only the Vulkan API reaches.
pub const KINDS: [&str; 3] = ["reproduce", "reproduce_mlir", "reproduce_api"];

/// The optional reproducer of a fix that exists behind an option
/// (`upstream.fixed_behind`: `flag`, then the same shape; its `shows` is
/// what the fixed run prints).
pub const FIXED_BEHIND: &str = "fixed_behind";

/// Words a reproducer's command lines must never hold: it needs only the
/// owner's tools, not this harness.
pub const HARNESS_WORDS: [&str; 2] = ["spvgraph", "cargo"];

/// One finding of `corpus/findings/`: its stem and manifest.
#[derive(Clone, Debug)]
pub struct Finding {
    /// `STEM` of `STEM.json`.
    pub stem: String,
    /// The manifest.
    pub manifest: Value,
}

impl Finding {
    /// `upstream.owner`.
    pub fn owner(&self) -> &str {
        self.manifest["upstream"]["owner"].as_str().unwrap_or("")
    }

    /// The reproducers it carries, by kind ([`KINDS`] order); one that is
    /// the same as an earlier one (a C program that is both the reproducer
    /// and the API reproducer) is left out, since it would show the same.
    pub fn reproducers(&self) -> Vec<(&'static str, &Value)> {
        let up = &self.manifest["upstream"];
        let mut out: Vec<(&'static str, &Value)> = Vec::new();
        for kind in KINDS {
            let r = &up[kind];
            if r.is_object() && !out.iter().any(|(_, o)| *o == r) {
                out.push((kind, r));
            }
        }
        out
    }

    /// `upstream.fixed_behind`, when present: the flag and its reproducer.
    pub fn fixed_behind(&self) -> Option<(&str, &Value)> {
        let r = &self.manifest["upstream"][FIXED_BEHIND];
        Some((r["flag"].as_str()?, r))
    }
}

/// Every finding of `dir` (`STEM.json`; `STEM.scenario.json` and other
/// tools' inputs, which have a dot in their stem, are not manifests), by stem.
pub fn findings(dir: &Path) -> anyhow::Result<Vec<Finding>> {
    let entries = std::fs::read_dir(dir).map_err(|e| anyhow::anyhow!("{}: cannot list: {e}", dir.display()))?;
    let mut out = Vec::new();
    for e in entries.flatten() {
        let path = e.path();
        let Some(stem) = path.file_name().and_then(|n| n.to_str()).and_then(|n| n.strip_suffix(".json")) else {
            continue;
        };
        if stem.contains('.') {
            continue;
        }
        let text =
            std::fs::read_to_string(&path).map_err(|e| anyhow::anyhow!("{}: cannot read: {e}", path.display()))?;
        let manifest: Value = serde_json::from_str(&text)
            .map_err(|e| anyhow::anyhow!("{}: not a manifest (invalid JSON): {e}", path.display()))?;
        out.push(Finding { stem: stem.to_string(), manifest });
    }
    out.sort_by(|a, b| a.stem.cmp(&b.stem));
    Ok(out)
}

/// Checks a reproducer's shape: a non-empty list of command lines, none of
/// which names this harness, and a `shows.status` to check the last one
/// against (`success`, `failure` or `signal N`). `Err` says what is wrong.
pub fn checked(reproduce: &Value) -> Result<(), String> {
    let commands = reproduce["commands"].as_array().ok_or("no commands")?;
    if commands.is_empty() || !commands.iter().all(Value::is_string) {
        return Err("commands is not a list of command lines".into());
    }
    for c in commands.iter().filter_map(Value::as_str) {
        let words: Vec<&str> = c.split(|ch: char| ch.is_whitespace() || ch == '/' || ch == ';').collect();
        if let Some(w) = HARNESS_WORDS.iter().find(|w| words.contains(w)) {
            return Err(format!("the command {c:?} needs {w}: a reproducer needs only the owner's tools"));
        }
    }
    let status = reproduce["shows"]["status"].as_str().ok_or("no shows.status to check")?;
    let known = matches!(status, "success" | "failure")
        || status.strip_prefix("signal ").is_some_and(|n| n.parse::<i32>().is_ok());
    if !known {
        return Err(format!("shows.status {status:?} is not success, failure or signal N"));
    }
    Ok(())
}

/// The bare tool names reproducers use that [`Tools`] knows.
fn tool_of(name: &str) -> Option<Tool> {
    Tool::ALL.into_iter().find(|t| t.key() == name && !matches!(t, Tool::GrammarDir | Tool::VkLayerPath | Tool::VkIcd))
}

/// IREE's opt tool is not provisioned on its own: it sits next to the compiler.
const IREE_OPT: &str = "iree-opt";

/// A reproducer's `python3` is the interpreter of the Model Explorer
/// adapters (the `sdk` channel's environment), where they import from.
const PYTHON: &str = "python3";

/// The loader variables a consumer process needs, which a reproducer's
/// `env` names with the release layout (`$ORACLES/layers/...`) and which
/// each version sets for itself.
const VULKAN_VARS: [&str; 4] = ["VK_LAYER_PATH", "VK_INSTANCE_LAYERS", "VK_ICD_FILENAMES", "VK_DRIVER_FILES"];

/// One installed version of the tools that reproducers run on.
pub struct Toolset {
    /// How it is named in tables: `release`, a channel (`dev`), or the
    /// label of a user's build.
    pub label: String,
    /// The tools (a channel's lie over the release's).
    pub tools: Tools,
    /// A user's build: the oracle it stands for and its directory.
    pub user: Option<(String, PathBuf)>,
    // Kept for the loader variables of a user's layers (their manifests
    // live as long as it does).
    layer: EmulationLayer,
    // The package versions a channel has of its own (not the release's).
    own: Option<Vec<String>>,
}

/// The package versions `tools` records, one per package, in [`Tool::ALL`] order.
fn package_versions(tools: &Tools) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for t in Tool::ALL {
        if let Some(v) = tools.package_version(t) {
            if !out.contains(&v) {
                out.push(v);
            }
        }
    }
    out
}

impl Toolset {
    /// The release tools.
    pub fn release(tools: Tools) -> Toolset {
        Toolset::new("release".into(), tools, None)
    }

    /// Channel `name` of `tools` (`ci/setup-oracles --channel NAME`).
    pub fn channel(tools: &Tools, name: &str) -> Result<Toolset, spvgraph_oracle::tools::ChannelUnavailable> {
        let release = package_versions(tools);
        let mut t = Toolset::new(name.to_string(), tools.channel(name)?, None);
        t.own = Some(package_versions(&t.tools).into_iter().filter(|v| !release.contains(v)).collect());
        Ok(t)
    }

    /// A user's build of `oracle` in `dir` (`--oracle-path NAME[@LABEL]=DIR`),
    /// the release tools for what it lacks.
    pub fn user(tools: Tools, oracle: &str, label: &str, dir: &Path) -> Toolset {
        Toolset::new(label.to_string(), tools, Some((oracle.to_string(), dir.to_path_buf())))
    }

    fn new(label: String, tools: Tools, user: Option<(String, PathBuf)>) -> Toolset {
        let layer_dir =
            user.as_ref().filter(|(o, _)| o == "emulation-layer" || o == "vulkan").map(|(_, d)| d.as_path());
        let layer = EmulationLayer::from_config(&tools, layer_dir);
        Toolset { label, tools, user, layer, own: None }
    }

    /// What this version is made of: the release's recorded package
    /// versions, a channel's own (those it pins over the release's), or a
    /// user's oracle and directory.
    pub fn describe(&self) -> String {
        if let Some((oracle, dir)) = &self.user {
            return format!("{oracle} at {}", dir.display());
        }
        let packages = self.own.clone().unwrap_or_else(|| package_versions(&self.tools));
        if packages.is_empty() {
            "no recorded versions".into()
        } else {
            packages.join(", ")
        }
    }

    /// Where the tool a command names by `name` is for this version:
    /// `None` when it is not one of the provisioned tools (`cc`, a program
    /// the reproducer built), `Err` when it is one and is missing.
    pub fn resolve(&self, name: &str) -> Option<Result<PathBuf, String>> {
        let known = tool_of(name).is_some() || name == IREE_OPT || name == PYTHON;
        if let Some((_, dir)) = &self.user {
            if known {
                if let Some(p) = find_executable(dir, name) {
                    return Some(Ok(p));
                }
            }
        }
        if name == IREE_OPT {
            return Some(
                self.tools
                    .get(Tool::IreeCompile)
                    .map(|p| p.with_file_name(IREE_OPT))
                    .map_err(|e| e.to_string())
                    .and_then(|p| if p.is_file() { Ok(p) } else { Err(format!("{} does not exist", p.display())) }),
            );
        }
        if name == PYTHON {
            let found = self.tools.get(Tool::ModelExplorerPython).map(Path::to_path_buf).or_else(|release| {
                let sdk = self.tools.channel(SDK_CHANNEL).map_err(|e| format!("{release}; {e}"))?;
                sdk.get(Tool::ModelExplorerPython).map(Path::to_path_buf).map_err(|e| e.to_string())
            });
            return Some(found);
        }
        let tool = tool_of(name)?;
        Some(self.tools.get(tool).map(Path::to_path_buf).map_err(|e| e.to_string()))
    }

    /// The value of variable `key` of a reproducer's `env` for this
    /// version: the loader variables from this version's layers and driver,
    /// `$ORACLES` elsewhere replaced by the oracle directory.
    pub fn env_value(&self, key: &str, value: &str) -> String {
        if VULKAN_VARS.contains(&key) {
            if let Ok(setup) = self.layer.setup() {
                if let Some((_, v)) = setup.env.vars().into_iter().find(|(k, _)| *k == key) {
                    return v.to_string_lossy().into_owned();
                }
            }
        }
        let root = self.tools.root().map(|r| r.display().to_string()).unwrap_or_default();
        value.replace("$ORACLES", &root)
    }

    /// The installed versions of what `reproduce` runs on this version (its
    /// tools' packages, and the layer when it sets the loader's variables),
    /// as `ci/setup-oracles` recorded them; a user's build is named by its
    /// label and directory.
    pub fn versions_of(&self, reproduce: &Value) -> String {
        let mut tools: Vec<Tool> = programs(reproduce).iter().filter_map(|p| tool_of(p)).collect();
        if programs(reproduce).iter().any(|p| p == IREE_OPT) {
            tools.push(Tool::IreeCompile);
        }
        if reproduce["env"].as_object().is_some_and(|e| e.contains_key("VK_LAYER_PATH")) {
            tools.push(Tool::VkLayerPath);
        }
        let mut out: Vec<String> = Vec::new();
        if let Some((oracle, dir)) = &self.user {
            out.push(format!("{oracle} at {}", dir.display()));
        }
        for t in tools {
            if let Some(v) = self.tools.package_version(t) {
                if !out.contains(&v) {
                    out.push(v);
                }
            }
        }
        if out.is_empty() {
            out.push(self.label.clone());
        }
        out.join(", ")
    }

    /// What decides a reproducer's outcome on this version: the resolved
    /// programs and environment. Two versions with the same key run the
    /// same binaries, so one run answers for both.
    pub fn key(&self, reproduce: &Value) -> String {
        let mut key = Vec::new();
        for p in programs(reproduce) {
            key.push(match self.resolve(&p) {
                Some(Ok(path)) => path.display().to_string(),
                Some(Err(e)) => format!("missing {p}: {e}"),
                None => p,
            });
        }
        for (k, v) in reproduce["env"].as_object().into_iter().flatten() {
            key.push(format!("{k}={}", self.env_value(k, v.as_str().unwrap_or(""))));
        }
        key.join("\n")
    }
}

/// The versions `spvgraph findings status` runs on: the release, then each
/// installed channel (or only those `channels` names), then each user's
/// build `NAME[@LABEL]=DIR` (the `--oracle-path` syntax; labelled `LABEL`, or
/// `user-NAME`).
pub fn toolsets(tools: &Tools, channels: Option<&[String]>, user_builds: &[String]) -> anyhow::Result<Vec<Toolset>> {
    let mut out = vec![Toolset::release(tools.clone())];
    let names: Vec<String> = match channels {
        Some(list) => list.to_vec(),
        None => tools.channels(),
    };
    for name in names {
        out.push(Toolset::channel(tools, &name).map_err(|e| anyhow::anyhow!("--channel {name}: {e}"))?);
    }
    for spec in user_builds {
        let (name, dir) =
            spec.split_once('=').ok_or_else(|| anyhow::anyhow!("--oracle-path {spec:?}: expected NAME[@LABEL]=DIR"))?;
        if !spvgraph_oracle::registry::is_instance_name(name) {
            anyhow::bail!(
                "--oracle-path {spec:?}: {name:?} is not an oracle name (known: {})",
                spvgraph_oracle::registry::NAMES.join(", ")
            );
        }
        let dir = Path::new(dir);
        if !dir.is_dir() {
            anyhow::bail!("--oracle-path {spec:?}: {} is not a directory", dir.display());
        }
        let (oracle, label) = spvgraph_oracle::registry::split_name(name);
        let label = label.map_or_else(|| format!("user-{oracle}"), str::to_string);
        if out.iter().any(|t| t.label == label) {
            anyhow::bail!("--oracle-path {spec:?}: the label {label:?} is taken; name the build NAME@LABEL=DIR");
        }
        out.push(Toolset::user(tools.clone(), oracle, &label, dir));
    }
    Ok(out)
}

/// The first word of each command line, then the `tools` the reproducer
/// lists that no command starts with.
fn programs(reproduce: &Value) -> Vec<String> {
    let mut out: Vec<String> = reproduce["commands"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .filter_map(|c| c.split_whitespace().next())
        .map(str::to_string)
        .collect();
    for t in reproduce["tools"].as_array().into_iter().flatten().filter_map(Value::as_str) {
        if !out.iter().any(|p| p == t) {
            out.push(t.to_string());
        }
    }
    out
}

/// Why a reproducer did not run to its last command.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// A tool it needs is not installed (a provisioned tool, or a system
    /// one such as the C compiler and the Vulkan headers).
    #[error("{what} is unavailable: {reason}")]
    Missing {
        /// The tool or program.
        what: String,
        /// Why.
        reason: String,
    },
    /// A command before the last failed: the reproducer could not set up
    /// what its last command checks.
    #[error("`{command}` failed ({status}): {output}")]
    Setup {
        /// The command line.
        command: String,
        /// How it ended.
        status: String,
        /// The end of what it printed.
        output: String,
    },
    /// The harness could not run it (scratch directory, copying, spawning).
    #[error("{0}")]
    Harness(String),
}

/// What running a reproducer gave.
pub struct Ran {
    /// Everything every command printed, stdout then stderr per command.
    pub output: String,
    /// How the last command ended.
    pub ended: Ended,
    /// The scratch directory it ran in (removed when dropped).
    pub dir: ScratchDir,
}

/// Time limit of one command of a reproducer.
const COMMAND_TIMEOUT: Duration = Duration::from_secs(300);

/// Runs `reproduce` of finding `stem` in a scratch copy of its files of
/// `dir` (`STEM.*`), on `toolset`.
pub fn run(dir: &Path, stem: &str, reproduce: &Value, toolset: &Toolset) -> Result<Ran, RunError> {
    let scratch = ScratchDir::new("reproduce").map_err(|e| RunError::Harness(e.to_string()))?;
    let prefix = format!("{stem}.");
    let entries = std::fs::read_dir(dir).map_err(|e| RunError::Harness(format!("{}: {e}", dir.display())))?;
    for e in entries.flatten() {
        if e.file_name().to_string_lossy().starts_with(&prefix) {
            std::fs::copy(e.path(), scratch.join(e.file_name()))
                .map_err(|err| RunError::Harness(format!("{}: cannot copy: {err}", e.path().display())))?;
        }
    }
    for t in reproduce["tools"].as_array().into_iter().flatten().filter_map(Value::as_str) {
        match toolset.resolve(t) {
            Some(Err(reason)) => return Err(RunError::Missing { what: t.to_string(), reason }),
            None if !on_path(t) => {
                return Err(RunError::Missing { what: t.to_string(), reason: "not on PATH".into() });
            }
            _ => {}
        }
    }
    let commands: Vec<&str> =
        reproduce["commands"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
    let limits = Limits { timeout: COMMAND_TIMEOUT, memory_bytes: Some(8 << 30) };
    let mut output = String::new();
    let mut ended = None;
    for (k, c) in commands.iter().enumerate() {
        let (first, rest) = c.split_once(' ').unwrap_or((c, ""));
        let line = match toolset.resolve(first) {
            Some(Ok(p)) => format!("'{}' {rest}", p.display()),
            Some(Err(reason)) => return Err(RunError::Missing { what: first.to_string(), reason }),
            None => c.to_string(),
        };
        let mut cmd = Command::new("sh");
        cmd.arg("-c").arg(&line);
        for (key, v) in reproduce["env"].as_object().into_iter().flatten() {
            cmd.env(key, toolset.env_value(key, v.as_str().unwrap_or("")));
        }
        let r = process::run(cmd, scratch.path(), &limits).map_err(|e| RunError::Harness(format!("{c}: {e}")))?;
        let printed = format!("{}{}", r.stdout_text(), r.stderr_text());
        output.push_str(&printed);
        let last = k + 1 == commands.len();
        if !last && !r.success() {
            let tail = process::tail_of(&printed, 12);
            // A step of a program that is not an oracle tool (the C
            // compiler) failing is a missing prerequisite (libvulkan-dev).
            if toolset.resolve(first).is_none() {
                return Err(RunError::Missing { what: first.to_string(), reason: tail });
            }
            return Err(RunError::Setup { command: c.to_string(), status: r.status_text(), output: tail });
        }
        ended = Some(r.ended);
    }
    let ended = ended.ok_or_else(|| RunError::Harness("the reproducer has no command".into()))?;
    Ok(Ran { output, ended, dir: scratch })
}

/// Whether `program` is an executable on `PATH` (or a path to one).
fn on_path(program: &str) -> bool {
    if program.contains('/') {
        return Path::new(program).is_file();
    }
    std::env::var_os("PATH").is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(program).is_file()))
}

/// Whether `ended` is a death by signal `n`, seen directly, through a shell
/// (exit status 128 + n) or through a Python launcher (256 - n).
fn died_of(ended: Ended, n: i32) -> bool {
    match ended {
        Ended::Abnormal(Abnormal::Signal(s)) => s == n,
        Ended::Exited(c) => c == 128 + n || c == 256 - n,
        Ended::Abnormal(_) => false,
    }
}

/// Checks what a run printed and wrote against `shows` (its last command's
/// `status`, `output_contains`, `output_lacks`, `files`, and an `npy`
/// output's values); `Err` says what no longer holds.
pub fn shows(shows: &Value, ran: &Ran) -> Result<(), String> {
    let log = &ran.output;
    let ended = ran.ended;
    let status = shows["status"].as_str().ok_or("no status to check")?;
    let ok = match status {
        "success" => ended == Ended::Exited(0),
        "failure" => matches!(ended, Ended::Exited(c) if c != 0),
        s => {
            let n: i32 = s.strip_prefix("signal ").and_then(|n| n.parse().ok()).ok_or(format!("status {s:?}"))?;
            died_of(ended, n)
        }
    };
    if !ok {
        return Err(format!("expected {status}, the last command ended with {ended:?}"));
    }
    for t in shows["output_contains"].as_array().into_iter().flatten().filter_map(Value::as_str) {
        if !log.contains(t) {
            return Err(format!("the output no longer holds {t:?}"));
        }
    }
    for t in shows["output_lacks"].as_array().into_iter().flatten().filter_map(Value::as_str) {
        if log.contains(t) {
            return Err(format!("the output holds {t:?}"));
        }
    }
    for f in shows["files"].as_array().into_iter().flatten().filter_map(Value::as_str) {
        if !ran.dir.join(f).is_file() {
            return Err(format!("{f} was not written"));
        }
    }
    let npy = &shows["npy"];
    if npy.is_object() {
        let file = ran.dir.join(npy["file"].as_str().ok_or("npy without a file")?);
        let elem = npy["elem"].as_str().and_then(ElemType::from_name).ok_or("npy without a known elem")?;
        let got = TensorData::read_npy(&file, elem).map_err(|e| format!("{}: {e}", file.display()))?.to_f64();
        if let Some(want) = npy["equals"].as_array() {
            let want: Vec<f64> = want.iter().filter_map(Value::as_f64).collect();
            let close =
                got.len() == want.len() && got.iter().zip(&want).all(|(a, b)| a == b || ((a - b) / b).abs() < 1e-6);
            if !close {
                return Err(format!("the output is {got:?}, the finding says {want:?}"));
            }
        }
        if let (Some(k), Some(right), Some(by)) =
            (npy["element"].as_u64(), npy["far_from"].as_f64(), npy["by_more_than"].as_f64())
        {
            let v = usize::try_from(k).ok().and_then(|k| got.get(k)).copied().ok_or("no such element")?;
            if (v - right).abs() <= by {
                return Err(format!("element {k} is {v}, within {by} of the right value {right}"));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reproducer_that_needs_the_harness_is_refused() {
        let ok = serde_json::json!({"commands": ["spirv-val m.spv"], "shows": {"status": "success"}});
        assert_eq!(checked(&ok), Ok(()));
        for bad in ["cargo run --bin spvgraph -- diff m.spv", "target/release/spvgraph diff m.spv"] {
            let r = serde_json::json!({"commands": [bad], "shows": {"status": "success"}});
            assert!(checked(&r).is_err_and(|e| e.contains("owner's tools")), "{bad}");
        }
        let no_status = serde_json::json!({"commands": ["spirv-val m.spv"], "shows": {}});
        assert!(checked(&no_status).is_err());
        let odd = serde_json::json!({"commands": ["x"], "shows": {"status": "crash"}});
        assert!(checked(&odd).is_err());
    }

    #[test]
    fn deaths_by_signal_are_seen_through_shells_and_launchers() {
        assert!(died_of(Ended::Abnormal(Abnormal::Signal(11)), 11));
        assert!(died_of(Ended::Exited(139), 11));
        assert!(died_of(Ended::Exited(245), 11));
        assert!(!died_of(Ended::Exited(1), 11));
        assert!(!died_of(Ended::Abnormal(Abnormal::Timeout), 11));
    }
}
