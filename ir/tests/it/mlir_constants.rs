//! Constants survive printing bit for bit: the printed MLIR, converted by
//! model-converter, holds exactly the original element bits — decimal list
//! form (small tensors), hexadecimal data strings (large ones), splats, NaN
//! payloads, infinities, signed zeros, subnormals, i48 extremes — whether the
//! converter writes them back inline or as `OpGraphConstantARM` data.

use crate::mlir_common as common;
use crate::support;

use common::{convert, parallel, vgf_constant};
use spvgraph_ir::analysis::Analysis;
use spvgraph_ir::builder::ModuleBuilder;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::mlir::module_to_mlir;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::{AccType, TosaOp};
use spvgraph_ir::Module;
use spvgraph_oracle::tools::Tool;
use spvgraph_testkit::tool;
use std::collections::BTreeMap;
use std::path::Path;

/// A deterministic stream of pseudo-random words.
struct Xorshift(u64);

impl Xorshift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn mask(elem: ElemType) -> u64 {
    match elem {
        ElemType::Bool => 1,
        ElemType::I48 => u64::MAX,
        e => (1u64 << e.storage_bits()) - 1,
    }
}

/// Float patterns at the edges of the format: every sign, exponent in
/// {0, 1, middle, max-1, max} and mantissa in {0, 1, half, all ones}.
fn float_edges(exp_bits: u32, man_bits: u32) -> Vec<u64> {
    let emax = (1u64 << exp_bits) - 1;
    let mmax = (1u64 << man_bits) - 1;
    let mut v = Vec::new();
    for sign in [0, 1u64] {
        for e in [0, 1, emax / 2, emax - 1, emax] {
            for m in [0, 1, 1 << (man_bits - 1), mmax] {
                v.push((sign << (exp_bits + man_bits)) | (e << man_bits) | m);
            }
        }
    }
    v
}

/// Interesting values of `elem`, then pseudo-random ones, `count` in all.
fn values(elem: ElemType, count: usize, seed: u64) -> Vec<u64> {
    let mut v: Vec<u64> = match elem {
        ElemType::Fp8E4M3 | ElemType::Fp8E5M2 | ElemType::I8 => (0..256).collect(),
        ElemType::Fp16 => float_edges(5, 10),
        ElemType::Bf16 => float_edges(8, 7),
        ElemType::Fp32 => float_edges(8, 23),
        ElemType::I16 => vec![0, 1, 0x7fff, 0x8000, 0xffff, 0x8001],
        ElemType::I32 => vec![0, 1, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff, 0x8000_0001],
        ElemType::I48 => vec![0, 1, (1 << 47) - 1, (-(1i64 << 47)) as u64, u64::MAX, (-(1i64 << 46)) as u64],
        ElemType::Bool => vec![0, 1, 1, 0],
    };
    let mut rng = Xorshift(seed | 1);
    while v.len() < count {
        let x = rng.next();
        v.push(if elem == ElemType::I48 { (((x << 16) as i64) >> 16) as u64 } else { x & mask(elem) });
    }
    v.truncate(count);
    v
}

/// A graph with one `[1]` input and, per chunk, one CONCAT of the input with
/// that chunk as a constant; odd chunks are `OpGraphConstantARM`s.
fn concat_module(elem: ElemType, chunks: &[Vec<u64>]) -> (Module, BTreeMap<u32, TensorData>) {
    let mut b = ModuleBuilder::new();
    let mut data = BTreeMap::new();
    let x_ty = b.type_tensor(elem, Some(&[1]));
    let outs: Vec<Id> = chunks.iter().map(|c| b.type_tensor(elem, Some(&[c.len() as u32 + 1]))).collect();
    let gty = b.type_graph(&[x_ty], &outs);
    let vars: Vec<Id> = std::iter::once(x_ty)
        .chain(outs.iter().copied())
        .enumerate()
        .map(|(k, t)| b.interface_variable(t, 0, k as u32))
        .collect();
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "main", vars);
    let x = b.graph_input(x_ty, 0, None);
    let axis = b.const_u32(0);
    for (k, (chunk, &out)) in chunks.iter().zip(&outs).enumerate() {
        let shape = [chunk.len() as u32];
        let c = if k % 2 == 1 {
            let ty = b.type_tensor(elem, Some(&shape));
            data.insert(k as u32, TensorData::from_bits(elem, &[chunk.len()], chunk).expect("data fits"));
            b.graph_constant(ty, k as u32)
        } else {
            b.const_tensor(elem, &shape, chunk).expect("bits fill the shape")
        };
        let r = b.tosa(TosaOp::Concat, out, vec![axis, x, c]);
        b.graph_output(r, k as u32, None);
    }
    b.end_graph();
    (b.finish(), data)
}

/// A graph of int16 CONV2Ds whose i48 biases are the chunks (TOSA has no
/// other operator taking an i48 tensor that is not a zero point).
fn bias_module(chunks: &[Vec<u64>]) -> (Module, BTreeMap<u32, TensorData>) {
    let mut b = ModuleBuilder::new();
    let mut data = BTreeMap::new();
    let x_ty = b.type_tensor(ElemType::I16, Some(&[1, 1, 1, 1]));
    let outs: Vec<Id> = chunks.iter().map(|c| b.type_tensor(ElemType::I48, Some(&[1, 1, 1, c.len() as u32]))).collect();
    let gty = b.type_graph(&[x_ty], &outs);
    let vars: Vec<Id> = std::iter::once(x_ty)
        .chain(outs.iter().copied())
        .enumerate()
        .map(|(k, t)| b.interface_variable(t, 0, k as u32))
        .collect();
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "main", vars);
    let x = b.graph_input(x_ty, 0, None);
    let zeros = b.const_i32_vector(&[0, 0, 0, 0]);
    let ones = b.const_i32_vector(&[1, 1]);
    let acc = b.const_u32(AccType::Int48.value());
    let no = b.const_bool(false);
    let zp16 = b.const_tensor(ElemType::I16, &[1], &[0]).expect("zp");
    let zp8 = b.const_tensor(ElemType::I8, &[1], &[0]).expect("zp");
    for (k, (chunk, &out)) in chunks.iter().zip(&outs).enumerate() {
        let oc = chunk.len() as u32;
        let w = b.const_tensor(ElemType::I8, &[oc, 1, 1, 1], &vec![1; chunk.len()]).expect("weights");
        let bias = if k % 2 == 1 {
            let ty = b.type_tensor(ElemType::I48, Some(&[oc]));
            data.insert(k as u32, TensorData::from_bits(ElemType::I48, &[chunk.len()], chunk).expect("data fits"));
            b.graph_constant(ty, k as u32)
        } else {
            b.const_tensor(ElemType::I48, &[oc], chunk).expect("bits fill the shape")
        };
        let r = b.tosa(TosaOp::Conv2d, out, vec![zeros, ones, ones, acc, no, x, w, bias, zp16, zp8]);
        b.graph_output(r, k as u32, None);
    }
    b.end_graph();
    (b.finish(), data)
}

/// The element bits of constant `id` of a converted module (inline constant,
/// or graph-constant data from the VGF).
fn converted_bits(dump: &Path, vgf: &Path, m: &Module, id: Id, elem: ElemType) -> Result<Vec<u64>, String> {
    let a = Analysis::new(m);
    match a.def(id) {
        Some(Inst::GraphConstant { graph_constant_id, ty, .. }) => {
            let count = a.tensor_type(*ty).and_then(|t| t.element_count()).ok_or("graph constant type")? as usize;
            let bytes = vgf_constant(dump, vgf, *graph_constant_id)?;
            if count == 0 || bytes.len() % count != 0 {
                return Err(format!("{} bytes for {count} elements", bytes.len()));
            }
            let width = bytes.len() / count;
            Ok(bytes
                .chunks(width)
                .map(|c| c.iter().rev().fold(0u64, |acc, &b| (acc << 8) | u64::from(b)))
                .map(|v| {
                    if elem == ElemType::I48 && width < 8 {
                        (((v << 16) as i64) >> 16) as u64
                    } else {
                        v & mask(elem)
                    }
                })
                .collect())
        }
        Some(_) => a
            .const_tensor_bits(id, 1 << 20)
            .map(|v| v.into_iter().map(|b| b & mask(elem)).collect())
            .ok_or_else(|| format!("{id} is not a readable constant")),
        None => Err(format!("{id} is not defined")),
    }
}

/// Converts the printed module and compares, output by output, the constant
/// operand `operand` of the operator that produces it.
fn check(
    mc: &Path,
    dump: &Path,
    dir: &Path,
    stem: &str,
    elem: ElemType,
    chunks: &[Vec<u64>],
    operand: usize,
) -> Vec<String> {
    let (module, data) = if elem == ElemType::I48 { bias_module(chunks) } else { concat_module(elem, chunks) };
    let text = module_to_mlir(&module, "main", &data).unwrap_or_else(|e| panic!("{elem}: {e}"));
    let conv = match convert(mc, dump, dir, stem, &text) {
        Ok(c) => c,
        Err(e) => return vec![format!("{elem}: {e}")],
    };
    let m = &conv.module;
    let a = Analysis::new(m);
    let mut problems = Vec::new();
    for (k, chunk) in chunks.iter().enumerate() {
        let set = m.insts.iter().find_map(|i| match i {
            Inst::GraphSetOutput { value, output_index, .. } if a.const_uint(*output_index) == Some(k as u64) => {
                Some(*value)
            }
            _ => None,
        });
        let constant = set.and_then(|v| match a.def(v) {
            Some(Inst::Tosa { args, .. }) => args.get(operand).copied(),
            _ => None,
        });
        let Some(id) = constant else {
            problems.push(format!("{elem} chunk {k}: output {k} is not an operator with operand {operand}"));
            continue;
        };
        let want: Vec<u64> = chunk.iter().map(|b| b & mask(elem)).collect();
        match converted_bits(dump, &conv.vgf, m, id, elem) {
            Ok(got) if got == want => {}
            Ok(got) => {
                let diffs: Vec<String> = want
                    .iter()
                    .zip(&got)
                    .enumerate()
                    .filter(|(_, (w, g))| w != g)
                    .take(5)
                    .map(|(i, (w, g))| format!("[{i}] {w:#x} -> {g:#x}"))
                    .collect();
                problems.push(format!("{elem} chunk {k} ({} elements): {}", chunk.len(), diffs.join(", ")));
            }
            Err(e) => problems.push(format!("{elem} chunk {k}: {e}")),
        }
    }
    problems
}

/// Chunks of 16 (inline in the converted module), 64 (decimal list printed,
/// graph constant converted) and a large one (hex data string), plus a splat.
fn chunks(elem: ElemType, large: usize) -> Vec<Vec<u64>> {
    let all = values(elem, 16 + 64 + large, 0x5eed + elem.storage_bits() as u64);
    let splat = vec![all[1] & mask(elem); 24];
    vec![all[..16].to_vec(), all[16..80].to_vec(), all[80..].to_vec(), splat]
}

#[test]
fn constants_survive_model_converter_bit_for_bit() {
    for converter in support::converters() {
        constants_survive(&converter);
    }
}

fn constants_survive(converter: &support::Converter) {
    let (mc, dump) = (&converter.mc, &converter.dump);
    let dir = spvgraph_testkit::scratch(&format!("mlir-constants-{}", converter.channel));
    let elems = [
        ElemType::Fp32,
        ElemType::Fp16,
        ElemType::Bf16,
        ElemType::Fp8E4M3,
        ElemType::Fp8E5M2,
        ElemType::I8,
        ElemType::I16,
        ElemType::I32,
        ElemType::Bool,
        ElemType::I48,
    ];
    let problems: Vec<String> = parallel(&elems, |k, &elem| {
        // CONCAT's constant is operand 2 (axis, input1, input2); CONV2D's bias is operand 7.
        let operand = if elem == ElemType::I48 { 7 } else { 2 };
        check(mc, dump, &dir, &format!("e{k}"), elem, &chunks(elem, 176), operand)
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(
        problems.is_empty(),
        "constants changed on the way through MLIR (model-converter {}):\n{}",
        converter.channel,
        problems.join("\n")
    );
}

/// Every fp16 and bf16 bit pattern in decimal list form (chunks of 64): about
/// 40 s on two cores. `cargo test -p spvgraph-ir --release --test it -- --ignored mlir_constants::`
#[test]
#[ignore = "exhaustive sweep, about 40 s"]
fn every_half_precision_pattern_survives() {
    let (Some(mc), Some(dump)) = (tool(Tool::ModelConverter), tool(Tool::VgfDump)) else {
        return;
    };
    let dir = spvgraph_testkit::scratch("mlir-constants-sweep");
    let jobs: Vec<(ElemType, u64)> =
        [ElemType::Fp16, ElemType::Bf16].into_iter().flat_map(|e| (0..16u64).map(move |part| (e, part))).collect();
    let problems: Vec<String> = parallel(&jobs, |k, &(elem, part)| {
        let base = part * 4096;
        let chunks: Vec<Vec<u64>> = (0..64).map(|c| (0..64).map(|i| base + c * 64 + i).collect()).collect();
        check(&mc, &dump, &dir, &format!("s{k}"), elem, &chunks, 2)
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(problems.is_empty(), "constants changed on the way through MLIR:\n{}", problems.join("\n"));
}
