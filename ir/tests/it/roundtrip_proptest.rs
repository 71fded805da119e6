//! Round trips of varied, hand-built graph modules.
//!
//! A proptest strategy draws a *plan* (element types, shapes of rank 1–6,
//! inputs/outputs, tensor-array interfaces, TOSA operators from
//! `TosaOp::ALL` with operands drawn from values in scope, every form of
//! tensor constant, names, strings, graph debug info, several graphs and
//! entry points) and the builder turns it into a module. The modules are not
//! meant to be TOSA-valid: operand ids are arbitrary values in scope, so the
//! codec sees operand lists and types no converter would write.
//!
//! For each module: encode → decode gives an equal module, decode → encode
//! gives identical words (in both byte orders), and every instruction keeps
//! its typed variant (nothing the builder made comes back as `Inst::Raw` or
//! as an untyped `Inst::ExtInst`).

use proptest::prelude::*;
use spvgraph_ir::builder::ModuleBuilder;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::{Endian, GraphDebugInst, Id, Inst, Module};
use std::mem::discriminant;

/// How a tensor type is declared.
#[derive(Clone, Debug)]
enum Shape {
    /// Rank and shape (rank 1–6).
    Shaped(Vec<u32>),
    /// Rank only.
    Ranked(u32),
    /// Neither.
    Unranked,
}

#[derive(Clone, Debug)]
struct TensorPlan {
    elem: ElemType,
    shape: Shape,
}

/// One graph input or output: a tensor, or an array of tensors addressed by
/// ElementIndex.
#[derive(Clone, Debug)]
struct IoPlan {
    tensor: TensorPlan,
    array_len: Option<u32>,
}

/// A tensor constant, in each form the builder writes.
#[derive(Clone, Debug)]
enum ConstPlan {
    /// Nested `OpConstantComposite`s (rank 1–3, small dims).
    Composite { elem: ElemType, shape: Vec<u32>, seed: u64 },
    /// `OpConstantNull` of a tensor type.
    Null(TensorPlan),
    /// `OpConstantCompositeReplicateEXT` of a scalar.
    Replicate { elem: ElemType, shape: Vec<u32>, bits: u64 },
    /// `OpGraphConstantARM`.
    Graph { tensor: TensorPlan, id: u32 },
    /// A rank-1 i32 attribute vector.
    I32Vector(Vec<i32>),
    /// A scalar constant (including bool true/false).
    Scalar { elem: ElemType, bits: u64 },
}

/// One instruction of a graph body.
#[derive(Clone, Debug)]
enum OpPlan {
    /// A TOSA operator with arbitrary operands picked from the values in scope.
    Tosa { op: TosaOp, result: TensorPlan, args: Vec<usize> },
    /// `OpCompositeExtract` of a value in scope.
    Extract { result: TensorPlan, from: usize, index: u32 },
}

#[derive(Clone, Debug)]
struct GraphPlan {
    inputs: Vec<IoPlan>,
    outputs: Vec<IoPlan>,
    ops: Vec<OpPlan>,
    /// Value picks for each output (and each array element of it).
    output_picks: Vec<usize>,
    entry_names: Vec<String>,
    /// Emit NonSemantic.Graph.DebugInfo for this graph: inside the body
    /// (`true`) or after all graphs like model-converter (`false`).
    debug: Option<bool>,
}

#[derive(Clone, Debug)]
struct Plan {
    version: u32,
    big_endian: bool,
    consts: Vec<ConstPlan>,
    graphs: Vec<GraphPlan>,
    /// (id pick, name) pairs for OpName.
    names: Vec<(usize, String)>,
    strings: Vec<String>,
}

fn elem() -> impl Strategy<Value = ElemType> {
    prop::sample::select(ElemType::ALL.to_vec())
}

/// Names and strings: printable Unicode (no NUL, which a literal string cannot
/// hold), any length mod 4 so every padding case is covered.
fn text() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9_ .:/é€😀-]{0,17}"
}

fn tensor_plan() -> impl Strategy<Value = TensorPlan> {
    let shape = prop_oneof![
        6 => prop::collection::vec(1u32..=16, 1..=6).prop_map(Shape::Shaped),
        1 => (1u32..=6).prop_map(Shape::Ranked),
        1 => Just(Shape::Unranked),
    ];
    (elem(), shape).prop_map(|(elem, shape)| TensorPlan { elem, shape })
}

fn io_plan() -> impl Strategy<Value = IoPlan> {
    (tensor_plan(), prop_oneof![3 => Just(None), 1 => (1u32..=3).prop_map(Some)])
        .prop_map(|(tensor, array_len)| IoPlan { tensor, array_len })
}

fn small_shape() -> impl Strategy<Value = Vec<u32>> {
    prop::collection::vec(1u32..=3, 1..=3)
}

fn const_plan() -> impl Strategy<Value = ConstPlan> {
    prop_oneof![
        (elem(), small_shape(), any::<u64>()).prop_map(|(elem, shape, seed)| ConstPlan::Composite {
            elem,
            shape,
            seed
        }),
        tensor_plan().prop_map(ConstPlan::Null),
        (elem(), prop::collection::vec(1u32..=64, 1..=6), any::<u64>())
            .prop_map(|(elem, shape, bits)| ConstPlan::Replicate { elem, shape, bits }),
        (tensor_plan(), any::<u32>()).prop_map(|(tensor, id)| ConstPlan::Graph { tensor, id }),
        prop::collection::vec(any::<i32>(), 0..=6).prop_map(ConstPlan::I32Vector),
        (elem(), any::<u64>()).prop_map(|(elem, bits)| ConstPlan::Scalar { elem, bits }),
    ]
}

fn op_plan() -> impl Strategy<Value = OpPlan> {
    prop_oneof![
        6 => (prop::sample::select(TosaOp::ALL.to_vec()), tensor_plan(), prop::collection::vec(any::<usize>(), 0..=8))
            .prop_map(|(op, result, args)| OpPlan::Tosa { op, result, args }),
        1 => (tensor_plan(), any::<usize>(), 0u32..4).prop_map(|(result, from, index)| OpPlan::Extract { result, from, index }),
    ]
}

fn graph_plan() -> impl Strategy<Value = GraphPlan> {
    (
        prop::collection::vec(io_plan(), 1..=3),
        prop::collection::vec(io_plan(), 1..=3),
        prop::collection::vec(op_plan(), 0..=12),
        prop::collection::vec(any::<usize>(), 12),
        prop::collection::vec(text(), 1..=2),
        prop_oneof![Just(None), any::<bool>().prop_map(Some)],
    )
        .prop_map(|(inputs, outputs, ops, output_picks, entry_names, debug)| GraphPlan {
            inputs,
            outputs,
            ops,
            output_picks,
            entry_names,
            debug,
        })
}

fn plan() -> impl Strategy<Value = Plan> {
    (
        prop::sample::select(vec![0x0001_0500u32, 0x0001_0600]),
        any::<bool>(),
        prop::collection::vec(const_plan(), 0..=6),
        prop::collection::vec(graph_plan(), 1..=3),
        prop::collection::vec((any::<usize>(), text()), 0..=6),
        prop::collection::vec(text(), 0..=3),
    )
        .prop_map(|(version, big_endian, consts, graphs, names, strings)| Plan {
            version,
            big_endian,
            consts,
            graphs,
            names,
            strings,
        })
}

fn declare_tensor(b: &mut ModuleBuilder, t: &TensorPlan) -> Id {
    match &t.shape {
        Shape::Shaped(dims) => b.type_tensor(t.elem, Some(dims)),
        Shape::Ranked(r) => b.type_tensor_ranked(t.elem, *r),
        Shape::Unranked => b.type_tensor(t.elem, None),
    }
}

fn declare_io(b: &mut ModuleBuilder, io: &IoPlan) -> (Id, Id) {
    let t = declare_tensor(b, &io.tensor);
    let ty = match io.array_len {
        Some(n) => b.type_array(t, n),
        None => t,
    };
    (t, ty)
}

/// Bits for a tensor constant of `elem`: bool takes 0/1, the rest any pattern.
fn const_bits(elem: ElemType, count: usize, seed: u64) -> Vec<u64> {
    let mut x = seed | 1;
    (0..count)
        .map(|_| {
            // xorshift: cheap varied values without another strategy per element.
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if elem == ElemType::Bool {
                x & 1
            } else {
                x
            }
        })
        .collect()
}

fn declare_const(b: &mut ModuleBuilder, c: &ConstPlan) -> Id {
    match c {
        ConstPlan::Composite { elem, shape, seed } => {
            let count = shape.iter().product::<u32>() as usize;
            b.const_tensor(*elem, shape, &const_bits(*elem, count, *seed)).expect("bits match the shape")
        }
        ConstPlan::Null(t) => {
            let ty = declare_tensor(b, t);
            b.const_null(ty)
        }
        ConstPlan::Replicate { elem, shape, bits } => {
            let ty = b.type_tensor(*elem, Some(shape));
            let scalar = b.const_scalar(*elem, *bits);
            b.const_replicate(ty, scalar)
        }
        ConstPlan::Graph { tensor, id } => {
            let ty = declare_tensor(b, tensor);
            b.graph_constant(ty, *id)
        }
        ConstPlan::I32Vector(v) => b.const_i32_vector(v),
        ConstPlan::Scalar { elem, bits } => b.const_scalar(*elem, *bits),
    }
}

fn pick(scope: &[Id], i: usize) -> Id {
    scope[i % scope.len()]
}

/// Builds the module a plan describes.
fn build(p: &Plan) -> Module {
    let mut b = ModuleBuilder::new();
    b.set_version(p.version);
    // OpStrings first: the builder keeps its debug section in call order and
    // SPIR-V puts every OpString before the first OpName.
    let mut strings: Vec<Id> = p.strings.iter().map(|s| b.string(s)).collect();
    let debug_needed = p.graphs.iter().any(|g| g.debug.is_some());
    if debug_needed {
        strings.push(b.string("debug"));
    }
    let consts: Vec<Id> = p.consts.iter().map(|c| declare_const(&mut b, c)).collect();
    let mut all_ids: Vec<Id> = consts.clone();
    let mut after = Vec::new();

    for (gi, g) in p.graphs.iter().enumerate() {
        let ins: Vec<(Id, Id)> = g.inputs.iter().map(|io| declare_io(&mut b, io)).collect();
        let outs: Vec<(Id, Id)> = g.outputs.iter().map(|io| declare_io(&mut b, io)).collect();
        let in_tys: Vec<Id> = ins.iter().map(|&(_, ty)| ty).collect();
        let out_tys: Vec<Id> = outs.iter().map(|&(_, ty)| ty).collect();
        let gty = b.type_graph(&in_tys, &out_tys);
        let vars: Vec<Id> = in_tys
            .iter()
            .chain(&out_tys)
            .enumerate()
            .map(|(i, &ty)| b.interface_variable(ty, gi as u32, i as u32))
            .collect();
        let result_tys: Vec<Id> = g
            .ops
            .iter()
            .map(|op| match op {
                OpPlan::Tosa { result, .. } | OpPlan::Extract { result, .. } => declare_tensor(&mut b, result),
            })
            .collect();
        let (set, void) = match g.debug {
            Some(_) => (Some(b.graph_debug_set()), Some(b.type_void())),
            None => (None, None),
        };

        let graph = b.begin_graph(gty);
        for name in &g.entry_names {
            b.graph_entry_point(graph, name, vars.clone());
        }
        all_ids.push(graph);
        // Values in scope: the module's constants, then this graph's inputs and results.
        let mut scope = consts.clone();
        for (i, (&(t, _), io)) in ins.iter().zip(&g.inputs).enumerate() {
            match io.array_len {
                Some(n) => {
                    for e in 0..n {
                        scope.push(b.graph_input(t, i as u32, Some(e)));
                    }
                }
                None => scope.push(b.graph_input(t, i as u32, None)),
            }
        }
        let mut op_results = Vec::new();
        for (op, &ty) in g.ops.iter().zip(&result_tys) {
            let r = match op {
                OpPlan::Tosa { op, args, .. } => {
                    let args = args.iter().map(|&a| pick(&scope, a)).collect();
                    b.tosa(*op, ty, args)
                }
                OpPlan::Extract { from, index, .. } => b.composite_extract(ty, pick(&scope, *from), *index),
            };
            scope.push(r);
            op_results.push(r);
        }
        let mut picks = g.output_picks.iter().cycle();
        for (i, io) in g.outputs.iter().enumerate() {
            let elements: Vec<Option<u32>> = match io.array_len {
                Some(n) => (0..n).map(Some).collect(),
                None => vec![None],
            };
            for e in elements {
                let v = pick(&scope, picks.next().copied().unwrap_or(0));
                b.graph_output(v, i as u32, e);
            }
        }
        if let (Some(in_body), Some(set), Some(void)) = (g.debug, set, void) {
            let name = pick(&strings, gi);
            let dg = b.id();
            let mut debug =
                vec![Inst::GraphDebug { ty: void, result: dg, set, inst: GraphDebugInst::Graph { graph, name } }];
            if !op_results.is_empty() {
                let result = b.id();
                debug.push(Inst::GraphDebug {
                    ty: void,
                    result,
                    set,
                    inst: GraphDebugInst::Operation { debug_graph: dg, name, instructions: op_results.clone() },
                });
            }
            for (k, &v) in scope.iter().rev().take(2).enumerate() {
                let index = if k == 0 { None } else { Some(b.const_u32(k as u32)) };
                let result = b.id();
                debug.push(Inst::GraphDebug {
                    ty: void,
                    result,
                    set,
                    inst: GraphDebugInst::Tensor { tensor: v, name, index },
                });
            }
            if in_body {
                for d in debug {
                    b.graph_inst(d);
                }
            } else {
                after.extend(debug);
            }
        }
        b.end_graph();
        all_ids.extend(scope);
    }
    for d in after {
        b.after_graphs(d);
    }
    for (i, name) in &p.names {
        let target = pick(&all_ids, *i);
        b.name(target, name);
    }
    let mut m = b.finish();
    if p.big_endian {
        m.endian = Endian::Big;
    }
    m
}

/// Every instruction kept its typed variant, and typed extended instructions
/// stayed typed (a TOSA op did not become a generic `ExtInst`).
fn assert_same_variants(built: &Module, decoded: &Module) {
    assert_eq!(built.insts.len(), decoded.insts.len());
    for (i, (a, d)) in built.insts.iter().zip(&decoded.insts).enumerate() {
        assert!(!matches!(d, Inst::Raw { .. }), "instruction {i} decoded as Raw: {d:?} (built {a:?})");
        assert!(!matches!(d, Inst::ExtInst { .. }), "instruction {i} decoded as untyped ExtInst: {d:?}");
        assert_eq!(discriminant(a), discriminant(d), "instruction {i} changed variant: {a:?} → {d:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, max_shrink_iters: 4000, ..ProptestConfig::default() })]

    #[test]
    fn built_modules_round_trip(p in plan()) {
        let m = build(&p);

        // encode → decode: the same module (including byte order).
        let bytes = m.encode_bytes().expect("builder modules fit the word-count limit");
        let decoded = Module::decode_bytes(&bytes).expect("builder modules decode");
        prop_assert_eq!(&decoded, &m);
        assert_same_variants(&m, &decoded);

        // decode → encode: the same words and bytes.
        let words = m.encode_words().expect("encode words");
        let from_words = Module::decode_words(&words).expect("decode words");
        prop_assert_eq!(from_words.encode_words().expect("re-encode"), words.clone());
        prop_assert_eq!(decoded.encode_bytes().expect("re-encode bytes"), bytes);

        // The other byte order carries the same instructions.
        let mut flipped = decoded.clone();
        flipped.endian = if m.endian == Endian::Big { Endian::Little } else { Endian::Big };
        let flipped_bytes = flipped.encode_bytes().expect("encode flipped");
        let back = Module::decode_bytes(&flipped_bytes).expect("decode flipped");
        prop_assert_eq!(&back, &flipped);

        // Offsets agree with the encoding.
        let offsets = m.word_offsets();
        prop_assert_eq!(offsets.len(), m.insts.len());
        for (i, &o) in offsets.iter().enumerate() {
            prop_assert_eq!(words[o] & 0xffff, u32::from(m.insts[i].opcode()));
        }

        // Plan coverage actually reaches the module.
        let tosa = m.insts.iter().filter(|i| matches!(i, Inst::Tosa { .. })).count();
        let planned: usize = p.graphs.iter().flat_map(|g| &g.ops).filter(|o| matches!(o, OpPlan::Tosa { .. })).count();
        prop_assert_eq!(tosa, planned);
        let entries = m.insts.iter().filter(|i| matches!(i, Inst::GraphEntryPoint { .. })).count();
        prop_assert_eq!(entries, p.graphs.iter().map(|g| g.entry_names.len()).sum::<usize>());
    }
}

/// Every TOSA operator and every element type round-trips (a deterministic
/// sweep, so coverage does not depend on the random draws above).
#[test]
fn every_operator_and_element_type_round_trips() {
    let mut b = ModuleBuilder::new();
    let tys: Vec<Id> = ElemType::ALL.iter().map(|&e| b.type_tensor(e, Some(&[1, 2, 3, 4, 5, 6]))).collect();
    let gty = b.type_graph(&tys, &tys[..1]);
    let vars: Vec<Id> = (0..=tys.len()).map(|i| b.interface_variable(tys[i % tys.len()], 0, i as u32)).collect();
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "all", vars);
    let inputs: Vec<Id> = tys.iter().enumerate().map(|(i, &t)| b.graph_input(t, i as u32, None)).collect();
    let mut last = inputs[0];
    for (k, op) in TosaOp::ALL.into_iter().enumerate() {
        let args: Vec<Id> = (0..k % 7).map(|j| inputs[(k + j) % inputs.len()]).chain([last]).collect();
        last = b.tosa(op, tys[k % tys.len()], args);
    }
    b.graph_output(last, 0, None);
    b.end_graph();
    let m = b.finish();
    let words = m.encode_words().expect("encode");
    let d = Module::decode_words(&words).expect("decode");
    assert_eq!(d, m);
    assert_same_variants(&m, &d);
    let ops: Vec<TosaOp> =
        d.insts.iter().filter_map(|i| if let Inst::Tosa { op, .. } = i { Some(*op) } else { None }).collect();
    assert_eq!(ops, TosaOp::ALL.to_vec());
}
