//! Emulation-layer bugs that only the Vulkan API path shows (the `vulkan`
//! oracle), kept as corpus findings (`corpus/findings/STEM.spv`, `.spvasm`,
//! the inputs as `.npy`, a `.md` note) and checked here: each module is
//! valid, the in-tree executor runs it, and the layer still does what the
//! note says. scenario-runner hides both: it cannot bind tensor arrays, and
//! it catches the C++ exceptions the layer throws.
//!
//! Regenerate the files with
//! `cargo run --release -p spvgraph-oracle --example write_findings -- vulkan`.

use spvgraph_ir::builder::ModuleBuilder;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::Module;
use spvgraph_oracle::exec::Executor;
use spvgraph_oracle::external::vulkan::{Vulkan, CPP_EXCEPTION};
use spvgraph_oracle::oracle::Executor as _;
use spvgraph_oracle::oracle::{Abnormal, ExecOutcome, ExecRequest, Oracle, ValidateOptions};
use spvgraph_oracle::validate::Validator;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::consumer_common;

use consumer_common::tensor;

fn findings_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/findings")
}

/// One finding: the module, its data, how the worker's run ends (the signal
/// it dies of, or the exception its guard catches), what the detail holds,
/// and the note.
struct Finding {
    stem: &'static str,
    words: Vec<u32>,
    inputs: Vec<TensorData>,
    constants: BTreeMap<u32, TensorData>,
    how: Abnormal,
    detail: &'static str,
    note: &'static str,
}

impl Finding {
    fn request(&self) -> ExecRequest<'_> {
        ExecRequest { module: &self.words, entry_point: None, inputs: &self.inputs, graph_constants: &self.constants }
    }
}

fn findings() -> Vec<Finding> {
    vec![tensor_array_elements(), exception_through_the_api()]
}

/// An input array of two i32 `[4]` tensors whose two elements are both read.
fn tensor_array_elements() -> Finding {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(ElemType::I32, Some(&[4]));
    let arr = b.type_array(t, 2);
    let gty = b.type_graph(&[arr], &[t, t]);
    let vars = vec![b.interface_variable(arr, 0, 0), b.interface_variable(t, 0, 1), b.interface_variable(t, 0, 2)];
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "main", vars);
    let first = b.graph_input(t, 0, Some(0));
    let second = b.graph_input(t, 0, Some(1));
    let a = b.tosa(TosaOp::Abs, t, vec![first]);
    let c = b.tosa(TosaOp::Abs, t, vec![second]);
    b.graph_output(a, 0, None);
    b.graph_output(c, 1, None);
    b.end_graph();
    Finding {
        stem: "emulation-layer-tensor-array-elements-sigsegv",
        words: b.finish().encode_words().expect("encodes"),
        inputs: vec![tensor(ElemType::I32, &[4], &[1, -2, 3, -4]), tensor(ElemType::I32, &[4], &[-5, 6, -7, 8])],
        constants: BTreeMap::new(),
        how: Abnormal::Signal(11),
        detail: "in vkCreateDataGraphPipelinesARM",
        note: TENSOR_ARRAY_NOTE,
    }
}

const TENSOR_ARRAY_NOTE: &str =
    "# The emulation layer crashes on a graph that reads two elements of a tensor-array input

**Belongs to:** ML Emulation Layer for Vulkan. **Status:** open. The reproducer of `emulation-layer-tensor-array-elements-sigsegv.json` (`upstream.reproduce`, a C program: scenario-runner cannot bind tensor arrays) is run by `tests/it/upstream_reproducers.rs`.

One bug with two triggers; the primary finding is `emulation-layer-unread-input-zeros`, this is
the other trigger (same cause, `upstream.same_cause_as`).

The graph's input 0 is an `OpTypeArray` of two `i32 [4]` tensors (interface variable at
DescriptorSet 0, Binding 0); the graph reads both elements (`OpGraphInputARM` with InputIndex 0
and ElementIndex 0, then ElementIndex 1) and returns `ABS` of each as outputs 0 and 1 (bindings 1
and 2). The module is valid (spvgraph's validator; spirv-val 2025.5 accepts it too): SPV_ARM_graph
allows two `OpGraphInputARM` with one InputIndex when their ElementIndex differ.

Each element is bound on its own: the descriptor-set layout gives binding 0 two `TENSOR_ARM`
descriptors and the pipeline's resources are (set 0, binding 0, `arrayElement` 0), (0, 0, 1),
(0, 1, 0), (0, 2, 0).

Expected (in-tree executor): `[1, 2, 3, 4]` and `[5, 6, 7, 8]`.
Seen (ai-ml-emulation-layer-for-vulkan 0.11.0 on lavapipe): `vkCreateDataGraphPipelinesARM`
dies of SIGSEGV in the Graph layer's SPIR-V pass
(`spvtools::opt::GraphExtInstContext::handleInputsAndOutputs`, called from
`GraphPassExtInst::handleGraphs`, gdb). Just before, the layer's log
(`VMEL_GRAPH_SEVERITY=info`) resolves both elements right and then binds output 0 to the
variable at binding 2, which is output 1's.

Why (`graph/graph_ext_inst_context.cpp:83` at commit 2eaef00 of
arm/ai-ml-emulation-layer-for-vulkan, the closest public commit to 0.11.0): the first output
variable is taken at \"interface + number of `OpGraphInputARM` instructions\" instead of
\"interface + `NumInputs` of the graph's `OpTypeGraphARM`\". Two reads of one array input count
as two inputs, so output 0 gets output 1's variable and output 1 the operand past the end of
the entry point's interface list, which crashes. With too few reads the same line sends the
result into an input's tensor (`emulation-layer-unread-input-zeros`). Checked with the C
program below and the same bindings: reading only element 0 gives the right output, and the
two-element graph with one more, unread, input (output at binding 2) runs and is right
(`ADD` of the two elements: `[-4, 4, -4, 4]`): the two miscounts cancel. Fix: take the offset
from `NumInputs`.

Whose bug: the layer's. scenario-runner hides it, since it cannot bind tensor arrays (every
resource is `arrayElement` 0), so the `emulation-layer` oracle never runs such graphs.

Reproduce, in this directory (Debian 12: `apt-get install libvulkan-dev`; `$ORACLES` is the
repository's `.oracles`):

    cc -o emulation-layer-tensor-array-elements-sigsegv \\
        emulation-layer-tensor-array-elements-sigsegv.c -lvulkan
    VK_LAYER_PATH=$ORACLES/layers/1_graph:$ORACLES/layers/2_tensor \\
    VK_INSTANCE_LAYERS=VK_LAYER_ML_Graph_Emulation:VK_LAYER_ML_Tensor_Emulation \\
    VK_ICD_FILENAMES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json \\
        ./emulation-layer-tensor-array-elements-sigsegv

It prints `calling vkCreateDataGraphPipelinesARM` and dies of SIGSEGV (exit status 139 from
a shell); fixed, it prints both outputs and exits 0. With spvgraph, in this directory of a
checkout with the oracles set up:

    cargo run --release -q --bin spvgraph -- diff emulation-layer-tensor-array-elements-sigsegv.spv \\
        --oracles in-tree,vulkan --input emulation-layer-tensor-array-elements-sigsegv.ep0.in0.e0.npy \\
        --input emulation-layer-tensor-array-elements-sigsegv.ep0.in0.e1.npy

`oracle/tests/it/vulkan_findings.rs` checks that it still reproduces.

**Versions.** ai-ml-emulation-layer-for-vulkan 0.11.0 (the release channel) shows it through the Vulkan API; 0.12.0.dev20261024 (the dev channel: `ci/setup-oracles --channel dev`) still shows it: `spvgraph diff emulation-layer-tensor-array-elements-sigsegv.spv --oracles in-tree,vulkan,vulkan@dev` on 2026-11-26 gave the same end for both versions.
";

/// MUL with a graph constant as its shift operand: the layer refuses it by
/// throwing (`emulation-layer-graph-constant-ctc-rejected`).
fn exception_through_the_api() -> Finding {
    let words = mul_module(|b, shift_ty| b.graph_constant(shift_ty, 0));
    let mut constants = BTreeMap::new();
    constants.insert(0, tensor(ElemType::I8, &[1], &[0]));
    Finding {
        stem: "emulation-layer-exception-through-vulkan-api",
        words,
        inputs: mul_inputs(),
        constants,
        how: Abnormal::Threw,
        detail: CPP_EXCEPTION,
        note: EXCEPTION_NOTE,
    }
}

const EXCEPTION_NOTE: &str = "# The emulation layer throws C++ exceptions out of vkCreateDataGraphPipelinesARM

**Belongs to:** ML Emulation Layer for Vulkan. **Status:** open. The reproducer of `emulation-layer-exception-through-vulkan-api.json` (`upstream.reproduce`, a C program: scenario-runner catches the exception) is run by `tests/it/upstream_reproducers.rs`.

Any graph the Graph layer refuses at pipeline creation (here MUL with an `OpGraphConstantARM` as
its shift, `emulation-layer-graph-constant-ctc-rejected`; likewise debug information, a null bool
operand, a null constituent of a tensor constant) is refused by a C++ exception
(`std::exception` thrown in `spvtools::opt::GraphExtInstContext::getConstVector`, seen with
`gdb` `catch throw`) that leaves the layer's `vkCreateDataGraphPipelinesARM` instead of a
`VkResult` error code.

Expected: `vkCreateDataGraphPipelinesARM` returns an error and the application goes on; a Vulkan
command is a C function and cannot throw (the registry gives this command the error codes
`VK_ERROR_OUT_OF_HOST_MEMORY`, `VK_ERROR_OUT_OF_DEVICE_MEMORY`, `VK_ERROR_UNKNOWN` and
`VK_ERROR_VALIDATION_FAILED`; a refusal is `VK_ERROR_UNKNOWN`).
Seen (ai-ml-emulation-layer-for-vulkan 0.11.0 on lavapipe): in a C or Rust application the
exception cannot be caught: a Rust program aborts with SIGABRT (\"Rust cannot catch foreign
exceptions\"), as spvgraph's `vulkan` worker did with `SPVGRAPH_CATCH_EXCEPTIONS=0`. The worker now
creates pipelines through a C++ frame of its own that catches it, so that each such graph does not
cost a worker, and reports it as a crash all the same. scenario-runner, written in C++ with
exceptions, catches it and prints the message as an `ERROR` line, which is why the
`emulation-layer` oracle reports a refusal.

Whose bug: the layer's (the refusal itself is documented in the other findings; letting the
exception out of a Vulkan command is this one). Why (`graph/graph_layer.cpp:952-961` at commit
2eaef00 of arm/ai-ml-emulation-layer-for-vulkan, the closest public commit to 0.11.0): the
layer's `vkCreateDataGraphPipelinesARM` runs the graph pass through `spvtools::Optimizer::Run`
with no `try`/`catch` around it (there is none anywhere under `graph/` or `common/`), and the
pass reports every refusal by throwing `std::runtime_error` (here
`graph/graph_ext_inst_context.hpp:196-198`, \"Missing declared constant for id\", reached from
MUL's shift operand). Fix: catch in the command (and in every command that can reach a
throw), log the message, return `VK_ERROR_UNKNOWN`.

Reproduce from C, in this directory (Debian 12: `apt-get install libvulkan-dev`; `$ORACLES` is
the repository's `.oracles`):

    cc -o emulation-layer-exception-through-vulkan-api \\
        emulation-layer-exception-through-vulkan-api.c -lvulkan
    VK_LAYER_PATH=$ORACLES/layers/1_graph:$ORACLES/layers/2_tensor \\
    VK_INSTANCE_LAYERS=VK_LAYER_ML_Graph_Emulation:VK_LAYER_ML_Tensor_Emulation \\
    VK_ICD_FILENAMES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json \\
        ./emulation-layer-exception-through-vulkan-api

It prints `calling vkCreateDataGraphPipelinesARM`, then the C++ runtime's `terminate called
after throwing an instance of 'std::runtime_error'` / `what():  Missing declared constant for
id: 15`, and the process dies of SIGABRT (exit status 134 from a shell); nothing after the
call runs. Fixed, it prints the `VkResult` and exits 0. The same program with the shift as an
`OpConstant` tensor runs and prints `[5, 12, 21, 32]`.

With spvgraph, in this directory of a checkout with the oracles set up:

    cargo run --release -q --bin spvgraph -- diff emulation-layer-exception-through-vulkan-api.spv \\
        --oracles in-tree,vulkan --input emulation-layer-exception-through-vulkan-api.ep0.in0.npy \\
        --input emulation-layer-exception-through-vulkan-api.ep0.in1.npy \\
        --graph-constant 0=emulation-layer-exception-through-vulkan-api.gc0.npy

`oracle/tests/it/vulkan_findings.rs` checks that it still reproduces.

**Versions.** ai-ml-emulation-layer-for-vulkan 0.11.0 (the release channel) shows it through the Vulkan API; 0.12.0.dev20261024 (the dev channel: `ci/setup-oracles --channel dev`) still shows it: `spvgraph diff emulation-layer-exception-through-vulkan-api.spv --oracles in-tree,vulkan,vulkan@dev` on 2026-11-26 gave the same end for both versions.
";

/// The files of a finding: module, text form, inputs (corpus names:
/// `STEM.ep0.in<i>[.e<j>].npy`), graph constants, note.
fn files(f: &Finding) -> Vec<(String, Vec<u8>)> {
    let module = Module::decode_words(&f.words).expect("decodes");
    let mut out = vec![
        (format!("{}.spv", f.stem), f.words.iter().flat_map(|w| w.to_le_bytes()).collect()),
        (format!("{}.spvasm", f.stem), spvgraph_ir::text::disassemble(&module).into_bytes()),
        (format!("{}.md", f.stem), f.note.as_bytes().to_vec()),
    ];
    let iface = spvgraph_oracle::exec::interface(&module, None).expect("an interface");
    for (port, _) in iface.inputs.iter().zip(&f.inputs) {
        let element = port.element.map(|e| format!(".e{e}")).unwrap_or_default();
        out.push((format!("{}.ep0.in{}{element}.npy", f.stem, port.index), Vec::new()));
    }
    for id in f.constants.keys() {
        out.push((format!("{}.gc{id}.npy", f.stem), Vec::new()));
    }
    out
}

/// Writes this file's findings into `corpus/findings/` (the example
/// `write_findings`; the tests here check what it wrote).
pub fn write_findings() {
    let dir = findings_dir();
    for f in findings() {
        let names = files(&f);
        let (text, npy) = names.split_at(3);
        for (name, bytes) in text {
            std::fs::write(dir.join(name), bytes).expect("write");
        }
        let data = f.inputs.iter().chain(f.constants.values());
        for ((name, _), t) in npy.iter().zip(data) {
            t.write_npy(&dir.join(name)).expect("write npy");
        }
    }
}

#[test]
fn every_finding_has_its_files_and_is_valid() {
    let dir = findings_dir();
    for f in findings() {
        for (name, bytes) in files(&f) {
            let path = dir.join(&name);
            assert!(
                path.is_file(),
                "{name} missing; rerun `cargo run --release -p spvgraph-oracle --example write_findings -- vulkan`"
            );
            if name.ends_with(".spv") || name.ends_with(".md") {
                assert_eq!(
                    std::fs::read(&path).expect("read"),
                    bytes,
                    "{name} differs; rerun `cargo run --release -p spvgraph-oracle --example write_findings -- vulkan`"
                );
            }
        }
        assert!(Validator::new(ValidateOptions::default()).check_words(&f.words).is_valid(), "{}", f.stem);
        assert!(matches!(Executor::default().execute(&f.request()), Ok(ExecOutcome::Outputs(_))), "{}", f.stem);
    }
}

#[test]
fn every_finding_still_reproduces_through_the_vulkan_api() {
    let Some(vk) = spvgraph_testkit::oracle(Vulkan::discover()) else { return };
    for f in findings() {
        match vk.execute(&f.request()) {
            Ok(ExecOutcome::Abnormal { how, detail }) => {
                assert_eq!(how, f.how, "{}: {detail}", f.stem);
                assert!(detail.contains(f.detail), "{}: {detail}", f.stem);
            }
            other => panic!("{} no longer reproduces ({other:?}); update or retire it", f.stem),
        }
    }
}

/// Without the guard the worker dies of the exception, as a C or Rust
/// application does; with it the same worker runs the next graph.
#[test]
fn the_guard_keeps_the_worker_through_an_exception() {
    let Some(vk) = spvgraph_testkit::oracle(Vulkan::discover()) else { return };
    let f = exception_through_the_api();
    let unguarded = Vulkan::discover().with_exceptions_caught(false).with_spare(false);
    match unguarded.execute(&f.request()) {
        Ok(ExecOutcome::Abnormal { how: Abnormal::Signal(6), detail }) => {
            assert!(detail.contains(CPP_EXCEPTION), "{detail}");
        }
        other => panic!("without the guard: {other:?}"),
    }
    let vk = vk.with_spare(false);
    let threw = vk.execute(&f.request());
    let Ok(ExecOutcome::Abnormal { how: Abnormal::Threw, detail }) = threw else { panic!("with the guard: {threw:?}") };
    // The exception's own message is kept (the layer's SPIR-V pass names the constant it misses).
    assert!(detail.contains("Missing declared constant"), "{detail}");
    // The same MUL with its shift a tensor constant, which the layer runs.
    let words = mul_module(|b, _| b.const_tensor(ElemType::I8, &[1], &[0]).expect("a tensor constant"));
    let inputs = mul_inputs();
    let fine = ExecRequest { module: &words, entry_point: None, inputs: &inputs, graph_constants: &BTreeMap::new() };
    assert!(matches!(vk.execute(&fine), Ok(ExecOutcome::Outputs(_))));
    let s = vk.stats();
    assert_eq!((s.cold_starts, s.lost), (1, 0), "one worker served both graphs: {s:?}");
}

/// MUL of two i32 `[4]` inputs with the shift `shift` makes from the i8
/// `[1]` type (set 0, bindings 0 to 2, entry point `main`).
fn mul_module(shift: impl FnOnce(&mut ModuleBuilder, spvgraph_ir::Id) -> spvgraph_ir::Id) -> Vec<u32> {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(ElemType::I32, Some(&[4]));
    let shift_ty = b.type_tensor(ElemType::I8, Some(&[1]));
    let gty = b.type_graph(&[t, t], &[t]);
    let vars = vec![b.interface_variable(t, 0, 0), b.interface_variable(t, 0, 1), b.interface_variable(t, 0, 2)];
    let shift = shift(&mut b, shift_ty);
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "main", vars);
    let x = b.graph_input(t, 0, None);
    let y = b.graph_input(t, 1, None);
    let p = b.tosa(TosaOp::Mul, t, vec![x, y, shift]);
    b.graph_output(p, 0, None);
    b.end_graph();
    b.finish().encode_words().expect("encodes")
}

fn mul_inputs() -> Vec<TensorData> {
    vec![tensor(ElemType::I32, &[4], &[1, 2, 3, 4]), tensor(ElemType::I32, &[4], &[5, 6, 7, 8])]
}

#[test]
fn the_vulkan_oracle_documents_every_finding() {
    let Some(vk) = spvgraph_testkit::oracle(Vulkan::discover()) else { return };
    let known = vk.known_discrepancies();
    for f in findings() {
        let file = format!("corpus/findings/{}.spv", f.stem);
        assert!(known.iter().any(|k| k.finding == file && k.kind == "crash"), "{file} is not documented");
    }
}
