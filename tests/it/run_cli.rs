//! `spvgraph run`: outputs and their dtypes, and the exit status contract
//! (0 outputs written, 1 graph refused, 2 usage or I/O error).

use spvgraph_ir::builder::ModuleBuilder;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_testkit::{bin, scratch, Scratch};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn exec(cmd: &mut Command) -> (i32, String, String) {
    let Output { status, stdout, stderr } = cmd.output().expect("run spvgraph");
    (status.code().unwrap_or(-1), String::from_utf8_lossy(&stdout).into(), String::from_utf8_lossy(&stderr).into())
}

/// Entry "main": out0 = NEGATE(x) (i8 [2,3]), out1 = CAST(y) to bf16, out2 =
/// MUL(y, graph constant 5) (fp32 [2]); entry "plus": ADD of two i32 [2]
/// (the declared result shape is `sum_shape`, [2] when valid).
fn module(sum_shape: &[u32]) -> Vec<u8> {
    let mut b = ModuleBuilder::new();
    let t8 = b.type_tensor(ElemType::I8, Some(&[2, 3]));
    let tf = b.type_tensor(ElemType::Fp32, Some(&[2]));
    let tb = b.type_tensor(ElemType::Bf16, Some(&[2]));
    let ti = b.type_tensor(ElemType::I32, Some(&[2]));
    let ts = b.type_tensor(ElemType::I32, Some(sum_shape));
    let g1ty = b.type_graph(&[t8, tf], &[t8, tb, tf]);
    let g2ty = b.type_graph(&[ti, ti], &[ts]);
    let v1: Vec<_> =
        [t8, tf, t8, tb, tf].iter().enumerate().map(|(i, &t)| b.interface_variable(t, 0, i as u32)).collect();
    let v2: Vec<_> = [ti, ti, ts].iter().enumerate().map(|(i, &t)| b.interface_variable(t, 1, i as u32)).collect();
    let zp_ty = b.type_tensor(ElemType::I8, Some(&[1]));
    let zp = b.const_null(zp_ty);
    let gc = b.graph_constant(tf, 5);
    let g1 = b.begin_graph(g1ty);
    b.graph_entry_point(g1, "main", v1);
    let x = b.graph_input(t8, 0, None);
    let y = b.graph_input(tf, 1, None);
    let n = b.tosa(TosaOp::Negate, t8, vec![x, zp, zp]);
    let c = b.tosa(TosaOp::Cast, tb, vec![y]);
    let m = b.tosa(TosaOp::Mul, tf, vec![y, gc, zp]);
    b.graph_output(n, 0, None);
    b.graph_output(c, 1, None);
    b.graph_output(m, 2, None);
    b.end_graph();
    let g2 = b.begin_graph(g2ty);
    b.graph_entry_point(g2, "plus", v2);
    let p = b.graph_input(ti, 0, None);
    let q = b.graph_input(ti, 1, None);
    let s = b.tosa(TosaOp::Add, ts, vec![p, q]);
    b.graph_output(s, 0, None);
    b.end_graph();
    b.finish().encode_bytes().expect("encode")
}

fn write(dir: &Path, name: &str, t: &TensorData) -> PathBuf {
    let p = dir.join(name);
    t.write_npy(&p).expect("write npy");
    p
}

fn i8s(shape: &[usize], v: &[i8]) -> TensorData {
    TensorData::from_bits(ElemType::I8, shape, &v.iter().map(|&x| x as u64).collect::<Vec<_>>()).expect("shape")
}

fn f32s(v: &[f32]) -> TensorData {
    let bits: Vec<u64> = v.iter().map(|x| u64::from(x.to_bits())).collect();
    TensorData::from_bits(ElemType::Fp32, &[v.len()], &bits).expect("shape")
}

fn i32s(v: &[i32]) -> TensorData {
    TensorData::from_bits(ElemType::I32, &[v.len()], &v.iter().map(|&x| x as u64).collect::<Vec<_>>()).expect("shape")
}

/// The dtype descriptor in a `.npy` header.
fn descr(path: &Path) -> String {
    let bytes = std::fs::read(path).expect("read npy");
    let header = String::from_utf8_lossy(&bytes[..bytes.len().min(128)]).to_string();
    let at = header.find("'descr': '").map(|i| i + 10).expect("descr");
    header[at..].split('\'').next().unwrap_or_default().to_string()
}

struct Setup {
    dir: Scratch,
    module: PathBuf,
    x: PathBuf,
    y: PathBuf,
    gc: PathBuf,
}

fn setup(name: &str) -> Setup {
    let dir = scratch(name);
    let module_path = dir.join("m.spv");
    std::fs::write(&module_path, module(&[2])).expect("write module");
    let x = write(&dir, "x.npy", &i8s(&[2, 3], &[1, -128, 127, 0, 5, -5]));
    let y = write(&dir, "y.npy", &f32s(&[1.0 + 1.0 / 256.0, -2.5]));
    let gc = write(&dir, "gc.npy", &f32s(&[4.0, 0.5]));
    Setup { dir, module: module_path, x, y, gc }
}

#[test]
fn run_writes_outputs_with_their_dtypes() {
    let s = setup("ok");
    let out = s.dir.join("out");
    let gc = format!("5={}", s.gc.display());
    let (code, stdout, stderr) = exec(
        bin!()
            .arg("run")
            .arg(&s.module)
            .arg("--input")
            .arg(&s.x)
            .arg("--input")
            .arg(&s.y)
            .args(["--graph-constant", &gc])
            .arg("--output-dir")
            .arg(&out),
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("out0.npy: i8 [2, 3] (int8)"), "{stdout}");
    let o0 = TensorData::read_npy(&out.join("out0.npy"), ElemType::I8).expect("out0");
    assert_eq!(o0.to_bits().into_iter().map(|b| b as i64).collect::<Vec<_>>(), vec![-1, 127, -127, 0, -5, 5]);
    assert_eq!(descr(&out.join("out0.npy")), "|i1");
    // bf16 is written as its uint16 bit patterns: 1 + 2^-8 ties to 1.0 (0x3f80), -2.5 is 0xc020.
    assert_eq!(descr(&out.join("out1.npy")), "<u2");
    let o1 = TensorData::read_npy(&out.join("out1.npy"), ElemType::Bf16).expect("out1");
    assert_eq!(o1.to_bits(), vec![0x3f80, 0xc020]);
    assert_eq!(descr(&out.join("out2.npy")), "<f4");
    let o2 = TensorData::read_npy(&out.join("out2.npy"), ElemType::Fp32).expect("out2");
    assert_eq!(o2.to_f64(), vec![4.015_625, -1.25]);
}

#[test]
fn entry_point_selects_the_graph() {
    let s = setup("entry");
    let a = write(&s.dir, "a.npy", &i32s(&[40, -1]));
    let b = write(&s.dir, "b.npy", &i32s(&[2, 1]));
    let out = s.dir.join("out");
    let (code, _, stderr) = exec(
        bin!()
            .arg("run")
            .arg(&s.module)
            .args(["--entry", "plus"])
            .arg("--input")
            .arg(&a)
            .arg("--input")
            .arg(&b)
            .arg("--output-dir")
            .arg(&out),
    );
    assert_eq!(code, 0, "{stderr}");
    let o = TensorData::read_npy(&out.join("out0.npy"), ElemType::I32).expect("out0");
    assert_eq!(o.to_bits(), vec![42, 0]);
    assert!(!out.join("out1.npy").exists());
}

#[test]
fn refused_graphs_exit_1() {
    let s = setup("refused");
    let out = s.dir.join("out");
    // Unpredictable: i32 overflow in ADD.
    let a = write(&s.dir, "a.npy", &i32s(&[i32::MAX, 0]));
    let b = write(&s.dir, "b.npy", &i32s(&[1, 0]));
    let (code, _, stderr) = exec(
        bin!()
            .arg("run")
            .arg(&s.module)
            .args(["--entry", "plus"])
            .arg("--input")
            .arg(&a)
            .arg("--input")
            .arg(&b)
            .arg("--output-dir")
            .arg(&out),
    );
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("unpredictable") && stderr.contains("ADD") && stderr.contains("[0]"), "{stderr}");
    // Over the memory budget.
    let gc = format!("5={}", s.gc.display());
    let (code, _, stderr) = exec(
        bin!()
            .arg("run")
            .arg(&s.module)
            .arg("--input")
            .arg(&s.x)
            .arg("--input")
            .arg(&s.y)
            .args(["--graph-constant", &gc, "--memory-budget", "64"])
            .arg("--output-dir")
            .arg(&out),
    );
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("over-budget") && stderr.contains("64"), "{stderr}");
    // Invalid: the declared ADD result shape is not the broadcast shape.
    let bad = s.dir.join("bad.spv");
    std::fs::write(&bad, module(&[3])).expect("write");
    let (code, _, stderr) = exec(
        bin!()
            .arg("run")
            .arg(&bad)
            .args(["--entry", "plus"])
            .arg("--input")
            .arg(&a)
            .arg("--input")
            .arg(&b)
            .arg("--output-dir")
            .arg(&out),
    );
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("refused (invalid)"), "{stderr}");
    // The diagnostics are worded as `spvgraph validate` words them.
    let (_, _, validated) = exec(bin!().arg("validate").arg(&bad));
    let diagnostic = validated.lines().next().expect("validate prints a diagnostic");
    assert!(diagnostic.contains("[tosa."), "{validated}");
    assert!(stderr.lines().any(|l| l == diagnostic), "run: {stderr}\nvalidate: {validated}");
    // A file that does not decode is refused as invalid too.
    let junk = s.dir.join("junk.spv");
    std::fs::write(&junk, [1u8, 2, 3, 4, 5, 6, 7, 8]).expect("write");
    let (code, _, _) = exec(bin!().arg("run").arg(&junk).arg("--output-dir").arg(&out));
    assert_eq!(code, 1);
    assert!(!out.join("out0.npy").exists(), "nothing is written for a refused graph");
}

#[test]
fn usage_and_io_errors_exit_2() {
    let s = setup("usage");
    let out = s.dir.join("out");
    let gc = format!("5={}", s.gc.display());
    let base = || {
        let mut c = bin!();
        c.arg("run").arg(&s.module).arg("--output-dir").arg(&out);
        c
    };
    // Missing module file.
    let (code, _, stderr) = exec(bin!().arg("run").arg(s.dir.join("nope.spv")).arg("--output-dir").arg(&out));
    assert_eq!(code, 2, "{stderr}");
    // Wrong number of inputs.
    let (code, _, stderr) = exec(base().arg("--input").arg(&s.x).args(["--graph-constant", &gc]));
    assert_eq!(code, 2);
    assert!(stderr.contains("takes 2 inputs"), "{stderr}");
    // Wrong shape: names the input, the expected and the actual shape.
    let wrong = write(&s.dir, "wrong.npy", &i8s(&[3, 2], &[0; 6]));
    let (code, _, stderr) =
        exec(base().arg("--input").arg(&wrong).arg("--input").arg(&s.y).args(["--graph-constant", &gc]));
    assert_eq!(code, 2);
    assert!(stderr.contains("input 0") && stderr.contains("[3, 2]") && stderr.contains("[2, 3]"), "{stderr}");
    // Wrong dtype.
    let (code, _, stderr) =
        exec(base().arg("--input").arg(&s.y).arg("--input").arg(&s.y).args(["--graph-constant", &gc]));
    assert_eq!(code, 2);
    assert!(stderr.contains("int8") || stderr.contains("i8"), "{stderr}");
    // Missing graph-constant data, an unknown graph constant, a bad size, an unknown entry point.
    let (code, _, stderr) = exec(base().arg("--input").arg(&s.x).arg("--input").arg(&s.y));
    assert_eq!(code, 2);
    assert!(
        stderr
            .contains("no data for graph constant 5: fp32 [2]: pass --graph-constant 5=FILE.npy (numpy dtype float32)"),
        "the message names the flag and the expected type: {stderr}"
    );
    let (code, _, _) = exec(
        base()
            .arg("--input")
            .arg(&s.x)
            .arg("--input")
            .arg(&s.y)
            .args(["--graph-constant", &format!("9={}", s.gc.display())]),
    );
    assert_eq!(code, 2);
    let (code, _, _) = exec(base().args(["--memory-budget", "lots"]));
    assert_eq!(code, 2);
    let (code, _, stderr) = exec(base().args(["--entry", "missing"]));
    assert_eq!(code, 2);
    assert!(stderr.contains("missing") && stderr.contains("plus"), "{stderr}");
}

/// Entry "tile": TILE(x i8 [2, 3], multiples [2, 2]) → [4, 6]; entry "pick":
/// SELECT(m bool [2, 3], a i16 [2, 3], b i16 [2, 3]); entry "one": ADD of two
/// i32 [1] tensors (the shape model-converter gives rank-0 TOSA tensors).
fn interop_module() -> Vec<u8> {
    let mut b = ModuleBuilder::new();
    let t8 = b.type_tensor(ElemType::I8, Some(&[2, 3]));
    let tiled = b.type_tensor(ElemType::I8, Some(&[4, 6]));
    let tb = b.type_tensor(ElemType::Bool, Some(&[2, 3]));
    let t16 = b.type_tensor(ElemType::I16, Some(&[2, 3]));
    let t1 = b.type_tensor(ElemType::I32, Some(&[1]));
    let gtile = b.type_graph(&[t8], &[tiled]);
    let gpick = b.type_graph(&[tb, t16, t16], &[t16]);
    let gone = b.type_graph(&[t1, t1], &[t1]);
    let vtile = vec![b.interface_variable(t8, 0, 0), b.interface_variable(tiled, 1, 0)];
    let mut vpick: Vec<_> =
        [tb, t16, t16].iter().enumerate().map(|(i, &t)| b.interface_variable(t, 2, i as u32)).collect();
    vpick.push(b.interface_variable(t16, 3, 0));
    let vone = vec![b.interface_variable(t1, 4, 0), b.interface_variable(t1, 4, 1), b.interface_variable(t1, 5, 0)];
    let multiples = b.const_i32_vector(&[2, 2]);
    let g = b.begin_graph(gtile);
    b.graph_entry_point(g, "tile", vtile);
    let x = b.graph_input(t8, 0, None);
    let t = b.tosa(TosaOp::Tile, tiled, vec![x, multiples]);
    b.graph_output(t, 0, None);
    b.end_graph();
    let g = b.begin_graph(gpick);
    b.graph_entry_point(g, "pick", vpick);
    let m = b.graph_input(tb, 0, None);
    let p = b.graph_input(t16, 1, None);
    let q = b.graph_input(t16, 2, None);
    let s = b.tosa(TosaOp::Select, t16, vec![m, p, q]);
    b.graph_output(s, 0, None);
    b.end_graph();
    let g = b.begin_graph(gone);
    b.graph_entry_point(g, "one", vone);
    let p = b.graph_input(t1, 0, None);
    let q = b.graph_input(t1, 1, None);
    let s = b.tosa(TosaOp::Add, t1, vec![p, q]);
    b.graph_output(s, 0, None);
    b.end_graph();
    b.finish().encode_bytes().expect("encode")
}

/// Runs entry `entry` of the interop module on `inputs`.
fn run_interop(dir: &Path, entry: &str, inputs: &[&Path]) -> (i32, String, String) {
    let module = dir.join("interop.spv");
    std::fs::write(&module, interop_module()).expect("write module");
    let mut cmd = bin!();
    cmd.arg("run").arg(&module).args(["--entry", entry]).arg("--output-dir").arg(dir.join("out"));
    for i in inputs {
        cmd.arg("--input").arg(i);
    }
    exec(&mut cmd)
}

/// `bytes` with the first `from` replaced by `to` (same length).
fn replace(bytes: &[u8], from: &str, to: &str) -> Vec<u8> {
    let at = bytes.windows(from.len()).position(|w| w == from.as_bytes()).expect("present");
    [&bytes[..at], to.as_bytes(), &bytes[at + from.len()..]].concat()
}

#[test]
fn tile_output_is_written_in_c_order() {
    // TILE's result was once an ndarray in Fortran layout, written with
    // fortran_order True, which tosa_verify and the scenario runner reject.
    let dir = scratch("tile");
    let x = write(&dir, "x.npy", &i8s(&[2, 3], &[1, 2, 3, 4, 5, 6]));
    let (code, _, stderr) = run_interop(&dir, "tile", &[&x]);
    assert_eq!(code, 0, "{stderr}");
    let out = dir.join("out").join("out0.npy");
    let bytes = std::fs::read(&out).expect("out0");
    assert!(String::from_utf8_lossy(&bytes).contains("'fortran_order': False, 'shape': (4, 6), }"));
    let row = [1, 2, 3, 1, 2, 3];
    let row2 = [4, 5, 6, 4, 5, 6];
    let want: Vec<u8> = [row, row2, row, row2].concat().into_iter().collect();
    assert_eq!(&bytes[bytes.len() - 24..], want.as_slice(), "C-order data");
    let t = TensorData::read_npy(&out, ElemType::I8).expect("read");
    assert_eq!(t.to_bits(), want.iter().map(|&v| u64::from(v)).collect::<Vec<_>>());
}

#[test]
fn run_reads_what_numpy_loads() {
    let dir = scratch("numpy-files");
    // A bool mask holding 0xff and 2 as true (model-converter writes 0xff).
    let mask = dir.join("m.npy");
    spvgraph_ir::npy::NpyArray::new("|b1", &[2, 3], vec![0xff, 0, 2, 0, 1, 0])
        .and_then(|a| a.write(&mask))
        .expect("mask");
    // [[1, 2, 3], [4, 5, 6]] in Fortran order, and [[-1 .. -6]] big-endian.
    let a = dir.join("a.npy");
    let c_order = TensorData::from_bits(ElemType::I16, &[2, 3], &[1, 2, 3, 4, 5, 6]).expect("a");
    let header = spvgraph_ir::npy::NpyArray::from_tensor(&c_order, spvgraph_ir::npy::Dtypes::Numpy).encode();
    let mut fortran = replace(&header[..header.len() - 12], "False", "True ");
    for v in [1i16, 4, 2, 5, 3, 6] {
        fortran.extend_from_slice(&v.to_le_bytes());
    }
    std::fs::write(&a, fortran).expect("a");
    let b = dir.join("b.npy");
    let mut big = replace(&header[..header.len() - 12], "<i2", ">i2");
    for v in [-1i16, -2, -3, -4, -5, -6] {
        big.extend_from_slice(&v.to_be_bytes());
    }
    std::fs::write(&b, big).expect("b");
    let (code, _, stderr) = run_interop(&dir, "pick", &[&mask, &a, &b]);
    assert_eq!(code, 0, "{stderr}");
    let o = TensorData::read_npy(&dir.join("out").join("out0.npy"), ElemType::I16).expect("out0");
    assert_eq!(o.to_bits().into_iter().map(|v| v as i64).collect::<Vec<_>>(), vec![1, -2, 3, -4, 5, -6]);
}

#[test]
fn rank_0_arrays_feed_1_element_tensors_with_a_note() {
    let dir = scratch("rank0");
    let p = write(&dir, "p.npy", &TensorData::from_bits(ElemType::I32, &[], &[40]).expect("p"));
    let q = write(&dir, "q.npy", &i32s(&[2]));
    let (code, _, stderr) = run_interop(&dir, "one", &[&p, &q]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("note: input 0") && stderr.contains("rank-0") && stderr.contains("p.npy"), "{stderr}");
    assert!(!stderr.contains("q.npy"), "no note for a [1] array: {stderr}");
    let o = TensorData::read_npy(&dir.join("out").join("out0.npy"), ElemType::I32).expect("out0");
    assert_eq!((o.shape(), o.to_bits()), (&[1usize][..], vec![42]));
    // Only [1] takes a rank-0 array.
    let x = write(&dir, "x.npy", &TensorData::from_bits(ElemType::I8, &[], &[1]).expect("x"));
    let (code, _, stderr) = run_interop(&dir, "tile", &[&x]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("has shape []") && stderr.contains("[2, 3]"), "{stderr}");
}
