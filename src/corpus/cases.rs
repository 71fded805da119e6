//! Reading the corpus: every case of `valid/`, `invalid/` and `pipeline/`
//! with what a conforming implementation must do with it, and the run
//! request of each of its entry points.

use anyhow::{anyhow, Context};
use spvgraph_generator::files::{ExpectedOutputRecord, Manifest};
use spvgraph_ir::analysis::Analysis;
use spvgraph_ir::elem::Profile;
use spvgraph_ir::inst::Inst;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::Module;
use spvgraph_oracle::oracle::OwnedExecRequest;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The corpus folders a check reads, in the order reports list them.
pub const FOLDERS: &[&str] = &["valid", "invalid", "pipeline"];

/// What a conforming validator must say about a case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    /// Accept it.
    Valid,
    /// Reject it: it breaks this must-reject rule.
    Reject(String),
}

/// One case of the corpus.
#[derive(Clone, Debug)]
pub struct CorpusCase {
    /// The folder it is in.
    pub dir: PathBuf,
    /// `FOLDER/STEM`, the name reports use.
    pub name: String,
    /// The file stem.
    pub stem: String,
    /// Its manifest.
    pub manifest: Manifest,
    /// What a validator must say.
    pub expect: Expect,
    /// The target environment to validate for (`vulkan1.3` unless the
    /// manifest's `near_valid.target_env` says otherwise).
    pub target_env: String,
    /// A must-reject case that breaks its rule only when exactly these
    /// profiles are enabled (`near_valid.profiles`).
    pub only_profiles: Option<Vec<String>>,
    /// The near-valid mutator that broke the rule, for must-reject cases.
    pub mutator: Option<String>,
}

impl CorpusCase {
    /// The module file.
    pub fn spv(&self) -> PathBuf {
        self.dir.join(&self.manifest.spv)
    }

    /// The module's words (`None` when the file's length is no multiple of 4).
    pub fn words(&self) -> anyhow::Result<Vec<u32>> {
        let path = self.spv();
        let bytes = std::fs::read(&path).with_context(|| format!("{}: cannot read", path.display()))?;
        if bytes.len() % 4 != 0 {
            // Binary-layout rules break exactly this: pad so a validator
            // still gets the words it would have read.
            let mut padded = bytes.clone();
            padded.resize(bytes.len().div_ceil(4) * 4, 0);
            return Ok(padded.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect());
        }
        Ok(bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
    }

    /// The group a report files the case under: its rule for a must-reject
    /// case, its operator for a single-operator case, else
    /// `(several operators)` or `(no operator)`.
    pub fn group(&self) -> String {
        match (&self.expect, self.manifest.ops.as_slice()) {
            (Expect::Reject(rule), _) => rule.clone(),
            (Expect::Valid, [op]) => op.clone(),
            (Expect::Valid, []) => "(no operator)".into(),
            (Expect::Valid, _) => "(several operators)".into(),
        }
    }

    /// Whether an implementation with `profiles` can run every entry point:
    /// for each type row, one of its profiles and all of its extensions.
    /// `Err` names the first row it cannot.
    pub fn profiles_met(&self, profiles: &[Profile]) -> Result<(), String> {
        let has = |name: &String| Profile::from_name(name).is_some_and(|p| profiles.contains(&p));
        for r in &self.manifest.type_rows {
            if !r.profiles.is_empty() && !r.profiles.iter().any(has) {
                return Err(format!("{} row {} needs {}", r.op, r.row, r.profiles.join(" or ")));
            }
            if let Some(missing) = r.also.iter().find(|e| !has(e)) {
                return Err(format!("{} row {} needs {missing}", r.op, r.row));
            }
        }
        Ok(())
    }

    /// The expected outputs of entry point `k`, in output order.
    pub fn expected(&self, k: usize) -> Vec<&ExpectedOutputRecord> {
        let mut out: Vec<&ExpectedOutputRecord> =
            self.manifest.expected.iter().filter(|e| e.entry_point == k).collect();
        out.sort_by_key(|e| e.output);
        out
    }

    /// The run request of entry point `k`: the module, the entry point's
    /// inputs in InputIndex order (tensor arrays in ElementIndex order) and
    /// every graph constant, read from the case's files.
    pub fn request(&self, k: usize) -> anyhow::Result<OwnedExecRequest> {
        let ep = self.manifest.entry_points.get(k).ok_or_else(|| anyhow!("{}: no entry point {k}", self.name))?;
        let words = self.words()?;
        let mut records: Vec<_> = self.manifest.inputs.iter().filter(|i| i.entry_point == k).collect();
        records.sort_by_key(|i| (i.index, i.element));
        let inputs = records
            .iter()
            .map(|i| read(&self.dir.join(&i.file), i.elem))
            .collect::<anyhow::Result<Vec<TensorData>>>()?;
        let module =
            Module::decode_words(&words).map_err(|e| anyhow!("{}: the module does not decode: {e}", self.name))?;
        let graph_constants = read_graph_constants(&self.dir, &module, &self.manifest.graph_constants)?;
        Ok(OwnedExecRequest { module: words, entry_point: Some(ep.name.clone()), inputs, graph_constants })
    }
}

fn read(path: &Path, elem: spvgraph_ir::elem::ElemType) -> anyhow::Result<TensorData> {
    TensorData::read_npy(path, elem).with_context(|| format!("{}: cannot read as {elem}", path.display()))
}

/// The data of every graph constant `files` names, read as the element type
/// the module declares for it.
pub fn read_graph_constants(
    dir: &Path,
    module: &Module,
    files: &BTreeMap<u32, String>,
) -> anyhow::Result<BTreeMap<u32, TensorData>> {
    let a = Analysis::new(module);
    let mut out = BTreeMap::new();
    for inst in &module.insts {
        if let Inst::GraphConstant { ty, graph_constant_id, .. } = inst {
            let Some(file) = files.get(graph_constant_id) else { continue };
            let elem = a
                .tensor_type(*ty)
                .and_then(|t| t.elem)
                .ok_or_else(|| anyhow!("graph constant {graph_constant_id}: no tensor element type"))?;
            out.insert(*graph_constant_id, read(&dir.join(file), elem)?);
        }
    }
    Ok(out)
}

/// Every case of `root`'s corpus folders ([`FOLDERS`]) whose name
/// (`FOLDER/STEM`) matches `filter` (a glob with `*` and `?`), sorted by name.
pub fn load(root: &Path, filter: Option<&str>) -> anyhow::Result<Vec<CorpusCase>> {
    let mut out = Vec::new();
    for folder in FOLDERS {
        let dir = root.join(folder);
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        let mut manifests: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .filter(|p| p.file_name().is_some_and(|n| !n.to_string_lossy().ends_with(".scenario.json")))
            .collect();
        manifests.sort();
        for path in manifests {
            let Some(stem) = path.file_stem().map(|s| s.to_string_lossy().into_owned()) else { continue };
            let name = format!("{folder}/{stem}");
            if filter.is_some_and(|f| !glob_match(f, &name)) {
                continue;
            }
            out.push(read_case(&dir, &name, &stem, &path)?);
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

fn read_case(dir: &Path, name: &str, stem: &str, path: &Path) -> anyhow::Result<CorpusCase> {
    let text = std::fs::read_to_string(path).with_context(|| format!("{}: cannot read", path.display()))?;
    let value: serde_json::Value =
        serde_json::from_str(&text).with_context(|| format!("{}: not JSON", path.display()))?;
    let manifest: Manifest =
        serde_json::from_value(value.clone()).with_context(|| format!("{}: not a case manifest", path.display()))?;
    let expect = match manifest.expect.as_str() {
        "valid" => Expect::Valid,
        rule => Expect::Reject(rule.to_string()),
    };
    let nv = &value["near_valid"];
    let target_env = nv["target_env"].as_str().unwrap_or("vulkan1.3").to_string();
    let only_profiles = nv["profiles"]
        .as_array()
        .map(|ps| ps.iter().filter_map(|p| p.as_str().map(str::to_string)).collect::<Vec<_>>());
    let mutator = nv["mutator"].as_str().map(str::to_string);
    Ok(CorpusCase {
        dir: dir.to_path_buf(),
        name: name.into(),
        stem: stem.into(),
        manifest,
        expect,
        target_env,
        only_profiles,
        mutator,
    })
}

/// Whether `text` matches the glob `pattern` (`*` any run of characters,
/// `?` one character, everything else literal).
pub fn glob_match(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    // Iterative matching with one backtrack point (the last `*`).
    let (mut pi, mut ti) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        match p.get(pi) {
            Some('*') => {
                star = Some((pi, ti));
                pi += 1;
            }
            Some(&c) if c == '?' || c == t[ti] => {
                pi += 1;
                ti += 1;
            }
            _ => match star {
                Some((sp, st)) => {
                    pi = sp + 1;
                    ti = st + 1;
                    star = Some((sp, st + 1));
                }
                None => return false,
            },
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

#[cfg(test)]
mod tests {
    use super::glob_match;

    #[test]
    fn globs_match_as_shells_do() {
        assert!(glob_match("valid/*", "valid/conv2d-r0"));
        assert!(glob_match("*conv2d*", "valid/conv2d-r0"));
        assert!(glob_match("invalid/?ayout*", "invalid/Layout.Magic"));
        assert!(!glob_match("valid/*", "invalid/x"));
        assert!(!glob_match("valid/a?", "valid/a"));
        assert!(glob_match("*", ""));
    }
}
