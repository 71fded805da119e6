//! `spvgraph reduce`: exit status 0 reduced, 1 not interesting to begin with
//! (or not breaking what --keep-valid/--rule ask), 2 usage or I/O error;
//! the candidate's inputs and manifest sit next to it.

use spvgraph_ir::inst::Inst;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::Module;
use spvgraph_testkit::{bin, scratch};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

fn status(cmd: &mut Command) -> (i32, String) {
    let out = cmd.output().expect("run spvgraph");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stderr).into())
}

/// A generated case with POW among about 30 operators: `DIR/case_1.*`.
fn generated(dir: &Path) -> PathBuf {
    let (code, err) =
        status(bin!().args(["generate", "--seed", "1", "--count", "1", "--no-mlir", "-o"]).arg(dir).args([
            "--set",
            "min_nodes=28",
            "--set",
            "max_nodes=30",
            "--set",
            "max_graphs=1",
            // Plain inputs: the script looks for `ep0.in0.npy`.
            "--set",
            "probs.tensor_array_input=0",
            "--ops",
            "POW,ADD,MUL,SUB,ABS,EXP,CONV2D,MAX_POOL2D,RESHAPE,TRANSPOSE,CLAMP,CAST,CONCAT,PAD,RESCALE",
        ]));
    assert_eq!(code, 0, "{err}");
    dir.join("case_1.spv")
}

/// A test script: interesting when the candidate disassembles with POW and
/// its first input's `.npy` and its manifest sit next to it.
fn pow_test(dir: &Path) -> PathBuf {
    let script = dir.join("has_pow.sh");
    let text = format!(
        "#!/bin/sh\nstem=\"${{1%.spv}}\"\n[ -f \"$stem.ep0.in0.npy\" ] && [ -f \"$stem.json\" ] || exit 3\n\"{}\" dis \"$1\" | grep -q ' POW '\n",
        env!("CARGO_BIN_EXE_spvgraph")
    );
    std::fs::write(&script, text).expect("script");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    script
}

fn ops(path: &Path) -> Vec<TosaOp> {
    let m = Module::decode_bytes(&std::fs::read(path).expect("output")).expect("decodes");
    m.insts.iter().filter_map(|i| if let Inst::Tosa { op, .. } = i { Some(*op) } else { None }).collect()
}

#[test]
fn reduces_to_one_operator_with_inputs_next_to_each_candidate() {
    let dir = scratch("ok");
    let input = generated(&dir);
    let test = pow_test(&dir);
    let out = dir.join("out/pow.spv");
    let (code, err) = status(
        bin!()
            .arg("reduce")
            .arg(&input)
            .arg("-o")
            .arg(&out)
            .arg("--inputs-from")
            .arg(dir.join("case_1.json"))
            .args(["--keep-valid", "--jobs", "2", "--quiet", "--"])
            // Relative to where reduce runs, not to the candidate's directory.
            .arg(test.file_name().expect("a file name"))
            .current_dir(&dir),
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("reduced"), "{err}");
    assert_eq!(ops(&out), vec![TosaOp::Pow]);
    for f in ["pow.json", "pow.spvasm", "pow.ep0.in0.npy"] {
        assert!(dir.join("out").join(f).is_file(), "{f} written");
    }
    let (code, err) = status(bin!().arg("validate").arg(&out));
    assert_eq!(code, 0, "the reduced module is valid: {err}");
}

#[test]
fn an_uninteresting_input_exits_1() {
    let dir = scratch("boring");
    let input = generated(&dir);
    let (code, err) =
        status(bin!().arg("reduce").arg(&input).arg("-o").arg(dir.join("o.spv")).args(["--quiet", "--", "false"]));
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("not interesting"), "{err}");
    assert!(!dir.join("o.spv").exists());
    // A valid input does not break the rule asked for.
    let (code, err) = status(bin!().arg("reduce").arg(&input).arg("-o").arg(dir.join("o.spv")).args([
        "--rule",
        "tosa.shape.output",
        "--quiet",
        "--",
        "true",
    ]));
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("tosa.shape.output"), "{err}");
}

#[test]
fn usage_and_io_errors_exit_2() {
    let dir = scratch("usage");
    let missing = dir.join("missing.spv");
    let (code, err) = status(bin!().arg("reduce").arg(&missing).arg("-o").arg(dir.join("o.spv")).args(["--", "true"]));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("missing.spv"), "{err}");
    let input = generated(&dir);
    let (code, err) = status(bin!().arg("reduce").arg(&input).arg("-o").arg(dir.join("o.spv")));
    assert_eq!(code, 2, "no test command: {err}");
    let (code, err) = status(
        bin!().arg("reduce").arg(&input).arg("-o").arg(dir.join("o.spv")).args(["--rule", "no.such", "--", "true"]),
    );
    assert_eq!(code, 2, "{err}");
    let (code, err) = status(
        bin!()
            .arg("reduce")
            .arg(&input)
            .arg("-o")
            .arg(dir.join("o.spv"))
            .arg("--inputs-from")
            .arg(dir.join("nope.json"))
            .args(["--", "true"]),
    );
    assert_eq!(code, 2, "{err}");
}
