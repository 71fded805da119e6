//! Where the Vulkan pieces a consumer process needs are: the loader, a
//! driver manifest, and the two emulation layers stacked Graph above Tensor.
//! Both consumer oracles start their process with [`VulkanEnv::apply`].
//!
//! The Debian 12 loader (1.3.239) ignores the order of `VK_INSTANCE_LAYERS`
//! and stacks layers in discovery order, and the Graph layer only works above
//! the Tensor layer. So each layer gets a directory of its own holding one
//! manifest with an absolute `library_path`, and `VK_LAYER_PATH` lists the
//! Graph directory first (as `ci/setup-oracles` does for the provisioned
//! layers).

use crate::external::process::ScratchDir;
use crate::tools::{is_elf, Tool, Tools};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

/// The Graph layer's name.
pub const GRAPH_LAYER: &str = "VK_LAYER_ML_Graph_Emulation";
/// The Tensor layer's name.
pub const TENSOR_LAYER: &str = "VK_LAYER_ML_Tensor_Emulation";
/// `VK_INSTANCE_LAYERS` for the two layers, Graph above Tensor.
pub const INSTANCE_LAYERS: &str = "VK_LAYER_ML_Graph_Emulation:VK_LAYER_ML_Tensor_Emulation";

/// The two emulation layers, ready to be stacked.
#[derive(Clone, Debug)]
pub struct Layers {
    /// `VK_LAYER_PATH`: the Graph layer's directory, then the Tensor layer's.
    pub path: OsString,
    /// The layer libraries, Graph then Tensor.
    pub libraries: [PathBuf; 2],
    /// Whether they are a user's build (rather than the provisioned ones).
    pub user: bool,
    /// Manifests written for a user's layers; kept alive with the layers.
    _manifests: Option<Arc<ScratchDir>>,
}

/// The environment of a consumer process: the layers (none for a driver
/// that exposes VK_ARM_tensors and VK_ARM_data_graph itself) and the driver
/// manifests.
#[derive(Clone, Debug)]
pub struct VulkanEnv {
    /// The emulation layers, when the driver needs them.
    pub layers: Option<Layers>,
    /// `VK_ICD_FILENAMES`: the driver manifests.
    pub icds: Vec<PathBuf>,
    /// Whether the driver manifests are the user's.
    pub user_icd: bool,
}

impl VulkanEnv {
    /// The variables [`VulkanEnv::apply`] sets, for a reproduction command.
    pub fn vars(&self) -> Vec<(&'static str, OsString)> {
        let mut icds = OsString::new();
        for (i, p) in self.icds.iter().enumerate() {
            if i > 0 {
                icds.push(":");
            }
            icds.push(p);
        }
        let mut vars = Vec::new();
        if let Some(l) = &self.layers {
            vars.push(("VK_LAYER_PATH", l.path.clone()));
            vars.push(("VK_INSTANCE_LAYERS", OsString::from(INSTANCE_LAYERS)));
        }
        if !self.icds.is_empty() {
            vars.push(("VK_ICD_FILENAMES", icds.clone()));
            vars.push(("VK_DRIVER_FILES", icds));
        }
        vars
    }

    /// Sets the loader's variables on `cmd`; without layers, the layer
    /// variables are removed so that none leak in from this process.
    pub fn apply(&self, cmd: &mut Command) {
        if self.layers.is_none() {
            cmd.env_remove("VK_LAYER_PATH").env_remove("VK_INSTANCE_LAYERS");
        }
        for (k, v) in self.vars() {
            cmd.env(k, v);
        }
    }
}

/// The Vulkan loader the consumers load (`libvulkan.so.1`).
pub fn loader() -> Result<(), String> {
    const DIRS: [&str; 6] =
        ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib", "/lib64", "/lib"];
    let mut dirs: Vec<PathBuf> =
        std::env::var_os("LD_LIBRARY_PATH").map(|v| std::env::split_paths(&v).collect()).unwrap_or_default();
    dirs.extend(DIRS.iter().map(PathBuf::from));
    if dirs.iter().any(|d| d.join("libvulkan.so.1").exists()) {
        Ok(())
    } else {
        Err("the Vulkan loader libvulkan.so.1 is not installed (Debian package libvulkan1)".into())
    }
}

/// The provisioned driver manifest (lavapipe).
pub fn provisioned_icd(tools: &Tools) -> Result<PathBuf, String> {
    tools.get(Tool::VkIcd).map(Path::to_path_buf).map_err(|e| format!("{e} (Debian package mesa-vulkan-drivers)"))
}

/// The provisioned layers: each directory of the provisioned
/// `VK_LAYER_PATH` must hold a manifest whose library exists, and both
/// layers must be there.
pub fn provisioned_layers(tools: &Tools) -> Result<Layers, String> {
    let path = tools.get(Tool::VkLayerPath).map_err(|e| e.to_string())?;
    let layer_path = path.as_os_str().to_string_lossy().into_owned();
    let mut graph = None;
    let mut tensor = None;
    for dir in layer_path.split(':').filter(|d| !d.is_empty()) {
        let Ok(entries) = std::fs::read_dir(dir) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if let Some(m) = read_manifest(&path) {
                let lib = m.library(&path);
                match m.name.as_str() {
                    GRAPH_LAYER if lib.is_file() => graph = Some(lib),
                    TENSOR_LAYER if lib.is_file() => tensor = Some(lib),
                    _ => {}
                }
            }
        }
    }
    match (graph, tensor) {
        (Some(g), Some(t)) => {
            Ok(Layers { path: OsString::from(layer_path), libraries: [g, t], user: false, _manifests: None })
        }
        (g, _) => {
            let which = if g.is_none() { GRAPH_LAYER } else { TENSOR_LAYER };
            Err(format!(
                "{which}: no manifest with an existing library under VK_LAYER_PATH {layer_path} \
                 (ai-ml-emulation-layer-for-vulkan: run ci/setup-oracles)"
            ))
        }
    }
}

/// The provisioned environment: the emulation layers on lavapipe. On
/// failure, one line per missing piece.
pub fn provisioned(tools: &Tools) -> Result<VulkanEnv, Vec<String>> {
    let mut missing = Vec::new();
    let layers = provisioned_layers(tools).map_err(|e| missing.push(e)).ok();
    let icd = provisioned_icd(tools).map_err(|e| missing.push(e)).ok();
    if let Err(e) = loader() {
        missing.push(e);
    }
    match (layers, icd) {
        (Some(layers), Some(icd)) if missing.is_empty() => {
            Ok(VulkanEnv { layers: Some(layers), icds: vec![icd], user_icd: false })
        }
        _ => Err(missing),
    }
}

/// The user's layers found under `dir`, with manifests written for them
/// (Graph first); `Ok(None)` when `dir` holds neither layer. One layer
/// without the other is an error.
pub fn user_layers(found: &Found, tools: &Tools, dir: &Path) -> Result<Option<Layers>, Vec<String>> {
    let templates = tools.get(Tool::VkLayerPath).ok().map(|p| p.as_os_str().to_string_lossy().into_owned());
    let graph = found.layer(GRAPH_LAYER, "libVkLayer_Graph.so", templates.as_deref());
    let tensor = found.layer(TENSOR_LAYER, "libVkLayer_Tensor.so", templates.as_deref());
    let (graph, tensor) = match (graph, tensor) {
        (None, None) => return Ok(None),
        (Some(g), Some(t)) => (g, t),
        (g, _) => {
            let (name, file) =
                if g.is_none() { (GRAPH_LAYER, "libVkLayer_Graph.so") } else { (TENSOR_LAYER, "libVkLayer_Tensor.so") };
            return Err(vec![format!(
                "{name}: neither a manifest with an existing library nor {file} under {}",
                dir.display()
            )]);
        }
    };
    let scratch = ScratchDir::new("vulkan-layer-manifests").map_err(|e| vec![e.to_string()])?;
    let mut dirs = Vec::new();
    for (sub, layer) in [("1_graph", &graph), ("2_tensor", &tensor)] {
        let d = scratch.join(sub);
        let text = serde_json::to_string_pretty(&layer.manifest).map_err(|e| vec![e.to_string()])?;
        std::fs::create_dir_all(&d)
            .and_then(|()| std::fs::write(d.join("layer.json"), text))
            .map_err(|e| vec![format!("{}: cannot write a layer manifest: {e}", d.display())])?;
        dirs.push(d.into_os_string());
    }
    let mut path = OsString::new();
    path.push(&dirs[0]);
    path.push(":");
    path.push(&dirs[1]);
    Ok(Some(Layers {
        path,
        libraries: [graph.library, tensor.library],
        user: true,
        _manifests: Some(Arc::new(scratch)),
    }))
}

/// A layer manifest: its name, `library_path` and whole document.
struct Manifest {
    name: String,
    library_path: String,
    doc: serde_json::Value,
}

impl Manifest {
    /// The library, resolved against the manifest's directory.
    fn library(&self, manifest: &Path) -> PathBuf {
        let lib = Path::new(&self.library_path);
        if lib.is_absolute() {
            lib.to_path_buf()
        } else {
            manifest.parent().unwrap_or(Path::new(".")).join(lib)
        }
    }
}

/// Reads `path` as a layer manifest, if it is one.
fn read_manifest(path: &Path) -> Option<Manifest> {
    if path.extension().and_then(|e| e.to_str()) != Some("json") {
        return None;
    }
    let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
    let layer = doc.get("layer")?;
    let name = layer.get("name")?.as_str()?.to_string();
    let library_path = layer.get("library_path")?.as_str()?.to_string();
    Some(Manifest { name, library_path, doc })
}

/// A layer of a user's build, ready to be written out.
pub(crate) struct UserLayer {
    /// Its library, absolute.
    pub(crate) library: PathBuf,
    /// Its manifest, with the absolute library path.
    pub(crate) manifest: serde_json::Value,
}

/// What a search of a user's directory found: layer manifests and
/// libraries, a `scenario-runner` executable and driver manifests.
#[derive(Default)]
pub struct Found {
    manifests: Vec<(PathBuf, Manifest)>,
    libraries: Vec<PathBuf>,
    /// The first `scenario-runner` executable found.
    pub runner: Option<PathBuf>,
    /// Every driver manifest found (a `.json` with an `ICD` object), in path order.
    pub icds: Vec<PathBuf>,
}

impl Found {
    /// How deep and how wide the search goes: a build or install tree is
    /// searched, not a whole file system.
    const MAX_DEPTH: usize = 8;
    const MAX_ENTRIES: usize = 50_000;

    /// Searches `dir` (or reads the one file `dir` names).
    pub fn search(dir: &Path) -> Found {
        let mut found = Found::default();
        if dir.is_file() {
            found.consider(dir);
            return found;
        }
        let mut stack = vec![(dir.to_path_buf(), 0usize)];
        let mut seen = 0usize;
        while let Some((d, depth)) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&d) else { continue };
            let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
            entries.sort();
            for path in entries {
                seen += 1;
                if seen > Self::MAX_ENTRIES {
                    return found;
                }
                let Ok(meta) = std::fs::symlink_metadata(&path) else { continue };
                if meta.is_dir() {
                    if depth < Self::MAX_DEPTH {
                        stack.push((path, depth + 1));
                    }
                    continue;
                }
                found.consider(&path);
            }
        }
        found
    }

    fn consider(&mut self, path: &Path) {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        match name {
            "libVkLayer_Graph.so" | "libVkLayer_Tensor.so" => self.libraries.push(path.to_path_buf()),
            "scenario-runner" if self.runner.is_none() && is_elf(path) => self.runner = Some(path.to_path_buf()),
            _ if name.ends_with(".json") => {
                if let Some(m) = read_manifest(path) {
                    self.manifests.push((path.to_path_buf(), m));
                } else if is_icd_manifest(path) {
                    self.icds.push(path.to_path_buf());
                }
            }
            _ => {}
        }
    }

    /// The layer `name`: its manifest under the directory (library resolved
    /// against the manifest, else found by file name), or its library alone
    /// with the provisioned manifest (or a minimal one) pointing at it.
    pub(crate) fn layer(&self, name: &str, file: &str, templates: Option<&str>) -> Option<UserLayer> {
        let by_name = || self.libraries.iter().find(|l| l.file_name().and_then(|n| n.to_str()) == Some(file)).cloned();
        let from_manifest = self.manifests.iter().filter(|(_, m)| m.name == name).find_map(|(path, m)| {
            let lib = m.library(path);
            let lib = if lib.is_file() { lib } else { by_name()? };
            Some((lib, m.doc.clone()))
        });
        let (library, mut doc) = match from_manifest {
            Some(x) => x,
            None => {
                let library = by_name()?;
                (library, template(name, templates))
            }
        };
        let absolute = std::fs::canonicalize(&library).unwrap_or(library);
        if let Some(layer) = doc.get_mut("layer").and_then(|l| l.as_object_mut()) {
            layer.insert("library_path".into(), serde_json::Value::String(absolute.display().to_string()));
        }
        Some(UserLayer { library: absolute, manifest: doc })
    }
}

/// The provisioned manifest of layer `name`, or a minimal one.
fn template(name: &str, templates: Option<&str>) -> serde_json::Value {
    for dir in templates.unwrap_or("").split(':').filter(|d| !d.is_empty()) {
        let Ok(entries) = std::fs::read_dir(dir) else { continue };
        for entry in entries.flatten() {
            if let Some(m) = read_manifest(&entry.path()) {
                if m.name == name {
                    return m.doc;
                }
            }
        }
    }
    serde_json::json!({
        "file_format_version": "1.0.0",
        "layer": {
            "name": name,
            "type": "INSTANCE",
            "library_path": "",
            "api_version": "1.3.0",
            "implementation_version": "1",
            "description": name,
        }
    })
}

fn is_icd_manifest(path: &Path) -> bool {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .is_some_and(|doc| doc.get("ICD").and_then(|i| i.get("library_path")).is_some())
}

/// The version a build of the emulation layer or of the scenario runner
/// embeds in its binary: the `"version": "X"` of the JSON it prints for
/// `--version`, followed by its `"revision"`.
pub fn embedded_version(binary: &Path) -> Option<String> {
    let bytes = std::fs::read(binary).ok()?;
    let key = b"\"version\": \"";
    let mut from = 0;
    while let Some(at) = find(&bytes[from..], key).map(|i| i + from) {
        let start = at + key.len();
        let end = start + bytes[start..].iter().take(64).position(|&b| b == b'"')?;
        // The closing quote, a comma, white space, then the revision key.
        let after = bytes.get(end + 1..).unwrap_or(&[]);
        let after = after.strip_prefix(b",").unwrap_or(&[]);
        let next = after.iter().position(|b| !b.is_ascii_whitespace()).map_or(&[][..], |i| &after[i..]);
        if next.starts_with(b"\"revision\"") {
            return String::from_utf8(bytes[start..end].to_vec()).ok();
        }
        from = start;
    }
    None
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_versions_are_read_from_the_json_blob() {
        let dir = ScratchDir::new("vulkan-env-test").expect("scratch");
        let p = dir.join("lib.so");
        std::fs::write(&p, b"\0\0junk \"version\": \"9\" more\0  \"version\": \"0.11.0\",\n  \"revision\": \"x\"")
            .expect("w");
        assert_eq!(embedded_version(&p).as_deref(), Some("0.11.0"));
        std::fs::write(&p, b"nothing here").expect("w");
        assert_eq!(embedded_version(&p), None);
    }

    #[test]
    fn a_user_directory_with_only_libraries_gets_manifests() {
        let dir = ScratchDir::new("vulkan-env-test").expect("scratch");
        let lib = dir.join("build/lib");
        std::fs::create_dir_all(&lib).expect("mkdir");
        std::fs::write(lib.join("libVkLayer_Graph.so"), b"\x7fELF").expect("w");
        std::fs::write(lib.join("libVkLayer_Tensor.so"), b"\x7fELF").expect("w");
        let found = Found::search(dir.path());
        let g = found.layer(GRAPH_LAYER, "libVkLayer_Graph.so", None).expect("graph layer");
        assert!(g.library.ends_with("libVkLayer_Graph.so"));
        assert_eq!(g.manifest["layer"]["name"], GRAPH_LAYER);
        assert_eq!(g.manifest["layer"]["library_path"], g.library.display().to_string());
        assert!(found.layer(TENSOR_LAYER, "libVkLayer_Tensor.so", None).is_some());
        assert!(found.runner.is_none() && found.icds.is_empty());
    }

    #[test]
    fn a_user_manifest_is_resolved_against_its_directory() {
        let dir = ScratchDir::new("vulkan-env-test").expect("scratch");
        let share = dir.join("share/vulkan/explicit_layer.d");
        let lib = dir.join("lib");
        std::fs::create_dir_all(&share).expect("mkdir");
        std::fs::create_dir_all(&lib).expect("mkdir");
        std::fs::write(lib.join("libVkLayer_Tensor.so"), b"\x7fELF").expect("w");
        let doc = serde_json::json!({"file_format_version": "1.0.0",
            "layer": {"name": TENSOR_LAYER, "type": "INSTANCE", "library_path": "libVkLayer_Tensor.so",
                      "device_extensions": [{"name": "VK_ARM_tensors"}]}});
        std::fs::write(share.join("VkLayer_Tensor.json"), doc.to_string()).expect("w");
        let icd = serde_json::json!({"file_format_version": "1.0.0", "ICD": {"library_path": "x.so"}});
        std::fs::write(dir.join("my_icd.json"), icd.to_string()).expect("w");
        let found = Found::search(dir.path());
        let t = found.layer(TENSOR_LAYER, "libVkLayer_Tensor.so", None).expect("found by file name");
        assert!(t.library.ends_with("lib/libVkLayer_Tensor.so"), "{}", t.library.display());
        assert_eq!(t.manifest["layer"]["device_extensions"][0]["name"], "VK_ARM_tensors");
        assert!(found.layer(GRAPH_LAYER, "libVkLayer_Graph.so", None).is_none());
        assert_eq!(found.icds.len(), 1);
        assert!(found.icds[0].ends_with("my_icd.json"));
        // One layer without the other is an error, not a layer-less driver.
        let tools = Tools::discover();
        assert!(user_layers(&found, &tools, dir.path()).is_err());
        // A driver manifest named directly is found too.
        let one = Found::search(&dir.join("my_icd.json"));
        assert_eq!(one.icds.len(), 1);
    }

    #[test]
    fn without_layers_no_layer_variable_is_set() {
        let env =
            VulkanEnv { layers: None, icds: vec![PathBuf::from("/a.json"), PathBuf::from("/b.json")], user_icd: true };
        let vars = env.vars();
        assert!(vars.iter().all(|(k, _)| !k.starts_with("VK_LAYER") && *k != "VK_INSTANCE_LAYERS"));
        assert!(vars.iter().any(|(k, v)| *k == "VK_ICD_FILENAMES" && v == "/a.json:/b.json"));
    }
}
