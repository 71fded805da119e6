//! `spvgraph reduce` against the anchors (spirv-reduce, shrinkray, picire)
//! on the same interestingness tests, in one run:
//!
//! ```text
//! cargo bench --bench reduce_anchors
//! SPVGRAPH_SHRINKRAY=/path/to/shrinkray SPVGRAPH_PICIRE=/path/to/picire REDUCE_BENCH_CAP=900 cargo bench --bench reduce_anchors
//! ```
//!
//! Tests (each a shell script that gets the candidate `.spv` as its last argument):
//!
//! * `one-op`: spirv-val accepts it and it still has a POW (a generated
//!   module of 29 operators);
//! * `chain`: spirv-val accepts it and a POW result feeds an ABS (same module);
//! * `intdiv-sigfpe`: spirv-val accepts it and, run on all-zero inputs,
//!   `tosa_reference_model` dies of SIGFPE after its failed INTDIV REQUIRE
//!   instead of reporting an unpredictable graph (the reference-model bug of
//!   `corpus/findings/ref-intdiv-zero-sigfpe`, inside a generated module of
//!   about 25 integer operators).
//!
//! Reducers: `spvgraph reduce` (this build), spirv-reduce (`.oracles`),
//! shrinkray and picire on the spirv-dis text with spirv-as in the test
//! (found through `SPVGRAPH_SHRINKRAY` / `SPVGRAPH_PICIRE` or on `PATH`;
//! skipped when absent). Each run is capped at `REDUCE_BENCH_CAP` seconds
//! (default 600; the best result so far counts). Every test also runs on a
//! module written by hand (the size reference), which must be interesting.
//! Reported per test and reducer: final bytes and instructions, wall time,
//! test runs, and the ratios to the hand-written module and to shrinkray's time.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a test, bench or example: a failure names its place"
)]

use spvgraph_generator::files::{write_case, Extras};
use spvgraph_generator::{generate_from_seed, Config};
use spvgraph_ir::analysis::{Analysis, Type};
use spvgraph_ir::elem::Profile;
use spvgraph_ir::inst::Inst;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::Module;
use spvgraph_oracle::external::tosa_reference::TosaReferenceModel;
use spvgraph_oracle::oracle::{ExecOutcome, ExecRequest};
use spvgraph_oracle::tools::{Tool, Tools};
use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const POW_OPS: &str = "POW,ADD,MUL,SUB,ABS,EXP,CONV2D,MAX_POOL2D,RESHAPE,TRANSPOSE,CLAMP,CAST,CONCAT,PAD,RESCALE";
const INT_OPS: &str = "INTDIV,ADD,SUB,MUL,ABS,NEGATE,MAXIMUM,MINIMUM,CLAMP,RESHAPE,TRANSPOSE,CONCAT,PAD,REVERSE,TILE";
/// The seed of the `intdiv-sigfpe` module (found with `--find-intdiv-seed`).
const INTDIV_SEED: u64 = 0;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("--probe-intdiv") => std::process::exit(probe_intdiv(Path::new(args.get(2).map_or("", String::as_str)))),
        Some("--find-intdiv-seed") => return find_intdiv_seed(),
        _ => {}
    }
    if let Err(e) = run() {
        eprintln!("reduce_anchors: {e}");
        std::process::exit(2);
    }
}

fn tools() -> Result<(PathBuf, PathBuf, PathBuf, PathBuf), String> {
    let t = Tools::discover();
    let get = |tool| t.get(tool).map(Path::to_path_buf).map_err(|e| e.to_string());
    Ok((get(Tool::SpirvVal)?, get(Tool::SpirvAs)?, get(Tool::SpirvDis)?, get(Tool::SpirvReduce)?))
}

fn config(ops: &str, min: u32, max: u32) -> Config {
    let mut c = Config { min_graphs: 1, max_graphs: 1, min_nodes: min, max_nodes: max, ..Config::default() };
    c.allow_ops = ops.split(',').filter_map(TosaOp::from_name).collect();
    c
}

fn intdiv_config() -> Config {
    let mut c = config(INT_OPS, 22, 26);
    c.profiles = vec![Profile::ProInt];
    c
}

/// Exit 0 when the module is valid for spirv-val and the reference model
/// dies after INTDIV's failed REQUIRE on all-zero inputs, 1 otherwise.
fn probe_intdiv(path: &Path) -> i32 {
    let Ok((spirv_val, ..)) = tools() else { return 1 };
    let ok = Command::new(spirv_val)
        .args(["--target-env", "vulkan1.3"])
        .arg(path)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        return 1;
    }
    let Ok(bytes) = std::fs::read(path) else { return 1 };
    let Ok(module) = Module::decode_bytes(&bytes) else { return 1 };
    let words = match module.encode_words() {
        Ok(w) => w,
        Err(_) => return 1,
    };
    let (inputs, graph_constants) = zero_data(&module);
    let model = TosaReferenceModel::discover().with_timeout(Duration::from_secs(60));
    let request = ExecRequest { module: &words, entry_point: None, inputs: &inputs, graph_constants: &graph_constants };
    let Ok(Ok(prepared)) = model.prepare(&request) else { return 1 };
    match model.run_mlir(&prepared.mlir, &inputs, &prepared.outputs) {
        Ok(ExecOutcome::Refused { reason, .. })
            if reason.contains("divisor must be non-zero") && reason.contains("the model then stopped") =>
        {
            0
        }
        _ => 1,
    }
}

/// All-zero data for the first entry point's inputs (InputIndex order,
/// arrays expanded) and for every graph constant.
fn zero_data(m: &Module) -> (Vec<TensorData>, BTreeMap<u32, TensorData>) {
    let a = Analysis::new(m);
    let zeros = |ty| -> Option<TensorData> {
        let t = a.tensor_type(ty)?;
        let dims: Vec<usize> = t.shape?.iter().map(|&d| d as usize).collect();
        Some(TensorData::zeros(t.elem?, &dims))
    };
    let mut inputs = Vec::new();
    let graph = m.insts.iter().find_map(|i| match i {
        Inst::GraphEntryPoint { graph, .. } => Some(*graph),
        _ => None,
    });
    if let Some(Type::Graph { inputs: types, .. }) = graph.and_then(|g| a.graph(g)).and_then(|g| a.ty(g.ty)) {
        for t in types {
            match a.ty(t) {
                Some(Type::Array { element, length: Some(n) }) => {
                    inputs.extend((0..n).filter_map(|_| zeros(element)));
                }
                _ => inputs.extend(zeros(t)),
            }
        }
    }
    let mut consts = BTreeMap::new();
    for inst in &m.insts {
        if let Inst::GraphConstant { ty, graph_constant_id, .. } = inst {
            if let Some(z) = zeros(*ty) {
                consts.insert(*graph_constant_id, z);
            }
        }
    }
    (inputs, consts)
}

fn find_intdiv_seed() {
    let dir = std::env::temp_dir().join(format!("reduce-anchors-seed-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    for seed in 0..300 {
        let case = generate_from_seed(seed, &intdiv_config());
        let n = case.module.insts.iter().filter(|i| matches!(i, Inst::Tosa { .. })).count();
        if !case.meta.ops.contains(&TosaOp::Intdiv) || n < 20 {
            continue;
        }
        let p = dir.join("c.spv");
        if std::fs::write(&p, case.module.encode_bytes().unwrap_or_default()).is_ok() && probe_intdiv(&p) == 0 {
            println!("seed {seed}: {n} operators, interesting");
            return;
        }
        println!("seed {seed}: {n} operators, not interesting");
    }
}

struct Test {
    name: &'static str,
    spv: PathBuf,
    manifest: PathBuf,
    /// The interestingness script (candidate `.spv` as last argument).
    script: PathBuf,
    /// The hand-written module.
    hand: PathBuf,
}

struct Outcome {
    bytes: usize,
    insts: usize,
    wall: Duration,
    tests: u64,
    note: String,
}

fn write_script(path: &Path, body: &str) -> Result<(), String> {
    std::fs::write(path, format!("#!/bin/sh\n{body}\n")).map_err(|e| format!("{}: {e}", path.display()))?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).map_err(|e| e.to_string())
}

fn assemble(spirv_as: &Path, text: &Path, out: &Path) -> Result<(), String> {
    let ok = Command::new(spirv_as)
        .args(["--target-env", "vulkan1.3"])
        .arg(text)
        .arg("-o")
        .arg(out)
        .status()
        .is_ok_and(|s| s.success());
    if ok {
        Ok(())
    } else {
        Err(format!("spirv-as rejected {}", text.display()))
    }
}

fn measure(spv: &Path) -> (usize, usize) {
    let bytes = std::fs::read(spv).unwrap_or_default();
    let insts = Module::decode_bytes(&bytes).map_or(0, |m| m.insts.len());
    (bytes.len(), insts)
}

fn interesting(script: &Path, spv: &Path) -> bool {
    Command::new(script).arg(spv).stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|s| s.success())
}

/// Runs a command with a time cap; whether it finished in time.
fn run_capped(cmd: &mut Command, cap: Duration) -> bool {
    let Ok(mut child) = cmd.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null()).spawn() else {
        return false;
    };
    let start = Instant::now();
    loop {
        if let Ok(Some(_)) = child.try_wait() {
            return true;
        }
        if start.elapsed() > cap {
            let _ = child.kill();
            let _ = child.wait();
            return false;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn count_lines(path: &Path) -> u64 {
    std::fs::read_to_string(path).map_or(0, |s| s.lines().count() as u64)
}

fn run() -> Result<(), String> {
    let (spirv_val, spirv_as, spirv_dis, spirv_reduce) = tools()?;
    let cap =
        Duration::from_secs_f64(std::env::var("REDUCE_BENCH_CAP").ok().and_then(|s| s.parse().ok()).unwrap_or(600.0));
    let only: Option<Vec<String>> =
        std::env::var("REDUCE_BENCH_ONLY").ok().map(|s| s.split(',').map(str::to_string).collect());
    let tests_only: Option<Vec<String>> =
        std::env::var("REDUCE_BENCH_TESTS").ok().map(|s| s.split(',').map(str::to_string).collect());
    let work = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("reduce-anchors");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).map_err(|e| e.to_string())?;
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let sv = spirv_val.display();
    let dis = spirv_dis.display();

    // The inputs, in the corpus format.
    let pow_case = generate_from_seed(1, &config(POW_OPS, 28, 30));
    write_case(&work, "pow", &pow_case, &Extras::default()).map_err(|e| e.to_string())?;
    let int_case = generate_from_seed(INTDIV_SEED, &intdiv_config());
    write_case(&work, "intdiv", &int_case, &Extras::default()).map_err(|e| e.to_string())?;

    let valid = format!("\"{sv}\" --target-env vulkan1.3 \"$1\" >/dev/null 2>&1 || exit 1");
    write_script(&work.join("one-op.sh"), &format!("{valid}\n\"{dis}\" \"$1\" 2>/dev/null | grep -q ' POW '"))?;
    write_script(
        &work.join("chain.sh"),
        &format!(
            "{valid}\n\"{dis}\" --raw-id \"$1\" 2>/dev/null | awk '/ POW / {{ p[$1] = 1 }} / ABS / {{ if (p[$NF]) f = 1 }} END {{ exit !f }}'"
        ),
    )?;
    write_script(&work.join("intdiv.sh"), &format!("exec \"{}\" --probe-intdiv \"$1\"", exe.display()))?;

    let hand = [("one-op", HAND_ONE_OP), ("chain", HAND_CHAIN), ("intdiv-sigfpe", HAND_INTDIV)];
    for (name, text) in hand {
        let t = work.join(format!("hand-{name}.spvasm"));
        std::fs::write(&t, text).map_err(|e| e.to_string())?;
        assemble(&spirv_as, &t, &work.join(format!("hand-{name}.spv")))?;
    }
    let tests = vec![
        Test {
            name: "one-op",
            spv: work.join("pow.spv"),
            manifest: work.join("pow.json"),
            script: work.join("one-op.sh"),
            hand: work.join("hand-one-op.spv"),
        },
        Test {
            name: "chain",
            spv: work.join("pow.spv"),
            manifest: work.join("pow.json"),
            script: work.join("chain.sh"),
            hand: work.join("hand-chain.spv"),
        },
        Test {
            name: "intdiv-sigfpe",
            spv: work.join("intdiv.spv"),
            manifest: work.join("intdiv.json"),
            script: work.join("intdiv.sh"),
            hand: work.join("hand-intdiv-sigfpe.spv"),
        },
    ];
    let shrinkray = locate("SPVGRAPH_SHRINKRAY", "shrinkray");
    let picire = locate("SPVGRAPH_PICIRE", "picire");
    let reducers = ["spvgraph", "spirv-reduce", "shrinkray", "picire"];
    let mut rows: Vec<(String, String, Option<Outcome>)> = Vec::new();
    for t in &tests {
        if tests_only.as_ref().is_some_and(|o| !o.iter().any(|x| x == t.name)) {
            continue;
        }
        if !interesting(&t.script, &t.spv) {
            return Err(format!("{}: the input is not interesting", t.name));
        }
        if !interesting(&t.script, &t.hand) {
            return Err(format!("{}: the hand-written module is not interesting", t.name));
        }
        let (hb, hi) = measure(&t.hand);
        let (ib, ii) = measure(&t.spv);
        println!("{}: input {ib} B / {ii} instructions; hand-written {hb} B / {hi} instructions", t.name);
        for r in reducers {
            if only.as_ref().is_some_and(|o| !o.iter().any(|x| x == r)) {
                continue;
            }
            let dir = work.join(format!("{}-{r}", t.name));
            std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
            let counter = dir.join("tests.count");
            let wrapped = dir.join("test.sh");
            let textual = matches!(r, "shrinkray" | "picire");
            if textual {
                write_script(
                    &wrapped,
                    &format!(
                        "echo x >> \"{c}\"\nd=$(mktemp -d)\n\"{a}\" --target-env vulkan1.3 \"$1\" -o \"$d/c.spv\" >/dev/null 2>&1 || {{ rm -rf \"$d\"; exit 1; }}\n\"{s}\" \"$d/c.spv\"\nr=$?\nrm -rf \"$d\"\nexit $r",
                        c = counter.display(),
                        a = spirv_as.display(),
                        s = t.script.display()
                    ),
                )?;
            } else {
                write_script(
                    &wrapped,
                    &format!("echo x >> \"{}\"\nexec \"{}\" \"$@\"", counter.display(), t.script.display()),
                )?;
            }
            let start = Instant::now();
            let out_spv = dir.join("out.spv");
            let (finished, tool_found) = match r {
                "spvgraph" => {
                    let mut cmd = Command::new(env!("CARGO_BIN_EXE_spvgraph"));
                    cmd.arg("reduce")
                        .arg(&t.spv)
                        .arg("-o")
                        .arg(&out_spv)
                        .arg("--inputs-from")
                        .arg(&t.manifest)
                        .args(["--jobs", "2", "--quiet", "--time-limit"])
                        .arg(format!("{}", cap.as_secs_f64()))
                        .arg("--")
                        .arg(&wrapped);
                    (run_capped(&mut cmd, cap + Duration::from_secs(30)), true)
                }
                "spirv-reduce" => {
                    let mut cmd = Command::new(&spirv_reduce);
                    // spirv-reduce writes its temp_NNNN.spv steps into its working directory.
                    cmd.arg(&t.spv).arg("-o").arg(&out_spv).arg("--").arg(&wrapped).current_dir(&dir);
                    (run_capped(&mut cmd, cap), true)
                }
                "shrinkray" | "picire" => {
                    let tool = if r == "shrinkray" { &shrinkray } else { &picire };
                    let Some(tool) = tool else {
                        rows.push((t.name.into(), r.into(), None));
                        continue;
                    };
                    let text = dir.join("case.spvasm");
                    let ok =
                        Command::new(&spirv_dis).arg(&t.spv).arg("-o").arg(&text).status().is_ok_and(|s| s.success());
                    if !ok {
                        return Err(format!("spirv-dis failed on {}", t.spv.display()));
                    }
                    let mut cmd = Command::new(tool);
                    let result_text = if r == "shrinkray" {
                        cmd.args([
                            "--ui",
                            "basic",
                            "--no-history",
                            "--parallelism",
                            "2",
                            "--seed",
                            "0",
                            "--formatter",
                            "none",
                            "--trivial-is-not-error",
                            "--assume-deterministic",
                            "--input-type",
                            "arg",
                        ])
                        .arg(&wrapped)
                        .arg(&text)
                        .current_dir(&dir);
                        text.clone()
                    } else {
                        let out_dir = dir.join("picire-out");
                        cmd.arg("-i")
                            .arg(&text)
                            .arg("--test")
                            .arg(&wrapped)
                            .args(["-p", "-j", "2", "--atom", "line", "--cache", "content", "-q", "-o"])
                            .arg(&out_dir)
                            .current_dir(&dir);
                        out_dir.join("case.spvasm")
                    };
                    let finished = run_capped(&mut cmd, cap);
                    let best = if result_text.is_file() { result_text } else { text };
                    let _ = assemble(&spirv_as, &best, &out_spv);
                    (finished, true)
                }
                _ => (false, false),
            };
            let wall = start.elapsed();
            if !tool_found {
                continue;
            }
            let ok = out_spv.is_file() && interesting(&t.script, &out_spv);
            let (bytes, insts) = if ok { measure(&out_spv) } else { (ib, ii) };
            let mut note = String::new();
            if !finished {
                note.push_str("cap reached; ");
            }
            if !ok {
                note.push_str("no interesting output (input size counted); ");
            }
            let o = Outcome { bytes, insts, wall, tests: count_lines(&counter), note };
            println!(
                "  {r:<13} {:>6} B {:>4} insts {:>8.1} s {:>6} tests {:>5.2}x hand {}",
                o.bytes,
                o.insts,
                o.wall.as_secs_f64(),
                o.tests,
                o.bytes as f64 / hb as f64,
                o.note
            );
            rows.push((t.name.into(), r.into(), Some(o)));
        }
    }
    println!();
    println!("| test | reducer | bytes | instructions | × hand-written | wall time (s) | tests run | time ÷ shrinkray's | note |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for t in &tests {
        let hand = measure(&t.hand).0 as f64;
        let shrink_time = rows
            .iter()
            .find(|(n, r, _)| n == t.name && r == "shrinkray")
            .and_then(|(_, _, o)| o.as_ref().map(|o| o.wall.as_secs_f64()));
        for (n, r, o) in rows.iter().filter(|(n, _, _)| n == t.name) {
            match o {
                None => println!("| {n} | {r} | – | – | – | – | – | – | not installed |"),
                Some(o) => println!(
                    "| {n} | {r} | {} | {} | {:.2} | {:.1} | {} | {} | {} |",
                    o.bytes,
                    o.insts,
                    o.bytes as f64 / hand,
                    o.wall.as_secs_f64(),
                    o.tests,
                    shrink_time.map_or("–".to_string(), |s| format!("{:.3}", o.wall.as_secs_f64() / s)),
                    o.note.trim_end_matches("; ")
                ),
            }
        }
        println!("| {} | hand-written | {} | {} | 1.00 | | | | |", t.name, measure(&t.hand).0, measure(&t.hand).1);
    }
    Ok(())
}

fn locate(var: &str, name: &str) -> Option<PathBuf> {
    if let Ok(p) = std::env::var(var) {
        return Some(PathBuf::from(p)).filter(|p| p.is_file());
    }
    std::env::var_os("PATH")?.to_str()?.split(':').map(|d| Path::new(d).join(name)).find(|p| p.is_file())
}

/// One POW on a one-element fp32 tensor: what a person would write for "still contains POW".
const HAND_ONE_OP: &str = "\
OpCapability Shader
OpCapability VulkanMemoryModel
OpCapability TensorsARM
OpCapability GraphARM
OpExtension \"SPV_ARM_tensors\"
OpExtension \"SPV_ARM_graph\"
%tosa = OpExtInstImport \"TOSA.001000.1\"
OpMemoryModel Logical Vulkan
OpDecorate %in DescriptorSet 0
OpDecorate %in Binding 0
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 1
%uint = OpTypeInt 32 0
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%arr = OpTypeArray %uint %uint_1
%shape = OpConstantComposite %arr %uint_1
%float = OpTypeFloat 32
%t = OpTypeTensorARM %float %uint_1 %shape
%ptr = OpTypePointer UniformConstant %t
%in = OpVariable %ptr UniformConstant
%out = OpVariable %ptr UniformConstant
%gt = OpTypeGraphARM 1 %t %t
OpGraphEntryPointARM %g \"main\" %in %out
%g = OpGraphARM %gt
%x = OpGraphInputARM %t %uint_0
%y = OpExtInst %t %tosa POW %x %x
OpGraphSetOutputARM %y %uint_0
OpGraphEndARM
";

/// POW feeding ABS.
const HAND_CHAIN: &str = "\
OpCapability Shader
OpCapability VulkanMemoryModel
OpCapability TensorsARM
OpCapability GraphARM
OpExtension \"SPV_ARM_tensors\"
OpExtension \"SPV_ARM_graph\"
%tosa = OpExtInstImport \"TOSA.001000.1\"
OpMemoryModel Logical Vulkan
OpDecorate %in DescriptorSet 0
OpDecorate %in Binding 0
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 1
%uint = OpTypeInt 32 0
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%arr = OpTypeArray %uint %uint_1
%shape = OpConstantComposite %arr %uint_1
%float = OpTypeFloat 32
%t = OpTypeTensorARM %float %uint_1 %shape
%ptr = OpTypePointer UniformConstant %t
%in = OpVariable %ptr UniformConstant
%out = OpVariable %ptr UniformConstant
%gt = OpTypeGraphARM 1 %t %t
OpGraphEntryPointARM %g \"main\" %in %out
%g = OpGraphARM %gt
%x = OpGraphInputARM %t %uint_0
%y = OpExtInst %t %tosa POW %x %x
%z = OpExtInst %t %tosa ABS %y
OpGraphSetOutputARM %z %uint_0
OpGraphEndARM
";

/// INTDIV of an input by itself (all-zero inputs make the divisor 0).
const HAND_INTDIV: &str = "\
OpCapability Shader
OpCapability VulkanMemoryModel
OpCapability TensorsARM
OpCapability GraphARM
OpExtension \"SPV_ARM_tensors\"
OpExtension \"SPV_ARM_graph\"
%tosa = OpExtInstImport \"TOSA.001000.1\"
OpMemoryModel Logical Vulkan
OpDecorate %in DescriptorSet 0
OpDecorate %in Binding 0
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 1
%uint = OpTypeInt 32 0
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%arr = OpTypeArray %uint %uint_1
%shape = OpConstantComposite %arr %uint_1
%t = OpTypeTensorARM %uint %uint_1 %shape
%ptr = OpTypePointer UniformConstant %t
%in = OpVariable %ptr UniformConstant
%out = OpVariable %ptr UniformConstant
%gt = OpTypeGraphARM 1 %t %t
OpGraphEntryPointARM %g \"main\" %in %out
%g = OpGraphARM %gt
%x = OpGraphInputARM %t %uint_0
%y = OpExtInst %t %tosa INTDIV %x %x
OpGraphSetOutputARM %y %uint_0
OpGraphEndARM
";
