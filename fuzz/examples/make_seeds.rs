//! Regenerates the seed corpora `seeds/roundtrip/`, `seeds/graph_validator/`,
//! `seeds/execute/` and `seeds/differential/`:
//!
//! ```sh
//! cargo run --manifest-path fuzz/Cargo.toml --example make_seeds
//! ```
//!
//! Seeds are small, valid graph modules covering the constructs the codec
//! types (tensor and graph types, every constant form, graph constants,
//! tensor-array interfaces with ElementIndex, debug info, names, several
//! graphs, big-endian byte order). The `builder_*` seeds come from
//! `ModuleBuilder`; the `mc_*` seeds are model-converter output for tiny TOSA
//! MLIR programs embedded below, and are only (re)written when model-converter
//! and vgf_dump are installed (`ci/setup-oracles`), so the bytes a real
//! producer writes are in the corpus too.

#![allow(clippy::print_stdout, reason = "it lists the seeds it writes")]

use spvgraph_ir::builder::ModuleBuilder;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::{Endian, GraphDebugInst, Inst, Module};
use spvgraph_oracle::tools::{Tool, Tools};
use std::error::Error;
use std::path::Path;
use std::process::Command;

/// What a seed-writing step gives back: an error names the seed or file.
type Written = Result<(), Box<dyn Error>>;

fn chain(n: usize) -> Module {
    spvgraph_ir::samples::elementwise_chain(n)
}

/// Tensor constants of every element type in every form, plus graph constants
/// feeding a CONV2D.
fn constants() -> Module {
    let mut b = ModuleBuilder::new();
    for elem in ElemType::ALL {
        let bits: Vec<u64> = (0..6).map(|i| if elem == ElemType::Bool { i % 2 } else { i * 3 + 1 }).collect();
        let _ = b.const_tensor(elem, &[2, 3], &bits);
        let ty = b.type_tensor(elem, Some(&[4]));
        b.const_null(ty);
        let one = b.const_scalar(elem, 1);
        b.const_replicate(ty, one);
    }
    let input = b.type_tensor(ElemType::Fp32, Some(&[1, 8, 8, 4]));
    let weights = b.type_tensor(ElemType::Fp32, Some(&[8, 3, 3, 4]));
    let bias = b.type_tensor(ElemType::Fp32, Some(&[8]));
    let out = b.type_tensor(ElemType::Fp32, Some(&[1, 8, 8, 8]));
    let zp = b.type_tensor(ElemType::Fp32, Some(&[1]));
    let w = b.graph_constant(weights, 0);
    let bi = b.graph_constant(bias, 1);
    let zero = b.const_scalar(ElemType::Fp32, 0);
    let z = b.const_replicate(zp, zero);
    let pad = b.const_i32_vector(&[1, 1, 1, 1]);
    let stride = b.const_i32_vector(&[1, 1]);
    let dil = b.const_i32_vector(&[1, 1]);
    let acc = b.const_u32(2);
    let local = b.const_bool(false);
    let gty = b.type_graph(&[input], &[out]);
    let vars = vec![b.interface_variable(input, 0, 0), b.interface_variable(out, 0, 1)];
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "conv", vars);
    let x = b.graph_input(input, 0, None);
    let y = b.tosa(TosaOp::Conv2d, out, vec![pad, stride, dil, acc, local, x, w, bi, z, z]);
    b.graph_output(y, 0, None);
    b.end_graph();
    b.finish()
}

/// Tensor-array interfaces (OpTypeArray of tensors, ElementIndex on inputs
/// and outputs), names, strings and NonSemantic.Graph.DebugInfo, two graphs
/// with an entry point each.
fn arrays_debug_two_graphs() -> Module {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(ElemType::I8, Some(&[1, 4]));
    let arr = b.type_array(t, 2);
    let void = b.type_void();
    let set = b.graph_debug_set();
    // Strings before names: the builder keeps its debug section in call order,
    // and SPIR-V wants every OpString before the first OpName.
    let gname = b.string("pairs");
    let opname = b.string("add_0");
    let tname = b.string("pair_input");
    let gty = b.type_graph(&[arr], &[arr]);
    let vars = vec![b.interface_variable(arr, 0, 0), b.interface_variable(arr, 0, 1)];
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "pairs", vars);
    b.name(g, "pairs");
    let a0 = b.graph_input(t, 0, Some(0));
    let a1 = b.graph_input(t, 0, Some(1));
    let s = b.tosa(TosaOp::Add, t, vec![a0, a1]);
    let n = b.tosa(TosaOp::Abs, t, vec![s]);
    b.name(s, "sum");
    b.graph_output(s, 0, Some(0));
    b.graph_output(n, 0, Some(1));
    b.end_graph();

    let u = b.type_tensor_ranked(ElemType::Fp16, 2);
    let gty2 = b.type_graph(&[u], &[u]);
    let vars2 = vec![b.interface_variable(u, 1, 0), b.interface_variable(u, 1, 1)];
    let g2 = b.begin_graph(gty2);
    b.graph_entry_point(g2, "second", vars2);
    let x = b.graph_input(u, 0, None);
    let y = b.tosa(TosaOp::Tanh, u, vec![x]);
    b.graph_output(y, 0, None);
    b.end_graph();

    // Model-converter emits debug info after the graph definitions.
    let dg = b.id();
    b.after_graphs(Inst::GraphDebug {
        ty: void,
        result: dg,
        set,
        inst: GraphDebugInst::Graph { graph: g, name: gname },
    });
    let dop = b.id();
    b.after_graphs(Inst::GraphDebug {
        ty: void,
        result: dop,
        set,
        inst: GraphDebugInst::Operation { debug_graph: dg, name: opname, instructions: vec![s] },
    });
    let idx = b.const_u32(1);
    let dt = b.id();
    b.after_graphs(Inst::GraphDebug {
        ty: void,
        result: dt,
        set,
        inst: GraphDebugInst::Tensor { tensor: a1, name: tname, index: Some(idx) },
    });
    b.finish()
}

/// Tiny TOSA MLIR programs for model-converter seeds.
const MLIR_SEEDS: &[(&str, &str)] = &[
    (
        "mc_add_abs",
        r#"module {
  func.func @main(%a: tensor<1x8x8x4xf32>, %b: tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32> {
    %0 = tosa.add %a, %b : (tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
    %1 = tosa.abs %0 : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
    return %1 : tensor<1x8x8x4xf32>
  }
}
"#,
    ),
    (
        "mc_conv_relu",
        r#"module {
  func.func @main(%x: tensor<1x8x8x4xf32>) -> tensor<1x8x8x8xf32> {
    %w = "tosa.const"() <{values = dense<0.5> : tensor<8x3x3x4xf32>}> : () -> tensor<8x3x3x4xf32>
    %b = "tosa.const"() <{values = dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>}> : () -> tensor<8xf32>
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<8x3x3x4xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x8xf32>
    %1 = tosa.clamp %0 {max_val = 6.0 : f32, min_val = 0.0 : f32} : (tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
    return %1 : tensor<1x8x8x8xf32>
  }
}
"#,
    ),
];

fn write(dir: &Path, name: &str, m: &Module) -> Written {
    let bytes = m.encode_bytes().map_err(|e| format!("{name} does not encode: {e}"))?;
    assert_eq!(Module::decode_bytes(&bytes).as_ref(), Ok(m), "{name} round-trips");
    std::fs::write(dir.join(format!("{name}.spv")), &bytes).map_err(|e| format!("cannot write {name}.spv: {e}"))?;
    println!("wrote {name}.spv ({} bytes)", bytes.len());
    Ok(())
}

fn model_converter_seeds(dir: &Path) -> Written {
    let tools = Tools::discover();
    let (Ok(mc), Ok(dump)) = (tools.get(Tool::ModelConverter), tools.get(Tool::VgfDump)) else {
        eprintln!("model-converter/vgf_dump not installed: keeping the existing mc_* seeds");
        return Ok(());
    };
    // A fixed directory, and relative paths with it as the working directory,
    // so the file names model-converter records in OpString debug info (and
    // hence the seed bytes) do not change from one regeneration to the next.
    let scratch = std::env::temp_dir().join("spvgraph-make-seeds");
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).map_err(|e| format!("cannot create {}: {e}", scratch.display()))?;
    for (name, mlir) in MLIR_SEEDS {
        for debug in [false, true] {
            let stem = if debug { format!("{name}_debug") } else { name.to_string() };
            let src = format!("{stem}.mlir");
            let vgf = scratch.join(format!("{stem}.vgf"));
            let out = dir.join(format!("{stem}.spv"));
            std::fs::write(scratch.join(&src), mlir).map_err(|e| format!("cannot write {src}: {e}"))?;
            let mut c = Command::new(mc);
            c.current_dir(&scratch).arg("-i").arg(&src).arg("-o").arg(&vgf);
            if debug {
                c.arg("--emit-debug-info");
            }
            let ok = c.output().map(|o| o.status.success()).unwrap_or(false)
                && Command::new(dump)
                    .arg("-i")
                    .arg(&vgf)
                    .arg("-o")
                    .arg(&out)
                    .args(["--dump-spirv", "0"])
                    .output()
                    .map(|o| o.status.success())
                    .unwrap_or(false);
            assert!(ok, "model-converter/vgf_dump failed on {stem}");
            println!("wrote {stem}.spv");
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    Ok(())
}

fn main() -> Written {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("seeds/roundtrip");
    create_dir(&dir)?;
    write(&dir, "builder_chain10", &chain(10))?;
    let mut be = chain(3);
    be.endian = Endian::Big;
    write(&dir, "builder_chain3_big_endian", &be)?;
    write(&dir, "builder_constants", &constants())?;
    write(&dir, "builder_arrays_debug_two_graphs", &arrays_debug_two_graphs())?;
    model_converter_seeds(&dir)?;
    graph_validator_seeds(&Path::new(env!("CARGO_MANIFEST_DIR")).join("seeds/graph_validator"), &chain(10), &dir)?;
    execute_seeds(&Path::new(env!("CARGO_MANIFEST_DIR")).join("seeds/execute"))?;
    differential_seeds(&Path::new(env!("CARGO_MANIFEST_DIR")).join("seeds/differential"))
}

fn create_dir(dir: &Path) -> Written {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    Ok(())
}

fn write_bytes(path: &Path, bytes: &[u8]) -> Written {
    std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(())
}

/// `execute` runs the first graph of a module: the builder's graphs (an
/// elementwise chain, a CONV2D with graph constants, tensor-array
/// interfaces) and small generated cases of several operators.
fn execute_seeds(dir: &Path) -> Written {
    create_dir(dir)?;
    write(dir, "builder_chain10", &chain(10))?;
    write(dir, "builder_constants", &constants())?;
    write(dir, "builder_arrays_debug_two_graphs", &arrays_debug_two_graphs())?;
    let config =
        spvgraph_generator::Config { max_nodes: 6, max_dim: 8, max_tensor_elements: 4096, ..Default::default() };
    for seed in 0..8u64 {
        let case = spvgraph_generator::generate_from_seed(seed, &config);
        write(dir, &format!("generated_seed{seed}"), &case.module)?;
    }
    Ok(())
}

/// `differential` reads generator choices like `graph_validator`: first
/// byte even for a valid case, odd for a near-valid one.
fn differential_seeds(dir: &Path) -> Written {
    create_dir(dir)?;
    for (k, len) in [(0u64, 64usize), (1, 256), (2, 1024), (3, 512)] {
        for (kind, first) in [("valid", 0u8), ("near_valid", 1u8)] {
            let mut bytes = vec![first];
            bytes.extend(spvgraph_generator::prng::seed_bytes(k, len));
            write_bytes(&dir.join(format!("{kind}_{k}_{len}.bin")), &bytes)?;
        }
    }
    Ok(())
}

/// `graph_validator` reads its input twice: as a module (validated
/// directly) and as generator choices whose first byte picks a valid (even)
/// or near-valid (odd) case and whose next bytes draw the swarm
/// configuration. The seeds are generator choices of both kinds, of a few
/// lengths (short inputs give small modules, which keeps exec/s high; long
/// ones reach deep graphs), plus real modules (the chain and every
/// `roundtrip` seed, model-converter's among them), which the target's
/// structure-aware mutator mutates.
fn graph_validator_seeds(dir: &Path, module: &Module, modules: &Path) -> Written {
    create_dir(dir)?;
    for (k, len) in [(0u64, 64usize), (1, 256), (2, 1024), (3, 4096), (4, 512), (5, 2048)] {
        for (kind, first) in [("valid", 0u8), ("near_valid", 1u8)] {
            let mut bytes = vec![first];
            bytes.extend(spvgraph_generator::prng::seed_bytes(k, len));
            let path = dir.join(format!("{kind}_{k}_{len}.bin"));
            write_bytes(&path, &bytes)?;
        }
    }
    let bytes = module.encode_bytes().map_err(|e| format!("the chain does not encode: {e}"))?;
    write_bytes(&dir.join("module_chain10.spv"), &bytes)?;
    for f in spvgraph_fuzz::corpus_files(modules) {
        if let Some(name) = f.file_name().and_then(|n| n.to_str()).filter(|n| n.ends_with(".spv")) {
            std::fs::copy(&f, dir.join(format!("module_{name}")))
                .map_err(|e| format!("cannot copy {}: {e}", f.display()))?;
        }
    }
    Ok(())
}
