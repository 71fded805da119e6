//! The decoder is total: on any input it returns, never panics, reports
//! failures at a word that exists, and whatever it accepts it re-encodes to
//! exactly the input.
//!
//! Inputs: arbitrary bytes; words behind a valid header (unstructured, and
//! framed instruction streams that often decode); every truncation of valid
//! modules; and single-word mutations of valid modules (any word replaced,
//! an instruction's word count or opcode changed).

use proptest::prelude::*;
use spirv::Op;
use spvgraph_ir::binary::{words_to_bytes, MAGIC};
use spvgraph_ir::builder::ModuleBuilder;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::inst::{GRAPH_DEBUG_SET_PREFIX, TOSA_SET_NAME};
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::{DecodeErrorKind, Endian, GraphDebugInst, Inst, Module};
use std::sync::OnceLock;

/// Decodes `bytes` and checks the totality properties; returns the module if
/// it decoded.
fn check_bytes(bytes: &[u8]) -> Option<Module> {
    match Module::decode_bytes(bytes) {
        Ok(m) => {
            let again = m.encode_bytes().expect("a decoded module re-encodes");
            assert!(again == bytes, "decode_bytes → encode_bytes changed the input ({} bytes)", bytes.len());
            Some(m)
        }
        Err(e) => {
            check_error_offset(&e, bytes.len() / 4);
            None
        }
    }
}

/// Same as [`check_bytes`] on host-order words.
fn check_words(words: &[u32]) -> Option<Module> {
    match Module::decode_words(words) {
        Ok(m) => {
            let again = m.encode_words().expect("a decoded module re-encodes");
            assert!(again == words, "decode_words → encode_words changed the input ({} words)", words.len());
            // The same words as bytes, in both byte orders, behave the same.
            for endian in [Endian::Little, Endian::Big] {
                let bytes = words_to_bytes(words, endian);
                let mb = check_bytes(&bytes).expect("words that decode also decode as bytes");
                assert_eq!(mb.endian, endian, "byte order detected from the magic number");
                assert_eq!(mb.insts, m.insts, "byte order does not change the instructions");
            }
            Some(m)
        }
        Err(e) => {
            check_error_offset(&e, words.len());
            None
        }
    }
}

/// A failure is reported at word 0 (header-level problems, which may apply
/// to inputs shorter than one word) or at the start of an instruction, which
/// must be a word of the input after the header.
fn check_error_offset(e: &spvgraph_ir::DecodeError, words: usize) {
    match e.kind {
        DecodeErrorKind::NotWordAligned(_) | DecodeErrorKind::NoHeader(_) | DecodeErrorKind::BadMagic(_) => {
            assert_eq!(e.word_offset, 0, "header-level error not at word 0: {e}");
            assert_eq!(e.opcode, None, "header-level error names an opcode: {e}");
        }
        _ => {
            assert!(e.word_offset >= 5 && e.word_offset < words, "error offset outside the {words}-word input: {e}");
            assert!(e.opcode.is_some(), "instruction-level error without an opcode: {e}");
        }
    }
    // Formatting names the opcode; it must not panic for unknown opcodes either.
    assert!(e.to_string().starts_with(&format!("word {}", e.word_offset)));
}

/// Valid modules to truncate and mutate: builder modules covering every
/// typed instruction form the builder makes, in both byte orders.
fn valid_modules() -> &'static [(String, Vec<u32>, Endian)] {
    static MODULES: OnceLock<Vec<(String, Vec<u32>, Endian)>> = OnceLock::new();
    MODULES.get_or_init(|| {
        let mut out = Vec::new();
        for (name, m) in [("chain", chain_module()), ("constants", constants_module()), ("debug", debug_module())] {
            let words = m.encode_words().expect("builder modules encode");
            out.push((name.to_string(), words.clone(), Endian::Little));
            out.push((format!("{name}-be"), words, Endian::Big));
        }
        out
    })
}

fn chain_module() -> Module {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(ElemType::Fp32, Some(&[1, 8, 8, 4]));
    let gty = b.type_graph(&[t, t], &[t]);
    let vars: Vec<_> = (0..3).map(|i| b.interface_variable(t, 0, i)).collect();
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "chain", vars);
    b.name(g, "chain graph");
    let x = b.graph_input(t, 0, None);
    let y = b.graph_input(t, 1, None);
    let mut v = x;
    for op in [TosaOp::Add, TosaOp::Abs, TosaOp::Sub, TosaOp::Maximum, TosaOp::Tanh] {
        v = if op == TosaOp::Abs || op == TosaOp::Tanh { b.tosa(op, t, vec![v]) } else { b.tosa(op, t, vec![v, y]) };
    }
    b.graph_output(v, 0, None);
    b.end_graph();
    b.finish()
}

fn constants_module() -> Module {
    let mut b = ModuleBuilder::new();
    for elem in ElemType::ALL {
        let bits: Vec<u64> = (0..4).map(|i| if elem == ElemType::Bool { i % 2 } else { i + 7 }).collect();
        b.const_tensor(elem, &[2, 2], &bits).expect("shape matches");
        let ty = b.type_tensor(elem, Some(&[3]));
        b.const_null(ty);
        let one = b.const_scalar(elem, 1);
        b.const_replicate(ty, one);
    }
    let ranked = b.type_tensor_ranked(ElemType::I8, 2);
    let unranked = b.type_tensor(ElemType::I16, None);
    let t = b.type_tensor(ElemType::Fp16, Some(&[4, 4]));
    let w = b.graph_constant(t, 7);
    let arr = b.type_array(t, 2);
    let gty = b.type_graph(&[arr, ranked], &[t, unranked]);
    let vars = vec![b.interface_variable(arr, 0, 0), b.interface_variable(ranked, 0, 1), b.interface_variable(t, 0, 2)];
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "consts", vars);
    let a0 = b.graph_input(t, 0, Some(0));
    let a1 = b.graph_input(t, 0, Some(1));
    let s = b.tosa(TosaOp::Add, t, vec![a0, a1]);
    let m = b.tosa(TosaOp::Mul, t, vec![s, w]);
    b.graph_output(m, 0, None);
    b.end_graph();
    b.finish()
}

fn debug_module() -> Module {
    let mut b = ModuleBuilder::new();
    let file = b.string("model.mlir");
    let t = b.type_tensor(ElemType::I32, Some(&[2, 2]));
    let void = b.type_void();
    let set = b.graph_debug_set();
    let gty = b.type_graph(&[t], &[t]);
    let vars = vec![b.interface_variable(t, 0, 0), b.interface_variable(t, 0, 1)];
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "dbg", vars);
    let x = b.graph_input(t, 0, None);
    let y = b.tosa(TosaOp::Negate, t, vec![x]);
    b.graph_output(y, 0, None);
    b.end_graph();
    let dg = b.id();
    b.after_graphs(Inst::GraphDebug {
        ty: void,
        result: dg,
        set,
        inst: GraphDebugInst::Graph { graph: g, name: file },
    });
    let op = b.id();
    b.after_graphs(Inst::GraphDebug {
        ty: void,
        result: op,
        set,
        inst: GraphDebugInst::Operation { debug_graph: dg, name: file, instructions: vec![y] },
    });
    let dt = b.id();
    b.after_graphs(Inst::GraphDebug {
        ty: void,
        result: dt,
        set,
        inst: GraphDebugInst::Tensor { tensor: x, name: file, index: None },
    });
    b.finish()
}

/// Every truncation of every valid module, at every byte length: only cuts at
/// an instruction boundary decode, and they decode to the leading instructions.
#[test]
fn every_truncation_is_handled() {
    for (name, words, endian) in valid_modules() {
        let bytes = words_to_bytes(words, *endian);
        let full = Module::decode_bytes(&bytes).expect("valid module decodes");
        let offsets = full.word_offsets();
        for len in 0..=bytes.len() {
            let cut = &bytes[..len];
            let decoded = check_bytes(cut);
            let whole_words = len % 4 == 0;
            let boundary =
                len == 20 || (len > 20 && whole_words && (offsets.contains(&(len / 4)) || len == bytes.len()));
            assert_eq!(decoded.is_some(), boundary, "{name}: truncation to {len} bytes");
            if let Some(m) = decoded {
                assert_eq!(m.insts[..], full.insts[..m.insts.len()], "{name}: truncation keeps a prefix");
            }
        }
    }
}

/// Words worth trying in an operand: ids near the bound, small literals,
/// enumerant-ish values, and anything at all.
fn word() -> impl Strategy<Value = u32> {
    prop_oneof![
        4 => 0u32..64,
        1 => Just(0u32),
        1 => Just(u32::MAX),
        // FPEncoding values and ARM opcodes, where a mutation may make them meaningful.
        1 => prop::sample::select(vec![4214u32, 4215, 4163, 4181, 4182, 4183, 4184, 4185, 4186, 4190]),
        3 => any::<u32>(),
    ]
}

/// Opcodes the model types, each with an operand count its grammar accepts
/// (so most framed instructions decode), plus a few it keeps raw.
const TYPED: &[(Op, usize)] = &[
    (Op::Capability, 1),
    (Op::MemoryModel, 2),
    (Op::Line, 3),
    (Op::NoLine, 0),
    (Op::Decorate, 3),
    (Op::TypeVoid, 1),
    (Op::TypeBool, 1),
    (Op::TypeInt, 3),
    (Op::TypeFloat, 2),
    (Op::TypeFloat, 3),
    (Op::TypeArray, 3),
    (Op::TypeRuntimeArray, 2),
    (Op::TypeStruct, 3),
    (Op::TypePointer, 3),
    (Op::ConstantTrue, 2),
    (Op::ConstantFalse, 2),
    (Op::Constant, 3),
    (Op::Constant, 4),
    (Op::ConstantComposite, 4),
    (Op::ConstantNull, 2),
    (Op::SpecConstantTrue, 2),
    (Op::SpecConstantFalse, 2),
    (Op::SpecConstant, 3),
    (Op::SpecConstantComposite, 3),
    (Op::Variable, 3),
    (Op::Variable, 4),
    (Op::CompositeExtract, 4),
    (Op::TypeTensorARM, 2),
    (Op::TypeTensorARM, 3),
    (Op::TypeTensorARM, 4),
    (Op::TypeGraphARM, 4),
    (Op::GraphConstantARM, 3),
    (Op::GraphARM, 2),
    (Op::GraphInputARM, 3),
    (Op::GraphInputARM, 4),
    (Op::GraphSetOutputARM, 2),
    (Op::GraphSetOutputARM, 3),
    (Op::GraphEndARM, 0),
    (Op::ConstantCompositeReplicateEXT, 3),
    (Op::SpecConstantCompositeReplicateEXT, 3),
    (Op::Undef, 2),
    (Op::Function, 4),
    (Op::FunctionEnd, 0),
];

fn typed_inst() -> impl Strategy<Value = (u16, Vec<u32>)> {
    (prop::sample::select(TYPED), prop::collection::vec(word(), 8))
        .prop_map(|((op, n), ops)| (op as u16, ops[..n].to_vec()))
}

/// Any opcode with any operand count: mostly operand-count errors.
fn any_inst() -> impl Strategy<Value = (u16, Vec<u32>)> {
    (any::<u16>(), prop::collection::vec(word(), 0..8))
}

/// A literal string's words (possibly non-canonical: bad padding, no nul).
fn string_words() -> impl Strategy<Value = Vec<u32>> {
    prop_oneof![
        4 => "[a-zA-Z0-9_.]{0,13}".prop_map(|s| {
            let mut w = Vec::new();
            spvgraph_ir::binary::encode_string(&mut w, &s);
            w
        }),
        2 => prop::sample::select(vec![TOSA_SET_NAME.to_string(), format!("{GRAPH_DEBUG_SET_PREFIX}1")]).prop_map(|s| {
            let mut w = Vec::new();
            spvgraph_ir::binary::encode_string(&mut w, &s);
            w
        }),
        1 => prop::collection::vec(any::<u32>(), 0..4),
    ]
}

/// One framed instruction: the word count always matches, so decoding gets
/// past the framing and into the typed operand checks.
fn framed_inst() -> impl Strategy<Value = Vec<u32>> {
    let with_string = (
        prop::sample::select(vec![Op::ExtInstImport, Op::Extension, Op::String, Op::Name, Op::GraphEntryPointARM]),
        word(),
        string_words(),
        prop::collection::vec(word(), 0..3),
    )
        .prop_map(|(op, first, s, tail)| {
            let mut ops = if op == Op::Extension { Vec::new() } else { vec![first] };
            ops.extend(s);
            if op == Op::GraphEntryPointARM {
                ops.extend(tail);
            }
            (op as u16, ops)
        });
    // OpExtInst with set ids 1..4 so they often hit the imports above.
    let ext =
        (word(), word(), 1u32..4, 0u32..70, prop::collection::vec(word(), 0..6)).prop_map(|(t, r, s, n, rest)| {
            let mut ops = vec![t, r, s, n];
            ops.extend(rest);
            (Op::ExtInst as u16, ops)
        });
    prop_oneof![6 => typed_inst(), 1 => any_inst(), 2 => with_string, 3 => ext].prop_map(|(op, ops)| {
        let mut w = vec![(((ops.len() + 1) as u32) << 16) | u32::from(op)];
        w.extend(ops);
        w
    })
}

fn header() -> impl Strategy<Value = Vec<u32>> {
    (
        prop::sample::select(vec![0x0001_0000u32, 0x0001_0500, 0x0001_0600]),
        any::<u32>(),
        0u32..200,
        prop_oneof![Just(0u32), any::<u32>()],
    )
        .prop_map(|(v, g, b, s)| vec![MAGIC, v, g, b, s])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 768, max_shrink_iters: 2000, ..ProptestConfig::default() })]

    /// Arbitrary bytes: almost all fail on length or magic; none panic.
    #[test]
    fn arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..4096)) {
        check_bytes(&bytes);
    }

    /// Arbitrary bytes behind a valid little- or big-endian magic number.
    #[test]
    fn arbitrary_bytes_after_magic(big in any::<bool>(), rest in prop::collection::vec(any::<u8>(), 0..4096)) {
        let magic = if big { MAGIC.to_be_bytes() } else { MAGIC.to_le_bytes() };
        let mut bytes = magic.to_vec();
        bytes.extend(rest);
        check_bytes(&bytes);
    }

    /// Unstructured words behind a valid header: framing errors everywhere.
    #[test]
    fn arbitrary_words_after_header(h in header(), body in prop::collection::vec(word(), 0..1024)) {
        let mut words = h;
        words.extend(body);
        check_words(&words);
    }

    /// Framed instruction streams (imports first, so ExtInsts get typed):
    /// these decode often, exercising the typed operand checks and re-encoding.
    #[test]
    fn framed_instruction_streams(
        h in header(),
        imports in prop::collection::vec((1u32..4, prop::sample::select(vec![TOSA_SET_NAME, "NonSemantic.Graph.DebugInfo.1", "GLSL.std.450"])), 0..3),
        insts in prop::collection::vec(framed_inst(), 0..40),
    ) {
        let mut words = h;
        for (id, name) in imports {
            let mut ops = vec![id];
            spvgraph_ir::binary::encode_string(&mut ops, name);
            words.push((((ops.len() + 1) as u32) << 16) | Op::ExtInstImport as u32);
            words.extend(ops);
        }
        for i in insts {
            words.extend(i);
        }
        check_words(&words);
    }
}

/// What a single-word mutation does.
#[derive(Clone, Debug)]
enum Mutation {
    /// Replace the word at `index % len` with `value`.
    Replace { index: usize, value: u32 },
    /// Give instruction `inst % n` the word count `count` (opcode kept).
    WordCount { inst: usize, count: u16 },
    /// Give instruction `inst % n` the opcode `opcode` (word count kept).
    Opcode { inst: usize, opcode: u16 },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        3 => (any::<usize>(), word()).prop_map(|(index, value)| Mutation::Replace { index, value }),
        2 => (any::<usize>(), prop_oneof![0u16..12, any::<u16>()]).prop_map(|(inst, count)| Mutation::WordCount { inst, count }),
        1 => (any::<usize>(), prop_oneof![prop::sample::select(TYPED).prop_map(|(op, _)| op as u16), any::<u16>()]).prop_map(|(inst, opcode)| Mutation::Opcode { inst, opcode }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1536, max_shrink_iters: 2000, ..ProptestConfig::default() })]

    /// One word of a valid module changed: decoding still never panics, and
    /// what decodes re-encodes exactly.
    #[test]
    fn single_word_mutations(which in any::<usize>(), m in mutation()) {
        let modules = valid_modules();
        let (_, words, endian) = &modules[which % modules.len()];
        let mut words = words.clone();
        let offsets = Module::decode_words(&words).expect("valid").word_offsets();
        match m {
            Mutation::Replace { index, value } => {
                let i = index % words.len();
                words[i] = value;
            }
            Mutation::WordCount { inst, count } => {
                let at = offsets[inst % offsets.len()];
                words[at] = (u32::from(count) << 16) | (words[at] & 0xffff);
            }
            Mutation::Opcode { inst, opcode } => {
                let at = offsets[inst % offsets.len()];
                words[at] = (words[at] & 0xffff_0000) | u32::from(opcode);
            }
        }
        check_words(&words);
        check_bytes(&words_to_bytes(&words, *endian));
    }
}
