//! The worker process (`spvgraph vulkan-worker`): it holds one instance and
//! one device and runs graph after graph for the `vulkan` oracle over its
//! standard input and output ([`super::protocol`]), so that a driver that
//! crashes or hangs takes only the worker down, never the hunt.
//!
//! Drivers and layers print to standard output; so that nothing they print
//! can be taken for a message, the worker keeps the original standard output
//! for the protocol alone and points file descriptor 1 at standard error
//! before it loads Vulkan.
//!
//! Before it says it is ready, the worker keeps glslang initialized in the
//! loaded layers ([`glslang::keep_initialized_here`], unless
//! `SPVGRAPH_KEEP_GLSLANG=0`) and runs one tiny graph (ABS of an fp32 `[1]`),
//! so that glslang's built-in tables, the layer's and the driver's lazily
//! built state are ready before the first real graph, whose time a caller
//! waits for.

use super::device::Gpu;
use super::protocol::{
    self, read_message, write_message, DeviceReport, Failure, FromWorker, ProtocolError, RunHeader, RunTimes, Stage,
    ToWorker,
};
use crate::external::consumer::{glslang, Slot};
use crate::external::raw;
use spvgraph_ir::builder::ModuleBuilder;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::os::fd::FromRawFd;
use std::time::Instant;

/// Serves the protocol on standard input and output until the pipe closes
/// (`Ok`), the device is lost or cannot be set up (`Ok`, after saying so),
/// or the pipe breaks (`Err`).
pub fn serve() -> Result<(), String> {
    let mut out = BufWriter::new(protocol_output()?);
    let mut input = BufReader::new(std::io::stdin().lock());
    let select = match read_message::<ToWorker>(&mut input) {
        Ok((ToWorker::Hello { protocol: p, device }, _)) if p == protocol::VERSION => device,
        Ok((ToWorker::Hello { protocol: p, .. }, _)) => {
            let message = format!("the oracle speaks protocol {p}, this worker {}", protocol::VERSION);
            return reply(&mut out, &FromWorker::SetupFailed { protocol: protocol::VERSION, message }, &[]);
        }
        Ok((other, _)) => return Err(format!("expected a hello, got {other:?}")),
        Err(ProtocolError::Closed) => return Ok(()),
        Err(e) => return Err(e.to_string()),
    };
    let gpu = match Gpu::new(select.as_deref()) {
        Ok(g) => g,
        Err(e) => return reply(&mut out, &FromWorker::SetupFailed { protocol: protocol::VERSION, message: e.0 }, &[]),
    };
    let mut report = gpu.report().clone();
    keep_glslang(&mut report);
    report.warm_up = Some(warm_up(&gpu));
    reply(&mut out, &FromWorker::Ready(Box::new(report)), &[])?;
    loop {
        let (request, blobs) = match read_message::<ToWorker>(&mut input) {
            Ok(m) => m,
            Err(ProtocolError::Closed) => return Ok(()),
            Err(e) => return Err(e.to_string()),
        };
        let header = match request {
            ToWorker::Run(h) => h,
            ToWorker::Hello { .. } => return Err("a second hello".into()),
        };
        match run(&gpu, &header, &blobs) {
            (Ok(outputs), mut times) => {
                let encoding = Instant::now();
                let bytes: Vec<Vec<u8>> = outputs.iter().map(raw::to_raw).collect();
                let refs: Vec<&[u8]> = bytes.iter().map(Vec::as_slice).collect();
                times.readback_us += u64::try_from(encoding.elapsed().as_micros()).unwrap_or(u64::MAX);
                reply(&mut out, &FromWorker::Outputs(times), &refs)?;
            }
            (Err(mut f), times) => {
                f.times = times;
                let lost = f.stage == Stage::DeviceLost;
                reply(&mut out, &FromWorker::Failed(f), &[])?;
                if lost {
                    // A lost device cannot run anything more; the oracle
                    // starts a new worker.
                    return Ok(());
                }
            }
        }
    }
}

fn reply(out: &mut impl Write, message: &FromWorker, blobs: &[&[u8]]) -> Result<(), String> {
    write_message(out, message, blobs).map_err(|e| e.to_string())
}

/// The original standard output, kept for the protocol; descriptor 1 then
/// points at standard error.
fn protocol_output() -> Result<File, String> {
    // SAFETY: dup and dup2 on the process's own standard descriptors; the
    // duplicate is owned by the returned file from here on.
    unsafe {
        let fd = libc::dup(1);
        if fd < 0 {
            return Err(format!("cannot duplicate standard output: {}", std::io::Error::last_os_error()));
        }
        if libc::dup2(2, 1) < 0 {
            return Err(format!("cannot redirect standard output: {}", std::io::Error::last_os_error()));
        }
        Ok(File::from_raw_fd(fd))
    }
}

/// Keeps glslang initialized in the loaded libraries, unless
/// `SPVGRAPH_KEEP_GLSLANG=0`, and says so in `report`.
fn keep_glslang(report: &mut DeviceReport) {
    if !glslang::enabled_by_env() {
        report.glslang_note = Some(format!("not kept ({}=0)", glslang::KEEP_VARIABLE));
        return;
    }
    // SAFETY: the device is created, so the layers are loaded and
    // initialized; this thread is the only one and compiles nothing now.
    let kept = unsafe { glslang::keep_initialized_here() };
    report.glslang_kept = kept.kept.iter().map(|p| p.display().to_string()).collect();
    if !kept.refused.is_empty() {
        report.glslang_note = Some(format!("not kept in {}", kept.refused.join("; ")));
    }
}

/// Runs ABS of an fp32 `[1]` and says how long it took, or how it failed.
fn warm_up(gpu: &Gpu) -> String {
    let start = Instant::now();
    let slot = |binding| Slot { set: 0, binding, element: None, elem: ElemType::Fp32, shape: vec![1] };
    let words = match warm_up_module() {
        Ok(w) => w,
        Err(e) => return format!("not run: {e}"),
    };
    let input = match TensorData::from_bits(ElemType::Fp32, &[1], &[u64::from((-1.5f32).to_bits())]) {
        Ok(t) => t,
        Err(e) => return format!("not run: {e}"),
    };
    let (result, _) = gpu.run(&words, "main", &[(slot(0), input)], &[slot(1)], &[], None);
    match result {
        Ok(out) if out.first().map(TensorData::to_bits) == Some(vec![u64::from(1.5f32.to_bits())]) => {
            format!("ABS of fp32 [1] in {} ms", start.elapsed().as_millis())
        }
        Ok(out) => format!("ABS of fp32 [1] gave {out:?}"),
        Err(f) => format!("ABS of fp32 [1] failed: {}: {}", f.stage.describe(), f.message),
    }
}

/// `|x|` of an fp32 `[1]` at set 0, bindings 0 and 1, entry point `main`.
fn warm_up_module() -> Result<Vec<u32>, String> {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(ElemType::Fp32, Some(&[1]));
    let graph_type = b.type_graph(&[t], &[t]);
    let vars = vec![b.interface_variable(t, 0, 0), b.interface_variable(t, 0, 1)];
    let g = b.begin_graph(graph_type);
    b.graph_entry_point(g, "main", vars);
    let x = b.graph_input(t, 0, None);
    let y = b.tosa(TosaOp::Abs, t, vec![x]);
    b.graph_output(y, 0, None);
    b.end_graph();
    b.finish().encode_words().map_err(|e| e.to_string())
}

/// Decodes a run's data and runs it.
fn run(gpu: &Gpu, h: &RunHeader, blobs: &[Vec<u8>]) -> (Result<Vec<TensorData>, Failure>, RunTimes) {
    match decode(h, blobs) {
        Ok((words, inputs, constants)) => gpu.run(&words, &h.entry, &inputs, &h.outputs, &constants, h.fault),
        Err(f) => (Err(f), RunTimes::default()),
    }
}

type Decoded = (Vec<u32>, Vec<(Slot, TensorData)>, Vec<(u32, TensorData)>);

/// A run's module, inputs and constants from its blobs.
fn decode(h: &RunHeader, blobs: &[Vec<u8>]) -> Result<Decoded, Failure> {
    let bad = |m: String| Failure { stage: Stage::Request, result: None, message: m, times: RunTimes::default() };
    let need = 1 + h.inputs.len() + h.constants.len();
    if blobs.len() != need {
        return Err(bad(format!("{} blobs where {need} were expected", blobs.len())));
    }
    let words = protocol::bytes_to_words(&blobs[0]).map_err(|e| bad(e.to_string()))?;
    let inputs = h
        .inputs
        .iter()
        .zip(&blobs[1..])
        .enumerate()
        .map(|(i, (s, b))| {
            raw::from_raw(s.elem, &s.shape, b).map(|t| (s.clone(), t)).map_err(|e| bad(format!("input {i}: {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let constants = h
        .constants
        .iter()
        .zip(&blobs[1 + h.inputs.len()..])
        .map(|(c, b)| {
            raw::from_raw(c.elem, &c.shape, b).map(|t| (c.id, t)).map_err(|e| bad(format!("constant {}: {e}", c.id)))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((words, inputs, constants))
}
