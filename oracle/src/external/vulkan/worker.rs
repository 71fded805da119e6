//! The worker process (`spvgraph vulkan-worker`): it holds one instance and
//! one device and runs graph after graph for the `vulkan` oracle over its
//! standard input and output ([`super::protocol`]), so that a driver that
//! crashes or hangs takes only the worker down, never the hunt.
//!
//! Drivers and layers print to standard output; so that nothing they print
//! can be taken for a message, the worker keeps the original standard output
//! for the protocol alone and points file descriptor 1 at standard error
//! before it loads Vulkan.

use super::device::Gpu;
use super::protocol::{
    self, read_message, write_message, Failure, FromWorker, ProtocolError, RunHeader, Stage, ToWorker,
};
use crate::external::raw;
use spvgraph_ir::tensor::TensorData;
use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::os::fd::FromRawFd;

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
    reply(&mut out, &FromWorker::Ready(gpu.report().clone()), &[])?;
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
            Ok(outputs) => {
                let bytes: Vec<Vec<u8>> = outputs.iter().map(raw::to_raw).collect();
                let refs: Vec<&[u8]> = bytes.iter().map(Vec::as_slice).collect();
                reply(&mut out, &FromWorker::Outputs, &refs)?;
            }
            Err(f) => {
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

/// Decodes a run's data and runs it.
fn run(gpu: &Gpu, h: &RunHeader, blobs: &[Vec<u8>]) -> Result<Vec<TensorData>, Failure> {
    let bad = |m: String| Failure { stage: Stage::Request, result: None, message: m };
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
    gpu.run(&words, &h.entry, &inputs, &h.outputs, &constants, h.fault)
}
