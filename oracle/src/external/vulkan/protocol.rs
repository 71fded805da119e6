//! The pipe protocol between the `vulkan` oracle and its worker process
//! (`spvgraph vulkan-worker`).
//!
//! Each message is a JSON header and raw byte blobs: a 4-byte magic, the
//! header's length (u32, little-endian) and its bytes, the number of blobs
//! (u32), then each blob's length (u64) and bytes. Tensors travel as
//! [`crate::external::raw`] bytes (row-major, little-endian, each element in
//! its storage width), which is also how a linear, packed `VkTensorARM`
//! holds them, so neither side converts more than once.
//!
//! The worker answers [`ToWorker::Hello`] with [`FromWorker::Ready`] (the
//! device, driver and layers it uses) or [`FromWorker::SetupFailed`], and
//! each [`ToWorker::Run`] with [`FromWorker::Outputs`] or
//! [`FromWorker::Failed`], each with the run's [`RunTimes`]. A crash or hang
//! shows on the oracle's side as the pipe closing or staying silent.

use crate::external::consumer::Slot;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use spvgraph_ir::elem::ElemType;
use std::io::{Read, Write};

/// The version of this protocol: a worker from another build that speaks
/// another version is refused at the handshake.
pub const VERSION: u32 = 3;

const MAGIC: [u8; 4] = *b"SPVW";
/// The largest header accepted (a corrupt length must not allocate gigabytes).
const MAX_HEADER: u32 = 64 << 20;
/// The largest blob accepted.
const MAX_BLOB: u64 = 8 << 30;
/// The most blobs in one message.
const MAX_BLOBS: u32 = 1 << 20;

/// What the oracle asks the worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ToWorker {
    /// Start: create the instance and the device; answered once.
    Hello {
        /// The oracle's protocol version.
        protocol: u32,
        /// `SPVGRAPH_VULKAN_DEVICE`: a device index or part of its name.
        device: Option<String>,
    },
    /// Run one graph. Blobs: the module's words, then each input's data in
    /// `inputs` order, then each constant's data in `constants` order.
    Run(RunHeader),
}

/// One graph to run, without its data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunHeader {
    /// The entry point (`pName`).
    pub entry: String,
    /// One tensor per input (per tensor-array element), InputIndex order.
    pub inputs: Vec<Slot>,
    /// One tensor per output (per tensor-array element), OutputIndex order.
    pub outputs: Vec<Slot>,
    /// Graph constants: GraphConstantID, element type and shape.
    pub constants: Vec<ConstantHeader>,
    /// A fault the worker must raise while it runs this graph, standing in
    /// for a driver bug (tests and the restart measurement plant these).
    pub fault: Option<Fault>,
}

/// A graph constant without its data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConstantHeader {
    /// GraphConstantID.
    pub id: u32,
    /// Element type.
    pub elem: ElemType,
    /// Shape.
    pub shape: Vec<usize>,
}

/// A planted fault: what a buggy driver might do during a dispatch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Fault {
    /// Die of SIGSEGV.
    Segfault,
    /// Never answer.
    Hang,
    /// Report `VK_ERROR_DEVICE_LOST` from the queue.
    DeviceLost,
}

/// What the worker answers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FromWorker {
    /// The device is ready.
    Ready(Box<DeviceReport>),
    /// No device could be created; the worker exits after saying why.
    SetupFailed {
        /// The worker's protocol version (a mismatch is reported as such).
        protocol: u32,
        /// What went wrong.
        message: String,
    },
    /// The run's outputs, one blob each, in the order requested, and where
    /// the run's time went.
    Outputs(RunTimes),
    /// The run failed at a stage.
    Failed(Failure),
}

/// Where a run's time went in the worker, in microseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunTimes {
    /// `vkCreateShaderModule`, the descriptor-set and pipeline layouts and
    /// `vkCreateDataGraphPipelinesARM` (the layer compiling its shaders).
    pub compile_us: u64,
    /// Creating and filling the tensors, the session and its memory, the
    /// descriptor sets, recording, submitting and waiting for the dispatch,
    /// and destroying what the run created.
    pub run_us: u64,
    /// Reading the outputs from the mapped tensors and encoding them for
    /// the pipe.
    pub readback_us: u64,
}

impl RunTimes {
    /// The sum, as a duration.
    pub fn total(&self) -> std::time::Duration {
        std::time::Duration::from_micros(self.compile_us + self.run_us + self.readback_us)
    }
}

/// The device a worker uses, and what drives it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeviceReport {
    /// The worker's protocol version.
    pub protocol: u32,
    /// Index in the loader's enumeration.
    pub index: usize,
    /// `deviceName`.
    pub name: String,
    /// `deviceType` (`CPU`, `DISCRETE_GPU`, ...).
    pub device_type: String,
    /// `apiVersion`, as `major.minor.patch`.
    pub api_version: String,
    /// `driverName` and `driverInfo` (VkPhysicalDeviceDriverProperties).
    pub driver: String,
    /// `driverVersion`, raw.
    pub driver_version: u32,
    /// The instance layers active (from `VK_INSTANCE_LAYERS`), with their
    /// descriptions and versions as the loader reports them.
    pub layers: Vec<String>,
    /// The optional device extensions and features enabled.
    pub optional: Vec<String>,
    /// The libraries whose glslang the worker keeps initialized (see
    /// [`crate::external::consumer::glslang`]); empty when it is off or no
    /// loaded library has glslang.
    #[serde(default)]
    pub glslang_kept: Vec<String>,
    /// Why glslang is not kept initialized (switched off, or a library whose
    /// symbol was refused), when that is so.
    #[serde(default)]
    pub glslang_note: Option<String>,
    /// The warm-up graph the worker ran before it said it was ready (so that
    /// the first real graph finds the layer's tables built): how long it
    /// took, or how it failed.
    #[serde(default)]
    pub warm_up: Option<String>,
}

/// Where a run failed. Each stage is its own answer: pipeline creation
/// failed, session memory could not be bound, the dispatch failed, the
/// device was lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stage {
    /// The request does not fit the protocol (a harness error).
    Request,
    /// `vkCreateShaderModule`.
    ShaderModule,
    /// Creating, binding or filling the tensors, views and descriptor sets.
    Resources,
    /// `vkCreateDataGraphPipelinesARM`.
    Pipeline,
    /// Creating the session or asking for its bind points.
    Session,
    /// Allocating or binding the session's bind-point memory.
    SessionMemory,
    /// Recording, submitting or waiting for the dispatch.
    Dispatch,
    /// A C++ exception left `vkCreateDataGraphPipelinesARM` and the worker's
    /// guard caught it (a C or Rust application would have aborted); the
    /// message is the exception's.
    Threw,
    /// `VK_ERROR_DEVICE_LOST` (at any stage): the device is unusable and
    /// the worker exits after reporting it.
    DeviceLost,
}

impl Stage {
    /// How a report names it.
    pub fn describe(self) -> &'static str {
        match self {
            Stage::Request => "the request could not be read",
            Stage::ShaderModule => "shader module creation failed",
            Stage::Resources => "the tensors could not be set up",
            Stage::Pipeline => "pipeline creation failed",
            Stage::Session => "the pipeline session could not be created",
            Stage::SessionMemory => "session memory could not be bound",
            Stage::Dispatch => "the dispatch failed",
            Stage::Threw => "pipeline creation threw a C++ exception",
            Stage::DeviceLost => "the device was lost",
        }
    }
}

/// A failed run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Failure {
    /// Where.
    pub stage: Stage,
    /// The `VkResult` returned, by name (`ERROR_INITIALIZATION_FAILED`), when one was.
    pub result: Option<String>,
    /// What the worker knows besides.
    pub message: String,
    /// Where the run's time went until it failed.
    #[serde(default)]
    pub times: RunTimes,
}

/// A message that could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ProtocolError {
    /// The pipe closed before a whole message arrived.
    #[error("the pipe closed")]
    Closed,
    /// Reading or writing failed.
    #[error("pipe: {0}")]
    Io(#[from] std::io::Error),
    /// The bytes are not a message of this protocol.
    #[error("not a worker message: {0}")]
    Malformed(String),
}

/// Writes one message.
pub fn write_message<H: Serialize>(w: &mut impl Write, header: &H, blobs: &[&[u8]]) -> Result<(), ProtocolError> {
    let json = serde_json::to_vec(header).map_err(|e| ProtocolError::Malformed(e.to_string()))?;
    let len = u32::try_from(json.len()).map_err(|_| ProtocolError::Malformed("header too long".into()))?;
    let count = u32::try_from(blobs.len()).map_err(|_| ProtocolError::Malformed("too many blobs".into()))?;
    w.write_all(&MAGIC)?;
    w.write_all(&len.to_le_bytes())?;
    w.write_all(&json)?;
    w.write_all(&count.to_le_bytes())?;
    for b in blobs {
        w.write_all(&(b.len() as u64).to_le_bytes())?;
        w.write_all(b)?;
    }
    w.flush()?;
    Ok(())
}

fn read_exact(r: &mut impl Read, buf: &mut [u8]) -> Result<(), ProtocolError> {
    r.read_exact(buf).map_err(|e| match e.kind() {
        std::io::ErrorKind::UnexpectedEof => ProtocolError::Closed,
        _ => ProtocolError::Io(e),
    })
}

fn read_u32(r: &mut impl Read) -> Result<u32, ProtocolError> {
    let mut b = [0u8; 4];
    read_exact(r, &mut b)?;
    Ok(u32::from_le_bytes(b))
}

/// Reads one message: its header and blobs.
pub fn read_message<H: DeserializeOwned>(r: &mut impl Read) -> Result<(H, Vec<Vec<u8>>), ProtocolError> {
    let mut magic = [0u8; 4];
    read_exact(r, &mut magic)?;
    if magic != MAGIC {
        return Err(ProtocolError::Malformed(format!("bad magic {magic:02x?}")));
    }
    let len = read_u32(r)?;
    if len > MAX_HEADER {
        return Err(ProtocolError::Malformed(format!("a header of {len} bytes")));
    }
    let mut json = vec![0u8; len as usize];
    read_exact(r, &mut json)?;
    let header = serde_json::from_slice(&json).map_err(|e| ProtocolError::Malformed(e.to_string()))?;
    let count = read_u32(r)?;
    if count > MAX_BLOBS {
        return Err(ProtocolError::Malformed(format!("{count} blobs")));
    }
    let mut blobs = Vec::with_capacity(count as usize);
    for _ in 0..count {
        let mut b = [0u8; 8];
        read_exact(r, &mut b)?;
        let n = u64::from_le_bytes(b);
        if n > MAX_BLOB {
            return Err(ProtocolError::Malformed(format!("a blob of {n} bytes")));
        }
        let n = usize::try_from(n).map_err(|_| ProtocolError::Malformed(format!("a blob of {n} bytes")))?;
        let mut blob = vec![0u8; n];
        read_exact(r, &mut blob)?;
        blobs.push(blob);
    }
    Ok((header, blobs))
}

/// The module's words as bytes (little-endian), for a blob.
pub fn words_to_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// A blob back into words.
pub fn bytes_to_words(bytes: &[u8]) -> Result<Vec<u32>, ProtocolError> {
    if bytes.len() % 4 != 0 {
        return Err(ProtocolError::Malformed(format!("a module of {} bytes", bytes.len())));
    }
    Ok(bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_round_trip_through_a_pipe() {
        let header = ToWorker::Run(RunHeader {
            entry: "main".into(),
            inputs: vec![Slot { set: 0, binding: 1, element: Some(2), elem: ElemType::Bf16, shape: vec![2, 3] }],
            outputs: vec![],
            constants: vec![ConstantHeader { id: 7, elem: ElemType::I8, shape: vec![1] }],
            fault: Some(Fault::Hang),
        });
        let mut buf = Vec::new();
        write_message(&mut buf, &header, &[&[1, 2, 3], &[]]).expect("writes");
        let (back, blobs): (ToWorker, _) = read_message(&mut buf.as_slice()).expect("reads");
        assert_eq!(back, header);
        assert_eq!(blobs, vec![vec![1, 2, 3], vec![]]);
        assert_eq!(bytes_to_words(&words_to_bytes(&[0x0723_0203, 5])).expect("words"), [0x0723_0203, 5]);
    }

    #[test]
    fn truncated_and_corrupt_messages_are_errors() {
        let mut buf = Vec::new();
        write_message(&mut buf, &FromWorker::Outputs(RunTimes::default()), &[&[9; 16]]).expect("writes");
        for cut in [0, 3, 7, buf.len() - 1] {
            let r: Result<(FromWorker, _), _> = read_message(&mut &buf[..cut]);
            assert!(matches!(r, Err(ProtocolError::Closed)), "cut at {cut}: {r:?}");
        }
        let mut bad = buf.clone();
        bad[0] = b'X';
        assert!(matches!(read_message::<FromWorker>(&mut bad.as_slice()), Err(ProtocolError::Malformed(_))));
        let mut huge = buf.clone();
        huge[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(read_message::<FromWorker>(&mut huge.as_slice()), Err(ProtocolError::Malformed(_))));
        assert!(bytes_to_words(&[1, 2, 3]).is_err());
    }
}
