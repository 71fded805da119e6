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

use crate::exec::{ExecConfig, Executor};
use crate::external::emulation_layer::EmulationLayer;
use crate::external::iree::Iree;
use crate::external::model_converter::ModelConverter;
use crate::external::spirv_val::SpirvVal;
use crate::external::tosa_reference::TosaReferenceModel;
use crate::external::vulkan::Vulkan;
use crate::oracle::{Capability, ExecOutcome, ExecRequest, Oracle, OracleError, RuleClaim, ValidateOptions, Verdict};
use crate::validate::Validator;
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::tools::Tools;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The in-tree oracles: the validator and the reference executor.
pub const IN_TREE: &str = "in-tree";
/// spirv-val (SPIRV-Tools), in process when the library is there.
pub const SPIRV_VAL: &str = "spirv-val";
/// The TOSA reference model (tosa-tools).
pub const TOSA_REF: &str = "tosa-ref";
/// Arm's ML emulation layer for Vulkan through the scenario runner, on lavapipe.
pub const EMULATION_LAYER: &str = "emulation-layer";
/// A Vulkan driver with VK_ARM_data_graph through the API (by default the
/// emulation layer on lavapipe), in a persistent worker process.
pub const VULKAN: &str = "vulkan";
/// model-converter (MLIR's SPIR-V serializer), a producer.
pub const MODEL_CONVERTER: &str = "model-converter";
/// IREE (a second TOSA compiler), on the CPU.
pub const IREE: &str = "iree";

/// Every oracle name, in the order reports list them.
pub const NAMES: &[&str] = &[IN_TREE, SPIRV_VAL, TOSA_REF, EMULATION_LAYER, VULKAN, MODEL_CONVERTER, IREE];

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
}

impl Default for OracleConfig {
    fn default() -> Self {
        OracleConfig {
            tools: Tools::discover(),
            paths: paths_from_env(),
            timeout: Duration::from_secs(60),
            memory_bytes: Some(4 << 30),
        }
    }
}

impl OracleConfig {
    /// The user's directory for oracle `name`, if one was given.
    pub fn path(&self, name: &str) -> Option<&Path> {
        self.paths.get(name).map(PathBuf::as_path)
    }

    /// Adds `NAME=DIR` (the `--oracle-path` syntax).
    pub fn set_path(&mut self, spec: &str) -> Result<(), RegistryError> {
        let (name, dir) = spec.split_once('=').ok_or_else(|| RegistryError::BadPath(spec.to_string()))?;
        check_name(name)?;
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
}

fn check_name(name: &str) -> Result<&'static str, RegistryError> {
    NAMES.iter().copied().find(|n| *n == name).ok_or_else(|| RegistryError::Unknown(name.to_string()))
}

/// Builds the oracle called `name`. An oracle whose tool is missing is still
/// built; its [`Oracle::available`] says why it cannot run.
pub fn build(name: &str, config: &OracleConfig) -> Result<Box<dyn Oracle>, RegistryError> {
    let name = check_name(name)?;
    let dir = config.path(name);
    Ok(match name {
        IN_TREE => Box::new(InTree::default()),
        SPIRV_VAL => Box::new(SpirvVal::from_config(&config.tools, dir)),
        TOSA_REF => Box::new(TosaReferenceModel::from_config(&config.tools, dir).with_timeout(config.timeout)),
        EMULATION_LAYER => Box::new(
            EmulationLayer::from_config(&config.tools, dir)
                .with_timeout(config.timeout)
                .with_memory_limit(config.memory_bytes),
        ),
        VULKAN => Box::new(Vulkan::from_config(&config.tools, dir).with_limits(crate::external::process::Limits {
            timeout: config.timeout,
            memory_bytes: config.memory_bytes,
        })),
        MODEL_CONVERTER => {
            Box::new(ModelConverter::from_config(&config.tools, dir).with_limits(crate::external::process::Limits {
                timeout: config.timeout,
                memory_bytes: config.memory_bytes,
            }))
        }
        IREE => Box::new(Iree::from_config(&config.tools, dir).with_limits(crate::external::process::Limits {
            timeout: config.timeout,
            memory_bytes: config.memory_bytes,
        })),
        _ => Box::new(NotBuiltIn { name }),
    })
}

/// Parses a comma-separated list of names (`all` = every oracle) and builds each.
pub fn build_list(list: &str, config: &OracleConfig) -> Result<Vec<Box<dyn Oracle>>, RegistryError> {
    let names: Vec<&str> = if list.trim() == "all" {
        NAMES.to_vec()
    } else {
        list.split(',').map(str::trim).filter(|s| !s.is_empty()).collect()
    };
    names.into_iter().map(|n| build(n, config)).collect()
}

/// Every oracle, available or not.
pub fn build_all(config: &OracleConfig) -> Vec<Box<dyn Oracle>> {
    NAMES.iter().filter_map(|n| build(n, config).ok()).collect()
}

/// An oracle whose adapter is not part of this build.
struct NotBuiltIn {
    name: &'static str,
}

impl Oracle for NotBuiltIn {
    fn name(&self) -> &str {
        self.name
    }

    fn capabilities(&self) -> &'static [Capability] {
        &[]
    }

    fn available(&self) -> Result<(), OracleError> {
        Err(OracleError::Unavailable { oracle: self.name.to_string(), reason: "no adapter in this build".into() })
    }
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
        assert_eq!(build_list("all", &config).expect("all").len(), NAMES.len());
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
