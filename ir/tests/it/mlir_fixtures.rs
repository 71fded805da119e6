//! Smoke test of the TOSA MLIR printer on the hand-written and
//! model-converter-made fixtures (`ir/tests/fixtures`, built with the real
//! tools by `build.sh`).
//!
//! * Every graph entry point of every TOSA-valid `.spvasm` fixture is printed
//!   (graph-constant data: zeros of the declared type); what prints must pass
//!   `tosa-opt --tosa-validate`, and what cannot print must fail for a reason
//!   listed in [`EXPECTED_REFUSALS`].
//! * Every model-converter fixture (`mlir/*.spv`) goes round the loop: its
//!   graph is printed with the constant data from its VGF, converted again by
//!   model-converter, and the result must have the same interface types,
//!   operators and graph-constant bytes as the module it came from.

use crate::mlir_common as common;
use crate::support;

use common::{convert, summarize, tosa_opt, vgf_constant};
use spvgraph_ir::analysis::Analysis;
use spvgraph_ir::inst::Inst;
use spvgraph_ir::mlir::{module_to_mlir, MlirErrorKind};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::Module;
use spvgraph_oracle::tools::Tool;
use spvgraph_testkit::tool;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Fixture entry points the printer refuses (fixture, entry point, error
/// kind): each uses a construct with no TOSA MLIR form.
const EXPECTED_REFUSALS: &[(&str, &str, &str)] = &[
    // Graph interfaces of ranked but unshaped tensors: MLIR TOSA needs static shapes.
    ("tensor_array_interface", "swap_unshaped", "UnshapedTensor"),
    ("tensor_types", "mixed_ranks", "UnshapedTensor"),
];

/// Fixture entry points whose printed MLIR tosa-opt rightly rejects
/// (fixture, entry point, diagnostic): the fixtures pass spirv-val but break
/// TOSA ERROR_IF rules that their headers do not mark (`; tosa: invalid`).
const TOSA_INVALID_FIXTURES: &[(&str, &str, &str)] = &[
    // rescale.spvasm %r_i16_i8: input_unsigned && output_unsigned.
    ("rescale", "rescale_all", "input and output cannot be both unsigned"),
    // rescale.spvasm %r_i32_i8, %r_i32_i16 and int16_i48.spvasm %dw16: i32 input with output_unsigned.
    ("rescale", "rescale_all", "i32 input type is not allowed with unsigned output"),
    ("int16_i48", "int16_ops", "i32 input type is not allowed with unsigned output"),
];

/// Whether a `.spvasm` fixture's header says it is valid for spirv-val and TOSA.
fn tosa_valid(source: &Path) -> bool {
    let text = std::fs::read_to_string(source).unwrap_or_default();
    let header: Vec<&str> = text.lines().take_while(|l| l.starts_with(';')).collect();
    header.iter().any(|l| l.starts_with("; expect: valid")) && !header.iter().any(|l| l.starts_with("; tosa: invalid"))
}

fn entry_points(m: &Module) -> Vec<String> {
    m.insts
        .iter()
        .filter_map(|i| match i {
            Inst::GraphEntryPoint { name, .. } => Some(name.clone()),
            _ => None,
        })
        .collect()
}

/// Data for every graph constant: the smoke test needs values, not
/// meaningful ones. Integers get their position in the last dimension, which
/// keeps GATHER/SCATTER indices in range and unique per batch; floats and
/// bools are zero.
fn smoke_constants(m: &Module) -> BTreeMap<u32, TensorData> {
    let a = Analysis::new(m);
    m.insts
        .iter()
        .filter_map(|i| match i {
            Inst::GraphConstant { ty, graph_constant_id, .. } => {
                let t = a.tensor_type(*ty)?;
                let elem = t.elem?;
                let shape: Vec<usize> = t.shape?.iter().map(|&d| d as usize).collect();
                let last = shape.last().copied().unwrap_or(1).max(1);
                let count: usize = shape.iter().product();
                let bits: Vec<u64> = (0..count).map(|i| if elem.is_int() { (i % last) as u64 } else { 0 }).collect();
                Some((*graph_constant_id, TensorData::from_bits(elem, &shape, &bits).ok()?))
            }
            _ => None,
        })
        .collect()
}

fn kind_name(k: &MlirErrorKind) -> String {
    format!("{k:?}").split([' ', '{', '(']).next().unwrap_or("").to_string()
}

#[test]
fn spvasm_fixtures_print_and_validate() {
    let (Some(out), Some(opt)) = (support::build_fixtures(), tool(Tool::TosaOpt)) else { return };
    let dir = spvgraph_testkit::scratch("mlir-fixtures-spvasm");
    let mut sources: Vec<PathBuf> = std::fs::read_dir(support::fixtures_dir().join("spvasm"))
        .expect("fixture sources")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    sources.sort();
    let (mut printed, mut refused, mut skipped, mut tosa_invalid) = (0, 0, 0, 0);
    let mut problems = Vec::new();
    for src in &sources {
        let stem = src.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_string();
        let bytes = std::fs::read(out.join("spvasm").join(format!("{stem}.spv"))).expect("built fixture");
        let m = Module::decode_bytes(&bytes).expect("fixture decodes");
        let data = smoke_constants(&m);
        if !tosa_valid(src) {
            // Not validated, but printing must still end in text or an error.
            let outcomes: Vec<String> = entry_points(&m)
                .iter()
                .map(|e| match module_to_mlir(&m, e, &data) {
                    Ok(_) => format!("@{e} printed"),
                    Err(err) => format!("@{e} refused ({})", kind_name(&err.kind)),
                })
                .collect();
            eprintln!("skipped (marked invalid): {stem}: {}", outcomes.join(", "));
            skipped += 1;
            continue;
        }
        for entry in entry_points(&m) {
            match module_to_mlir(&m, &entry, &data) {
                Ok(text) => {
                    printed += 1;
                    let f = dir.join(format!("{stem}.{printed}.mlir"));
                    std::fs::write(&f, &text).expect("write");
                    if let Err(e) = tosa_opt(&opt, &f) {
                        let known: Vec<&str> = TOSA_INVALID_FIXTURES
                            .iter()
                            .filter(|(s, n, _)| *s == stem && *n == entry)
                            .map(|(_, _, d)| *d)
                            .collect();
                        let unexplained: Vec<&str> = e
                            .lines()
                            .filter(|l| l.contains(": error: ") && !known.iter().any(|d| l.contains(d)))
                            .collect();
                        if known.is_empty() || !unexplained.is_empty() {
                            problems
                                .push(format!("--- {stem} @{entry}: tosa-opt rejected the printed MLIR\n{e}\n{text}"));
                        } else {
                            tosa_invalid += 1;
                            eprintln!("tosa-invalid fixture: {stem} @{entry}: {}", known.join("; "));
                        }
                    }
                }
                Err(e) => {
                    refused += 1;
                    let kind = kind_name(&e.kind);
                    eprintln!("refused: {stem} @{entry}: {e}");
                    let expected = EXPECTED_REFUSALS.iter().any(|(s, n, k)| *s == stem && *n == entry && *k == kind);
                    if !expected {
                        problems.push(format!("--- {stem} @{entry}: unexpected refusal ({kind}): {e}"));
                    }
                }
            }
        }
    }
    eprintln!(
        "spvasm fixtures: {printed} entry points printed ({tosa_invalid} of them rejected by tosa-opt for \
         TOSA rules the fixture breaks), {refused} refused, {skipped} fixtures skipped as marked invalid"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The graph-constant data of a model-converter module, read from its VGF.
fn vgf_constants(dump: &Path, vgf: &Path, m: &Module) -> Result<BTreeMap<u32, TensorData>, String> {
    let a = Analysis::new(m);
    let mut data = BTreeMap::new();
    for inst in &m.insts {
        let Inst::GraphConstant { ty, graph_constant_id, .. } = inst else { continue };
        let t = a.tensor_type(*ty).ok_or("graph constant without a tensor type")?;
        let (Some(elem), Some(shape)) = (t.elem, t.shape) else { return Err("unshaped graph constant".into()) };
        let shape: Vec<usize> = shape.iter().map(|&d| d as usize).collect();
        let count: usize = shape.iter().product();
        let bytes = vgf_constant(dump, vgf, *graph_constant_id)?;
        if count == 0 || bytes.len() % count != 0 {
            return Err(format!("constant {graph_constant_id}: {} bytes for {count} elements", bytes.len()));
        }
        let bits: Vec<u64> = bytes
            .chunks(bytes.len() / count)
            .map(|c| c.iter().rev().fold(0u64, |acc, &b| (acc << 8) | u64::from(b)))
            .collect();
        data.insert(*graph_constant_id, TensorData::from_bits(elem, &shape, &bits).map_err(|e| e.to_string())?);
    }
    Ok(data)
}

/// Graph-constant contents (type and bytes), sorted: what a graph's weights
/// are, whatever ids the converter gave them.
fn constant_blobs(dump: &Path, vgf: &Path, m: &Module) -> Result<Vec<(String, Vec<u8>)>, String> {
    let a = Analysis::new(m);
    let mut blobs = Vec::new();
    for inst in &m.insts {
        if let Inst::GraphConstant { ty, graph_constant_id, .. } = inst {
            blobs.push((common::flat_types(&a, *ty).join(","), vgf_constant(dump, vgf, *graph_constant_id)?));
        }
    }
    blobs.sort();
    Ok(blobs)
}

/// model-converter output → printer (with the VGF's constant data) →
/// model-converter again: same interface, operators and constant bytes.
#[test]
fn model_converter_fixtures_survive_the_loop() {
    let Some(out) = support::build_fixtures() else { return };
    for converter in support::converters() {
        fixtures_loop_with(&out, &converter);
    }
}

/// The loop with one model-converter (the fixtures were built with the release's).
fn fixtures_loop_with(out: &Path, converter: &support::Converter) {
    let (mc, dump) = (&converter.mc, &converter.dump);
    let dir = spvgraph_testkit::scratch(&format!("mlir-fixtures-loop-{}", converter.channel));
    let mut names: Vec<String> = std::fs::read_dir(support::fixtures_dir().join("mlir"))
        .expect("fixture sources")
        .filter_map(|e| e.ok()?.path().file_stem()?.to_str().map(str::to_string))
        .collect();
    names.sort();
    let mut problems = Vec::new();
    for name in &names {
        let spv = out.join("mlir").join(format!("{name}.spv"));
        let vgf = out.join("mlir").join(format!("{name}.vgf"));
        let m = Module::decode_bytes(&std::fs::read(&spv).expect("built fixture")).expect("fixture decodes");
        let entry = entry_points(&m).into_iter().next().expect("an entry point");
        let result = vgf_constants(dump, &vgf, &m)
            .and_then(|data| module_to_mlir(&m, &entry, &data).map_err(|e| e.to_string()))
            .and_then(|text| convert(mc, dump, &dir, name, &text))
            .and_then(|conv| {
                let (want, got) = (summarize(&m, None), summarize(&conv.module, None));
                if want != got {
                    return Err(format!("want {want:?}\ngot  {got:?}"));
                }
                let (want, got) = (constant_blobs(dump, &vgf, &m)?, constant_blobs(dump, &conv.vgf, &conv.module)?);
                if want != got {
                    let types: Vec<&String> = want.iter().map(|(t, _)| t).collect();
                    return Err(format!("graph-constant bytes differ (constants {types:?})"));
                }
                Ok(())
            });
        if let Err(e) = result {
            problems.push(format!("--- {name}: {e}"));
        }
    }
    let channel = &converter.channel;
    eprintln!("{} model-converter fixtures went round the loop ({channel})", names.len() - problems.len());
    assert!(problems.is_empty(), "model-converter {channel}:\n{}", problems.join("\n"));
}
