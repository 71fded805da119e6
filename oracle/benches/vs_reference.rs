//! The in-tree executor against the TOSA reference model on the same graphs:
//! wall time of a whole run, median of 5, as a ratio. Ours is measured twice:
//! in process (decode the module words and execute) and, when
//! `target/release/spvgraph` exists, as a process (`spvgraph run` reading the
//! module and `.npy` inputs and writing `.npy` outputs), which is what the
//! reference model's figure includes (print MLIR, `tosa-opt
//! --tosa-serialize`, write the inputs, run `tosa_reference_model`, read the
//! outputs).
//!
//! ```sh
//! cargo bench -p spvgraph-oracle --bench vs_reference            # all four graphs
//! cargo bench -p spvgraph-oracle --bench vs_reference -- matmul  # those whose name contains "matmul"
//! ```
//!
//! The graphs: CONV2D fp32 1x64x64x32 → 32 channels 3x3 (pad 1), MATMUL fp32
//! 1x256x256 · 1x256x256, a 20-operator element-wise fp32 chain on
//! 1x128x128x16, and the CONV2D shape again in int8 (i32 accumulator).

use spvgraph_ir::builder::ModuleBuilder;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::{Id, Module};
use spvgraph_oracle::exec::Executor;
use spvgraph_oracle::external::tosa_reference::TosaReferenceModel;
use spvgraph_oracle::oracle::{ExecOutcome, Oracle};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const RUNS: usize = 5;

struct Graph {
    name: &'static str,
    module: Module,
    inputs: Vec<TensorData>,
}

/// Deterministic pseudo-random bits for `n` elements of `elem`, small enough
/// that integer results cannot overflow and float results stay finite.
fn data(elem: ElemType, shape: &[usize], seed: u32) -> TensorData {
    let n: usize = shape.iter().product();
    let mut s = seed;
    let bits: Vec<u64> = (0..n)
        .map(|_| {
            s = s.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let unit = f64::from(s >> 8) / f64::from(1u32 << 24) * 2.0 - 1.0;
            match elem {
                ElemType::Fp32 => u64::from((unit as f32).to_bits()),
                ElemType::I8 => (((unit * 100.0) as i64) as u64) & 0xff,
                ElemType::I32 => ((unit * 1000.0) as i64) as u64 & 0xffff_ffff,
                _ => 0,
            }
        })
        .collect();
    match TensorData::from_bits(elem, shape, &bits) {
        Ok(t) => t,
        Err(e) => panic!("bench data: {e}"),
    }
}

fn zero_point(b: &mut ModuleBuilder, elem: ElemType) -> Id {
    match b.const_tensor(elem, &[1], &[0]) {
        Some(id) => id,
        None => panic!("a [1] constant has one element"),
    }
}

fn conv2d(name: &'static str, input: ElemType, out: ElemType, acc: u32) -> Graph {
    let (n, h, w, c, oc) = (1u32, 64u32, 64u32, 32u32, 32u32);
    let mut b = ModuleBuilder::new();
    let bias_elem = out;
    let tin = b.type_tensor(input, Some(&[n, h, w, c]));
    let tw = b.type_tensor(input, Some(&[oc, 3, 3, c]));
    let tb = b.type_tensor(bias_elem, Some(&[oc]));
    let tout = b.type_tensor(out, Some(&[n, h, w, oc]));
    let pad = b.const_i32_vector(&[1, 1, 1, 1]);
    let ones = b.const_i32_vector(&[1, 1]);
    let acc = b.const_u32(acc);
    let local = b.const_bool(false);
    let zp = zero_point(&mut b, input);
    let gty = b.type_graph(&[tin, tw, tb], &[tout]);
    let vars: Vec<Id> =
        [tin, tw, tb, tout].iter().enumerate().map(|(i, &t)| b.interface_variable(t, 0, i as u32)).collect();
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, name, vars);
    let x = b.graph_input(tin, 0, None);
    let wt = b.graph_input(tw, 1, None);
    let bias = b.graph_input(tb, 2, None);
    let y = b.tosa(TosaOp::Conv2d, tout, vec![pad, ones, ones, acc, local, x, wt, bias, zp, zp]);
    b.graph_output(y, 0, None);
    b.end_graph();
    let sizes = [vec![1, 64, 64, 32], vec![32, 3, 3, 32], vec![32]];
    let elems = [input, input, bias_elem];
    let inputs = sizes.iter().zip(elems).enumerate().map(|(i, (s, e))| data(e, s, 7 + i as u32)).collect();
    Graph { name, module: b.finish(), inputs }
}

fn matmul() -> Graph {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(ElemType::Fp32, Some(&[1, 256, 256]));
    let zp = zero_point(&mut b, ElemType::Fp32);
    let gty = b.type_graph(&[t, t], &[t]);
    let vars: Vec<Id> = (0..3).map(|i| b.interface_variable(t, 0, i)).collect();
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "matmul_fp32", vars);
    let a = b.graph_input(t, 0, None);
    let bb = b.graph_input(t, 1, None);
    let y = b.tosa(TosaOp::Matmul, t, vec![a, bb, zp, zp]);
    b.graph_output(y, 0, None);
    b.end_graph();
    let inputs = vec![data(ElemType::Fp32, &[1, 256, 256], 1), data(ElemType::Fp32, &[1, 256, 256], 2)];
    Graph { name: "matmul_fp32", module: b.finish(), inputs }
}

/// Twenty cheap element-wise operators over two inputs, values kept in range.
fn chain() -> Graph {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(ElemType::Fp32, Some(&[1, 128, 128, 16]));
    let shift = zero_point(&mut b, ElemType::I8);
    let zp = zero_point(&mut b, ElemType::Fp32);
    let propagate = b.const_u32(1);
    let gty = b.type_graph(&[t, t], &[t]);
    let vars: Vec<Id> = (0..3).map(|i| b.interface_variable(t, 0, i)).collect();
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "chain20_fp32", vars);
    let x = b.graph_input(t, 0, None);
    let y = b.graph_input(t, 1, None);
    let mut v = x;
    for i in 0..20 {
        v = match i % 5 {
            0 => b.tosa(TosaOp::Add, t, vec![v, y]),
            1 => b.tosa(TosaOp::Mul, t, vec![v, y, shift]),
            2 => b.tosa(TosaOp::Maximum, t, vec![propagate, v, x]),
            3 => b.tosa(TosaOp::Negate, t, vec![v, zp, zp]),
            _ => b.tosa(TosaOp::Sub, t, vec![v, x]),
        };
    }
    b.graph_output(v, 0, None);
    b.end_graph();
    let inputs = vec![data(ElemType::Fp32, &[1, 128, 128, 16], 3), data(ElemType::Fp32, &[1, 128, 128, 16], 4)];
    Graph { name: "chain20_fp32", module: b.finish(), inputs }
}

fn median(mut d: Vec<Duration>) -> Duration {
    d.sort();
    d[d.len() / 2]
}

fn time<T>(mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut last = None;
    let mut times = Vec::with_capacity(RUNS);
    for _ in 0..RUNS {
        let start = Instant::now();
        let r = f();
        times.push(start.elapsed());
        last = Some(r);
    }
    match last {
        Some(r) => (median(times), r),
        None => panic!("RUNS is positive"),
    }
}

/// The two executors must agree before their times mean anything: integers
/// exactly, floats to a relative 1e-4 of the output's largest magnitude.
fn check_close(name: &str, reference: &[TensorData], ours: &[TensorData]) {
    assert_eq!(reference.len(), ours.len(), "{name}: output counts differ");
    for (r, o) in reference.iter().zip(ours) {
        assert_eq!(r.shape(), o.shape(), "{name}: output shapes differ");
        let (rv, ov) = (r.to_f64(), o.to_f64());
        let scale = rv.iter().fold(0.0f64, |m, v| m.max(v.abs())).max(f64::MIN_POSITIVE);
        let worst = rv.iter().zip(&ov).fold(0.0f64, |m, (a, b)| m.max((a - b).abs()));
        let limit = if r.elem().is_float() { 1e-4 * scale } else { 0.0 };
        assert!(worst <= limit, "{name}: outputs differ by {worst:e} (limit {limit:e})");
    }
}

/// The release CLI, if it has been built.
fn cli() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/release/spvgraph");
    p.is_file().then_some(p)
}

/// Times `spvgraph run` on the graph, files prepared in a scratch directory.
fn time_cli(cli: &Path, g: &Graph, bytes: &[u8]) -> Option<Duration> {
    let dir = std::env::temp_dir().join(format!("spvgraph-bench-{}-{}", std::process::id(), g.name));
    std::fs::create_dir_all(&dir).ok()?;
    std::fs::write(dir.join("g.spv"), bytes).ok()?;
    let mut cmd = Command::new(cli);
    cmd.arg("run").arg(dir.join("g.spv")).arg("--output-dir").arg(dir.join("out"));
    for (i, t) in g.inputs.iter().enumerate() {
        let p = dir.join(format!("in{i}.npy"));
        t.write_npy(&p).ok()?;
        cmd.arg("--input").arg(p);
    }
    let (d, ok) = time(|| cmd.output().map(|o| o.status.success()).unwrap_or(false));
    let _ = std::fs::remove_dir_all(&dir);
    ok.then_some(d)
}

fn main() {
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let model = TosaReferenceModel::discover().with_timeout(Duration::from_secs(600));
    if let Err(e) = model.available() {
        eprintln!("skipping: {e}");
        return;
    }
    let graphs = [
        conv2d("conv2d_fp32", ElemType::Fp32, ElemType::Fp32, 3),
        matmul(),
        chain(),
        conv2d("conv2d_int8", ElemType::I8, ElemType::I32, 1),
    ];
    let constants = BTreeMap::new();
    let cli = cli();
    println!(
        "{:<14} {:>12} {:>15} {:>14} {:>8} {:>8}",
        "graph", "ours in-proc", "ours process", "ref model", "ratio", "ratio"
    );
    println!("{:<14} {:>12} {:>15} {:>14} {:>8} {:>8}", "", "(ms)", "(ms)", "(ms)", "in-proc", "process");
    for g in graphs.iter().filter(|g| filter.as_deref().is_none_or(|f| g.name.contains(f))) {
        let words = match g.module.encode_words() {
            Ok(w) => w,
            Err(e) => panic!("{}: {e}", g.name),
        };
        let (ours, out) = time(|| {
            let m = Module::decode_words(&words).map_err(|e| e.to_string())?;
            Executor::default().run(&m, None, &g.inputs, &constants).map_err(|e| e.to_string())
        });
        let out = match out {
            Ok(o) => o,
            Err(e) => panic!("{}: the executor failed: {e}", g.name),
        };
        let (theirs, reference) = time(|| {
            let req = spvgraph_oracle::oracle::ExecRequest {
                module: &words,
                entry_point: None,
                inputs: &g.inputs,
                graph_constants: &constants,
            };
            model.execute(&req)
        });
        match reference {
            Ok(ExecOutcome::Outputs(r)) => check_close(g.name, &r, &out),
            other => panic!("{}: the reference model did not run: {other:?}", g.name),
        }
        let bytes = match g.module.encode_bytes() {
            Ok(b) => b,
            Err(e) => panic!("{}: {e}", g.name),
        };
        let process = cli.as_deref().and_then(|c| time_cli(c, g, &bytes));
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let (process_ms, process_ratio) = match process {
            Some(p) => (format!("{:.1}", ms(p)), format!("{:.1}x", theirs.as_secs_f64() / p.as_secs_f64())),
            None => ("-".to_string(), "-".to_string()),
        };
        println!(
            "{:<14} {:>12.1} {:>15} {:>14.1} {:>7.1}x {:>8}",
            g.name,
            ms(ours),
            process_ms,
            ms(theirs),
            theirs.as_secs_f64() / ours.as_secs_f64(),
            process_ratio
        );
    }
}
