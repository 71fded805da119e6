//! The CLI's contract: output and exit status (0 ok, 1 check failed, 2 usage/I/O).

use spvgraph_ir::builder::ModuleBuilder;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_testkit::{bin, scratch};
use std::process::{Command, Output};

fn sample_module() -> Vec<u8> {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(ElemType::I8, Some(&[1, 4, 4, 2]));
    let gty = b.type_graph(&[t], &[t]);
    let vars = vec![b.interface_variable(t, 0, 0), b.interface_variable(t, 0, 1)];
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "negate", vars);
    let zp_ty = b.type_tensor(ElemType::I8, Some(&[1]));
    let zp = b.const_null(zp_ty);
    let x = b.graph_input(t, 0, None);
    let y = b.tosa(TosaOp::Negate, t, vec![x, zp, zp]);
    b.graph_output(y, 0, None);
    b.end_graph();
    b.finish().encode_bytes().expect("encode")
}

fn run(cmd: &mut Command) -> (i32, String, String) {
    let Output { status, stdout, stderr } = cmd.output().expect("run spvgraph");
    (status.code().unwrap_or(-1), String::from_utf8_lossy(&stdout).into(), String::from_utf8_lossy(&stderr).into())
}

#[test]
fn dis_info_roundtrip_succeed_on_a_valid_module() {
    let d = scratch("ok");
    let f = d.join("negate.spv");
    std::fs::write(&f, sample_module()).expect("write");
    let (code, out, _) = run(bin!().arg("dis").arg(&f));
    assert_eq!(code, 0);
    assert!(out.contains("OpExtInst %tensor_uchar_1x4x4x2 %tosa NEGATE %negate_in0"), "{out}");
    assert!(out.contains("OpGraphEntryPointARM %negate \"negate\" %negate_iface_in0 %negate_iface_out0"), "{out}");
    let (code, out, _) = run(bin!().arg("info").arg("--json").arg(&f));
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).expect("info --json is JSON");
    assert_eq!(v["operator_histogram"]["NEGATE"], 1);
    assert_eq!(v["entry_points"][0]["interface"][1]["binding"], 1);
    assert_eq!(v["entry_points"][0]["interface"][1]["role"], "output");
    let (code, out, _) = run(bin!().arg("roundtrip").arg(&f).arg(&f));
    assert_eq!(code, 0);
    assert_eq!(out.matches("identical").count(), 2);
}

#[test]
fn malformed_modules_fail_the_check_with_offset_and_opcode() {
    let d = scratch("bad");
    let mut bytes = sample_module();
    // Corrupt the word count of the first OpTypeInt so it claims 2 words.
    let words: Vec<u32> = bytes.chunks(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    let mut at = 5;
    while words[at] & 0xffff != 21 {
        at += (words[at] >> 16) as usize;
    }
    bytes[at * 4 + 2] = 2;
    let f = d.join("bad.spv");
    std::fs::write(&f, &bytes).expect("write");
    for sub in ["dis", "info", "roundtrip"] {
        let (code, _, err) = run(bin!().arg(sub).arg(&f));
        assert_eq!(code, 1, "{sub}: {err}");
        assert!(err.contains(&format!("word {at}")) && err.contains("OpTypeInt"), "{sub}: {err}");
    }
}

#[test]
fn missing_files_and_bad_usage_exit_2() {
    let (code, _, err) = run(bin!().arg("dis").arg("/nonexistent/x.spv"));
    assert_eq!(code, 2);
    assert!(err.contains("/nonexistent/x.spv"), "{err}");
    let (code, _, _) = run(bin!().arg("frobnicate"));
    assert_eq!(code, 2);
    let (code, _, _) = run(bin!().arg("roundtrip"));
    assert_eq!(code, 2);
}
