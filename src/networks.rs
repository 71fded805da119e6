//! Real networks (`corpus/networks/`): TOSA 1.0 flatbuffers that
//! ExecuTorch's Arm backend lowered from torchvision and hand-written
//! models (`corpus/networks/make.py`), each with its fixed inputs and the
//! TOSA reference model's outputs on them.
//!
//! A network file is a TOSA flatbuffer (`NET.tosa`) or TOSA MLIR
//! (`NET.mlir`), either possibly compressed (`.xz`, `.gz`). It becomes a
//! SPIR-V graph module the way a user's network does: the flatbuffer is read
//! back as MLIR by `tosa-opt --tosa-deserialize`, and model-converter (the
//! producer among the oracles) converts the MLIR; its module keeps the
//! weights as graph constants, whose data the producer hands back with it.
//! [`load`] does this for every network of a corpus: the modules with their
//! data, which the hunt can seed from.
//!
//! The manifest next to a network file (`NET.json` for `NET.tosa.xz`,
//! [`NetworkManifest`]) names its inputs and expected outputs, in the
//! flatbuffer's order; the producer's interface map says where each went in
//! the module.

use anyhow::{anyhow, bail, Context};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::Module;
use spvgraph_oracle::exec;
use spvgraph_oracle::external::process::{self, Limits, ScratchDir};
use spvgraph_oracle::oracle::{Oracle, OwnedExecRequest, ProduceOutcome, ProduceRequest};
use spvgraph_oracle::produced::{InterfaceMap, OutputSource};
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The corpus folder of the networks, under the corpus root.
pub const FOLDER: &str = "networks";

/// The default time limit of one backend run on a network, in seconds of
/// CPU time (`spvgraph diff` on a network file, `corpus check --networks`):
/// a backend compiles a network's graph of hundreds of operators, and its
/// observed form, for minutes (IREE single-threaded, the emulation layer's
/// pipeline creation), where a generated case takes seconds.
pub const TIMEOUT_SECS: f64 = 300.0;

/// What a network file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GraphFormat {
    /// A TOSA flatbuffer.
    Flatbuffer,
    /// TOSA MLIR text.
    Mlir,
}

/// The format and compression of a file named like a network
/// (`.tosa`, `.mlir`, each optionally `.xz` or `.gz`), or `None`.
pub fn graph_format(path: &Path) -> Option<GraphFormat> {
    let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
    let base = name.strip_suffix(".xz").or_else(|| name.strip_suffix(".gz")).unwrap_or(&name);
    if base.ends_with(".tosa") {
        Some(GraphFormat::Flatbuffer)
    } else if base.ends_with(".mlir") {
        Some(GraphFormat::Mlir)
    } else {
        None
    }
}

/// The file's bytes, decompressed when its name ends in `.xz` or `.gz`.
pub fn read_decompressed(path: &Path) -> anyhow::Result<Vec<u8>> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let name = path.file_name().map(|n| n.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
    let mut out = Vec::new();
    if name.ends_with(".xz") {
        lzma_rs::xz_decompress(&mut bytes.as_slice(), &mut out)
            .map_err(|e| anyhow!("{}: not a valid xz stream: {e}", path.display()))?;
    } else if name.ends_with(".gz") {
        flate2::read::GzDecoder::new(bytes.as_slice())
            .read_to_end(&mut out)
            .with_context(|| format!("{}: not a valid gzip stream", path.display()))?;
    } else {
        out = bytes;
    }
    Ok(out)
}

/// How long `tosa-opt` may take to read a flatbuffer back (the largest
/// committed network takes well under a second).
const DESERIALIZE_TIMEOUT: Duration = Duration::from_secs(120);

/// TOSA MLIR of the TOSA flatbuffer `flatbuffer`, read back by `tosa_opt`
/// (`tosa-opt --tosa-deserialize`).
pub fn flatbuffer_to_mlir(flatbuffer: &[u8], tosa_opt: &Path) -> anyhow::Result<String> {
    let dir = ScratchDir::new("network").map_err(|e| anyhow!("{e}"))?;
    let fb = dir.path().join("net.tosa");
    std::fs::write(&fb, flatbuffer).with_context(|| format!("cannot write {}", fb.display()))?;
    let mut cmd = Command::new(tosa_opt);
    // The pass replaces the (empty) input module with the flatbuffer's
    // graph. The MLIR goes to a file: tosa-opt 2026.8 prints notes about the
    // flatbuffer's serializer version on stdout.
    let out = dir.path().join("net.mlir");
    cmd.arg(format!("--tosa-deserialize=tosa-flatbuffer-filename={}", fb.display())).arg("-o").arg(&out);
    let limits = Limits { timeout: DESERIALIZE_TIMEOUT, ..Limits::default() };
    let run = process::run(cmd, dir.path(), &limits).map_err(|e| anyhow!("{}: {e}", tosa_opt.display()))?;
    if !run.success() {
        bail!("tosa-opt --tosa-deserialize failed ({}): {}", run.status_text(), run.tail(12));
    }
    let mlir = std::fs::read_to_string(&out).with_context(|| format!("tosa-opt wrote no {}", out.display()))?;
    if !mlir.contains("func.func") {
        bail!("tosa-opt --tosa-deserialize gave no function: {}", run.tail(12));
    }
    Ok(mlir)
}

/// The TOSA MLIR of a network file ([`graph_format`]): MLIR text as it is,
/// a flatbuffer read back by `tosa_opt` (`None`: not available, which only
/// a flatbuffer needs).
pub fn mlir_of(path: &Path, tosa_opt: Option<&Path>) -> anyhow::Result<String> {
    let bytes = read_decompressed(path)?;
    match graph_format(path) {
        Some(GraphFormat::Mlir) => {
            String::from_utf8(bytes).map_err(|_| anyhow!("{}: the MLIR is not UTF-8 text", path.display()))
        }
        Some(GraphFormat::Flatbuffer) => {
            let tosa_opt = tosa_opt.ok_or_else(|| {
                anyhow!(
                    "{}: reading a TOSA flatbuffer needs tosa-opt (tosa-tools: run ci/setup-oracles)",
                    path.display()
                )
            })?;
            flatbuffer_to_mlir(&bytes, tosa_opt)
                .with_context(|| format!("{}: cannot read the flatbuffer", path.display()))
        }
        None => bail!("{}: not a network file (.tosa or .mlir, optionally .xz or .gz)", path.display()),
    }
}

/// `tosa-opt`, where `ci/setup-oracles` installed it.
pub fn tosa_opt() -> Option<PathBuf> {
    let tools = spvgraph_oracle::tools::Tools::discover();
    tools.get(spvgraph_oracle::tools::Tool::TosaOpt).ok().map(Path::to_path_buf)
}

/// One tensor file a network manifest names.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TensorFile {
    /// The `.npy` file, relative to the manifest.
    pub file: String,
    /// The flatbuffer's name for the tensor.
    #[serde(default)]
    pub name: String,
    /// The TOSA element type (`FP32`, `INT8`, ...).
    #[serde(default)]
    pub dtype: String,
    /// The shape.
    #[serde(default)]
    pub shape: Vec<u64>,
}

/// The manifest of a network (`NET.json`), as `make.py` writes it. Only
/// what the harness reads is typed; the rest (provenance, the eager
/// PyTorch comparison) stays in the file for people.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct NetworkManifest {
    /// `NETWORK-PRECISION` (`mobilenet_v2-int8`).
    pub name: String,
    /// The architecture (`mobilenet_v2`).
    #[serde(default)]
    pub network: String,
    /// `cnn`, `segmentation`, `detection`, `attention`, `sequence`.
    #[serde(default)]
    pub family: String,
    /// `fp32` or `int8`.
    #[serde(default)]
    pub precision: String,
    /// The network file, relative to the manifest.
    pub file: String,
    /// TOSA operators in the flatbuffer.
    #[serde(default)]
    pub operators: usize,
    /// The fixed inputs, in the flatbuffer's input order.
    pub inputs: Vec<TensorFile>,
    /// The TOSA reference model's outputs on them, in the flatbuffer's output order.
    #[serde(default)]
    pub expected: Vec<TensorFile>,
}

/// The manifest next to a network file: `NET.json` for `NET.tosa.xz`,
/// `NET.tosa` or `NET.mlir.gz`; `None` when there is none.
pub fn manifest_path(file: &Path) -> Option<PathBuf> {
    let name = file.file_name()?.to_string_lossy().into_owned();
    let stem = name.split('.').next().filter(|s| !s.is_empty())?;
    let path = file.with_file_name(format!("{stem}.json"));
    path.is_file().then_some(path)
}

/// Reads a network manifest.
pub fn read_manifest(path: &Path) -> anyhow::Result<NetworkManifest> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("{}: not a network manifest", path.display()))
}

/// One network of a corpus: its folder and manifest.
#[derive(Clone, Debug)]
pub struct Network {
    /// The folder it is in.
    pub dir: PathBuf,
    /// Its manifest.
    pub manifest: NetworkManifest,
}

impl Network {
    /// `networks/NAME`, the name reports and `--filter` use.
    pub fn case_name(&self) -> String {
        format!("{FOLDER}/{}", self.manifest.name)
    }

    /// The network file.
    pub fn file(&self) -> PathBuf {
        self.dir.join(&self.manifest.file)
    }

    /// The fixed inputs, in the flatbuffer's order, each read as the
    /// element type its manifest entry names.
    pub fn inputs(&self) -> anyhow::Result<Vec<TensorData>> {
        self.manifest.inputs.iter().map(|t| read_tensor(&self.dir, t)).collect()
    }

    /// The TOSA reference model's outputs, in the flatbuffer's order.
    pub fn expected(&self) -> anyhow::Result<Vec<TensorData>> {
        self.manifest.expected.iter().map(|t| read_tensor(&self.dir, t)).collect()
    }

    /// The network as a module: its MLIR ([`mlir_of`]) converted by
    /// `producer`, with the fixed inputs placed where the producer's
    /// interface map put them and the expected outputs in the module's
    /// output order.
    pub fn load_module(&self, producer: &dyn Oracle, tosa_opt: Option<&Path>) -> anyhow::Result<LoadedNetwork> {
        let file = self.file();
        let mlir = mlir_of(&file, tosa_opt)?;
        let produced = produce(&file, &mlir, producer)?;
        let inputs = self.inputs()?;
        let expected = self.expected()?;
        LoadedNetwork::new(&self.manifest.name, produced, &inputs, &expected)
            .with_context(|| format!("{}: {}'s module", file.display(), producer.name()))
    }
}

/// An element type from a manifest's TOSA type name.
fn elem_of(dtype: &str) -> Option<spvgraph_ir::elem::ElemType> {
    use spvgraph_ir::elem::ElemType;
    Some(match dtype {
        "BOOL" => ElemType::Bool,
        "INT8" => ElemType::I8,
        "INT16" => ElemType::I16,
        "INT32" => ElemType::I32,
        "INT48" => ElemType::I48,
        "FP16" => ElemType::Fp16,
        "BF16" => ElemType::Bf16,
        "FP32" => ElemType::Fp32,
        _ => return None,
    })
}

fn read_tensor(dir: &Path, t: &TensorFile) -> anyhow::Result<TensorData> {
    let path = dir.join(&t.file);
    let elem =
        elem_of(&t.dtype).ok_or_else(|| anyhow!("{}: unknown TOSA element type {:?}", path.display(), t.dtype))?;
    TensorData::read_npy(&path, elem).map_err(|e| anyhow!("{}: {e}", path.display()))
}

/// A producer's module of a network file, with what it takes to run it.
#[derive(Clone, Debug)]
pub struct Produced {
    /// The module's words.
    pub words: Vec<u32>,
    /// The producer's graph-constant data by GraphConstantID.
    pub graph_constants: BTreeMap<u32, TensorData>,
    /// Where each source argument and result went.
    pub interface: InterfaceMap,
}

/// `producer`'s module of the MLIR of `file`; an error when it makes none
/// (a refusal of a committed network is then reported by `spvgraph diff`,
/// which judges it).
pub fn produce(file: &Path, mlir: &str, producer: &dyn Oracle) -> anyhow::Result<Produced> {
    match producer.producer().and_then(|p| p.produce(&ProduceRequest { mlir, debug_info: false })) {
        Ok(ProduceOutcome::Module { words, graph_constants, interface, .. }) => {
            Ok(Produced { words, graph_constants, interface })
        }
        Ok(ProduceOutcome::Rejected { message }) => {
            bail!("{}: {} rejects it: {message}", file.display(), producer.name())
        }
        Ok(ProduceOutcome::Abnormal { how, detail }) => {
            bail!("{}: {} ended abnormally ({how:?}): {detail}", file.display(), producer.name())
        }
        Err(e) => bail!("{}: {}: {e}", file.display(), producer.name()),
    }
}

/// A network as a module with its data: what the hunt seeds from and what
/// `spvgraph diff` and `corpus check` run.
#[derive(Clone, Debug)]
pub struct LoadedNetwork {
    /// The manifest's name (`mobilenet_v2-int8`).
    pub name: String,
    /// The producer's module.
    pub module: Module,
    /// The request: the module, its entry point, the fixed inputs in the
    /// module's input order and the producer's graph constants.
    pub request: OwnedExecRequest,
    /// The expected outputs in the module's output order (`None` where the
    /// manifest has none for that output).
    pub expected: Vec<Option<TensorData>>,
}

impl LoadedNetwork {
    /// Places the source's `inputs` and `expected` outputs (the
    /// flatbuffer's order) where `produced`'s interface map says.
    pub fn new(
        name: &str,
        produced: Produced,
        inputs: &[TensorData],
        expected: &[TensorData],
    ) -> anyhow::Result<LoadedNetwork> {
        let module = Module::decode_words(&produced.words).map_err(|e| anyhow!("the module does not decode: {e}"))?;
        let ports = exec::interface(&module, Some(&produced.interface.entry_point)).map_err(|e| anyhow!("{e}"))?;
        let request_inputs = map_inputs(&produced.interface, &ports.inputs, inputs)?;
        let out = map_outputs(&produced.interface, &ports.outputs, expected)?;
        Ok(LoadedNetwork {
            name: name.to_string(),
            request: OwnedExecRequest {
                module: produced.words,
                entry_point: Some(produced.interface.entry_point.clone()),
                inputs: request_inputs,
                graph_constants: produced.graph_constants,
            },
            module,
            expected: out,
        })
    }
}

/// The source's inputs (the flatbuffer's, or MLIR argument, order) in the
/// produced graph's input order, each fitted to its port.
pub fn map_inputs(
    interface: &InterfaceMap,
    ports: &[exec::Port],
    inputs: &[TensorData],
) -> anyhow::Result<Vec<TensorData>> {
    if interface.inputs.len() != ports.len() {
        bail!("the interface map has {} inputs, the module {}", interface.inputs.len(), ports.len());
    }
    interface
        .inputs
        .iter()
        .zip(ports)
        .map(|(link, port)| {
            let t = inputs.get(link.source).ok_or_else(|| {
                anyhow!(
                    "the module's {} is source input {}, of {} given",
                    port.describe("input"),
                    link.source,
                    inputs.len()
                )
            })?;
            port.fit(t.clone()).map(|f| f.tensor).map_err(|e| anyhow!("source input {}: {e}", link.source))
        })
        .collect()
}

/// The source's outputs (the flatbuffer's order) in the produced graph's
/// output order, each fitted to its port; `None` for a module output no
/// source output maps to (or that `outputs` lacks).
pub fn map_outputs(
    interface: &InterfaceMap,
    ports: &[exec::Port],
    outputs: &[TensorData],
) -> anyhow::Result<Vec<Option<TensorData>>> {
    let mut out: Vec<Option<TensorData>> = vec![None; ports.len()];
    for (j, source) in interface.outputs.iter().enumerate() {
        let (OutputSource::Output { index, .. }, Some(t)) = (source, outputs.get(j)) else { continue };
        let port = ports
            .get(*index)
            .ok_or_else(|| anyhow!("source output {j} maps to output {index}, which the module lacks"))?;
        let fitted = port.fit(t.clone()).map_err(|e| anyhow!("source output {j}: {e}"))?;
        if let Some(slot) = out.get_mut(*index) {
            *slot = Some(fitted.tensor);
        }
    }
    Ok(out)
}

/// How `got` differs from `want`, for a note: `identical`, or the largest
/// absolute difference, where, and how many elements differ.
pub fn difference(want: &TensorData, got: &TensorData) -> String {
    if want.shape() != got.shape() || want.elem() != got.elem() {
        return format!("{} {:?} where {} {:?} was expected", got.elem(), got.shape(), want.elem(), want.shape());
    }
    if want.to_bits() == got.to_bits() {
        return "identical".to_string();
    }
    let (a, b) = (want.to_f64(), got.to_f64());
    let mut worst = (0.0f64, 0usize);
    let mut differ = 0usize;
    for (i, (x, y)) in a.iter().zip(&b).enumerate() {
        let d = if x == y || (x.is_nan() && y.is_nan()) { 0.0 } else { (x - y).abs() };
        if d != 0.0 || x.is_nan() != y.is_nan() {
            differ += 1;
        }
        if d > worst.0 || d.is_nan() {
            worst = (d, i);
        }
    }
    let scale = a.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    format!(
        "{differ} of {} elements differ, at most by {:.3e} (element {}: {} vs {}; largest |expected| {:.3e})",
        a.len(),
        worst.0,
        worst.1,
        a.get(worst.1).copied().unwrap_or(f64::NAN),
        b.get(worst.1).copied().unwrap_or(f64::NAN),
        scale
    )
}

/// Every network of the corpus at `root` (`root/networks/*.json`) whose
/// name (`networks/NAME`) matches `filter`, sorted by name.
pub fn list(root: &Path, filter: Option<&str>) -> anyhow::Result<Vec<Network>> {
    let dir = root.join(FOLDER);
    let Ok(entries) = std::fs::read_dir(&dir) else { return Ok(Vec::new()) };
    let mut manifests: Vec<PathBuf> =
        entries.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "json")).collect();
    manifests.sort();
    let mut out = Vec::new();
    for path in manifests {
        // Other JSON files of the folder (failures.json) are no networks.
        let Ok(manifest) = read_manifest(&path) else { continue };
        let net = Network { dir: dir.clone(), manifest };
        if filter.is_some_and(|f| !crate::corpus::cases::glob_match(f, &net.case_name())) {
            continue;
        }
        out.push(net);
    }
    Ok(out)
}

/// Every network of the corpus at `root` as a module with its data
/// ([`Network::load_module`]), converted by `producer`: the hunt's seeds.
/// A network that does not load is returned as its error, named.
pub fn load(
    root: &Path,
    filter: Option<&str>,
    producer: &dyn Oracle,
    tosa_opt: Option<&Path>,
) -> anyhow::Result<Vec<(String, anyhow::Result<LoadedNetwork>)>> {
    Ok(list(root, filter)?.into_iter().map(|n| (n.manifest.name.clone(), n.load_module(producer, tosa_opt))).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn network_files_are_named_by_format_and_compression() {
        assert_eq!(graph_format(Path::new("a/mobilenet_v2-int8.tosa.xz")), Some(GraphFormat::Flatbuffer));
        assert_eq!(graph_format(Path::new("n.tosa")), Some(GraphFormat::Flatbuffer));
        assert_eq!(graph_format(Path::new("n.mlir.gz")), Some(GraphFormat::Mlir));
        assert_eq!(graph_format(Path::new("n.MLIR")), Some(GraphFormat::Mlir));
        assert_eq!(graph_format(Path::new("n.spv")), None);
        assert_eq!(graph_format(Path::new("n.xz")), None);
    }

    #[test]
    fn compressed_files_read_back_as_their_bytes() {
        let dir = std::env::temp_dir().join(format!("spvgraph-networks-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let text = b"func.func @main() { return }\n".repeat(20);
        let gz = dir.join("g.mlir.gz");
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        std::io::Write::write_all(&mut enc, &text).unwrap();
        std::fs::write(&gz, enc.finish().unwrap()).unwrap();
        assert_eq!(read_decompressed(&gz).unwrap(), text);
        let xz = dir.join("g.mlir.xz");
        let mut packed = Vec::new();
        lzma_rs::xz_compress(&mut text.as_slice(), &mut packed).unwrap();
        std::fs::write(&xz, packed).unwrap();
        assert_eq!(mlir_of(&xz, None).unwrap().as_bytes(), text.as_slice());
        // A flatbuffer without tosa-opt is an error that says what is missing.
        let fb = dir.join("g.tosa");
        std::fs::write(&fb, b"not a flatbuffer").unwrap();
        let err = mlir_of(&fb, None).unwrap_err().to_string();
        assert!(err.contains("tosa-opt"), "{err}");
        // A corrupt stream is an error naming the file.
        let bad = dir.join("bad.tosa.xz");
        std::fs::write(&bad, b"garbage").unwrap();
        let err = read_decompressed(&bad).unwrap_err().to_string();
        assert!(err.contains("bad.tosa.xz") && err.contains("xz"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn manifests_sit_next_to_the_network_by_stem() {
        let dir = std::env::temp_dir().join(format!("spvgraph-networks-m-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("net-int8.json"), "{}").unwrap();
        assert_eq!(manifest_path(&dir.join("net-int8.tosa.xz")), Some(dir.join("net-int8.json")));
        assert_eq!(manifest_path(&dir.join("other.tosa")), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
