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
//! too, beside the release one (on the release's tools under that label,
//! [`Tools::labelled`]). The channel is data of the oracle, not a wrapper
//! around it: the oracle is built on the channel's [`Tools`], which carry
//! the channel's name, and takes its [`Instance`] from them, so it answers
//! as the release does under its own name; [`Instance::tool`] and
//! [`Instance::channel`] tell the judgement that two instances are versions
//! of one tool.
//!
//! **Variants.** A few instances run the release's own tools configured
//! otherwise ([`VARIANTS`]): `iree@host` compiles for the host CPU where
//! `iree` compiles for a generic one. They need no channel and are opt-in:
//! `all` does not name them (`all@host` does). Being a channel instance,
//! a variant counts as the newer version of its tool.

use crate::exec::ExecConfig;
use crate::external::consumer::Workarounds;
use crate::external::emulation_layer::EmulationLayer;
use crate::external::iree::Iree;
use crate::external::model_converter::ModelConverter;
use crate::external::model_explorer::ModelExplorer;
use crate::external::spirv_val::SpirvVal;
use crate::external::tosa_reference::TosaReferenceModel;
use crate::external::vulkan::Vulkan;
use crate::oracle::{ExecOutcome, ExecRequest, Executor, Instance, Oracle, OracleError, RuleClaim};
use crate::oracle::{ValidateOptions, Validator, Verdict};
use crate::tools::{ChannelUnavailable, Tools};
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
    if let Some(variant) = build_variant(name, channel, config) {
        return Ok(variant);
    }
    let dir = config.path(name);
    let tools = match (config.tools.channel(channel), dir) {
        (Ok(t), _) => t,
        // A user's build under a label of its own: the release's tools for the rest.
        (Err(_), Some(_)) => config.tools.labelled(channel),
        (Err(e), None) => return Err(e.into()),
    };
    let on = build_on(tool, &tools, dir, config);
    if dir.is_none() {
        let release = build_on(tool, &config.tools, None, config);
        if on.available().is_ok() && release.available().is_ok() && on.version() == release.version() {
            return Err(RegistryError::NoChannel {
                name: tool.name().to_string(),
                channel: channel.to_string(),
                version: on.version().unwrap_or_else(|| "the same tools".into()),
            });
        }
    }
    Ok(on)
}

/// The variant `name` ([`VARIANTS`]), on the release's tools under the
/// variant's `label` (or the user's directory for the variant, else for its
/// oracle); `None` for any other name.
fn build_variant(name: &str, label: &str, config: &OracleConfig) -> Option<Box<dyn Oracle>> {
    match name {
        IREE_HOST => {
            let dir = config.path(IREE_HOST).or_else(|| config.path(IREE));
            let tools = config.tools.labelled(label);
            Some(Box::new(iree(&tools, dir, config).with_target_cpu(crate::external::iree::TargetCpu::Host)))
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
        OracleName::InTree => Box::new(InTree::from_tools(tools)),
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

/// Every oracle, available or not, and every [`PINNED_INSTANCES`] whose
/// channel is installed.
pub fn build_all(config: &OracleConfig) -> Vec<Box<dyn Oracle>> {
    NAMES.iter().chain(PINNED_INSTANCES).filter_map(|n| build(n, config).ok()).collect()
}

/// The in-tree oracles behind one name: the validator answers validity,
/// the reference executor runs graphs.
#[derive(Clone, Debug)]
pub struct InTree {
    exec: ExecConfig,
    instance: Instance,
}

impl Default for InTree {
    fn default() -> Self {
        InTree::new(ExecConfig::default())
    }
}

impl InTree {
    /// With these executor settings.
    pub fn new(exec: ExecConfig) -> InTree {
        InTree { exec, instance: Instance::release(IN_TREE) }
    }

    /// The registry's constructor: under the channel of `tools` (the
    /// in-tree oracles run no tool, so only a user's label gives them one).
    pub fn from_tools(tools: &Tools) -> InTree {
        InTree { exec: ExecConfig::default(), instance: Instance::of(IN_TREE, tools) }
    }
}

impl Oracle for InTree {
    fn instance(&self) -> &Instance {
        &self.instance
    }

    fn available(&self) -> Result<(), OracleError> {
        Ok(())
    }

    fn version(&self) -> Option<String> {
        Some(format!("spvgraph {}", env!("CARGO_PKG_VERSION")))
    }

    /// Its answers are this harness's own.
    fn components(&self) -> &'static [crate::attribution::Owner] {
        &[crate::attribution::Owner::Spvgraph]
    }

    crate::capabilities! { validator: yes, executor: yes, producer: no, reader: no, referee: no }
}

impl Validator for InTree {
    fn validate(&self, module: &[u32], options: &ValidateOptions) -> Result<Verdict, OracleError> {
        Ok(crate::validate::Validator::new(options.clone()).check_words(module).verdict())
    }

    fn rule_claim(&self, rule: RuleId) -> RuleClaim {
        if rule.is_must_reject() {
            RuleClaim::Exact
        } else {
            RuleClaim::Accepts
        }
    }
}

impl Executor for InTree {
    fn execute(&self, request: &ExecRequest<'_>) -> Result<ExecOutcome, OracleError> {
        self.instance.own(crate::exec::Executor::new(self.exec).execute(request))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::Capability;

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

    /// What an instance answers about itself, whatever its channel: its
    /// capabilities, owners, documented rows, hints and rule claims.
    fn identity(o: &dyn Oracle) -> String {
        let rows: Vec<&str> = o.known_discrepancies().iter().map(|k| k.finding).collect();
        let claims: Vec<RuleClaim> = RuleId::ALL.iter().map(|r| o.rule_claim(*r)).collect();
        format!(
            "{:?} {:?} {rows:?} {} {} {} {claims:?}",
            o.capabilities(),
            o.components(),
            o.default_sample(),
            o.preferred_batch(),
            o.reads_spirv()
        )
    }

    /// The errors of every answer of `o` that can fail, on a small case,
    /// reproducers written into `dir`.
    fn errors(o: &dyn Oracle, dir: &Path) -> Vec<OracleError> {
        let words = spvgraph_ir::samples::elementwise_chain(3).encode_words().expect("encodes");
        let constants = BTreeMap::new();
        let request = ExecRequest { module: &words, entry_point: None, inputs: &[], graph_constants: &constants };
        let produce = crate::oracle::ProduceRequest { mlir: "", debug_info: false };
        let options = ValidateOptions::default();
        let mut out: Vec<OracleError> = o.available().err().into_iter().collect();
        let mut keep = |r: Result<(), OracleError>| out.extend(r.err());
        for c in o.capabilities() {
            match c {
                Capability::Validate => {
                    let v = o.validator().expect("a validator");
                    keep(v.validate(&words, &options).map(drop));
                    keep(v.standalone_validate(&words, &options, dir).map(drop));
                }
                Capability::Execute => {
                    let e = o.executor().expect("an executor");
                    keep(e.execute(&request).map(drop));
                    e.execute_batch(&[request]).into_iter().for_each(|r| keep(r.map(drop)));
                    keep(e.standalone_execute(&request, dir).map(drop));
                }
                Capability::Produce => {
                    let p = o.producer().expect("a producer");
                    keep(p.produce(&produce).map(drop));
                    keep(p.standalone_produce(&produce, dir).map(drop));
                }
                Capability::Reference => keep(o.referee().expect("a referee").execute_precise(&request).map(drop)),
                Capability::Describe => {
                    let r = o.reader().expect("a reader");
                    keep(r.read(&words).map(drop));
                    keep(r.read_container(&[]).map(drop));
                    keep(r.standalone_read(&words, dir).map(drop));
                }
            }
        }
        out
    }

    fn named(e: &OracleError) -> &str {
        match e {
            OracleError::Unavailable { oracle, .. }
            | OracleError::Unsupported { oracle, .. }
            | OracleError::Failed { oracle, .. } => oracle,
        }
    }

    /// A channel instance is its oracle built on other tools, not a wrapper
    /// that forwards answers by hand (one that missed a new answer would
    /// lose, say, its owner): every oracle, and each variant, built on no
    /// tools at all as a user's build under a label, answers about itself
    /// as the release does, under its own name, and names itself in every
    /// error (all the more as, without tools, every backend fails).
    #[test]
    fn a_channel_instance_answers_as_its_oracle_under_its_own_name() {
        let empty = std::env::temp_dir().join(format!("spvgraph-registry-empty-{}", std::process::id()));
        let scratch = empty.join("reproducers");
        std::fs::create_dir_all(&scratch).expect("scratch dir");
        let mut config =
            OracleConfig { tools: Tools::from_dir(&empty), paths: BTreeMap::new(), ..OracleConfig::default() };
        let mut instances: Vec<String> = VARIANTS.iter().map(|v| v.to_string()).collect();
        for o in OracleName::ALL {
            config.set_path(&format!("{}@probe={}", o.name(), empty.display())).expect("a label and a directory");
            instances.push(format!("{}@probe", o.name()));
        }
        for name in &instances {
            let (tool, channel) = split_name(name);
            let on = build(name, &config).unwrap_or_else(|e| panic!("{name}: {e}"));
            let release = build(tool, &config).expect("the release");
            assert_eq!((on.name(), on.tool(), on.channel()), (name.as_str(), tool, channel));
            assert_eq!((release.name(), release.tool(), release.channel()), (tool, tool, None));
            assert_eq!(identity(on.as_ref()), identity(release.as_ref()), "{name}");
            // Without tools only the in-tree oracles can answer.
            assert_eq!(on.available().is_ok(), tool == IN_TREE, "{name}");
            let errors = errors(on.as_ref(), &scratch);
            assert!(tool == IN_TREE || errors.len() > on.capabilities().len(), "{name}: {errors:?}");
            for e in &errors {
                assert_ne!(named(e), tool, "{name} answers an error under its release's name: {e}");
            }
        }
        let _ = std::fs::remove_dir_all(&empty);
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
            // The `vulkan` oracle's rows are the layers' only when layers are
            // in use: an unusable build has none.
            if on.available().is_ok() == release.available().is_ok() {
                assert_eq!(identity(on.as_ref()), identity(release.as_ref()), "{what}");
            } else {
                assert_eq!(on.capabilities(), release.capabilities(), "{what}: capabilities");
                assert_eq!(on.components(), release.components(), "{what}: components");
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn in_tree_validates_and_executes() {
        let o = InTree::default();
        assert!(o.available().is_ok());
        assert_eq!((&o as &dyn Oracle).capabilities(), &[Capability::Validate, Capability::Execute]);
        let words = spvgraph_ir::samples::elementwise_chain(3).encode_words().expect("encodes");
        assert!(o.validate(&words, &ValidateOptions::default()).expect("answers").is_valid());
        let bad = [0x0723_0203u32, 0x0001_0600, 0, 1, 0];
        assert!(!o.validate(&bad, &ValidateOptions::default()).expect("answers").is_valid());
    }
}
