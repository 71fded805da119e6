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
//!
//! **Variants.** A few instances run the release's own tools configured
//! otherwise ([`VARIANTS`]): `iree@host` compiles for the host CPU where
//! `iree` compiles for a generic one. They need no channel and are opt-in:
//! `all` does not name them (`all@host` does). Being a channel instance,
//! a variant counts as the newer version of its tool.

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

/// IREE compiling for the host CPU (`--iree-llvmcpu-target-cpu=host`),
/// beside `iree`, which compiles for a generic one: a disagreement between
/// the two is code generation that depends on the CPU's features.
pub const IREE_HOST: &str = "iree@host";

/// The variants: instances on the release's tools, configured otherwise
/// (see the module documentation).
pub const VARIANTS: &[&str] = &[IREE_HOST];

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
    if let Some(inner) = build_variant(name, config) {
        return Ok(Box::new(OnChannel {
            inner,
            name: name.to_string(),
            tool: tool.name(),
            channel: channel.to_string(),
        }));
    }
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

/// The variant `name` ([`VARIANTS`]), on the release's tools (or the
/// user's directory for the variant, else for its oracle); `None` for any
/// other name.
fn build_variant(name: &str, config: &OracleConfig) -> Option<Box<dyn Oracle>> {
    match name {
        IREE_HOST => {
            let dir = config.path(IREE_HOST).or_else(|| config.path(IREE));
            Some(Box::new(iree(&config.tools, dir, config).with_target_cpu(crate::external::iree::TargetCpu::Host)))
        }
        _ => None,
    }
}

fn iree(tools: &Tools, dir: Option<&Path>, config: &OracleConfig) -> Iree {
    let iree = Iree::from_config(tools, dir)
        .with_limits(crate::external::process::Limits { timeout: config.timeout, memory_bytes: config.memory_bytes });
    // Not amortized: each graph compiled by itself, one case per batch.
    if config.amortize {
        iree
    } else {
        iree.with_batching(false).with_preferred_batch(1)
    }
}

/// Builds oracle `name` on `tools`, with the user's directory `dir`.
fn build_on(name: OracleName, tools: &Tools, dir: Option<&Path>, config: &OracleConfig) -> Box<dyn Oracle> {
    match name {
        OracleName::InTree => Box::new(InTree::default()),
        OracleName::SpirvVal => Box::new(SpirvVal::from_config(tools, dir)),
        OracleName::TosaRef => Box::new(TosaReferenceModel::from_config(tools, dir).with_timeout(config.timeout)),
        OracleName::EmulationLayer => {
            let el = EmulationLayer::from_config(tools, dir)
                .with_timeout(config.timeout)
                .with_memory_limit(config.memory_bytes)
                .with_workarounds(Workarounds::enabled(config.workarounds));
            // Only ever turned off here: the environment may have turned it off already.
            Box::new(if config.amortize { el } else { el.with_glslang_kept(false) })
        }
        OracleName::Vulkan => {
            let vk = Vulkan::from_config(tools, dir)
                .with_limits(crate::external::process::Limits {
                    timeout: config.timeout,
                    memory_bytes: config.memory_bytes,
                })
                .with_workarounds(config.workarounds);
            Box::new(if config.amortize {
                vk
            } else {
                vk.with_glslang_kept(false).with_spare(false).with_exceptions_caught(false)
            })
        }
        OracleName::ModelConverter => {
            Box::new(ModelConverter::from_config(tools, dir).with_limits(crate::external::process::Limits {
                timeout: config.timeout,
                memory_bytes: config.memory_bytes,
            }))
        }
        OracleName::Iree => Box::new(iree(tools, dir, config)),
        OracleName::ModelExplorer => {
            Box::new(ModelExplorer::from_config(tools, dir).with_limits(crate::external::process::Limits {
                timeout: config.timeout,
                memory_bytes: config.memory_bytes,
            }))
        }
    }
}

/// The instance names a list of names stands for: `all` is every oracle of
/// the registry and the [`PINNED_INSTANCES`] (not the opt-in [`VARIANTS`]),
/// `all@CHANNEL` every oracle the channel has a version of (see [`build`]),
/// or, for a channel that is not installed, the variants of that name
/// (`all@host`: `iree@host`); other names stay as they are. Each name once,
/// in order.
pub fn expand(names: &[String], config: &OracleConfig) -> Result<Vec<String>, RegistryError> {
    let mut out: Vec<String> = Vec::new();
    for name in names {
        let variants: Vec<String> = VARIANTS
            .iter()
            .filter(|v| split_name(v).1.is_some() && split_name(v).1 == split_name(name).1)
            .map(|v| v.to_string())
            .collect();
        let more: Vec<String> = match split_name(name) {
            ("all", None) => NAMES.iter().chain(PINNED_INSTANCES).map(|n| n.to_string()).collect(),
            ("all", Some(channel)) if !variants.is_empty() && config.tools.channel(channel).is_err() => variants,
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

    /// `iree@host` is IREE compiling for the host CPU: a version of `iree`
    /// that no channel installs, which `all` leaves out and `all@host` names.
    #[test]
    fn iree_at_host_is_an_opt_in_version_of_iree() {
        let config = OracleConfig::default();
        assert!(is_instance_name(IREE_HOST));
        let o = build(IREE_HOST, &config).expect("a variant");
        assert_eq!((o.name(), o.tool(), o.channel()), (IREE_HOST, IREE, Some("host")));
        assert_eq!(o.capabilities(), build(IREE, &config).expect("known").capabilities());
        let names = |list: &[&str]| {
            let list: Vec<String> = list.iter().map(|n| n.to_string()).collect();
            expand(&list, &config).expect("expands")
        };
        let all: Vec<String> = NAMES.iter().chain(PINNED_INSTANCES).map(|n| n.to_string()).collect();
        assert_eq!(names(&["all"]), all);
        assert_eq!(names(&["all", "iree@host"]).last().map(String::as_str), Some(IREE_HOST));
        if config.tools.channel("host").is_err() {
            assert_eq!(names(&["all@host"]), [IREE_HOST]);
        }
        assert!(!build_all(&config).iter().any(|o| o.name() == IREE_HOST));
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

    /// A stand-in whose every answer differs from the trait's default, so
    /// that an answer the channel wrapper does not forward shows.
    struct Probe;

    const PROBE_ROWS: &[KnownDiscrepancy] =
        &[KnownDiscrepancy::open("crash", crate::attribution::Owner::Mesa, "probe", "corpus/findings/x.spv")];

    fn probe_standalone(what: &str) -> Result<Option<crate::oracle::Standalone>, OracleError> {
        Ok(Some(crate::oracle::Standalone { tools: vec![what.to_string()], ..Default::default() }))
    }

    impl Oracle for Probe {
        fn name(&self) -> &str {
            "probe"
        }
        fn capabilities(&self) -> &'static [Capability] {
            &[Capability::Validate, Capability::Execute, Capability::Produce]
        }
        fn available(&self) -> Result<(), OracleError> {
            Err(OracleError::Unavailable { oracle: "probe".into(), reason: "a stand-in".into() })
        }
        fn version(&self) -> Option<String> {
            Some("probe 9.9".into())
        }
        fn known_discrepancies(&self) -> &'static [KnownDiscrepancy] {
            PROBE_ROWS
        }
        fn components(&self) -> &'static [crate::attribution::Owner] {
            &[crate::attribution::Owner::Mesa, crate::attribution::Owner::Iree]
        }
        fn default_sample(&self) -> f64 {
            0.125
        }
        fn preferred_batch(&self) -> usize {
            7
        }
        fn reads_spirv(&self) -> bool {
            false
        }
        fn validate(&self, _: &[u32], _: &ValidateOptions) -> Result<Verdict, OracleError> {
            Ok(Verdict::Valid)
        }
        fn execute(&self, _: &ExecRequest<'_>) -> Result<ExecOutcome, OracleError> {
            Ok(ExecOutcome::Outputs(Vec::new()))
        }
        fn execute_batch(&self, requests: &[ExecRequest<'_>]) -> Vec<Result<ExecOutcome, OracleError>> {
            // One tensor per answer, so that a batch differs from the default's.
            let one = spvgraph_ir::tensor::TensorData::zeros(spvgraph_ir::elem::ElemType::I32, &[1]);
            requests.iter().map(|_| Ok(ExecOutcome::Outputs(vec![one.clone()]))).collect()
        }
        fn produce(&self, _: &ProduceRequest<'_>) -> Result<ProduceOutcome, OracleError> {
            Err(OracleError::Failed { oracle: "probe".into(), reason: "produced nothing".into() })
        }
        fn rule_claim(&self, _: RuleId) -> RuleClaim {
            RuleClaim::Rejects
        }
        fn standalone_execute(
            &self,
            _: &ExecRequest<'_>,
            _: &Path,
        ) -> Result<Option<crate::oracle::Standalone>, OracleError> {
            probe_standalone("execute")
        }
        fn standalone_validate(
            &self,
            _: &[u32],
            _: &ValidateOptions,
            _: &Path,
        ) -> Result<Option<crate::oracle::Standalone>, OracleError> {
            probe_standalone("validate")
        }
        fn standalone_produce(
            &self,
            _: &ProduceRequest<'_>,
            _: &Path,
        ) -> Result<Option<crate::oracle::Standalone>, OracleError> {
            probe_standalone("produce")
        }
        fn phase_times(&self) -> crate::oracle::PhaseTimes {
            crate::oracle::PhaseTimes { run: Duration::from_secs(3), ..Default::default() }
        }
        fn execute_precise(&self, _: &ExecRequest<'_>) -> Result<PreciseOutcome, OracleError> {
            Err(OracleError::Failed { oracle: "probe".into(), reason: "precise".into() })
        }
    }

    /// A channel instance answers as its oracle does (under its own name):
    /// every method of [`Oracle`] with a default is forwarded, so that an
    /// instance keeps its owner (`components`), its documented rows, its
    /// sampling and its standalone reproducers.
    #[test]
    fn a_channel_instance_forwards_every_answer_of_its_oracle() {
        let on = OnChannel { inner: Box::new(Probe), name: "probe@dev".into(), tool: "probe", channel: "dev".into() };
        let p = Probe;
        assert_eq!((on.name(), on.tool(), on.channel()), ("probe@dev", "probe", Some("dev")));
        assert_eq!(on.capabilities(), p.capabilities());
        assert!(matches!(on.available(), Err(OracleError::Unavailable { oracle, .. }) if oracle == "probe@dev"));
        assert_eq!(on.version(), p.version());
        assert_eq!(on.known_discrepancies().len(), 1);
        assert_eq!(on.known_discrepancies()[0].why, "probe");
        assert_eq!(on.components(), p.components());
        assert_eq!(on.default_sample(), p.default_sample());
        assert_eq!(on.preferred_batch(), p.preferred_batch());
        assert_eq!(on.reads_spirv(), p.reads_spirv());
        assert_eq!(on.phase_times(), p.phase_times());
        for rule in [RuleId::TosaOperandCount, RuleId::LayoutGraphBodyInstruction] {
            assert_eq!(on.rule_claim(rule), p.rule_claim(rule));
        }
        let words = [0u32; 5];
        let gc = BTreeMap::new();
        let request = ExecRequest { module: &words, entry_point: None, inputs: &[], graph_constants: &gc };
        let produce = ProduceRequest { mlir: "", debug_info: false };
        let options = ValidateOptions::default();
        assert_eq!(on.validate(&words, &options), p.validate(&words, &options));
        assert_eq!(on.execute(&request), p.execute(&request));
        assert_eq!(on.execute_batch(std::slice::from_ref(&request)), p.execute_batch(std::slice::from_ref(&request)));
        assert!(matches!(on.produce(&produce), Err(OracleError::Failed { oracle, .. }) if oracle == "probe@dev"));
        assert!(matches!(on.execute_precise(&request), Err(OracleError::Failed { reason, .. }) if reason == "precise"));
        let dir = Path::new(".");
        assert_eq!(on.standalone_execute(&request, dir), probe_standalone("execute"));
        assert_eq!(on.standalone_validate(&words, &options, dir), probe_standalone("validate"));
        assert_eq!(on.standalone_produce(&produce, dir), probe_standalone("produce"));
    }

    /// The names of the `fn`s declared in the block of `source` that starts
    /// with `header` (up to the block's closing brace at column 0).
    fn fns_in(source: &str, header: &str, with_default: bool) -> Vec<String> {
        let Some(start) = source.find(header) else { return Vec::new() };
        let block = &source[start..];
        let block = &block[..block.find("\n}\n").unwrap_or(block.len())];
        let mut out = Vec::new();
        let lines: Vec<&str> = block.lines().collect();
        for (k, line) in lines.iter().enumerate() {
            let Some(rest) = line.trim_start().strip_prefix("fn ") else { continue };
            let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            // A default has a body: the signature's lines end in `{`, not `;`.
            let signature_end = lines[k..].iter().find(|l| l.trim_end().ends_with('{') || l.trim_end().ends_with(';'));
            let has_body = signature_end.is_some_and(|l| l.trim_end().ends_with('{'));
            if has_body || !with_default {
                out.push(name);
            }
        }
        out
    }

    /// Adding a default method to [`Oracle`] without forwarding it from
    /// [`OnChannel`] would make channel instances answer the default (the
    /// bug that lost their owner and reproducer): every default is
    /// implemented there, except `tool` and `channel`, which are the
    /// instance's own.
    #[test]
    fn every_default_method_of_the_trait_is_implemented_by_the_channel_wrapper() {
        let defaults = fns_in(include_str!("oracle.rs"), "pub trait Oracle: Send + Sync {", true);
        let forwarded = fns_in(include_str!("registry.rs"), "impl Oracle for OnChannel {", false);
        assert!(defaults.len() >= 15 && defaults.contains(&"standalone_produce".to_string()), "{defaults:?}");
        let missing: Vec<&String> = defaults.iter().filter(|d| !forwarded.contains(d)).collect();
        assert!(missing.is_empty(), "OnChannel does not forward {missing:?}");
    }

    /// Every registry oracle and a channel instance of it give the same
    /// capability-independent answers: the `dev` channel's where it has a
    /// version of the oracle, else a user's build under a label (from an
    /// empty directory, so that no real channel is needed).
    #[test]
    fn every_oracle_and_its_channel_instance_answer_alike() {
        let dir = std::env::temp_dir().join(format!("spvgraph-registry-probe-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("scratch dir");
        let mut config = OracleConfig::default();
        for o in OracleName::ALL {
            config.set_path(&format!("{}@probe={}", o.name(), dir.display())).expect("a label and a directory");
        }
        for o in OracleName::ALL {
            let release = build(o.name(), &config).expect("builds");
            let (on, channel) = match build(&format!("{}@dev", o.name()), &config) {
                Ok(dev) => (dev, "dev"),
                Err(_) => (build(&format!("{}@probe", o.name()), &config).expect("a channel instance"), "probe"),
            };
            let what = on.name().to_string();
            assert_eq!(on.tool(), o.name());
            assert_eq!(on.channel(), Some(channel));
            assert_eq!(on.components(), release.components(), "{what}: components");
            assert_eq!(on.capabilities(), release.capabilities(), "{what}: capabilities");
            // The `vulkan` oracle's rows are the layers' only when layers are
            // in use: an unusable build has none, whoever wraps it.
            if on.available().is_ok() == release.available().is_ok() {
                let rows = |x: &dyn Oracle| x.known_discrepancies().iter().map(|k| k.finding).collect::<Vec<_>>();
                assert_eq!(rows(on.as_ref()), rows(release.as_ref()), "{what}: documented rows");
            }
            assert_eq!(on.default_sample(), release.default_sample(), "{what}: sample");
            assert_eq!(on.preferred_batch(), release.preferred_batch(), "{what}: batch");
            assert_eq!(on.reads_spirv(), release.reads_spirv(), "{what}: reads_spirv");
            for rule in [RuleId::TosaOperandCount, RuleId::LayoutGraphBodyInstruction, RuleId::TosaShapeOutput] {
                assert_eq!(on.rule_claim(rule), release.rule_claim(rule), "{what}: {rule:?}");
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
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
