//! `.npy` files against numpy itself (the oracle venv's Python): the bytes
//! spvgraph writes equal `numpy.save`'s for every element type's dtype and
//! ranks 0–6 (zero-size dimensions included), and files numpy writes in C
//! and Fortran order, big-endian, format versions 2.0 and 3.0, and bool
//! arrays holding 0xff bytes read back to the values numpy holds.

use spvgraph_ir::elem::ElemType;
use spvgraph_ir::npy::{Dtypes, NpyArray};
use spvgraph_ir::tensor::TensorData;
use spvgraph_oracle::tools::Tool;
use spvgraph_testkit::{scratch, Scratch};
use std::path::Path;
use std::process::Command;

/// Saves each case of `manifest.json` with numpy: `numpy_<i>.npy`, from the
/// C-order little-endian bytes and in the layout the case names.
const SAVE: &str = r#"
import json, sys
import numpy as np
from numpy.lib import format as npf
manifest, out = sys.argv[1], sys.argv[2]
for i, c in enumerate(json.load(open(manifest))):
    dt = np.dtype(c["descr"])
    raw = bytes.fromhex(c["hex"])
    shape = tuple(c["shape"])
    a = np.frombuffer(raw, dtype=dt).reshape(shape) if raw else np.zeros(shape, dtype=dt)
    layout = c["layout"]
    path = f"{out}/numpy_{i}.npy"
    if layout == "c":
        np.save(path, a)
    elif layout == "fortran":
        f = np.asfortranarray(a)
        assert a.ndim < 2 or a.size == 0 or f.flags.f_contiguous and not f.flags.c_contiguous
        np.save(path, f)
    elif layout == "big":
        np.save(path, a.astype(dt.newbyteorder(">")))
    elif layout == "bool-bytes":
        np.save(path, a.view(np.bool_))
    elif layout in ("v2", "v3"):
        with open(path, "wb") as fp:
            npf.write_array(fp, a, version=(int(layout[1]), 0))
    else:
        raise SystemExit(f"unknown layout {layout}")
"#;

struct Case {
    descr: &'static str,
    shape: Vec<usize>,
    data: Vec<u8>,
    layout: &'static str,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Runs numpy over `cases`, returning the directory holding `numpy_<i>.npy`.
fn save_with_numpy(python: &Path, name: &str, cases: &[Case]) -> Scratch {
    let dir = scratch(name);
    let manifest: Vec<serde_json::Value> = cases
        .iter()
        .map(|c| serde_json::json!({"descr": c.descr, "shape": c.shape, "hex": hex(&c.data), "layout": c.layout}))
        .collect();
    let manifest_path = dir.join("manifest.json");
    std::fs::write(&manifest_path, serde_json::Value::Array(manifest).to_string()).expect("manifest");
    let out = Command::new(python).arg("-c").arg(SAVE).arg(&manifest_path).arg(&dir).output().expect("run python");
    assert!(out.status.success(), "numpy failed: {}", String::from_utf8_lossy(&out.stderr));
    dir
}

/// Deterministic element bits: varied, in range for the element type.
fn bits(elem: ElemType, count: usize) -> Vec<u64> {
    (0..count as u64)
        .map(|i| match elem {
            ElemType::Bool => u64::from(i % 3 == 1),
            _ => (i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 7) ^ i,
        })
        .map(|b| if elem == ElemType::I48 { (((b << 16) as i64) >> 16) as u64 } else { b })
        .collect()
}

/// Shapes of ranks 0 to 6, some with a zero-size dimension, and a first
/// dimension long enough to use numpy's spare header digits differently.
/// Every header of rank up to 6 is 128 bytes; two higher ranks reach the
/// cases where numpy's spare digits and padding decide the length: 14 (the
/// dict ends exactly on a 64-byte boundary, and numpy still pads 64 spaces)
/// and 16 (the spare digits cross the boundary).
fn shapes() -> Vec<Vec<usize>> {
    let mut rank14 = vec![1; 12];
    rank14.extend([10, 10]);
    vec![
        vec![],
        vec![1],
        vec![5],
        vec![0],
        vec![1000],
        vec![2, 3],
        vec![3, 0],
        vec![2, 3, 4],
        vec![1, 2, 1, 3],
        vec![2, 0, 2, 1],
        vec![1, 2, 3, 1, 2],
        vec![2, 1, 2, 1, 2, 3],
        vec![12_345_678_901, 0, 1, 1, 1, 1],
        rank14,
        vec![1; 16],
    ]
}

#[test]
fn our_bytes_equal_numpy_save() {
    let Some(python) = spvgraph_testkit::tool(Tool::Python) else { return };
    let mut ours = Vec::new();
    let mut cases = Vec::new();
    for elem in ElemType::ALL {
        for shape in shapes() {
            let count: usize = shape.iter().product();
            let t = TensorData::from_bits(elem, &shape, &bits(elem, count)).expect("tensor");
            let bytes = NpyArray::from_tensor(&t, Dtypes::Numpy).encode();
            cases.push(Case { descr: Dtypes::Numpy.descr(elem), shape, data: t.to_le_bytes(), layout: "c" });
            ours.push((elem, bytes));
        }
    }
    let dir = save_with_numpy(&python, "save", &cases);
    for (i, ((elem, bytes), case)) in ours.iter().zip(&cases).enumerate() {
        let theirs = std::fs::read(dir.join(format!("numpy_{i}.npy"))).expect("numpy file");
        assert!(
            *bytes == theirs,
            "{elem} {:?}: ours differ from numpy's\nours:  {:?}\nnumpy: {:?}",
            case.shape,
            String::from_utf8_lossy(&bytes[..bytes.len().min(160)]),
            String::from_utf8_lossy(&theirs[..theirs.len().min(160)]),
        );
    }
    // TensorData::write_npy is the same writer.
    let t = TensorData::from_bits(ElemType::Bf16, &[2, 3], &bits(ElemType::Bf16, 6)).expect("tensor");
    let p = dir.join("ours.npy");
    t.write_npy(&p).expect("write");
    let i = cases.iter().position(|c| c.descr == "<u2" && c.shape == [2, 3]).expect("bf16 [2, 3]");
    assert_eq!(std::fs::read(&p).expect("ours"), std::fs::read(dir.join(format!("numpy_{i}.npy"))).expect("numpy"));
}

#[test]
fn numpy_files_read_back_to_numpys_values() {
    let Some(python) = spvgraph_testkit::tool(Tool::Python) else { return };
    let mut cases = Vec::new();
    let mut expected = Vec::new();
    let shapes = [vec![2, 3, 4], vec![3, 1, 2, 2], vec![4, 5], vec![0, 3], vec![]];
    for elem in ElemType::ALL {
        for layout in ["fortran", "big", "v2", "v3"] {
            // numpy.asfortranarray makes a rank-0 array rank 1.
            for shape in shapes.iter().filter(|s| layout != "fortran" || !s.is_empty()) {
                let count: usize = shape.iter().product();
                let t = TensorData::from_bits(elem, shape, &bits(elem, count)).expect("tensor");
                cases.push(Case {
                    descr: Dtypes::Numpy.descr(elem),
                    shape: shape.clone(),
                    data: t.to_le_bytes(),
                    layout,
                });
                expected.push((elem, t));
            }
        }
    }
    // A bool is any non-zero byte, as model-converter's 0xff constants.
    let raw = vec![0u8, 0xff, 1, 0x80, 0, 2];
    cases.push(Case { descr: "|u1", shape: vec![2, 3], data: raw.clone(), layout: "bool-bytes" });
    let truth: Vec<u64> = raw.iter().map(|&b| u64::from(b != 0)).collect();
    expected.push((ElemType::Bool, TensorData::from_bits(ElemType::Bool, &[2, 3], &truth).expect("bool")));
    let dir = save_with_numpy(&python, "load", &cases);
    for (i, ((elem, want), case)) in expected.iter().zip(&cases).enumerate() {
        let path = dir.join(format!("numpy_{i}.npy"));
        let got = TensorData::read_npy(&path, *elem)
            .unwrap_or_else(|e| panic!("{} {elem} {:?}: {e}", case.layout, case.shape));
        // Bits, not values: NaN payloads must survive too.
        assert_eq!((got.elem(), got.shape()), (want.elem(), want.shape()), "{} {elem} {:?}", case.layout, case.shape);
        assert_eq!(got.to_bits(), want.to_bits(), "{} {elem} {:?}", case.layout, case.shape);
    }
    // The bool file really holds the 0xff byte.
    let bytes = std::fs::read(dir.join(format!("numpy_{}.npy", cases.len() - 1))).expect("bool file");
    assert!(bytes.ends_with(&raw), "numpy kept the raw bool bytes");
}
