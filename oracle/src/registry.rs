//! The oracle registry: every oracle by name, built from one configuration.
//!
//! Nothing outside an adapter names a particular external tool: the hunt,
//! `spvgraph diff`, the fuzz targets and the tests ask the registry for
//! oracles by name ([`build`], [`build_all`]) and then only use the
//! [`Oracle`] interface. Each adapter keeps its tool's quirks.
//!
//! Where a backend lives is configurable per oracle ([`OracleConfig::paths`]):
//! `--oracle-path NAME=DIR` on the command line, or the environment variable
//! `SPVGRAPH_ORACLE_PATH_<NAME>` (`SPVGRAPH_ORACLE_PATH_EMULATION_LAYER`), so
//! that a user can test their own driver or converter build, or an older
//! release. Without one, the tools `ci/setup-oracles` installed are used.
//!
//! **Channels.** `NAME@CHANNEL` is oracle `NAME` built on the tools of
//! channel `CHANNEL` (`ci/setup-oracles --channel dev` installs Arm's
//! pre-releases as channel `dev`): `emulation-layer@dev`,
//! `model-converter@dev`. Nothing here names the oracles that have a
//! channel: any oracle built from [`Tools`] gets one, and `NAME@CHANNEL` is
//! refused ([`RegistryError::NoChannel`]) only when the channel changes none
//! of its tools (its version is the release's, as for `in-tree@dev`).
//! `--oracle-path NAME@LABEL=DIR` makes a channel instance of a user's build
//! too, beside the release one. The instance answers as its oracle does,
//! under its own name; [`Oracle::tool`] and [`Oracle::channel`] tell the
//! judgement that two instances are versions of one tool.

use crate::compliance::PreciseOutcome;
use crate::exec::{ExecConfig, Executor};
use crate::external::consumer::Workarounds;
use crate::external::emulation_layer::EmulationLayer;
use crate::external::iree::Iree;
use crate::external::model_converter::ModelConverter;
use crate::external::model_explorer::ModelExplorer;
use crate::external::spirv_val::SpirvVal;
use crate::external::tosa_reference::TosaReferenceModel;
use crate::external::vulkan::Vulkan;
use crate::oracle::{Capability, ExecOutcome, ExecRequest, Oracle, OracleError, RuleClaim, ValidateOptions, Verdict};
use crate::oracle::{KnownDiscrepancy, ProduceOutcome, ProduceRequest};
use crate::tools::{ChannelUnavailable, Tools};
use crate::validate::Validator;
use spvgraph_ir::rules::RuleId;
mod conformance;
pub use conformance::{conformance, Conformance};

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Declares the registry's oracles once: the [`OracleName`] enum, a name
/// constant per oracle and [`NAMES`], so that an oracle added here must be
/// given a build arm ([`build_on`] matches the enum exhaustively).
macro_rules! oracles {
    ($( $(#[$doc:meta])* $variant:ident = $constant:ident, $name:literal; )*) => {
        /// An oracle of the registry.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum OracleName {
            $( $(#[$doc])* $variant, )*
        }

        $( $(#[$doc])* pub const $constant: &str = $name; )*

        impl OracleName {
            /// Every oracle, in the order reports list them.
            pub const ALL: [OracleName; [$($name,)*].len()] = [$(OracleName::$variant,)*];

            /// Its name on the command line and in reports.
            pub const fn name(self) -> &'static str {
                match self { $(OracleName::$variant => $name,)* }
            }

            /// The oracle called `name`.
            pub fn from_name(name: &str) -> Option<OracleName> {
                OracleName::ALL.into_iter().find(|o| o.name() == name)
            }
        }

        /// Every oracle name, in the order reports list them.
        pub const NAMES: &[&str] = &[$($name,)*];
    };
}

oracles! {
    /// The in-tree oracles: the validator and the reference executor.
    InTree = IN_TREE, "in-tree";
    /// spirv-val (SPIRV-Tools), in process when the library is there.
    SpirvVal = SPIRV_VAL, "spirv-val";
    /// The TOSA reference model (tosa-tools).
    TosaRef = TOSA_REF, "tosa-ref";
    /// Arm's ML emulation layer for Vulkan through the scenario runner, on lavapipe.
    EmulationLayer = EMULATION_LAYER, "emulation-layer";
    /// A Vulkan driver with VK_ARM_data_graph through the API (by default the
    /// emulation layer on lavapipe), in a persistent worker process.
    Vulkan = VULKAN, "vulkan";
    /// model-converter (MLIR's SPIR-V serializer), a producer.
    ModelConverter = MODEL_CONVERTER, "model-converter";
    /// IREE (a second TOSA compiler), on the CPU.
    Iree = IREE, "iree";
    /// Arm's SPIR-V and VGF adapters for Model Explorer, a reader, in a
    /// persistent Python worker.
    ModelExplorer = MODEL_EXPLORER, "model-explorer";
}

/// Channel instances that `all` names besides the registry's oracles: a
/// second version of a tool pinned as firmly as the release (no
/// pre-release), whose answers every hunt judges. `spirv-val@sdk` is the
/// SPIRV-Tools the Model Explorer adapter bundles (v2026.3 as tagged for the
/// Vulkan SDK 1.4.357.0), a validator users run through the viewer.
pub const PINNED_INSTANCES: &[&str] = &["spirv-val@sdk"];

/// How to build the oracles.
#[derive(Clone, Debug)]
pub struct OracleConfig {
    /// Where the provisioned tools are.
    pub tools: Tools,
    /// Per oracle name, a directory holding the user's own build of the
    /// backend; the adapter says what it expects to find there.
    pub paths: BTreeMap<String, PathBuf>,
    /// Time limit of one backend run.
    pub timeout: Duration,
    /// Resident-memory limit of one backend process, in bytes.
    pub memory_bytes: Option<u64>,
    /// Whether adapters apply their documented work-arounds (the consumers'
    /// single entry point, debug info stripped, shared outputs not run).
    /// `--no-workarounds` turns them off to show what they hide.
    pub workarounds: bool,
    /// Whether adapters amortize their start-up and compile costs across
    /// cases (kept-warm workers, glslang kept initialized, batched
    /// compilation). Off only to measure the path before, side by side
    /// (`spvgraph bench-backends`); answers are the same either way.
    pub amortize: bool,
}

impl Default for OracleConfig {
    fn default() -> Self {
        OracleConfig {
            tools: Tools::discover(),
            paths: paths_from_env(),
            timeout: Duration::from_secs(60),
            memory_bytes: Some(4 << 30),
            workarounds: true,
            amortize: true,
        }
    }
}

impl OracleConfig {
    /// The user's directory for oracle `name`, if one was given.
    pub fn path(&self, name: &str) -> Option<&Path> {
        self.paths.get(name).map(PathBuf::as_path)
    }

    /// Adds `NAME=DIR` (the `--oracle-path` syntax; `NAME` may be a channel
    /// instance, `NAME@LABEL`).
    pub fn set_path(&mut self, spec: &str) -> Result<(), RegistryError> {
        let (name, dir) = spec.split_once('=').ok_or_else(|| RegistryError::BadPath(spec.to_string()))?;
        check_instance(name)?;
        let dir = PathBuf::from(dir);
        if !dir.exists() {
            return Err(RegistryError::MissingPath { name: name.to_string(), path: dir.display().to_string() });
        }
        self.paths.insert(name.to_string(), dir);
        Ok(())
    }
}

/// The variable naming oracle `name`'s directory: `SPVGRAPH_ORACLE_PATH_<NAME>`.
pub fn path_variable(name: &str) -> String {
    format!("SPVGRAPH_ORACLE_PATH_{}", name.to_ascii_uppercase().replace('-', "_"))
}

fn paths_from_env() -> BTreeMap<String, PathBuf> {
    NAMES.iter().filter_map(|n| std::env::var_os(path_variable(n)).map(|p| (n.to_string(), PathBuf::from(p)))).collect()
}

/// A request the registry cannot serve.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RegistryError {
    /// No oracle has this name.
    #[error("unknown oracle {0:?} (known: {known})", known = NAMES.join(", "))]
    Unknown(String),
    /// `--oracle-path` without `NAME=DIR`.
    #[error("--oracle-path {0:?}: expected NAME=DIR")]
    BadPath(String),
    /// `--oracle-path` names a directory that does not exist.
    #[error("--oracle-path {name}={path}: no such file or directory")]
    MissingPath {
        /// The oracle.
        name: String,
        /// The path given.
        path: String,
    },
    /// `NAME@CHANNEL` where the channel is not installed.
    #[error(transparent)]
    Channel(#[from] ChannelUnavailable),
    /// `NAME@CHANNEL` where the channel changes none of the oracle's tools.
    #[error(
        "{name}@{channel}: channel {channel} pins none of {name}'s tools (it would run {version} again; \
         see ci/oracle-pins)"
    )]
    NoChannel {
        /// The oracle.
        name: String,
        /// The channel.
        channel: String,
        /// The version both would run.
        version: String,
    },
}

/// What separates an oracle's name from its channel: `emulation-layer@dev`.
pub const CHANNEL_SEPARATOR: char = '@';

/// An instance name split into the oracle's name and its channel, if any.
pub fn split_name(name: &str) -> (&str, Option<&str>) {
    match name.split_once(CHANNEL_SEPARATOR) {
        Some((tool, channel)) => (tool, Some(channel)),
        None => (name, None),
    }
}

fn check_name(name: &str) -> Result<OracleName, RegistryError> {
    OracleName::from_name(name).ok_or_else(|| RegistryError::Unknown(name.to_string()))
}

/// Checks an instance name (`NAME` or `NAME@CHANNEL`); returns the oracle's name.
fn check_instance(name: &str) -> Result<OracleName, RegistryError> {
    match split_name(name) {
        (tool, None) => check_name(tool),
        (tool, Some(channel)) if is_label(channel) => check_name(tool),
        _ => Err(RegistryError::Unknown(name.to_string())),
    }
}

/// A channel or label: lower-case letters, digits and `-`.
fn is_label(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// Whether `name` is an oracle of the registry or a channel instance of one
/// (`emulation-layer@dev`), by its form alone.
pub fn is_instance_name(name: &str) -> bool {
    check_instance(name).is_ok()
}

/// Builds the oracle called `name`, or the channel instance `NAME@CHANNEL`
/// (see the module documentation). An oracle whose tool is missing is still
/// built; its [`Oracle::available`] says why it cannot run.
pub fn build(name: &str, config: &OracleConfig) -> Result<Box<dyn Oracle>, RegistryError> {
    let tool = check_instance(name)?;
    let Some(channel) = split_name(name).1 else {
        return Ok(build_on(tool, &config.tools, config.path(tool.name()), config));
    };
    let dir = config.path(name);
    let tools = match (config.tools.channel(channel), dir) {
        (Ok(t), _) => t,
        // A user's build under a label of its own: the release's tools for the rest.
        (Err(_), Some(_)) => config.tools.clone(),
        (Err(e), None) => return Err(e.into()),
    };
    let inner = build_on(tool, &tools, dir, config);
    if dir.is_none() {
        let release = build_on(tool, &config.tools, None, config);
        if inner.available().is_ok() && release.available().is_ok() && inner.version() == release.version() {
            return Err(RegistryError::NoChannel {
                name: tool.name().to_string(),
                channel: channel.to_string(),
                version: inner.version().unwrap_or_else(|| "the same tools".into()),
            });
        }
    }
    Ok(Box::new(OnChannel { inner, name: name.to_string(), tool: tool.name(), channel: channel.to_string() }))
}

/// Builds oracle `name` on `tools`, with the user's directory `dir`.
fn build_on(name: OracleName, tools: &Tools, dir: Option<&Path>, config: &OracleConfig) -> Box<dyn Oracle> {
    match name {
        OracleName::InTree => Box::new(InTree::default()),
        OracleName::SpirvVal => Box::new(SpirvVal::from_config(tools, dir)),
        OracleName::TosaRef => Box::new(TosaReferenceModel::from_config(tools, dir).with_timeout(config.timeout)),
        OracleName::EmulationLayer => Box::new(
            EmulationLayer::from_config(tools, dir)
                .with_timeout(config.timeout)
                .with_memory_limit(config.memory_bytes)
                .with_workarounds(Workarounds::enabled(config.workarounds)),
        ),
        OracleName::Vulkan => Box::new(
            Vulkan::from_config(tools, dir)
                .with_limits(crate::external::process::Limits {
                    timeout: config.timeout,
                    memory_bytes: config.memory_bytes,
                })
                .with_workarounds(config.workarounds),
        ),
        OracleName::ModelConverter => {
            Box::new(ModelConverter::from_config(tools, dir).with_limits(crate::external::process::Limits {
                timeout: config.timeout,
                memory_bytes: config.memory_bytes,
            }))
        }
        OracleName::Iree => Box::new(Iree::from_config(tools, dir).with_limits(crate::external::process::Limits {
            timeout: config.timeout,
            memory_bytes: config.memory_bytes,
        })),
        OracleName::ModelExplorer => {
            Box::new(ModelExplorer::from_config(tools, dir).with_limits(crate::external::process::Limits {
                timeout: config.timeout,
                memory_bytes: config.memory_bytes,
            }))
        }
    }
}

/// The instance names a list of names stands for: `all` is every oracle of
/// the registry and the [`PINNED_INSTANCES`], `all@CHANNEL` every oracle
/// the channel has a version of (see [`build`]); other names stay as they
/// are. Each name once, in order.
pub fn expand(names: &[String], config: &OracleConfig) -> Result<Vec<String>, RegistryError> {
    let mut out: Vec<String> = Vec::new();
    for name in names {
        let more: Vec<String> = match split_name(name) {
            ("all", None) => NAMES.iter().chain(PINNED_INSTANCES).map(|n| n.to_string()).collect(),
            ("all", Some(channel)) => {
                let mut on = Vec::new();
                for n in NAMES {
                    let instance = format!("{n}{CHANNEL_SEPARATOR}{channel}");
                    match build(&instance, config) {
                        Ok(_) => on.push(instance),
                        Err(RegistryError::NoChannel { .. }) => {}
                        Err(e) => return Err(e),
                    }
                }
                on
            }
            _ => vec![name.clone()],
        };
        for n in more {
            if !out.contains(&n) {
                out.push(n);
            }
        }
    }
    Ok(out)
}

/// Parses a comma-separated list of names (see [`expand`]) and builds each.
pub fn build_list(list: &str, config: &OracleConfig) -> Result<Vec<Box<dyn Oracle>>, RegistryError> {
    let names: Vec<String> = list.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect();
    expand(&names, config)?.iter().map(|n| build(n, config)).collect()
}

/// An oracle built on the tools of a channel (or on a user's build under a
/// label), under the instance's own name; everything else is the oracle's.
struct OnChannel {
    inner: Box<dyn Oracle>,
    name: String,
    tool: &'static str,
    channel: String,
}

impl OnChannel {
    /// The oracle's errors, under the instance's name.
    fn rename(&self, e: OracleError) -> OracleError {
        let own = |oracle: String| if oracle == self.tool { self.name.clone() } else { oracle };
        match e {
            OracleError::Unavailable { oracle, reason } => OracleError::Unavailable { oracle: own(oracle), reason },
            OracleError::Unsupported { oracle, what } => OracleError::Unsupported { oracle: own(oracle), what },
            OracleError::Failed { oracle, reason } => OracleError::Failed { oracle: own(oracle), reason },
        }
    }
}

impl Oracle for OnChannel {
    fn name(&self) -> &str {
        &self.name
    }

    fn tool(&self) -> &str {
        self.tool
    }

    fn channel(&self) -> Option<&str> {
        Some(&self.channel)
    }

    fn capabilities(&self) -> &'static [Capability] {
        self.inner.capabilities()
    }

    fn available(&self) -> Result<(), OracleError> {
        self.inner.available().map_err(|e| self.rename(e))
    }

    fn version(&self) -> Option<String> {
        self.inner.version()
    }

    fn known_discrepancies(&self) -> &'static [KnownDiscrepancy] {
        self.inner.known_discrepancies()
    }

    fn default_sample(&self) -> f64 {
        self.inner.default_sample()
    }

    fn preferred_batch(&self) -> usize {
        self.inner.preferred_batch()
    }

    fn reads_spirv(&self) -> bool {
        self.inner.reads_spirv()
    }

    fn validate(&self, module: &[u32], options: &ValidateOptions) -> Result<Verdict, OracleError> {
        self.inner.validate(module, options).map_err(|e| self.rename(e))
    }

    fn execute(&self, request: &ExecRequest<'_>) -> Result<ExecOutcome, OracleError> {
        self.inner.execute(request).map_err(|e| self.rename(e))
    }

    fn execute_batch(&self, requests: &[ExecRequest<'_>]) -> Vec<Result<ExecOutcome, OracleError>> {
        self.inner.execute_batch(requests).into_iter().map(|r| r.map_err(|e| self.rename(e))).collect()
    }

    fn produce(&self, request: &ProduceRequest<'_>) -> Result<ProduceOutcome, OracleError> {
        self.inner.produce(request).map_err(|e| self.rename(e))
    }

    fn rule_claim(&self, rule: RuleId) -> RuleClaim {
        self.inner.rule_claim(rule)
    }

    fn execute_precise(&self, request: &ExecRequest<'_>) -> Result<PreciseOutcome, OracleError> {
        self.inner.execute_precise(request).map_err(|e| self.rename(e))
    }

    fn read(&self, module: &[u32]) -> Result<crate::oracle::ReadOutcome, OracleError> {
        self.inner.read(module).map_err(|e| self.rename(e))
    }

    fn read_container(&self, bytes: &[u8]) -> Result<crate::oracle::ReadOutcome, OracleError> {
        self.inner.read_container(bytes).map_err(|e| self.rename(e))
    }

    fn standalone_read(
        &self,
        module: &[u32],
        dir: &std::path::Path,
    ) -> Result<Option<crate::oracle::Standalone>, OracleError> {
        self.inner.standalone_read(module, dir).map_err(|e| self.rename(e))
    }

    fn components(&self) -> &'static [crate::attribution::Owner] {
        self.inner.components()
    }

    fn phase_times(&self) -> crate::oracle::PhaseTimes {
        self.inner.phase_times()
    }

    fn standalone_execute(
        &self,
        request: &ExecRequest<'_>,
        dir: &std::path::Path,
    ) -> Result<Option<crate::oracle::Standalone>, OracleError> {
        self.inner.standalone_execute(request, dir).map_err(|e| self.rename(e))
    }

    fn standalone_validate(
        &self,
        module: &[u32],
        options: &ValidateOptions,
        dir: &std::path::Path,
    ) -> Result<Option<crate::oracle::Standalone>, OracleError> {
        self.inner.standalone_validate(module, options, dir).map_err(|e| self.rename(e))
    }

    fn standalone_produce(
        &self,
        request: &ProduceRequest<'_>,
        dir: &std::path::Path,
    ) -> Result<Option<crate::oracle::Standalone>, OracleError> {
        self.inner.standalone_produce(request, dir).map_err(|e| self.rename(e))
    }
}

/// Every oracle, available or not, and every [`PINNED_INSTANCES`] whose
/// channel is installed.
pub fn build_all(config: &OracleConfig) -> Vec<Box<dyn Oracle>> {
    NAMES.iter().chain(PINNED_INSTANCES).filter_map(|n| build(n, config).ok()).collect()
}

/// The in-tree oracles behind one name: the validator answers validity,
/// the reference executor runs graphs.
#[derive(Clone, Copy, Debug, Default)]
pub struct InTree {
    exec: ExecConfig,
}

impl InTree {
    /// With these executor settings.
    pub fn new(exec: ExecConfig) -> InTree {
        InTree { exec }
    }
}

impl Oracle for InTree {
    fn name(&self) -> &str {
        IN_TREE
    }

    /// Its answers are this harness's own.
    fn components(&self) -> &'static [crate::attribution::Owner] {
        &[crate::attribution::Owner::Spvgraph]
    }

    fn capabilities(&self) -> &'static [Capability] {
        &[Capability::Validate, Capability::Execute]
    }

    fn available(&self) -> Result<(), OracleError> {
        Ok(())
    }

    fn version(&self) -> Option<String> {
        Some(format!("spvgraph {}", env!("CARGO_PKG_VERSION")))
    }

    fn validate(&self, module: &[u32], options: &ValidateOptions) -> Result<Verdict, OracleError> {
        Ok(Validator::new(options.clone()).check_words(module).verdict())
    }

    fn rule_claim(&self, rule: RuleId) -> RuleClaim {
        if rule.is_must_reject() {
            RuleClaim::Exact
        } else {
            RuleClaim::Accepts
        }
    }

    fn execute(&self, request: &ExecRequest<'_>) -> Result<ExecOutcome, OracleError> {
        Executor::new(self.exec).execute(request)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every oracle of the registry keeps the contract; one that cannot run
    /// here says why (and fails the test under `CI=true`).
    #[test]
    fn every_oracle_keeps_the_registry_contract() {
        let config = OracleConfig::default();
        for o in OracleName::ALL {
            let oracle = build(o.name(), &config).unwrap_or_else(|e| panic!("{}: {e}", o.name()));
            match conformance(oracle.as_ref()) {
                Ok(Conformance::Passed { checked }) => eprintln!("{}: {checked:?} conform", o.name()),
                Ok(Conformance::Unavailable(why)) if !Tools::required() => eprintln!("skipping {}: {why}", o.name()),
                Ok(Conformance::Unavailable(why)) => {
                    panic!("{} is required (CI=true) and unavailable: {why}", o.name())
                }
                Err(e) => panic!("{e}"),
            }
        }
    }

    #[test]
    fn every_name_builds_and_unknown_names_are_refused() {
        let config = OracleConfig::default();
        for name in NAMES {
            let o = build(name, &config).expect("known name");
            assert_eq!(o.name(), *name);
        }
        assert!(matches!(build("nope", &config), Err(RegistryError::Unknown(_))));
        let list = build_list("in-tree, spirv-val", &config).expect("two names");
        assert_eq!(list.iter().map(|o| o.name().to_string()).collect::<Vec<_>>(), ["in-tree", "spirv-val"]);
        // `all` also names the pinned channel instances, whose channel must be installed.
        match build_list("all", &config) {
            Ok(all) => assert_eq!(all.len(), NAMES.len() + PINNED_INSTANCES.len()),
            Err(RegistryError::Channel(e)) if !Tools::required() => eprintln!("skipping `all`: {e}"),
            Err(e) => panic!("all: {e}"),
        }
    }

    #[test]
    fn oracle_paths_are_checked() {
        let mut config = OracleConfig::default();
        assert!(matches!(config.set_path("emulation-layer"), Err(RegistryError::BadPath(_))));
        assert!(matches!(config.set_path("nope=/"), Err(RegistryError::Unknown(_))));
        assert!(matches!(config.set_path("iree=/nonexistent/dir"), Err(RegistryError::MissingPath { .. })));
        config.set_path("iree=/").expect("an existing directory");
        assert_eq!(config.path("iree"), Some(Path::new("/")));
        assert_eq!(path_variable("emulation-layer"), "SPVGRAPH_ORACLE_PATH_EMULATION_LAYER");
    }

    #[test]
    fn in_tree_validates_and_executes() {
        let o = InTree::default();
        assert!(o.available().is_ok());
        assert_eq!(o.capabilities(), &[Capability::Validate, Capability::Execute]);
        let words = spvgraph_ir::samples::elementwise_chain(3).encode_words().expect("encodes");
        assert!(o.validate(&words, &ValidateOptions::default()).expect("answers").is_valid());
        let bad = [0x0723_0203u32, 0x0001_0600, 0, 1, 0];
        assert!(!o.validate(&bad, &ValidateOptions::default()).expect("answers").is_valid());
    }
}
