//! `spvgraph run FILE [--entry NAME] --input IN.npy ... [--graph-constant ID=FILE.npy ...] --output-dir DIR`:
//! runs a graph on the reference executor.
//!
//! Inputs are given in OpGraphInputARM InputIndex order (tensor-array inputs
//! in ElementIndex order), graph-constant data by GraphConstantID, and the
//! outputs are written as `DIR/out0.npy`, `DIR/out1.npy`, ... in OutputIndex
//! order. `.npy` dtypes: bool, int8/16/32, int64 for i48, float16, float32;
//! bf16 as uint16 bit patterns and fp8 (E4M3, E5M2) as uint8 bit patterns.
//! Files are read as numpy reads them (C or Fortran order, either byte
//! order, any non-zero bool byte true) and written as `numpy.save` writes
//! them (C order). A rank-0 array is taken for a `[1]` tensor, with a note on
//! stderr: model-converter turns rank-0 TOSA tensors into `[1]` tensors.
//! Exit status: 0 outputs written, 1 the graph is refused (invalid, over the
//! memory budget, or unpredictable on these inputs), 2 usage or I/O error.

use super::{input, validate, Outcome};
use anyhow::{anyhow, bail, Context};
use spvgraph_ir::tensor::{npy_dtype, TensorData};
use spvgraph_oracle::exec::{self, ExecConfig, ExecError, Executor, Port, DEFAULT_MEMORY_BUDGET};
use spvgraph_oracle::oracle::{Level, ValidateOptions};
use spvgraph_oracle::validate::Validator;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Arguments of `run`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// SPIR-V module file.
    file: PathBuf,
    /// Graph entry point to run (default: the first one).
    #[arg(long)]
    entry: Option<String>,
    /// Input tensor `.npy` files, in InputIndex order (repeat the flag).
    #[arg(long = "input", value_name = "IN.npy")]
    inputs: Vec<PathBuf>,
    /// Graph-constant data as `ID=FILE.npy` (GraphConstantID), repeatable.
    #[arg(long = "graph-constant", value_name = "ID=FILE.npy")]
    graph_constants: Vec<String>,
    /// Directory for `out0.npy`, `out1.npy`, ... (created if missing).
    #[arg(long, value_name = "DIR")]
    output_dir: PathBuf,
    /// Memory budget in bytes, with an optional K, M, G or T suffix (powers of 1024).
    #[arg(long, value_name = "BYTES", value_parser = parse_bytes, default_value_t = DEFAULT_MEMORY_BUDGET)]
    memory_budget: u64,
    /// TOSA level whose limits are checked: `8k` or `none`.
    #[arg(long, value_name = "LEVEL", value_parser = parse_level, default_value = "8k")]
    level: Level,
}

fn parse_level(s: &str) -> Result<Level, String> {
    match s.to_ascii_lowercase().as_str() {
        "8k" | "eightk" => Ok(Level::EightK),
        "none" => Ok(Level::None),
        _ => Err(format!("{s:?} is not a level (8k or none)")),
    }
}

/// Parses `1048576`, `512M`, `2G`, `1.5G`, `64KiB`.
fn parse_bytes(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let lower = t.to_ascii_lowercase();
    let body = lower.trim_end_matches("ib").trim_end_matches('b');
    let (num, scale) = match body.char_indices().last() {
        Some((i, 'k')) => (&body[..i], 1u64 << 10),
        Some((i, 'm')) => (&body[..i], 1 << 20),
        Some((i, 'g')) => (&body[..i], 1 << 30),
        Some((i, 't')) => (&body[..i], 1 << 40),
        _ => (body, 1),
    };
    let bad = || format!("{s:?} is not a size (examples: 1048576, 512M, 2G)");
    if let Ok(n) = num.trim().parse::<u64>() {
        return n.checked_mul(scale).ok_or_else(bad);
    }
    let f: f64 = num.trim().parse().map_err(|_| bad())?;
    if !f.is_finite() || f < 0.0 || f * scale as f64 >= u64::MAX as f64 {
        return Err(bad());
    }
    Ok((f * scale as f64) as u64)
}

/// Reads one `.npy` file as the tensor of `port` (notes on stderr).
fn read_port(path: &Path, port: &Port, what: &str) -> anyhow::Result<TensorData> {
    let t = TensorData::read_npy(path, port.elem).map_err(|e| anyhow!("{what}: {e}"))?;
    let fitted = port
        .fit(t)
        .map_err(|why| anyhow!("{what}: {} {why} (numpy dtype {})", path.display(), npy_dtype(port.elem)))?;
    if let Some(note) = fitted.note {
        eprintln!("note: {what}: {}: {note}", path.display());
    }
    Ok(fitted.tensor)
}

/// Runs the graph and writes its outputs.
pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let bytes = input::read_bytes(&args.file)?;
    // The validator's verdict first, so an invalid module is refused with the
    // same diagnostics `spvgraph validate` prints for it.
    let options = ValidateOptions { level: args.level, ..ValidateOptions::default() };
    let report = Validator::new(options).check_bytes(&bytes);
    if !report.is_valid() {
        validate::print_report(&args.file, &report);
        eprintln!("{}: refused (invalid)", args.file.display());
        return Ok(Outcome::CheckFailed);
    }
    let module = match input::decode(&args.file, &bytes) {
        Ok(m) => m,
        Err(msg) => {
            eprintln!("refused (invalid): {msg}");
            return Ok(Outcome::CheckFailed);
        }
    };
    let entry = args.entry.as_deref();
    let iface = match exec::interface(&module, entry) {
        Ok(i) => i,
        Err(e) => return refused(&args.file, e),
    };
    if args.inputs.len() != iface.inputs.len() {
        let expected: Vec<String> = iface.inputs.iter().map(|p| p.describe("input")).collect();
        bail!(
            "{}: the graph takes {} inputs ({}); {} --input files were given",
            args.file.display(),
            iface.inputs.len(),
            expected.join("; "),
            args.inputs.len()
        );
    }
    let mut inputs = Vec::with_capacity(args.inputs.len());
    for (i, (path, port)) in args.inputs.iter().zip(&iface.inputs).enumerate() {
        inputs.push(read_port(path, port, &format!("input {i} ({})", port.describe("input")))?);
    }
    let mut graph_constants = BTreeMap::new();
    for spec in &args.graph_constants {
        let (id, path) =
            spec.split_once('=').ok_or_else(|| anyhow!("--graph-constant {spec:?}: expected ID=FILE.npy"))?;
        let id: u32 = id.trim().parse().with_context(|| format!("--graph-constant {spec:?}: bad GraphConstantID"))?;
        let port = iface.graph_constants.iter().find(|p| p.index == id).ok_or_else(|| {
            let known: Vec<u32> = iface.graph_constants.iter().map(|p| p.index).collect();
            anyhow!("--graph-constant {id}: the graph uses no graph constant {id} (it uses {known:?})")
        })?;
        graph_constants.insert(id, read_port(Path::new(path), port, &format!("graph constant {id}"))?);
    }
    if let Some(port) = iface.graph_constants.iter().find(|p| !graph_constants.contains_key(&p.index)) {
        bail!(
            "{}: no data for {}: pass --graph-constant {}=FILE.npy (numpy dtype {})",
            args.file.display(),
            port.describe("graph constant"),
            port.index,
            npy_dtype(port.elem)
        );
    }
    let executor = Executor::new(ExecConfig { memory_budget_bytes: args.memory_budget, level: args.level });
    let outputs = match executor.run(&module, entry, &inputs, &graph_constants) {
        Ok(o) => o,
        Err(e) => return refused(&args.file, e),
    };
    // Not needed while the outputs are written: give their memory back.
    drop((inputs, graph_constants));
    std::fs::create_dir_all(&args.output_dir)
        .with_context(|| format!("cannot create output directory {}", args.output_dir.display()))?;
    for (i, t) in outputs.iter().enumerate() {
        let path = args.output_dir.join(format!("out{i}.npy"));
        t.write_npy(&path)?;
        println!("{}: {} {:?} ({})", path.display(), t.elem(), t.shape(), npy_dtype(t.elem()));
    }
    Ok(Outcome::Success)
}

/// Exit 1 for a refused graph; request problems and executor faults are errors (exit 2).
fn refused(file: &Path, e: ExecError) -> anyhow::Result<Outcome> {
    match e {
        ExecError::Request(_) | ExecError::Internal(_) => Err(anyhow!("{}: {e}", file.display())),
        _ => {
            eprintln!("{}: refused ({}): {e}", file.display(), e.kind());
            Ok(Outcome::CheckFailed)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::parse_bytes;

    #[test]
    fn sizes() {
        assert_eq!(parse_bytes("1048576"), Ok(1 << 20));
        assert_eq!(parse_bytes("512M"), Ok(512 << 20));
        assert_eq!(parse_bytes("2G"), Ok(2 << 30));
        assert_eq!(parse_bytes("64KiB"), Ok(64 << 10));
        assert_eq!(parse_bytes("1.5g"), Ok(3 << 29));
        assert!(parse_bytes("lots").is_err());
        assert!(parse_bytes("-1").is_err());
    }
}
