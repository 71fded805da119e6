//! Reference-model bugs found while building the adapter, kept as corpus
//! findings (`corpus/findings/ref-*`: `.spv`, `.spvasm`, `.mlir`, `.json`
//! manifest, `.npy` inputs, and a `.md` note), and checked here:
//!
//! * each still reproduces with the pinned `tosa_reference_model` (when one
//!   stops reproducing, update or retire the finding), and
//! * the adapter still answers correctly despite it.
//!
//! Regenerate the files with
//! `cargo run --release -p spvgraph-oracle --example write_findings -- reference`.

use spvgraph_generator::files::{write_case, Extras};
use spvgraph_generator::{Case, CaseMeta, EntryPoint, InputTensor, InterfaceSlot, RowUse};
use spvgraph_ir::builder::ModuleBuilder;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::{RowQualifier, TosaOp};
use spvgraph_ir::Module;
use spvgraph_oracle::external::tosa_reference::{write_npy, PreciseOutcome, TosaReferenceModel};
use spvgraph_oracle::oracle::Executor as _;
use spvgraph_oracle::oracle::{ExecOutcome, ExecRequest, Refusal};
use spvgraph_oracle::tools::{Tool, Tools};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn findings_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/findings")
}

/// A one-operator graph `op(inputs) -> output` with its data.
struct Finding {
    stem: &'static str,
    op: TosaOp,
    slots: &'static [ElemType],
    inputs: Vec<TensorData>,
    output: (ElemType, Vec<u32>),
    note: &'static str,
}

fn tensor(elem: ElemType, shape: &[usize], values: &[i64]) -> TensorData {
    let bits: Vec<u64> = values.iter().map(|&v| v as u64).collect();
    TensorData::from_bits(elem, shape, &bits).expect("shape matches")
}

fn findings() -> Vec<Finding> {
    vec![
        Finding {
            stem: "ref-intdiv-zero-sigfpe",
            op: TosaOp::Intdiv,
            slots: &[ElemType::I32],
            inputs: vec![tensor(ElemType::I32, &[4], &[7, 7, 7, 7]), tensor(ElemType::I32, &[4], &[1, 2, 0, 4])],
            output: (ElemType::I32, vec![4]),
            note: INTDIV_NOTE,
        },
        Finding {
            stem: "ref-precise-bounds-int-matmul",
            op: TosaOp::Matmul,
            slots: &[ElemType::I8, ElemType::I32],
            inputs: vec![
                tensor(ElemType::I8, &[1, 2, 3], &[1, 2, 3, 4, 5, 6]),
                tensor(ElemType::I8, &[1, 3, 2], &[1, 0, 0, 1, 1, 1]),
            ],
            output: (ElemType::I32, vec![1, 2, 2]),
            note: MATMUL_NOTE,
        },
    ]
}

const INTDIV_NOTE: &str = "# INTDIV by zero kills tosa_reference_model with SIGFPE

**Belongs to:** TOSA reference model (tosa-tools). **Status:** open. The reproducer of `ref-intdiv-zero-sigfpe.json` (`upstream.reproduce`) is run by `tests/it/upstream_reproducers.rs`.

`tosa_reference_model` (tosa-tools 2026.8.0) reports the failed REQUIRE
(`OpIntDiv: divisor must be non-zero value`) and then performs the division
anyway: the process dies of SIGFPE (signal 8; the venv's Python shim
`bin/tosa_reference_model` reports that as exit status 248) and never prints
`Graph result: UNPREDICTABLE.` nor exits with status 1, the documented code
for an unpredictable graph. Harnesses that classify runs by
exit status see a crash instead of `tosa_unpredictable`.

Reproduce (the `.mlir` is the graph; inputs are the `.npy` files):

    tosa-opt ref-intdiv-zero-sigfpe.mlir --tosa-serialize=tosa-flatbuffer-filename=g.tosa -o /dev/null
    TOSA_MODEL_NO_BACKTRACE=1 tosa_reference_model --tosa_file g.tosa \\
        --ifm_name TosaInput_0,TosaInput_1 \\
        --ifm_file ref-intdiv-zero-sigfpe.ep0.in0.npy,ref-intdiv-zero-sigfpe.ep0.in1.npy \\
        --ofm_name TosaOutput_0 --ofm_file out.npy --output_dir .

Expected: exit status 1 (UNPREDICTABLE). Seen: killed by SIGFPE (248 through the shim).
The spvgraph adapter maps a crash whose log shows a failed REQUIRE to
`Refused { Unpredictable }` (oracle/tests/it/reference_findings.rs checks both).
";

const MATMUL_NOTE: &str = "# Precise mode aborts on the bounds pass of an integer MATMUL/CONV (no bug: bounds are for floating point)

**Belongs to:** TOSA reference model (tosa-tools). **Status:** not a bug (kept as a documented harness decision). The reproducer of `ref-precise-bounds-int-matmul.json` (`upstream.reproduce`) is run by `tests/it/upstream_reproducers.rs`.

With `--precise_mode=1` and a test descriptor whose
`test_requirements.bounds_file_required` is true, `tosa_reference_model`
(tosa-tools 2026.8.0) evaluates the graph a second time in bounds mode. For
the integer dot-product operators (MATMUL, CONV2D, CONV3D, DEPTHWISE_CONV2D,
TRANSPOSE_CONV2D, AVG_POOL2D with i8/i16 data) that pass aborts:
`FATAL ERROR ... arith_util.h:496 getFpMinimum(): dtype INT8 is not supported
by getFpMinimum` and SIGABRT (exit status 250 through the venv's Python shim),
after the exact results of the first (precise) pass are written (an earlier
version of this note said no output is written: it is). Integer results need no bounds, but a
descriptor covering a graph with both integer dot products and
floating-point outputs cannot be run in compliance mode at all.

Reproduce: `ref-precise-bounds-int-matmul.desc.json` is the descriptor
(paths relative to this directory):

    tosa-opt ref-precise-bounds-int-matmul.mlir \\
        --tosa-serialize=tosa-flatbuffer-filename=ref-precise-bounds-int-matmul.tosa -o /dev/null
    TOSA_MODEL_NO_BACKTRACE=1 tosa_reference_model --test_desc ref-precise-bounds-int-matmul.desc.json \\
        --output_dir . --precise_mode=1

Not a bug: bounds are defined for floating-point results only, so a descriptor
asking for a bounds file of an integer graph asks the wrong question; an error
message instead of an abort would be kinder. Seen: abort (250 through the shim). The spvgraph adapter asks for bounds only when
an output is floating point (or the graph has a RESCALE), and retries without
them when this abort happens.
";

fn build(f: &Finding) -> Case {
    let mut b = ModuleBuilder::new();
    let in_types: Vec<_> = f
        .inputs
        .iter()
        .map(|t| {
            let shape: Vec<u32> = t.shape().iter().map(|&d| d as u32).collect();
            b.type_tensor(t.elem(), Some(&shape))
        })
        .collect();
    let out_ty = b.type_tensor(f.output.0, Some(&f.output.1));
    let mut args = Vec::new();
    if f.op == TosaOp::Matmul {
        let zp = b.const_tensor(ElemType::I8, &[1], &[0]).expect("[1] zero point");
        args.extend([zp, zp]);
    }
    let gty = b.type_graph(&in_types, &[out_ty]);
    let mut vars: Vec<_> = in_types.iter().enumerate().map(|(i, &t)| b.interface_variable(t, 0, i as u32)).collect();
    vars.push(b.interface_variable(out_ty, 0, in_types.len() as u32));
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "main", vars);
    let mut operands: Vec<_> = in_types.iter().enumerate().map(|(i, &t)| b.graph_input(t, i as u32, None)).collect();
    operands.extend(args);
    let y = b.tosa(f.op, out_ty, operands);
    b.graph_output(y, 0, None);
    b.end_graph();
    let module = b.finish();
    let slot = |index: u32, elem: ElemType, shape: Vec<u32>, binding: u32| InterfaceSlot {
        index,
        element: None,
        elem,
        shape,
        descriptor_set: 0,
        binding,
        used: true,
    };
    let inputs = f
        .inputs
        .iter()
        .enumerate()
        .map(|(i, t)| InputTensor {
            slot: slot(i as u32, t.elem(), t.shape().iter().map(|&d| d as u32).collect(), i as u32),
            data: t.clone(),
        })
        .collect();
    let outputs = vec![slot(0, f.output.0, f.output.1.clone(), f.inputs.len() as u32)];
    let row = f.op.spec().find_row(f.slots, RowQualifier::Any).expect("a catalogue row");
    let row_index = f.op.spec().type_rows.iter().position(|r| r == row).expect("listed");
    let meta = CaseMeta {
        ops: [f.op].into_iter().collect(),
        type_rows: [RowUse::new(f.op, row_index)].into_iter().collect(),
        graphs: 1,
        nodes: 1,
        ..CaseMeta::default()
    };
    Case {
        module,
        entry_points: vec![EntryPoint { name: "main".into(), graph: 0, inputs, outputs }],
        graph_constants: BTreeMap::new(),
        meta,
    }
}

/// Writes this file's findings into `corpus/findings/` (the example
/// `write_findings`; the tests here check what it wrote).
pub fn write_findings() {
    let dir = findings_dir();
    std::fs::create_dir_all(&dir).expect("findings dir");
    for f in findings() {
        let case = build(&f);
        write_case(&dir, f.stem, &case, &Extras { spvasm: true, mlir: true }).expect("write case");
        std::fs::write(dir.join(format!("{}.md", f.stem)), f.note).expect("write note");
        if f.op == TosaOp::Matmul {
            let desc = serde_json::json!({
                "tosa_file": format!("{}.tosa", f.stem),
                "ifm_name": ["TosaInput_0", "TosaInput_1"],
                "ifm_file": [format!("{}.ep0.in0.npy", f.stem), format!("{}.ep0.in1.npy", f.stem)],
                "ofm_name": ["TosaOutput_0"],
                "ofm_file": [format!("{}.out.npy", f.stem)],
                "test_requirements": { "profiles_supported": ["tosa-pro-int"], "bounds_file_required": true },
            });
            let text = serde_json::to_string_pretty(&desc).expect("json");
            std::fs::write(dir.join(format!("{}.desc.json", f.stem)), text).expect("write descriptor");
        }
    }
}

struct Tooling {
    opt: PathBuf,
    model: PathBuf,
}

fn tooling() -> Option<Tooling> {
    let tools = Tools::discover();
    let get = |t| match tools.get(t) {
        Ok(p) => Some(p.to_path_buf()),
        Err(e) => {
            assert!(!Tools::required(), "CI=true and {e}");
            eprintln!("skipping: {e}");
            None
        }
    };
    Some(Tooling { opt: get(Tool::TosaOpt)?, model: get(Tool::TosaReferenceModel)? })
}

/// The signal that killed the model: directly, or as reported by the venv's
/// Python shim (`sys.exit(-signal)`, i.e. exit status 256 − signal).
fn death(status: &std::process::ExitStatus) -> Option<i32> {
    use std::os::unix::process::ExitStatusExt;
    status.signal().or_else(|| status.code().filter(|&c| c > 128).map(|c| 256 - c))
}

/// Runs the model by hand on a finding's files: (the signal that killed it, stderr).
fn raw_run(t: &Tooling, stem: &str, precise_bounds: bool) -> (Option<i32>, String) {
    let dir = findings_dir();
    let scratch = spvgraph_testkit::scratch(stem);
    let tosa = scratch.join("g.tosa");
    let ser = Command::new(&t.opt)
        .arg(dir.join(format!("{stem}.mlir")))
        .arg(format!("--tosa-serialize=tosa-flatbuffer-filename={}", tosa.display()))
        .args(["-o", "/dev/null"])
        .output()
        .expect("run tosa-opt");
    assert!(ser.status.success(), "{}", String::from_utf8_lossy(&ser.stderr));
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join(format!("{stem}.json"))).expect("manifest")).expect("json");
    let files: Vec<String> = manifest["inputs"]
        .as_array()
        .expect("inputs")
        .iter()
        .map(|i| i["file"].as_str().expect("file").to_string())
        .collect();
    // The model wants its own dtypes, so the inputs are re-written from the corpus files.
    let mut ifm = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let elem = manifest["inputs"][i]["elem"].as_str().and_then(ElemType::from_name).expect("elem");
        let data = TensorData::read_npy(&dir.join(f), elem).expect("read input");
        let p = scratch.join(format!("in{i}.npy"));
        write_npy(&p, &data).expect("write input");
        ifm.push(p.display().to_string());
    }
    let desc = serde_json::json!({
        "tosa_file": tosa.display().to_string(),
        "ifm_name": (0..ifm.len()).map(|i| format!("TosaInput_{i}")).collect::<Vec<_>>(),
        "ifm_file": ifm,
        "ofm_name": ["TosaOutput_0"],
        "ofm_file": ["out.npy"],
        "test_requirements": { "profiles_supported": ["tosa-pro-int"], "bounds_file_required": precise_bounds },
    });
    std::fs::write(scratch.join("desc.json"), desc.to_string()).expect("desc");
    let mut cmd = Command::new(&t.model);
    cmd.arg("--test_desc").arg(scratch.join("desc.json")).arg("--output_dir").arg(&scratch);
    if precise_bounds {
        cmd.arg("--precise_mode=1");
    }
    let out = cmd.env("TOSA_MODEL_NO_BACKTRACE", "1").output().expect("run the model");
    (death(&out.status), String::from_utf8_lossy(&out.stderr).into_owned())
}

fn request_parts(stem: &str) -> (Vec<u32>, Vec<TensorData>) {
    let dir = findings_dir();
    let module = Module::decode_bytes(&std::fs::read(dir.join(format!("{stem}.spv"))).expect("spv")).expect("decodes");
    let f = findings().into_iter().find(|f| f.stem == stem).expect("listed");
    (module.encode_words().expect("encodes"), f.inputs)
}

#[test]
fn intdiv_by_zero_still_crashes_the_model_and_the_adapter_says_unpredictable() {
    let Some(t) = tooling() else { return };
    let stem = "ref-intdiv-zero-sigfpe";
    let (code, stderr) = raw_run(&t, stem, false);
    assert_eq!(code, Some(8), "the model no longer dies of SIGFPE; update {stem}.md\n{stderr}");
    assert!(stderr.contains("REQUIRE() fails"), "{stderr}");
    let (words, inputs) = request_parts(stem);
    let constants = BTreeMap::new();
    let req = ExecRequest { module: &words, entry_point: None, inputs: &inputs, graph_constants: &constants };
    match TosaReferenceModel::discover().execute(&req) {
        Ok(ExecOutcome::Refused { kind: Refusal::Unpredictable, .. }) => {}
        other => panic!("expected an unpredictable refusal, got {other:?}"),
    }
}

#[test]
fn integer_matmul_bounds_pass_still_aborts_and_the_adapter_still_answers() {
    let Some(t) = tooling() else { return };
    let stem = "ref-precise-bounds-int-matmul";
    let (code, stderr) = raw_run(&t, stem, true);
    assert_eq!(code, Some(6), "the bounds pass no longer aborts; update {stem}.md\n{stderr}");
    assert!(stderr.contains("getFpMinimum"), "{stderr}");
    let (words, inputs) = request_parts(stem);
    let constants = BTreeMap::new();
    let req = ExecRequest { module: &words, entry_point: None, inputs: &inputs, graph_constants: &constants };
    match TosaReferenceModel::discover().execute_precise(&req) {
        Ok(PreciseOutcome::Outputs(o)) => {
            assert_eq!(o[0].reference.values(), vec![4.0, 5.0, 10.0, 11.0]);
        }
        other => panic!("expected outputs, got {other:?}"),
    }
}
