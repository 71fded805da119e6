//! The in-tree executor against the TOSA reference model on the same graphs:
//! wall time and peak memory of a whole run, medians over the runs.
//!
//! ```sh
//! cargo build --release                                          # for the `spvgraph run` columns
//! cargo bench -p spvgraph-oracle --bench vs_reference            # every graph
//! cargo bench -p spvgraph-oracle --bench vs_reference -- matmul  # those whose name contains "matmul"
//! ```
//!
//! The graphs: CONV2D fp32 1x64x64x32 → 32 channels 3x3 (pad 1), MATMUL fp32
//! 1x256x256 · 1x256x256, a 20-operator element-wise fp32 chain on
//! 1x128x128x16, the CONV2D shape again in int8 (i32 accumulator), and two
//! large ones: CONV2D fp32 1x224x224x64 → 64 3x3 and MATMUL fp32
//! 1x1024x1024 · 1x1024x1024. Both executors must agree on every output
//! before a figure is printed.
//!
//! The columns:
//!
//! * `ours ms`: `target/release/spvgraph run` as a process (read the module
//!   and the `.npy` inputs, validate, execute, write the `.npy` outputs);
//!   `-` when the release CLI has not been built.
//! * `ref ms`: the reference model's whole path, as the oracle runs it
//!   (print the MLIR, `tosa-opt --tosa-serialize`, write the inputs, run
//!   `tosa_reference_model`, read the outputs).
//! * `time x`: ref ms / ours ms (above 1: we are faster).
//! * `ours RSS`: peak resident set size of the `spvgraph run` process.
//! * `ref RSS`: peak resident set size of the `tosa_reference_model` process
//!   alone; `opt RSS` is `tosa-opt`'s, a separate process that has ended
//!   before the model starts, so the two never add up.
//! * `mem x`: ref RSS / ours RSS (above 1: we use less).
//! * `in-proc ms`, `heap`: the executor in this process (decode the module
//!   words and execute): its time, and the most heap bytes live at once,
//!   counted by this binary's global allocator from just before the run,
//!   plus the inputs the caller holds; `in x` is ref ms / in-proc ms. `ours RSS` minus `heap` is roughly the
//!   process baseline (binary, validator, `.npy` buffers), also printed
//!   alone as `spvgraph --version`'s peak RSS.
//! * `tensors`: bytes of the inputs, outputs and constants, the floor any
//!   executor needs if it holds them all at once.
//!
//! Peaks are `wait4`'s exact figures unless marked `~` (a lower bound polled
//! from `/proc`; see `spvgraph_oracle::external::process`). MiB throughout.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a test, bench or example: a failure names its place"
)]

use spvgraph_ir::analysis::Analysis;
use spvgraph_ir::builder::ModuleBuilder;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::{Id, Module};
use spvgraph_oracle::exec::Executor;
use spvgraph_oracle::external::process::{self, Cost, Limits, ScratchDir};
use spvgraph_oracle::external::tosa_reference::TosaReferenceModel;
use spvgraph_oracle::oracle::{Abnormal, ExecOutcome, ExecRequest, Oracle};
use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The system allocator, counting the bytes live and the most live at once.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let now = LIVE.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

// SAFETY: every call is forwarded to `System` unchanged; the counters only observe.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is passed on.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as above.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as above.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                grew(new_size - layout.size());
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Runs `f`, returning the most heap bytes that were live at once above
/// what was live when it started.
fn heap_peak<T>(f: impl FnOnce() -> T) -> (usize, T) {
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let r = f();
    (PEAK.load(Ordering::Relaxed).saturating_sub(base), r)
}

/// Makes this process small in a child's eyes: Linux counts the parent's
/// high-water mark in a child's `ru_maxrss`, so it is reset to what is
/// resident now (`clear_refs` 5) after freed memory is given back.
fn shrink_self() {
    // SAFETY: malloc_trim only returns free memory to the system.
    unsafe { libc::malloc_trim(0) };
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

struct Graph {
    name: &'static str,
    module: Module,
    inputs: Vec<TensorData>,
    runs: usize,
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

/// CONV2D `1 x hw x hw x c` → `c` channels, 3x3, pad 1, stride 1.
fn conv2d(name: &'static str, input: ElemType, out: ElemType, acc: u32, hw: u32, c: u32, runs: usize) -> Graph {
    let (n, h, w, oc) = (1u32, hw, hw, c);
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
    let (n, hw, c) = (n as usize, hw as usize, c as usize);
    let sizes = [vec![n, hw, hw, c], vec![c, 3, 3, c], vec![c]];
    let elems = [input, input, bias_elem];
    let inputs = sizes.iter().zip(elems).enumerate().map(|(i, (s, e))| data(e, s, 7 + i as u32)).collect();
    Graph { name, module: b.finish(), inputs, runs }
}

/// MATMUL fp32 `1 x n x n · 1 x n x n`.
fn matmul(name: &'static str, n: u32, runs: usize) -> Graph {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(ElemType::Fp32, Some(&[1, n, n]));
    let zp = zero_point(&mut b, ElemType::Fp32);
    let gty = b.type_graph(&[t, t], &[t]);
    let vars: Vec<Id> = (0..3).map(|i| b.interface_variable(t, 0, i)).collect();
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, name, vars);
    let a = b.graph_input(t, 0, None);
    let bb = b.graph_input(t, 1, None);
    let y = b.tosa(TosaOp::Matmul, t, vec![a, bb, zp, zp]);
    b.graph_output(y, 0, None);
    b.end_graph();
    let shape = [1, n as usize, n as usize];
    let inputs = vec![data(ElemType::Fp32, &shape, 1), data(ElemType::Fp32, &shape, 2)];
    Graph { name, module: b.finish(), inputs, runs }
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
    Graph { name: "chain20_fp32", module: b.finish(), inputs, runs: 5 }
}

fn median<T: Ord + Copy>(mut v: Vec<T>) -> T {
    v.sort();
    v[v.len() / 2]
}

/// Medians of several processes' costs; exact only if every run's peak was.
fn median_cost(costs: &[Cost]) -> Option<Cost> {
    if costs.is_empty() {
        return None;
    }
    Some(Cost {
        elapsed: median(costs.iter().map(|c| c.elapsed).collect()),
        peak_rss_bytes: median(costs.iter().map(|c| c.peak_rss_bytes).collect()),
        peak_rss_exact: costs.iter().all(|c| c.peak_rss_exact),
    })
}

/// The two executors must agree before their figures mean anything:
/// integers exactly, floats to a relative 1e-4 of the output's largest magnitude.
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

fn elem_bytes(elem: ElemType) -> u64 {
    u64::from(elem.storage_bits().div_ceil(8))
}

fn bytes_of(tensors: &[TensorData]) -> u64 {
    tensors.iter().map(|t| t.len() as u64 * elem_bytes(t.elem())).sum()
}

/// Bytes of the module's tensor constants.
fn constant_bytes(m: &Module) -> u64 {
    let a = Analysis::new(m);
    m.insts
        .iter()
        .filter(|i| i.is_constant())
        .filter_map(|i| a.tensor_type(i.result_type()?))
        .filter_map(|t| Some(t.shape?.iter().product::<u64>() * elem_bytes(t.elem?)))
        .sum()
}

/// The release CLI, if it has been built.
fn cli() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/release/spvgraph");
    p.is_file().then_some(p)
}

fn limits() -> Limits {
    Limits { timeout: Duration::from_secs(600), memory_bytes: None }
}

/// One process run of `cmd` in `dir`, with this process made small first;
/// `None` if it fails (any exit when `any_exit`, which `--version` of the
/// model needs: it reports its version, then aborts for want of a test).
fn measure(cmd: Command, dir: &Path, any_exit: bool) -> Option<Cost> {
    shrink_self();
    let run = process::run(cmd, dir, &limits()).ok()?;
    let finished = run.success() || (any_exit && run.abnormal() != Some(Abnormal::Timeout));
    if !finished {
        eprintln!("{} failed: {}", run.status_text(), run.tail(5));
        return None;
    }
    Some(run.cost())
}

/// `spvgraph run` on the graph, its files in a scratch directory.
fn measure_cli(cli: &Path, g: &Graph, bytes: &[u8]) -> Option<Cost> {
    let dir = ScratchDir::new(&format!("bench-{}", g.name)).ok()?;
    std::fs::write(dir.join("g.spv"), bytes).ok()?;
    let mut inputs = Vec::new();
    for (i, t) in g.inputs.iter().enumerate() {
        let p = dir.join(format!("in{i}.npy"));
        t.write_npy(&p).ok()?;
        inputs.push(p);
    }
    let costs: Option<Vec<Cost>> = (0..g.runs)
        .map(|_| {
            let mut cmd = Command::new(cli);
            cmd.arg("run").arg(dir.join("g.spv")).arg("--output-dir").arg(dir.join("out"));
            for p in &inputs {
                cmd.arg("--input").arg(p);
            }
            measure(cmd, dir.path(), false)
        })
        .collect();
    median_cost(&costs?)
}

/// A program's peak RSS doing next to nothing (`--version`).
fn baseline(program: &Path) -> Option<Cost> {
    let dir = ScratchDir::new("bench-baseline").ok()?;
    let costs: Option<Vec<Cost>> = (0..5)
        .map(|_| {
            let mut cmd = Command::new(program);
            cmd.arg("--version").env("TOSA_MODEL_NO_BACKTRACE", "1");
            measure(cmd, dir.path(), true)
        })
        .collect();
    median_cost(&costs?)
}

const MIB: f64 = 1024.0 * 1024.0;

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn mib(c: &Cost) -> String {
    format!("{}{:.1}", if c.peak_rss_exact { "" } else { "~" }, c.peak_rss_bytes as f64 / MIB)
}

fn main() {
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let model = TosaReferenceModel::discover().with_timeout(Duration::from_secs(600));
    if let Err(e) = model.available() {
        eprintln!("skipping: {e}");
        return;
    }
    let builders: [(&str, &dyn Fn() -> Graph); 6] = [
        ("conv2d_fp32", &|| conv2d("conv2d_fp32", ElemType::Fp32, ElemType::Fp32, 3, 64, 32, 5)),
        ("matmul_fp32", &|| matmul("matmul_fp32", 256, 5)),
        ("chain20_fp32", &chain),
        ("conv2d_int8", &|| conv2d("conv2d_int8", ElemType::I8, ElemType::I32, 1, 64, 32, 5)),
        ("conv2d_fp32_224", &|| conv2d("conv2d_fp32_224", ElemType::Fp32, ElemType::Fp32, 3, 224, 64, 3)),
        ("matmul_fp32_1024", &|| matmul("matmul_fp32_1024", 1024, 3)),
    ];
    let constants = BTreeMap::new();
    let cli = cli();
    if cli.is_none() {
        eprintln!("note: target/release/spvgraph is not built; the process columns are empty");
    }
    let show = |c: Option<Cost>| c.map_or_else(|| "-".to_string(), |c| mib(&c));
    println!(
        "process baselines (peak RSS of --version, MiB): spvgraph {}, tosa_reference_model {}",
        show(cli.as_deref().and_then(baseline)),
        show(model_path().as_deref().and_then(baseline))
    );
    println!(
        "{:<17} {:>9} {:>9} {:>7} {:>9} {:>9} {:>7} {:>8} {:>10} {:>7} {:>8} {:>8}",
        "graph",
        "ours ms",
        "ref ms",
        "time x",
        "ours RSS",
        "ref RSS",
        "mem x",
        "opt RSS",
        "in-proc ms",
        "in x",
        "heap",
        "tensors"
    );
    for (name, build) in builders {
        if filter.as_deref().is_some_and(|f| !name.contains(f)) {
            continue;
        }
        let g = build();
        let words = match g.module.encode_words() {
            Ok(w) => w,
            Err(e) => panic!("{}: {e}", g.name),
        };
        let bytes = match g.module.encode_bytes() {
            Ok(b) => b,
            Err(e) => panic!("{}: {e}", g.name),
        };
        // Processes first, while this one is smallest.
        let ours = cli.as_deref().and_then(|c| measure_cli(c, &g, &bytes));
        let mut ref_times = Vec::new();
        let mut model_costs = Vec::new();
        let mut opt_costs = Vec::new();
        let mut reference = None;
        for _ in 0..g.runs {
            shrink_self();
            let req = ExecRequest { module: &words, entry_point: None, inputs: &g.inputs, graph_constants: &constants };
            let start = Instant::now();
            let r = model.execute_measured(&req);
            ref_times.push(start.elapsed());
            match r {
                Ok((ExecOutcome::Outputs(out), costs)) => {
                    model_costs.extend(costs.model);
                    opt_costs.extend(costs.tosa_opt);
                    reference = Some(out);
                }
                other => panic!("{}: the reference model did not run: {other:?}", g.name),
            }
        }
        let mut in_proc_times = Vec::new();
        let mut heaps = Vec::new();
        let mut out = None;
        for _ in 0..g.runs {
            let start = Instant::now();
            let (heap, r) = heap_peak(|| {
                let m = Module::decode_words(&words).map_err(|e| e.to_string())?;
                Executor::default().run(&m, None, &g.inputs, &constants).map_err(|e| e.to_string())
            });
            in_proc_times.push(start.elapsed());
            heaps.push(heap as u64 + bytes_of(&g.inputs));
            match r {
                Ok(o) => out = Some(o),
                Err(e) => panic!("{}: the executor failed: {e}", g.name),
            }
        }
        let (Some(out), Some(reference)) = (out, reference) else { panic!("{}: no runs", g.name) };
        check_close(g.name, &reference, &out);
        let tensors = bytes_of(&g.inputs) + bytes_of(&out) + constant_bytes(&g.module);
        let ref_ms = ms(median(ref_times));
        let in_proc = median(in_proc_times);
        let (model_rss, opt_rss) = (median_cost(&model_costs), median_cost(&opt_costs));
        let ratio = |a: f64, b: f64| format!("{:.1}x", a / b);
        let (ours_ms, time_x, ours_rss, mem_x) = match (ours, model_rss) {
            (Some(o), Some(m)) => (
                format!("{:.1}", ms(o.elapsed)),
                ratio(ref_ms, ms(o.elapsed)),
                mib(&o),
                ratio(m.peak_rss_bytes as f64, o.peak_rss_bytes as f64),
            ),
            (Some(o), None) => (format!("{:.1}", ms(o.elapsed)), ratio(ref_ms, ms(o.elapsed)), mib(&o), "-".into()),
            _ => ("-".into(), "-".into(), "-".into(), "-".into()),
        };
        println!(
            "{:<17} {:>9} {:>9.1} {:>7} {:>9} {:>9} {:>7} {:>8} {:>10.1} {:>7} {:>8.1} {:>8.1}",
            g.name,
            ours_ms,
            ref_ms,
            time_x,
            ours_rss,
            show(model_rss),
            mem_x,
            show(opt_rss),
            ms(in_proc),
            ratio(ref_ms, ms(in_proc)),
            median(heaps) as f64 / MIB,
            tensors as f64 / MIB
        );
    }
}

/// `tosa_reference_model`, for its baseline.
fn model_path() -> Option<PathBuf> {
    let tools = spvgraph_oracle::tools::Tools::discover();
    tools.get(spvgraph_oracle::tools::Tool::TosaReferenceModel).ok().map(Path::to_path_buf)
}
