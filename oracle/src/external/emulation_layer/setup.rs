//! Where the scenario runner is, with the Vulkan environment it runs in
//! ([`crate::external::consumer::env`]): the provisioned tools
//! (`ci/setup-oracles`), or a user's own build under a directory
//! (`--oracle-path emulation-layer=DIR`).

use crate::external::consumer::env::{self, Found, VulkanEnv};
use crate::tools::{Tool, Tools};
use std::path::{Path, PathBuf};

/// Everything a run needs, found.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The `scenario-runner` executable.
    pub runner: PathBuf,
    /// The layers (always present here) and the driver.
    pub env: VulkanEnv,
    /// Where the layers came from: `Some(dir)` when they are the user's.
    pub user_dir: Option<PathBuf>,
    /// Whether the runner is the user's (rather than the provisioned one).
    pub user_runner: bool,
}

impl Setup {
    /// The layer libraries, Graph then Tensor.
    pub fn layer_libraries(&self) -> Option<&[PathBuf; 2]> {
        self.env.layers.as_ref().map(|l| &l.libraries)
    }
}

/// The provisioned tools: `Tool::ScenarioRunner`, `Tool::VkLayerPath`,
/// `Tool::VkIcd`. On failure, one line per missing piece.
pub fn provisioned(tools: &Tools) -> Result<Setup, Vec<String>> {
    let runner = tools.get(Tool::ScenarioRunner).map(Path::to_path_buf).map_err(|e| e.to_string());
    let env = env::provisioned(tools);
    match (runner, env) {
        (Ok(runner), Ok(env)) => Ok(Setup { runner, env, user_dir: None, user_runner: false }),
        (runner, env) => {
            let mut missing: Vec<String> = runner.err().into_iter().collect();
            missing.extend(env.err().unwrap_or_default());
            Err(missing)
        }
    }
}

/// A user's build under `dir`: the two layers (their manifests, or only
/// `libVkLayer_Graph.so` and `libVkLayer_Tensor.so`), and optionally a
/// `scenario-runner` and a Vulkan driver manifest (a `.json` file with an
/// `ICD` object), found anywhere under `dir`. What `dir` lacks comes from the
/// provisioned tools.
pub fn from_dir(tools: &Tools, dir: &Path) -> Result<Setup, Vec<String>> {
    let found = Found::search(dir);
    let mut missing = Vec::new();
    let runner = match &found.runner {
        Some(r) => Some(r.clone()),
        None => tools
            .get(Tool::ScenarioRunner)
            .map(Path::to_path_buf)
            .map_err(|e| missing.push(format!("no scenario-runner under {} and {e}", dir.display())))
            .ok(),
    };
    let icds = match found.icds.first() {
        Some(i) => Some(vec![i.clone()]),
        None => env::provisioned_icd(tools).map(|i| vec![i]).map_err(|e| missing.push(e)).ok(),
    };
    let layers = match env::user_layers(&found, tools, dir) {
        Ok(Some(l)) => Some(l),
        Ok(None) => {
            for (name, file) in [(env::GRAPH_LAYER, "libVkLayer_Graph.so"), (env::TENSOR_LAYER, "libVkLayer_Tensor.so")]
            {
                missing.push(format!(
                    "{name}: neither a manifest with an existing library nor {file} under {}",
                    dir.display()
                ));
            }
            None
        }
        Err(e) => {
            missing.extend(e);
            None
        }
    };
    if let Err(e) = env::loader() {
        missing.push(e);
    }
    match (runner, icds, layers) {
        (Some(runner), Some(icds), Some(layers)) if missing.is_empty() => Ok(Setup {
            runner,
            env: VulkanEnv { layers: Some(layers), icds, user_icd: !found.icds.is_empty() },
            user_dir: Some(dir.to_path_buf()),
            user_runner: found.runner.is_some(),
        }),
        _ => Err(missing),
    }
}
