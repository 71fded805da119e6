//! What spvgraph's tests share, used only as a dev-dependency: a scratch
//! directory that goes away with the test, the external tools found the way
//! the CLI finds them (a missing one skips the test with a notice, or fails
//! it under `CI=true`), the run request of a generated case, and the
//! `spvgraph` binary for CLI tests ([`bin!`]).
#![allow(
    clippy::panic,
    clippy::expect_used,
    reason = "test support: a failure here is a failed test and names its place"
)]
#![allow(
    clippy::print_stderr,
    reason = "test support: skip notices and kept scratch directories, as cargo test shows them"
)]

use spvgraph_generator::Case;
use spvgraph_oracle::external::spirv_val::SpirvVal;
use spvgraph_oracle::oracle::{runnable, Oracle, OwnedExecRequest};
use spvgraph_oracle::tools::Tool;
use std::path::{Path, PathBuf};

/// The environment variable that keeps scratch directories for inspection.
pub const KEEP_SCRATCH: &str = "SPVGRAPH_KEEP_SCRATCH";

/// A scratch directory under the system temp dir, removed when dropped,
/// whether the test passed or panicked. With `SPVGRAPH_KEEP_SCRATCH` set it
/// is kept and its path printed, so a failing test's files can be read.
pub struct Scratch {
    dir: Option<tempfile::TempDir>,
    path: PathBuf,
}

impl Scratch {
    /// A new, empty directory whose name starts with `spvgraph-NAME-`.
    pub fn new(name: &str) -> Scratch {
        Scratch::inside(&std::env::temp_dir(), name)
    }

    /// Like [`Scratch::new`], inside `parent` (which must exist): for a test
    /// whose commands must find the workspace from their directory.
    pub fn inside(parent: &Path, name: &str) -> Scratch {
        let dir = tempfile::Builder::new()
            .prefix(&format!("spvgraph-{name}-"))
            .tempdir_in(parent)
            .unwrap_or_else(|e| panic!("create a scratch directory for {name} in {}: {e}", parent.display()));
        let path = dir.path().to_path_buf();
        Scratch { dir: Some(dir), path }
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// `DIR/rel`.
    pub fn join(&self, rel: impl AsRef<Path>) -> PathBuf {
        self.path.join(rel)
    }
}

impl std::fmt::Debug for Scratch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.path.fmt(f)
    }
}

impl AsRef<std::ffi::OsStr> for Scratch {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.path.as_os_str()
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let Some(dir) = self.dir.take() else { return };
        if std::env::var_os(KEEP_SCRATCH).is_some() {
            eprintln!("{KEEP_SCRATCH}: kept {}", dir.keep().display());
        }
        // Otherwise `TempDir`'s own drop removes the tree.
    }
}

/// Builds the hand-written fixtures of `ir/tests/fixtures` with the real
/// tools (its `build.sh`: spirv-as for the `.spvasm`, model-converter and
/// vgf_dump for the `.mlir`) into `out`, emptied first. `None` after a notice
/// when a tool is missing; under `CI=true` that fails the test. Callers build
/// once per process into a directory under cargo's `target/tmp`, which the
/// next run replaces instead of adding another.
pub fn build_fixtures(out: &Path) -> Option<()> {
    let spirv_as = tool(Tool::SpirvAs)?;
    let mc = tool(Tool::ModelConverter)?;
    let vgf = tool(Tool::VgfDump)?;
    let _ = std::fs::remove_dir_all(out);
    std::fs::create_dir_all(out).unwrap_or_else(|e| panic!("create {}: {e}", out.display()));
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../ir/tests/fixtures/build.sh");
    let run = std::process::Command::new("bash")
        .arg(&script)
        .arg(out)
        .env("SPIRV_AS", spirv_as)
        .env("MODEL_CONVERTER", mc)
        .env("VGF_DUMP", vgf)
        .output()
        .unwrap_or_else(|e| panic!("run {}: {e}", script.display()));
    assert!(run.status.success(), "{} failed: {}", script.display(), String::from_utf8_lossy(&run.stderr));
    Some(())
}

/// [`Scratch::new`].
pub fn scratch(name: &str) -> Scratch {
    Scratch::new(name)
}

/// The path of `tool`, or `None` after a `skipping: …` notice when it is
/// missing. Under `CI=true` a missing tool fails the test.
pub fn tool(tool: Tool) -> Option<PathBuf> {
    spvgraph_oracle::tools::locate(tool).unwrap_or_else(|e| panic!("CI=true and {e}"))
}

/// `oracle` when it can run here, or `None` after a `skipping: …` notice.
/// Under `CI=true` an oracle that cannot run fails the test.
pub fn oracle<O: Oracle>(oracle: O) -> Option<O> {
    runnable(oracle).unwrap_or_else(|e| panic!("CI=true and {e}"))
}

/// spirv-val in process, as [`oracle`] finds it.
pub fn spirv_val() -> Option<SpirvVal> {
    oracle(SpirvVal::discover())
}

/// The registry's oracle `name` (a channel instance such as
/// `spirv-val@sdk` included) when it can run here, or `None` after a
/// `skipping: …` notice (its channel is not installed, its tool is
/// missing). Under `CI=true` it fails the test instead.
pub fn registry_oracle(name: &str) -> Option<Box<dyn Oracle>> {
    let config = spvgraph_oracle::registry::OracleConfig::default();
    let built = match spvgraph_oracle::registry::build(name, &config) {
        Ok(o) => o,
        Err(e) if spvgraph_oracle::tools::Tools::required() => panic!("CI=true and {name}: {e}"),
        Err(e) => {
            eprintln!("skipping: {name}: {e}");
            return None;
        }
    };
    match built.available() {
        Ok(()) => Some(built),
        Err(e) if spvgraph_oracle::tools::Tools::required() => panic!("CI=true and {e}"),
        Err(e) => {
            eprintln!("skipping: {e}");
            None
        }
    }
}

/// Runs the spirv-val executable `val` (vulkan1.3) on a module file; `Err`
/// carries its message.
pub fn spirv_val_file(val: &Path, file: &Path) -> Result<(), String> {
    let out = std::process::Command::new(val)
        .args(["--target-env", "vulkan1.3"])
        .arg(file)
        .output()
        .unwrap_or_else(|e| panic!("run {}: {e}", val.display()));
    if out.status.success() {
        Ok(())
    } else {
        Err(format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
    }
}

/// The run request of entry point `k` of a generated case: the module's
/// words, the entry point's inputs in InputIndex order and every graph
/// constant. `None` when the case has no entry point `k`.
pub fn request(case: &Case, k: usize) -> Option<OwnedExecRequest> {
    let ep = case.entry_points.get(k)?;
    Some(OwnedExecRequest {
        module: case.module.encode_words().expect("a generated module encodes"),
        entry_point: Some(ep.name.clone()),
        inputs: ep.inputs.iter().map(|t| t.data.clone()).collect(),
        graph_constants: case.graph_constants.clone(),
    })
}

/// A module whose one graph entry point `main` runs one unary TOSA `op`
/// on an input of `elem` and `shape`, with the same type as its output
/// (interface variables at DescriptorSet 0, Bindings 0 and 1).
pub fn unary_module(
    op: spvgraph_ir::tosa::TosaOp,
    elem: spvgraph_ir::elem::ElemType,
    shape: &[u32],
) -> spvgraph_ir::Module {
    let mut b = spvgraph_ir::builder::ModuleBuilder::new();
    let t = b.type_tensor(elem, Some(shape));
    let gty = b.type_graph(&[t], &[t]);
    let vars = vec![b.interface_variable(t, 0, 0), b.interface_variable(t, 0, 1)];
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "main", vars);
    let x = b.graph_input(t, 0, None);
    let y = b.tosa(op, t, vec![x]);
    b.graph_output(y, 0, None);
    b.end_graph();
    b.finish()
}

/// A `Command` for the `spvgraph` binary. A macro, not a function: cargo
/// names the binary (`CARGO_BIN_EXE_spvgraph`) only to the root crate's
/// integration tests, so the name must be read where the macro is expanded.
#[macro_export]
macro_rules! bin {
    () => {
        ::std::process::Command::new(env!("CARGO_BIN_EXE_spvgraph"))
    };
}
