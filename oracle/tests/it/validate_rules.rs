//! One near-valid module per rule of the catalogue: a valid base module and
//! the same module with one thing broken. Each broken module must be
//! reported with exactly its rule, the base must be clean, and spirv-val's
//! verdict on the broken module must agree with the catalogue's
//! `spirv_val_checks` flag (which is how those flags were determined).

use crate::validate_common as common;
use spvgraph_oracle::oracle::Validator as _;

use common::*;
use spvgraph_ir::builder::ModuleBuilder;
use spvgraph_ir::elem::{ElemType, Profile};
use spvgraph_ir::inst::{GraphDebugInst, Id, Inst};
use spvgraph_ir::rules::{RuleId, Severity};
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::Module;
use spvgraph_oracle::external::spirv_val::SpirvVal;
use spvgraph_oracle::oracle::{Oracle, ValidateOptions, Verdict};
use spvgraph_oracle::tools::Tool;
use spvgraph_oracle::validate::Validator;
use ElemType::{Fp16, Fp32, I16, I32, I8};

/// One rule's near-valid module.
struct Case {
    rule: RuleId,
    env: &'static str,
    profiles: Option<Vec<Profile>>,
    /// The module's words: `make(false)` is the valid base, `make(true)` the broken one.
    make: Box<dyn Fn(bool) -> Vec<u32>>,
}

fn case(rule: RuleId, make: impl Fn(bool) -> Module + 'static) -> Case {
    Case { rule, env: "vulkan1.3", profiles: None, make: Box::new(move |bad| words(&make(bad))) }
}

fn case_env(rule: RuleId, env: &'static str, make: impl Fn(bool) -> Module + 'static) -> Case {
    Case { rule, env, profiles: None, make: Box::new(move |bad| words(&make(bad))) }
}

fn case_words(rule: RuleId, make: impl Fn(bool) -> Vec<u32> + 'static) -> Case {
    Case { rule, env: "vulkan1.3", profiles: None, make: Box::new(make) }
}

fn case_profiles(rule: RuleId, profiles: Vec<Profile>, make: impl Fn(bool) -> Module + 'static) -> Case {
    Case { rule, env: "vulkan1.3", profiles: Some(profiles), make: Box::new(move |bad| words(&make(bad))) }
}

impl Case {
    fn options(&self) -> ValidateOptions {
        let target_env = spvgraph_ir::env::TargetEnv::parse(self.env).expect("known env");
        let mut o = ValidateOptions { target_env, ..Default::default() };
        if let Some(p) = &self.profiles {
            o.profiles = p.clone();
        }
        o
    }
}

// ---- base modules -------------------------------------------------------------

/// NEGATE of an i8 [1,4,4,2] input with zero points from one null tensor.
fn negate() -> Module {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(I8, Some(&[1, 4, 4, 2]));
    graph(&mut b, &[t], &[t], |b, xs| {
        let zp = zero(b, I8);
        vec![b.tosa(TosaOp::Negate, t, vec![xs[0], zp, zp])]
    });
    b.finish()
}

/// ABS(ABS(x)) on fp32 [2,4].
fn abs2() -> Module {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(Fp32, Some(&[2, 4]));
    graph(&mut b, &[t], &[t], |b, xs| {
        let y = b.tosa(TosaOp::Abs, t, vec![xs[0]]);
        vec![b.tosa(TosaOp::Abs, t, vec![y])]
    });
    b.finish()
}

/// Like `abs2` but with an extra instruction appended to the globals, built
/// by `extra` (declared before the graph so it lands in the globals section).
fn with_global(extra: impl FnOnce(&mut ModuleBuilder)) -> Module {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(Fp32, Some(&[2, 4]));
    extra(&mut b);
    graph(&mut b, &[t], &[t], |b, xs| vec![b.tosa(TosaOp::Abs, t, vec![xs[0]])]);
    b.finish()
}

/// Declares the constant shape array `[4, 2]` (no tensor type uses it).
fn shape_4x2(b: &mut ModuleBuilder) {
    let u = b.type_u32();
    let arr = b.type_array(u, 2);
    let (four, two) = (b.const_u32(4), b.const_u32(2));
    b.const_composite(arr, vec![four, two]);
}

/// The id of the last OpConstantComposite among the globals.
fn last_composite(m: &Module) -> Id {
    m.insts
        .iter()
        .rev()
        .find(|i| matches!(i, Inst::ConstantComposite { .. }))
        .and_then(Inst::result_id)
        .expect("composite")
}

/// Inserts `inst` right after the last global declaration (before the first
/// graph entry point).
fn push_global(m: &mut Module, inst: Inst) {
    let at = find(m, |i| matches!(i, Inst::GraphEntryPoint { .. }));
    m.insts.insert(at, inst);
}

/// The id of the first instruction matching `pred`.
fn id_of(m: &Module, pred: impl Fn(&Inst) -> bool) -> Id {
    m.insts.iter().find(|i| pred(i)).and_then(Inst::result_id).expect("defined")
}

fn u32_type(m: &Module) -> Id {
    id_of(m, |i| matches!(i, Inst::TypeInt { width: 32, .. }))
}

fn u32_const(m: &Module, v: u32) -> Id {
    let ty = u32_type(m);
    id_of(m, |i| matches!(i, Inst::Constant { ty: t, value, .. } if *t == ty && value == &vec![v]))
}

fn tensor_type(m: &Module) -> Id {
    id_of(m, |i| matches!(i, Inst::TypeTensor { .. }))
}

/// ABS(ABS(x)), and (`bad`) an OpCompositeExtract of its shape constant
/// after OpGraphEndARM, outside any graph body.
fn extract_after_graph(bad: bool) -> Module {
    let mut m = abs2();
    if bad {
        let shape = id_of(&m, |i| matches!(i, Inst::ConstantComposite { .. }));
        let u = u32_type(&m);
        let result = fresh(&mut m);
        m.insts.push(Inst::CompositeExtract { ty: u, result, composite: shape, indices: vec![0] });
    }
    m
}

/// A module with one debug instruction `d` (given the graph id, the name
/// string, a TOSA result id and the void type) inside the graph body, after
/// the first TOSA instruction.
fn with_debug(version: &str, make: impl FnOnce(&mut Module, Id, Id, Id, Id) -> Inst) -> Module {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(Fp32, Some(&[2, 4]));
    b.extension("SPV_KHR_non_semantic_info");
    let set = b.import(&format!("NonSemantic.Graph.DebugInfo.{version}"));
    let void = b.type_void();
    let name = b.string("n");
    graph(&mut b, &[t], &[t], |b, xs| {
        let y = b.tosa(TosaOp::Abs, t, vec![xs[0]]);
        vec![b.tosa(TosaOp::Abs, t, vec![y])]
    });
    let mut m = b.finish();
    let g = id_of(&m, |i| matches!(i, Inst::Graph { .. }));
    let y = id_of(&m, |i| matches!(i, Inst::Tosa { .. }));
    let d = make(&mut m, g, name, y, void);
    let at = find(&m, |i| matches!(i, Inst::Tosa { .. }));
    m.insts.insert(at + 1, d);
    // The closures build debug instructions with a placeholder set id 0.
    for inst in &mut m.insts {
        match inst {
            Inst::GraphDebug { set: s, .. } | Inst::ExtInst { set: s, .. } if *s == Id(0) => *s = set,
            _ => {}
        }
    }
    m
}

fn debug(ty: Id, result: Id, inst: GraphDebugInst) -> Inst {
    Inst::GraphDebug { ty, result, set: Id(0), inst }
}

// ---- TOSA helpers ---------------------------------------------------------------

fn i32v(b: &mut ModuleBuilder, v: &[i32]) -> Id {
    b.const_i32_vector(v)
}

fn max_pool(input: &[u32], kernel: &[i32], stride: &[i32], pad: &[i32], out: &[u32]) -> Module {
    one_op(&[(Fp32, input)], (Fp32, out), TosaOp::MaxPool2d, |b, xs| {
        let (k, s, p) = (i32v(b, kernel), i32v(b, stride), i32v(b, pad));
        let nan = b.const_u32(1);
        vec![k, s, p, nan, xs[0]]
    })
}

fn avg_pool_i8(kernel: &[i32], acc: u32) -> Module {
    one_op(&[(I8, &[1, 4, 4, 2])], (I8, &[1, 3, 3, 2]), TosaOp::AvgPool2d, |b, xs| {
        let (k, s, p) = (i32v(b, kernel), i32v(b, &[1, 1]), i32v(b, &[0, 0, 0, 0]));
        let acc = b.const_u32(acc);
        let zp = zero(b, I8);
        vec![k, s, p, acc, xs[0], zp, zp]
    })
}

fn conv2d(elem: ElemType, stride: &[i32]) -> Module {
    // [1,4,4,2] * [3,2,2,2] -> [1,3,3,3]
    one_op(&[(elem, &[1, 4, 4, 2])], (elem, &[1, 3, 3, 3]), TosaOp::Conv2d, |b, xs| {
        let (pad, st, dil) = (i32v(b, &[0, 0, 0, 0]), i32v(b, stride), i32v(b, &[1, 1]));
        let acc = b.const_u32(3);
        let lb = b.const_bool(false);
        let wt = b.type_tensor(elem, Some(&[3, 2, 2, 2]));
        let w = b.const_null(wt);
        let bt = b.type_tensor(elem, Some(&[3]));
        let bias = b.const_null(bt);
        let zp = zero(b, elem);
        vec![pad, st, dil, acc, lb, xs[0], w, bias, zp, zp]
    })
}

/// RESCALE parameters for [`rescale`].
struct Rs {
    in_t: ElemType,
    out_t: ElemType,
    scale32: bool,
    rounding: u32,
    unsigned: (bool, bool),
    zps: (u64, u64),
    mul: i64,
    shift: i64,
}

/// An i8 -> i8 RESCALE by 1.0 with scale32.
const RS: Rs = Rs {
    in_t: I8,
    out_t: I8,
    scale32: true,
    rounding: 1,
    unsigned: (false, false),
    zps: (0, 0),
    mul: 1 << 30,
    shift: 30,
};

fn rescale(p: Rs) -> Module {
    one_op(&[(p.in_t, &[1, 2, 2, 2])], (p.out_t, &[1, 2, 2, 2]), TosaOp::Rescale, |b, xs| {
        let s32 = b.const_bool(p.scale32);
        let rm = b.const_u32(p.rounding);
        let pc = b.const_bool(false);
        let iu = b.const_bool(p.unsigned.0);
        let ou = b.const_bool(p.unsigned.1);
        let mul_t = if p.scale32 { I32 } else { I16 };
        let m = scalar_tensor(b, mul_t, p.mul as u64);
        let sh = scalar_tensor(b, I8, p.shift as u64);
        let izp = scalar_tensor(b, p.in_t, p.zps.0);
        let ozp = scalar_tensor(b, p.out_t, p.zps.1);
        vec![s32, rm, pc, iu, ou, xs[0], m, sh, izp, ozp]
    })
}

fn binary(op: TosaOp, a: (ElemType, &[u32]), bb: (ElemType, &[u32]), out: (ElemType, &[u32])) -> Module {
    one_op(&[a, bb], out, op, |_, xs| vec![xs[0], xs[1]])
}

fn resize(scale: &[i32], input: &[u32], out: &[u32]) -> Module {
    one_op(&[(Fp32, input)], (Fp32, out), TosaOp::Resize, |b, xs| {
        let mode = b.const_u32(1);
        let (s, o, bo) = (i32v(b, scale), i32v(b, &[0, 0]), i32v(b, &[0, 0]));
        vec![mode, xs[0], s, o, bo]
    })
}

fn rfft(w: u32) -> Module {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(Fp32, Some(&[1, 4, w]));
    let o = b.type_tensor(Fp32, Some(&[1, 4, w / 2 + 1]));
    let st = b.type_struct(vec![o, o]);
    b.capability(spirv::Capability::Shader);
    graph(&mut b, &[t], &[o, o], |b, xs| {
        let lb = b.const_bool(false);
        let r = b.tosa(TosaOp::Rfft2d, st, vec![lb, xs[0]]);
        let re = b.composite_extract(o, r, 0);
        let im = b.composite_extract(o, r, 1);
        vec![re, im]
    });
    b.finish()
}

// ---- the cases -----------------------------------------------------------------------

fn cases() -> Vec<Case> {
    use RuleId as R;
    let mut v = vec![
        // binary
        case_words(R::BinaryHeader, |bad| {
            let mut w = words(&negate());
            if bad {
                w[0] = 0xdead_beef;
            }
            w
        }),
        case_words(R::BinaryFraming, |bad| {
            let mut w = words(&negate());
            if bad {
                w.push((7 << 16) | 1);
            }
            w
        }),
        case_words(R::BinaryOperands, |bad| {
            let mut w = words(&negate());
            if bad {
                // The first instruction is an OpCapability: give it a second operand.
                w[5] = (3 << 16) | 17;
                w.insert(7, 1);
            }
            w
        }),
        case_words(R::BinaryVersion, |bad| {
            let mut w = words(&negate());
            if bad {
                w[1] = 0x0001_0700;
            }
            w
        }),
        case_env(R::BinaryVersionForEnv, "vulkan1.2", |bad| {
            let mut m = negate();
            m.header.version = if bad { 0x0001_0600 } else { 0x0001_0500 };
            m
        }),
        case(R::BinaryIdBound, |bad| {
            let mut m = negate();
            if bad {
                m.header.bound -= 1;
            }
            m
        }),
        // layout
        case(R::LayoutSectionOrder, |bad| {
            let mut m = negate();
            if bad {
                let at = find(&m, |i| matches!(i, Inst::Decorate { .. }));
                let d = m.insts.remove(at);
                push_global(&mut m, d);
            }
            m
        }),
        case(R::LayoutMemoryModel, |bad| {
            let mut m = negate();
            if bad {
                let at = find(&m, |i| matches!(i, Inst::MemoryModel { .. }));
                let mm = m.insts[at].clone();
                m.insts.insert(at + 1, mm);
            }
            m
        }),
        case(R::LayoutEntryPoint, |bad| {
            let mut m = negate();
            if bad {
                m.insts.retain(|i| {
                    !matches!(
                        i,
                        Inst::TypeGraph { .. }
                            | Inst::GraphEntryPoint { .. }
                            | Inst::Graph { .. }
                            | Inst::GraphInput { .. }
                            | Inst::GraphSetOutput { .. }
                            | Inst::GraphEnd
                            | Inst::Tosa { .. }
                    ) && *i != Inst::Capability(spirv::Capability::GraphARM as u32)
                        && *i != Inst::Extension("SPV_ARM_graph".into())
                });
            }
            m
        }),
        case(R::LayoutGraphSectionOutsideGraph, extract_after_graph),
        case(R::LayoutGraphNested, |bad| {
            let mut m = abs2();
            if bad {
                let at = find(&m, |i| matches!(i, Inst::Graph { .. }));
                let Inst::Graph { ty, .. } = m.insts[at].clone() else { unreachable!() };
                let result = fresh(&mut m);
                m.insts.insert(at + 1, Inst::Graph { ty, result });
            }
            m
        }),
        case(R::LayoutGraphUnterminated, |bad| {
            let mut m = abs2();
            if bad {
                m.insts.retain(|i| !matches!(i, Inst::GraphEnd));
            }
            m
        }),
        case(R::LayoutGraphBodyInstruction, |bad| {
            let mut m = abs2();
            if bad {
                let at = find_op(&m, TosaOp::Abs);
                m.insts.insert(at, Inst::NoLine);
            }
            m
        }),
        case(R::LayoutGraphInputPosition, |bad| {
            let mut b = ModuleBuilder::new();
            let t = b.type_tensor(Fp32, Some(&[2, 4]));
            graph(&mut b, &[t, t], &[t], |b, xs| vec![b.tosa(TosaOp::Abs, t, vec![xs[0]])]);
            let mut m = b.finish();
            if bad {
                let second = m.insts.iter().rposition(|i| matches!(i, Inst::GraphInput { .. })).expect("input");
                let inp = m.insts.remove(second);
                let at = find_op(&m, TosaOp::Abs);
                m.insts.insert(at + 1, inp);
            }
            m
        }),
        case(R::LayoutGraphOutputPosition, |bad| {
            let mut b = ModuleBuilder::new();
            let t = b.type_tensor(Fp32, Some(&[2, 4]));
            graph(&mut b, &[t], &[t, t], |b, xs| vec![b.tosa(TosaOp::Abs, t, vec![xs[0]]), xs[0]]);
            let mut m = b.finish();
            if bad {
                let last = m.insts.iter().rposition(|i| matches!(i, Inst::GraphSetOutput { .. })).expect("output");
                let out = m.insts.remove(last);
                let at = find_op(&m, TosaOp::Abs);
                m.insts.insert(at, out);
            }
            m
        }),
        case(R::LayoutTosaOutsideGraph, |bad| {
            let mut m = abs2();
            if bad {
                let at = find_op(&m, TosaOp::Abs);
                let Inst::Tosa { ty, set, .. } = m.insts[at].clone() else { unreachable!() };
                let null = fresh(&mut m);
                let result = fresh(&mut m);
                push_global(&mut m, Inst::ConstantNull { ty, result: null });
                push_global(&mut m, Inst::Tosa { ty, result, set, op: TosaOp::Abs, args: vec![null] });
            }
            m
        }),
        // ids
        case(R::IdsUndefined, |bad| {
            let mut m = abs2();
            if bad {
                let missing = fresh(&mut m);
                let at = find_op(&m, TosaOp::Abs);
                if let Inst::Tosa { args, .. } = &mut m.insts[at] {
                    args[0] = missing;
                }
            }
            m
        }),
        case(R::IdsDuplicate, |bad| {
            let mut m = with_global(|b| {
                b.const_u32(77);
            });
            if bad {
                // The [2, 4] tensor type declared the constant 2 before 77.
                let two = u32_const(&m, 2);
                let at = find(&m, |i| matches!(i, Inst::Constant { value, .. } if value == &vec![77]));
                if let Inst::Constant { result, .. } = &mut m.insts[at] {
                    *result = two;
                }
            }
            m
        }),
        case(R::IdsForwardReference, |bad| {
            let mut m = abs2();
            if bad {
                let first = find_op(&m, TosaOp::Abs);
                m.insts.swap(first, first + 1);
            }
            m
        }),
        case(R::IdsGraphScope, |bad| {
            let mut b = ModuleBuilder::new();
            let t = b.type_tensor(Fp32, Some(&[2, 4]));
            graph(&mut b, &[t], &[t], |b, xs| vec![b.tosa(TosaOp::Abs, t, vec![xs[0]])]);
            let gty = b.type_graph(&[t], &[t]);
            let vars = vec![b.interface_variable(t, 1, 0), b.interface_variable(t, 1, 1)];
            let g = b.begin_graph(gty);
            b.graph_entry_point(g, "second", vars);
            let x = b.graph_input(t, 0, None);
            let y = b.tosa(TosaOp::Abs, t, vec![x]);
            b.graph_output(y, 0, None);
            b.end_graph();
            let mut m = b.finish();
            if bad {
                let first_abs = id_of(&m, |i| matches!(i, Inst::Tosa { .. }));
                let second = m.insts.iter().rposition(|i| matches!(i, Inst::Tosa { .. })).expect("abs");
                if let Inst::Tosa { args, .. } = &mut m.insts[second] {
                    args[0] = first_abs;
                }
            }
            m
        }),
        case(R::IdsNotAType, |bad| {
            let mut m = abs2();
            let u = u32_type(&m);
            let zero = u32_const(&m, 0);
            let result = fresh(&mut m);
            push_global(&mut m, Inst::ConstantNull { ty: if bad { zero } else { u }, result });
            m
        }),
        // capabilities
        case(R::CapsMissingCapability, |bad| {
            let mut m = negate();
            if bad {
                m.insts.retain(|i| *i != Inst::Capability(spirv::Capability::Int8 as u32));
            }
            m
        }),
        case(R::CapsMissingExtension, |bad| {
            let mut m = negate();
            if bad {
                m.insts.retain(|i| *i != Inst::Extension("SPV_ARM_tensors".into()));
            }
            m
        }),
        // types
        case(R::TypesTensorElement, |bad| {
            let mut m = abs2();
            let t = tensor_type(&m);
            let f32t = id_of(&m, |i| matches!(i, Inst::TypeFloat { .. }));
            let result = fresh(&mut m);
            push_global(
                &mut m,
                Inst::TypeTensor { result, element: if bad { t } else { f32t }, rank: None, shape: None },
            );
            m
        }),
        case(R::TypesTensorRankNotConstant, |bad| {
            let mut m = with_global(|b| {
                b.const_bool(true);
            });
            let f32t = id_of(&m, |i| matches!(i, Inst::TypeFloat { .. }));
            let rank = if bad { id_of(&m, |i| matches!(i, Inst::ConstantTrue { .. })) } else { u32_const(&m, 2) };
            let result = fresh(&mut m);
            push_global(&mut m, Inst::TypeTensor { result, element: f32t, rank: Some(rank), shape: None });
            m
        }),
        case_env(R::TypesTensorRankZero, "spv1.6", |bad| {
            let mut m = with_global(|b| {
                b.const_u32(0);
            });
            let f32t = id_of(&m, |i| matches!(i, Inst::TypeFloat { .. }));
            let rank = u32_const(&m, if bad { 0 } else { 2 });
            let result = fresh(&mut m);
            push_global(&mut m, Inst::TypeTensor { result, element: f32t, rank: Some(rank), shape: None });
            m
        }),
        case(R::TypesTensorShapeNotConstant, |bad| {
            let mut m = with_global(shape_4x2);
            let f32t = id_of(&m, |i| matches!(i, Inst::TypeFloat { .. }));
            let two = u32_const(&m, 2);
            let shape = if bad { two } else { last_composite(&m) };
            let result = fresh(&mut m);
            push_global(&mut m, Inst::TypeTensor { result, element: f32t, rank: Some(two), shape: Some(shape) });
            m
        }),
        case(R::TypesTensorShapeLength, |bad| {
            let mut m = with_global(|b| {
                b.const_u32(3);
                shape_4x2(b);
            });
            let f32t = id_of(&m, |i| matches!(i, Inst::TypeFloat { .. }));
            let rank = u32_const(&m, if bad { 3 } else { 2 });
            let shape = last_composite(&m);
            let result = fresh(&mut m);
            push_global(&mut m, Inst::TypeTensor { result, element: f32t, rank: Some(rank), shape: Some(shape) });
            m
        }),
        case(R::TypesTensorShapeZero, |bad| {
            let mut m = with_global(|b| {
                b.const_u32(0);
            });
            let arr = id_of(&m, |i| matches!(i, Inst::TypeArray { .. }));
            let (zero, two, four) = (u32_const(&m, 0), u32_const(&m, 2), u32_const(&m, 4));
            let f32t = id_of(&m, |i| matches!(i, Inst::TypeFloat { .. }));
            let shape = fresh(&mut m);
            let result = fresh(&mut m);
            let parts = if bad { vec![zero, four] } else { vec![four, four] };
            push_global(&mut m, Inst::ConstantComposite { ty: arr, result: shape, constituents: parts, spec: false });
            push_global(&mut m, Inst::TypeTensor { result, element: f32t, rank: Some(two), shape: Some(shape) });
            m
        }),
        case(R::TypesGraphOutputs, |bad| {
            let mut m = abs2();
            let t = tensor_type(&m);
            let result = fresh(&mut m);
            push_global(&mut m, Inst::TypeGraph { result, num_inputs: if bad { 3 } else { 2 }, io: vec![t, t, t] });
            m
        }),
        case(R::TypesGraphInterfaceType, |bad| {
            let mut m = abs2();
            let t = tensor_type(&m);
            let u = u32_type(&m);
            let result = fresh(&mut m);
            push_global(&mut m, Inst::TypeGraph { result, num_inputs: 2, io: vec![t, t, if bad { u } else { t }] });
            m
        }),
        case(R::TypesDuplicate, |bad| {
            let mut m = abs2();
            if bad {
                let result = fresh(&mut m);
                let at = find(&m, |i| matches!(i, Inst::TypeFloat { .. }));
                m.insts.insert(at + 1, Inst::TypeFloat { result, width: 32, encoding: None });
            }
            m
        }),
        case(R::TypesVariablePointer, |bad| {
            let mut m = abs2();
            let ptr = id_of(&m, |i| matches!(i, Inst::TypePointer { .. }));
            let result = fresh(&mut m);
            let storage =
                if bad { spirv::StorageClass::Private as u32 } else { spirv::StorageClass::UniformConstant as u32 };
            push_global(&mut m, Inst::Variable { ty: ptr, result, storage, initializer: None });
            let set = Inst::Decorate {
                target: result,
                decoration: spirv::Decoration::DescriptorSet as u32,
                literals: vec![3],
            };
            let bind =
                Inst::Decorate { target: result, decoration: spirv::Decoration::Binding as u32, literals: vec![0] };
            let at = find(&m, |i| matches!(i, Inst::Decorate { .. }));
            m.insts.insert(at, bind);
            m.insts.insert(at, set);
            m
        }),
        // constants
        case(R::ConstantsScalarValue, |bad| {
            let mut m = negate();
            let i8t = id_of(&m, |i| matches!(i, Inst::TypeInt { width: 8, .. }));
            let result = fresh(&mut m);
            push_global(
                &mut m,
                Inst::Constant { ty: i8t, result, value: vec![if bad { 0x1ff } else { 0xff }], spec: false },
            );
            m
        }),
        case(R::ConstantsArray, |bad| {
            let mut m = abs2();
            let arr = id_of(&m, |i| matches!(i, Inst::TypeArray { .. }));
            let two = u32_const(&m, 2);
            let result = fresh(&mut m);
            let parts = if bad { vec![two] } else { vec![two, two] };
            push_global(&mut m, Inst::ConstantComposite { ty: arr, result, constituents: parts, spec: false });
            m
        }),
        case(R::ConstantsTensorCount, |bad| {
            let mut b = ModuleBuilder::new();
            let t = b.type_tensor(Fp32, Some(&[2, 4]));
            b.const_tensor(Fp32, &[3], &[0, 0, 0]).expect("shape");
            graph(&mut b, &[t], &[t], |b, xs| vec![b.tosa(TosaOp::Abs, t, vec![xs[0]])]);
            let mut m = b.finish();
            if bad {
                let at =
                    find(&m, |i| matches!(i, Inst::ConstantComposite { constituents, .. } if constituents.len() == 3));
                if let Inst::ConstantComposite { constituents, .. } = &mut m.insts[at] {
                    constituents.pop();
                }
            }
            m
        }),
        case(R::ConstantsTensorConstituent, |bad| {
            let mut b = ModuleBuilder::new();
            let t = b.type_tensor(Fp32, Some(&[2, 4]));
            b.const_tensor(Fp32, &[3], &[0, 0, 0]).expect("shape");
            graph(&mut b, &[t], &[t], |b, xs| vec![b.tosa(TosaOp::Abs, t, vec![xs[0]])]);
            let mut m = b.finish();
            if bad {
                let two = u32_const(&m, 2);
                let at =
                    find(&m, |i| matches!(i, Inst::ConstantComposite { constituents, .. } if constituents.len() == 3));
                if let Inst::ConstantComposite { constituents, .. } = &mut m.insts[at] {
                    constituents[1] = two;
                }
            }
            m
        }),
        case(R::ConstantsTensorUnshaped, |bad| {
            let mut b = ModuleBuilder::new();
            let t = b.type_tensor(Fp32, Some(&[2, 4]));
            let shaped = b.type_tensor(Fp32, Some(&[3]));
            let unshaped = b.type_tensor_ranked(Fp32, 1);
            b.const_null(if bad { unshaped } else { shaped });
            graph(&mut b, &[t], &[t], |b, xs| vec![b.tosa(TosaOp::Abs, t, vec![xs[0]])]);
            b.finish()
        }),
        case(R::ConstantsReplicateConstituent, |bad| {
            let mut b = ModuleBuilder::new();
            let t = b.type_tensor(Fp32, Some(&[2, 4]));
            let v = b.type_tensor(Fp32, Some(&[3]));
            let c = if bad { b.const_u32(1) } else { b.const_scalar(Fp32, 0x3f80_0000) };
            b.const_replicate(v, c);
            graph(&mut b, &[t], &[t], |b, xs| vec![b.tosa(TosaOp::Abs, t, vec![xs[0]])]);
            b.finish()
        }),
        case(R::ConstantsGraphConstantType, |bad| {
            let mut b = ModuleBuilder::new();
            let t = b.type_tensor(Fp32, Some(&[2, 4]));
            let u = b.type_u32();
            b.graph_constant(if bad { u } else { t }, 0);
            graph(&mut b, &[t], &[t], |b, xs| vec![b.tosa(TosaOp::Abs, t, vec![xs[0]])]);
            b.finish()
        }),
        case(R::ConstantsGraphConstantDuplicateId, |bad| {
            let mut b = ModuleBuilder::new();
            let t = b.type_tensor(Fp32, Some(&[2, 4]));
            b.graph_constant(t, 3);
            b.graph_constant(t, if bad { 3 } else { 4 });
            graph(&mut b, &[t], &[t], |b, xs| vec![b.tosa(TosaOp::Abs, t, vec![xs[0]])]);
            b.finish()
        }),
        case(R::VulkanGraphConstantShaped, |bad| {
            let mut b = ModuleBuilder::new();
            let t = b.type_tensor(Fp32, Some(&[2, 4]));
            let r = b.type_tensor_ranked(Fp32, 2);
            let gc = b.graph_constant(if bad { r } else { t }, 0);
            graph(&mut b, &[t], &[t], |b, xs| vec![b.tosa(TosaOp::Add, t, vec![xs[0], gc])]);
            b.finish()
        }),
        // graph
        case(R::GraphType, |bad| {
            let mut m = abs2();
            if bad {
                let t = tensor_type(&m);
                let at = find(&m, |i| matches!(i, Inst::Graph { .. }));
                if let Inst::Graph { ty, .. } = &mut m.insts[at] {
                    *ty = t;
                }
            }
            m
        }),
        case(R::GraphEntryPointMissing, |bad| {
            let mut m = abs2();
            if bad {
                m.insts.retain(|i| !matches!(i, Inst::GraphEntryPoint { .. }));
            }
            m
        }),
        case(R::GraphEntryPointNotAGraph, |bad| {
            let mut m = abs2();
            if bad {
                let c = u32_const(&m, 0);
                let at = find(&m, |i| matches!(i, Inst::GraphEntryPoint { .. }));
                if let Inst::GraphEntryPoint { graph, .. } = &mut m.insts[at] {
                    *graph = c;
                }
            }
            m
        }),
        case(R::GraphEntryPointDuplicateName, |bad| {
            let mut m = abs2();
            let at = find(&m, |i| matches!(i, Inst::GraphEntryPoint { .. }));
            let mut second = m.insts[at].clone();
            if let Inst::GraphEntryPoint { name, .. } = &mut second {
                *name = if bad { "main".into() } else { "other".into() };
            }
            m.insts.insert(at + 1, second);
            m
        }),
        case(R::GraphEntryPointInterfaceCount, |bad| {
            let mut m = abs2();
            if bad {
                let at = find(&m, |i| matches!(i, Inst::GraphEntryPoint { .. }));
                if let Inst::GraphEntryPoint { interface, .. } = &mut m.insts[at] {
                    interface.pop();
                }
            }
            m
        }),
        case(R::GraphEntryPointInterfaceVariable, |bad| {
            let mut m = abs2();
            if bad {
                let c = id_of(&m, |i| matches!(i, Inst::ConstantComposite { .. }));
                let at = find(&m, |i| matches!(i, Inst::GraphEntryPoint { .. }));
                if let Inst::GraphEntryPoint { interface, .. } = &mut m.insts[at] {
                    interface[1] = c;
                }
            }
            m
        }),
        case(R::GraphEntryPointInterfaceType, |bad| {
            let mut b = ModuleBuilder::new();
            let t = b.type_tensor(Fp32, Some(&[2, 4]));
            let other = b.type_tensor(Fp32, Some(&[4, 2]));
            let extra = b.interface_variable(other, 2, 0);
            graph(&mut b, &[t], &[t], |b, xs| vec![b.tosa(TosaOp::Abs, t, vec![xs[0]])]);
            let mut m = b.finish();
            if bad {
                let at = find(&m, |i| matches!(i, Inst::GraphEntryPoint { .. }));
                if let Inst::GraphEntryPoint { interface, .. } = &mut m.insts[at] {
                    interface[1] = extra;
                }
            }
            m
        }),
        case(R::GraphInputIndexNotConstant, |bad| {
            let mut m = abs2();
            let u = u32_type(&m);
            let undef = fresh(&mut m);
            push_global(&mut m, Inst::Raw { opcode: spirv::Op::Undef as u16, operands: vec![u.0, undef.0] });
            if bad {
                let at = find(&m, |i| matches!(i, Inst::GraphInput { .. }));
                if let Inst::GraphInput { input_index, .. } = &mut m.insts[at] {
                    *input_index = undef;
                }
            }
            m
        }),
        case(R::GraphInputIndexType, |bad| {
            let mut b = ModuleBuilder::new();
            let t = b.type_tensor(Fp32, Some(&[2, 4]));
            let z16 = b.const_scalar(I16, 0);
            graph(&mut b, &[t], &[t], |b, xs| vec![b.tosa(TosaOp::Abs, t, vec![xs[0]])]);
            let mut m = b.finish();
            if bad {
                let at = find(&m, |i| matches!(i, Inst::GraphInput { .. }));
                if let Inst::GraphInput { input_index, .. } = &mut m.insts[at] {
                    *input_index = z16;
                }
            }
            m
        }),
        case(R::GraphInputIndexRange, |bad| {
            let mut b = ModuleBuilder::new();
            let t = b.type_tensor(Fp32, Some(&[2, 4]));
            let five = b.const_u32(5);
            graph(&mut b, &[t], &[t], |b, xs| vec![b.tosa(TosaOp::Abs, t, vec![xs[0]])]);
            let mut m = b.finish();
            if bad {
                let at = find(&m, |i| matches!(i, Inst::GraphInput { .. }));
                if let Inst::GraphInput { input_index, .. } = &mut m.insts[at] {
                    *input_index = five;
                }
            }
            m
        }),
        case(R::GraphInputDuplicateIndex, |bad| {
            let mut b = ModuleBuilder::new();
            let t = b.type_tensor(Fp32, Some(&[2, 4]));
            graph(&mut b, &[t, t], &[t], |b, xs| vec![b.tosa(TosaOp::Abs, t, vec![xs[0]])]);
            let mut m = b.finish();
            if bad {
                let zero = u32_const(&m, 0);
                let second = m.insts.iter().rposition(|i| matches!(i, Inst::GraphInput { .. })).expect("input");
                if let Inst::GraphInput { input_index, .. } = &mut m.insts[second] {
                    *input_index = zero;
                }
            }
            m
        }),
        case(R::GraphInputElementIndex, |bad| {
            let mut b = ModuleBuilder::new();
            let t = b.type_tensor(Fp32, Some(&[2, 4]));
            let zero = b.const_u32(0);
            graph(&mut b, &[t], &[t], |b, xs| vec![b.tosa(TosaOp::Abs, t, vec![xs[0]])]);
            let mut m = b.finish();
            if bad {
                let at = find(&m, |i| matches!(i, Inst::GraphInput { .. }));
                if let Inst::GraphInput { element_index, .. } = &mut m.insts[at] {
                    *element_index = Some(zero);
                }
            }
            m
        }),
        case(R::GraphInputType, |bad| {
            let mut b = ModuleBuilder::new();
            let t = b.type_tensor(Fp32, Some(&[2, 4]));
            let other = b.type_tensor(Fp32, Some(&[4, 2]));
            graph(&mut b, &[t, t], &[t], |b, xs| vec![b.tosa(TosaOp::Abs, t, vec![xs[0]])]);
            let mut m = b.finish();
            if bad {
                let second = m.insts.iter().rposition(|i| matches!(i, Inst::GraphInput { .. })).expect("input");
                if let Inst::GraphInput { ty, .. } = &mut m.insts[second] {
                    *ty = other;
                }
            }
            m
        }),
        case(R::GraphOutputIndexNotConstant, |bad| {
            let mut m = abs2();
            let u = u32_type(&m);
            let undef = fresh(&mut m);
            push_global(&mut m, Inst::Raw { opcode: spirv::Op::Undef as u16, operands: vec![u.0, undef.0] });
            if bad {
                let at = find(&m, |i| matches!(i, Inst::GraphSetOutput { .. }));
                if let Inst::GraphSetOutput { output_index, .. } = &mut m.insts[at] {
                    *output_index = undef;
                }
            }
            m
        }),
        case(R::GraphOutputIndexType, |bad| {
            let mut b = ModuleBuilder::new();
            let t = b.type_tensor(Fp32, Some(&[2, 4]));
            let z16 = b.const_scalar(I16, 0);
            graph(&mut b, &[t], &[t], |b, xs| vec![b.tosa(TosaOp::Abs, t, vec![xs[0]])]);
            let mut m = b.finish();
            if bad {
                let at = find(&m, |i| matches!(i, Inst::GraphSetOutput { .. }));
                if let Inst::GraphSetOutput { output_index, .. } = &mut m.insts[at] {
                    *output_index = z16;
                }
            }
            m
        }),
        case(R::GraphOutputIndexRange, |bad| {
            let mut b = ModuleBuilder::new();
            let t = b.type_tensor(Fp32, Some(&[2, 4]));
            let five = b.const_u32(5);
            graph(&mut b, &[t], &[t], |b, xs| vec![b.tosa(TosaOp::Abs, t, vec![xs[0]])]);
            let mut m = b.finish();
            if bad {
                let at = find(&m, |i| matches!(i, Inst::GraphSetOutput { .. }));
                if let Inst::GraphSetOutput { output_index, .. } = &mut m.insts[at] {
                    *output_index = five;
                }
            }
            m
        }),
        case(R::GraphOutputDuplicateIndex, |bad| {
            let mut b = ModuleBuilder::new();
            let t = b.type_tensor(Fp32, Some(&[2, 4]));
            graph(&mut b, &[t], &[t, t], |b, xs| vec![b.tosa(TosaOp::Abs, t, vec![xs[0]]), xs[0]]);
            let mut m = b.finish();
            if bad {
                let zero = u32_const(&m, 0);
                let last = m.insts.iter().rposition(|i| matches!(i, Inst::GraphSetOutput { .. })).expect("output");
                if let Inst::GraphSetOutput { output_index, .. } = &mut m.insts[last] {
                    *output_index = zero;
                }
            }
            m
        }),
        case(R::GraphOutputElementIndex, |bad| {
            let mut b = ModuleBuilder::new();
            let t = b.type_tensor(Fp32, Some(&[2, 4]));
            let zero = b.const_u32(0);
            graph(&mut b, &[t], &[t], |b, xs| vec![b.tosa(TosaOp::Abs, t, vec![xs[0]])]);
            let mut m = b.finish();
            if bad {
                let at = find(&m, |i| matches!(i, Inst::GraphSetOutput { .. }));
                if let Inst::GraphSetOutput { element_index, .. } = &mut m.insts[at] {
                    *element_index = Some(zero);
                }
            }
            m
        }),
        case(R::GraphOutputType, |bad| {
            let mut b = ModuleBuilder::new();
            let t = b.type_tensor(Fp32, Some(&[2, 4]));
            let c = b.const_tensor(Fp32, &[4, 2], &[0; 8]).expect("shape");
            let same = b.const_tensor(Fp32, &[2, 4], &[0; 8]).expect("shape");
            graph(&mut b, &[t], &[t, t], |b, xs| vec![b.tosa(TosaOp::Abs, t, vec![xs[0]]), same]);
            let mut m = b.finish();
            if bad {
                let last = m.insts.iter().rposition(|i| matches!(i, Inst::GraphSetOutput { .. })).expect("output");
                if let Inst::GraphSetOutput { value, .. } = &mut m.insts[last] {
                    *value = c;
                }
            }
            m
        }),
        case(R::GraphOutputMissing, |bad| {
            let mut m = abs2();
            if bad {
                m.insts.retain(|i| !matches!(i, Inst::GraphSetOutput { .. }));
            }
            m
        }),
        case(R::GraphCompositeExtract, |bad| {
            let mut m = rfft(8);
            if bad {
                let at = m.insts.iter().rposition(|i| matches!(i, Inst::CompositeExtract { .. })).expect("extract");
                if let Inst::CompositeExtract { indices, .. } = &mut m.insts[at] {
                    indices[0] = 2;
                }
            }
            m
        }),
        // interface (Vulkan)
        case(R::VulkanDescriptorSetBinding, |bad| {
            let mut m = abs2();
            if bad {
                let at = find(
                    &m,
                    |i| matches!(i, Inst::Decorate { decoration, .. } if *decoration == spirv::Decoration::Binding as u32),
                );
                m.insts.remove(at);
            }
            m
        }),
        case(R::VulkanRuntimeArrayVariable, |bad| {
            let mut b = ModuleBuilder::new();
            let t = b.type_tensor(Fp32, Some(&[2, 4]));
            // The broken variant turns this array into a runtime array below.
            let arr = b.type_array(t, 2);
            let gty = b.type_graph(&[arr], &[t]);
            let vars = vec![b.interface_variable(arr, 0, 0), b.interface_variable(t, 0, 1)];
            let g = b.begin_graph(gty);
            b.graph_entry_point(g, "main", vars);
            let x = b.graph_input(t, 0, Some(1));
            let y = b.tosa(TosaOp::Abs, t, vec![x]);
            b.graph_output(y, 0, None);
            b.end_graph();
            let mut m = b.finish();
            if bad {
                let at = find(&m, |i| matches!(i, Inst::TypeArray { element, .. } if *element == t));
                let result = m.insts[at].result_id().expect("array id");
                m.insts[at] = Inst::TypeRuntimeArray { result, element: t };
            }
            m
        }),
        case(R::VulkanInterfaceShaped, |bad| {
            let mut b = ModuleBuilder::new();
            let t = b.type_tensor(Fp32, Some(&[2, 4]));
            let r = b.type_tensor_ranked(Fp32, 2);
            let inp = if bad { r } else { t };
            graph(&mut b, &[inp], &[t], |b, xs| vec![b.tosa(TosaOp::Abs, t, vec![xs[0]])]);
            b.finish()
        }),
        case(R::VulkanAddressingModel, |bad| {
            let mut m = abs2();
            if bad {
                let at = find(&m, |i| matches!(i, Inst::MemoryModel { .. }));
                if let Inst::MemoryModel { addressing, .. } = &mut m.insts[at] {
                    *addressing = spirv::AddressingModel::Physical64 as u32;
                }
            }
            m
        }),
        // debug info
        case(R::DebugInfoVersion, |bad| {
            with_debug(if bad { "2" } else { "1" }, |m, g, name, _, void| {
                let r = fresh(m);
                debug(void, r, GraphDebugInst::Graph { graph: g, name })
            })
        }),
        case(R::DebugInfoInstruction, |bad| {
            with_debug("1", |m, g, name, _, void| {
                let r = fresh(m);
                let number = if bad { 7 } else { 1 };
                Inst::ExtInst { ty: void, result: r, set: Id(0), number, operands: vec![g.0, name.0] }
            })
        }),
        case(R::DebugInfoResultType, |bad| {
            with_debug("1", |m, g, name, _, void| {
                let r = fresh(m);
                let ty = if bad { u32_type(m) } else { void };
                debug(ty, r, GraphDebugInst::Graph { graph: g, name })
            })
        }),
        case(R::DebugInfoForwardReference, |bad| {
            with_debug("1", |m, _, name, y, void| {
                let r = fresh(m);
                let later = m
                    .insts
                    .iter()
                    .rev()
                    .find(|i| matches!(i, Inst::Tosa { .. }))
                    .and_then(Inst::result_id)
                    .expect("second abs");
                debug(void, r, GraphDebugInst::Tensor { tensor: if bad { later } else { y }, name, index: None })
            })
        }),
        case(R::DebugInfoGraph, |bad| {
            with_debug("1", |m, g, name, y, void| {
                let r = fresh(m);
                debug(void, r, GraphDebugInst::Graph { graph: if bad { y } else { g }, name })
            })
        }),
        case(R::DebugInfoName, |bad| {
            with_debug("1", |m, g, name, _, void| {
                let r = fresh(m);
                let zero = u32_const(m, 0);
                debug(void, r, GraphDebugInst::Graph { graph: g, name: if bad { zero } else { name } })
            })
        }),
        case(R::DebugInfoOperation, |bad| {
            with_debug("1", |m, g, name, y, void| {
                // A DebugGraph first (inside the body), then the operation.
                let dg = fresh(m);
                let at = find(m, |i| matches!(i, Inst::Tosa { .. }));
                let set = Id(0);
                m.insts.insert(
                    at,
                    Inst::GraphDebug { ty: void, result: dg, set, inst: GraphDebugInst::Graph { graph: g, name } },
                );
                let zero = u32_const(m, 0);
                let r = fresh(m);
                debug(
                    void,
                    r,
                    GraphDebugInst::Operation { debug_graph: dg, name, instructions: vec![if bad { zero } else { y }] },
                )
            })
        }),
        case(R::DebugInfoTensor, |bad| {
            with_debug("1", |m, _, name, y, void| {
                let r = fresh(m);
                let zero = u32_const(m, 0);
                debug(void, r, GraphDebugInst::Tensor { tensor: if bad { zero } else { y }, name, index: None })
            })
        }),
    ];
    v.extend(tosa_cases());
    v.extend(level_cases());
    v.extend(tensor_access_cases());
    v.push(case(R::ImportsVersion, |bad| {
        let mut m = abs2();
        if bad {
            let at = find(&m, |i| matches!(i, Inst::ExtInstImport { name, .. } if name == "TOSA.001000.1"));
            if let Inst::ExtInstImport { name, .. } = &mut m.insts[at] {
                *name = "TOSA.001000.2".into();
            }
        }
        m
    }));
    v
}

fn tosa_cases() -> Vec<Case> {
    use RuleId as R;
    vec![
        case(R::TosaUnknownInstruction, |bad| {
            let mut m = abs2();
            if bad {
                let at = find_op(&m, TosaOp::Abs);
                let Inst::Tosa { ty, result, set, args, .. } = m.insts[at].clone() else { unreachable!() };
                m.insts[at] =
                    Inst::ExtInst { ty, result, set, number: 66, operands: args.iter().map(|a| a.0).collect() };
            }
            m
        }),
        case(R::TosaOperandCount, |bad| {
            let mut m = abs2();
            if bad {
                let at = find_op(&m, TosaOp::Abs);
                if let Inst::Tosa { args, .. } = &mut m.insts[at] {
                    args.push(args[0]);
                }
            }
            m
        }),
        case(R::TosaOperandNotConstant, |bad| {
            let mut b = ModuleBuilder::new();
            let t = b.type_tensor(I8, Some(&[1, 4, 4, 2]));
            let zt = b.type_tensor(I8, Some(&[1]));
            graph(&mut b, &[t, zt], &[t], |b, xs| {
                let zp = zero(b, I8);
                let izp = if bad { xs[1] } else { zp };
                vec![b.tosa(TosaOp::Negate, t, vec![xs[0], izp, zp])]
            });
            b.finish()
        }),
        case(R::TosaOperandForm, |bad| {
            one_op(&[(Fp32, &[2, 4])], (I32, &[4]), TosaOp::Argmax, |b, xs| {
                let axis = if bad { b.const_i32_vector(&[0]) } else { b.const_u32(0) };
                let nan = b.const_u32(1);
                vec![axis, nan, xs[0]]
            })
        }),
        case(R::TosaEnumValue, |bad| {
            one_op(&[(Fp32, &[2, 4]), (Fp32, &[2, 4])], (Fp32, &[2, 4]), TosaOp::Maximum, |b, xs| {
                let nan = b.const_u32(if bad { 3 } else { 2 });
                vec![nan, xs[0], xs[1]]
            })
        }),
        case_profiles(R::TosaEnumExtension, vec![Profile::ProInt, Profile::ProFp, Profile::ExtInt16], |bad| {
            rescale(Rs { rounding: if bad { 2 } else { 1 }, ..RS })
        }),
        case(R::TosaResultType, |bad| {
            let mut m = abs2();
            if bad {
                let t = tensor_type(&m);
                let st = fresh(&mut m);
                push_global(&mut m, Inst::TypeStruct { result: st, members: vec![t] });
                let at = find_op(&m, TosaOp::Abs);
                if let Inst::Tosa { ty, .. } = &mut m.insts[at] {
                    *ty = st;
                }
                // The second ABS reads it; keep it reading the input instead.
                let x = id_of(&m, |i| matches!(i, Inst::GraphInput { .. }));
                let second = m.insts.iter().rposition(|i| matches!(i, Inst::Tosa { .. })).expect("abs");
                if let Inst::Tosa { args, .. } = &mut m.insts[second] {
                    args[0] = x;
                }
            }
            m
        }),
        case(R::TosaTypeFixed, |bad| {
            let idx = if bad { I16 } else { I32 };
            one_op(&[(Fp32, &[1, 4, 2]), (idx, &[1, 3])], (Fp32, &[1, 3, 2]), TosaOp::Gather, |_, xs| {
                vec![xs[0], xs[1]]
            })
        }),
        case(R::TosaTypeSlotConflict, |bad| {
            let e2 = if bad { Fp16 } else { Fp32 };
            binary(TosaOp::Add, (Fp32, &[2, 4]), (e2, &[2, 4]), (Fp32, &[2, 4]))
        }),
        case(R::TosaTypeNoRow, |bad| {
            let out = if bad { Fp32 } else { Fp16 };
            one_op(&[(Fp32, &[2, 4])], (out, &[2, 4]), TosaOp::Cast, |_, xs| vec![xs[0]])
        }),
        case(R::TosaTypeRowQualifier, |bad| avg_pool_i8(&[2, 2], if bad { 3 } else { 1 })),
        case_profiles(R::TosaTypeProfile, vec![Profile::ProInt, Profile::ProFp], |bad| {
            let e = if bad { ElemType::Bf16 } else { Fp32 };
            one_op(&[(e, &[2, 4])], (e, &[2, 4]), TosaOp::Abs, |_, xs| vec![xs[0]])
        }),
        case(R::TosaShapeRank, |bad| {
            let s2: &[u32] = if bad { &[1, 2, 4] } else { &[2, 4] };
            binary(TosaOp::Add, (Fp32, &[2, 4]), (Fp32, s2), (Fp32, &[2, 4]))
        }),
        case(R::TosaShapeLength, |bad| {
            let kernel: &[i32] = if bad { &[2, 2, 2] } else { &[2, 2] };
            avg_pool_i8(kernel, 1)
        }),
        case(R::TosaShapeMismatch, |bad| {
            let bshape: &[u32] = if bad { &[1, 4, 5] } else { &[1, 3, 5] };
            one_op(&[(Fp32, &[1, 2, 3]), (Fp32, bshape)], (Fp32, &[1, 2, 5]), TosaOp::Matmul, |b, xs| {
                let zp = zero(b, Fp32);
                vec![xs[0], xs[1], zp, zp]
            })
        }),
        case(R::TosaShapeBroadcast, |bad| {
            let a: &[u32] = if bad { &[2, 3] } else { &[1, 3] };
            binary(TosaOp::Add, (Fp32, a), (Fp32, &[3, 3]), (Fp32, &[3, 3]))
        }),
        case(R::TosaShapeInexactDivision, |bad| {
            let ih = if bad { 5 } else { 6 };
            max_pool(&[1, ih, 6, 1], &[2, 2], &[2, 2], &[0, 0, 0, 0], &[1, 3, 3, 1])
        }),
        case(R::TosaShapeOutputRange, |bad| {
            let ih = if bad { 2 } else { 4 };
            max_pool(&[1, ih, 4, 1], &[4, 4], &[1, 1], &[0, 0, 0, 0], &[1, 1, 1, 1])
        }),
        case(R::TosaShapeElementCount, |bad| {
            one_op(&[(Fp32, &[2, 4])], (Fp32, &[8]), TosaOp::Reshape, |b, xs| {
                let s = b.const_i32_vector(&[if bad { 9 } else { 8 }]);
                vec![xs[0], s]
            })
        }),
        case(R::TosaShapeOutput, |bad| {
            let out: &[u32] = if bad { &[4, 4] } else { &[2, 4] };
            binary(TosaOp::Add, (Fp32, &[2, 4]), (Fp32, &[1, 4]), (Fp32, out))
        }),
        case(R::TosaAttributeRange, |bad| conv2d(Fp32, if bad { &[0, 1] } else { &[1, 1] })),
        case(R::TosaAttributeAxis, |bad| {
            one_op(&[(Fp32, &[2, 4])], (Fp32, &[1, 4]), TosaOp::ReduceSum, |b, xs| {
                let axis = b.const_u32(if bad { 2 } else { 0 });
                vec![axis, xs[0]]
            })
        }),
        case(R::TosaTransposePerms, |bad| {
            one_op(&[(Fp32, &[2, 2])], (Fp32, &[2, 2]), TosaOp::Transpose, |b, xs| {
                let p = b.const_i32_vector(if bad { &[0, 0] } else { &[1, 0] });
                vec![p, xs[0]]
            })
        }),
        case(R::TosaFftPowerOfTwo, |bad| rfft(if bad { 6 } else { 8 })),
        case(R::TosaZeroPoint, |bad| {
            one_op(&[(I16, &[2, 4])], (I16, &[2, 4]), TosaOp::Negate, |b, xs| {
                let z = zero(b, I16);
                let izp = if bad { scalar_tensor(b, I16, 1) } else { z };
                vec![xs[0], izp, z]
            })
        }),
        case(R::TosaRescaleZeroPoint, |bad| {
            rescale(Rs { in_t: I16, out_t: I16, zps: (if bad { 5 } else { 0 }, 0), ..RS })
        }),
        case(R::TosaRescaleUnsigned, |bad| rescale(Rs { unsigned: (true, bad), ..RS })),
        case(R::TosaRescaleDoubleRound, |bad| {
            rescale(Rs {
                in_t: I16,
                out_t: I16,
                scale32: false,
                rounding: if bad { 3 } else { 1 },
                mul: 1 << 14,
                shift: 14,
                ..RS
            })
        }),
        case(R::TosaClampBounds, |bad| {
            one_op(&[(I8, &[2, 4])], (I8, &[2, 4]), TosaOp::Clamp, |b, xs| {
                let lo = b.const_scalar(I8, if bad { 5 } else { 0 });
                let hi = b.const_scalar(I8, 3);
                let nan = b.const_u32(1);
                vec![lo, hi, nan, xs[0]]
            })
        }),
        case_env(R::TosaShapeUnknown, "spv1.6", |bad| {
            let mut b = ModuleBuilder::new();
            let t = b.type_tensor(Fp32, Some(&[2, 4]));
            let u = b.type_tensor_ranked(Fp32, 2);
            let inp = if bad { u } else { t };
            graph(&mut b, &[inp], &[t], |b, xs| vec![b.tosa(TosaOp::Abs, t, vec![xs[0]])]);
            b.finish()
        }),
        case(R::TosaRequireMulShift, |bad| {
            one_op(&[(I32, &[2, 4]), (I32, &[2, 4])], (I32, &[2, 4]), TosaOp::Mul, |b, xs| {
                let sh = scalar_tensor(b, I8, if bad { 64 } else { 3 });
                vec![xs[0], xs[1], sh]
            })
        }),
        case(R::TosaRequireRescaleShift, |bad| rescale(Rs { shift: if bad { 1 } else { 30 }, ..RS })),
        case(R::TosaRequireRescaleMultiplier, |bad| rescale(Rs { mul: if bad { -1 } else { 1 << 30 }, ..RS })),
    ]
}

fn level_cases() -> Vec<Case> {
    use RuleId as R;
    vec![
        case(R::LevelRank, |bad| {
            let s: &[u32] = if bad { &[1, 1, 1, 1, 1, 1, 2] } else { &[1, 1, 1, 1, 1, 2] };
            binary(TosaOp::Add, (Fp32, s), (Fp32, s), (Fp32, s))
        }),
        case(R::LevelKernel, |bad| {
            let k = if bad { 8193 } else { 8192 };
            max_pool(&[1, k, 1, 1], &[k as i32, 1], &[1, 1], &[0, 0, 0, 0], &[1, 1, 1, 1])
        }),
        case(R::LevelStride, |bad| {
            let s = if bad { 8193 } else { 8192 };
            max_pool(&[1, s + 2, 2, 1], &[2, 2], &[s as i32, 1], &[0, 0, 0, 0], &[1, 2, 1, 1])
        }),
        case(R::LevelScale, |bad| {
            let n = if bad { 512 } else { 256 };
            resize(&[n, 1, 1, 1], &[1, 2, 1, 1], &[1, n as u32 + 1, 1, 1])
        }),
        case(R::LevelTensorList, |bad| {
            let n = if bad { 65 } else { 64 };
            let mut b = ModuleBuilder::new();
            let t = b.type_tensor(Fp32, Some(&[1, 2]));
            let o = b.type_tensor(Fp32, Some(&[n, 2]));
            graph(&mut b, &[t], &[o], |b, xs| {
                let axis = b.const_u32(0);
                let mut args = vec![axis];
                args.extend(std::iter::repeat_n(xs[0], n as usize));
                vec![b.tosa(TosaOp::Concat, o, args)]
            });
            b.finish()
        }),
        case(R::LevelTensorSize, |bad| {
            let d = if bad { 1 << 29 } else { 1 << 28 };
            binary(TosaOp::Add, (Fp32, &[d, 1]), (Fp32, &[d, 1]), (Fp32, &[d, 1]))
        }),
    ]
}

/// SPV_ARM_tensors instructions in a compute function next to a graph
/// (`tensor_module`): each case reads, writes or queries a tensor correctly
/// in the base and breaks one thing.
fn tensor_access_cases() -> Vec<Case> {
    use spvgraph_ir::tensor_access::*;
    use RuleId as R;
    vec![
        case(R::TensorAccessNotRanked, |bad| {
            // The broken read names the variable (a pointer) instead of the loaded tensor.
            tensor_module(|b, k| {
                read(b, k.float, if bad { k.src } else { k.a }, k.coords, None);
            })
        }),
        case(R::TensorAccessCoordinates, |bad| {
            tensor_module(|b, k| {
                let coords = if bad {
                    let arr = b.type_array(k.uint, 3);
                    let c0 = b.const_u32(0);
                    b.const_composite(arr, vec![c0, c0, c0])
                } else {
                    k.coords
                };
                read(b, k.float, k.a, coords, None);
            })
        }),
        case(R::TensorReadResultType, |bad| {
            tensor_module(|b, k| {
                read(b, if bad { k.uint } else { k.float }, k.a, k.coords, None);
            })
        }),
        case(R::TensorWriteObjectType, |bad| {
            tensor_module(|b, k| {
                let one = b.const_u32(1);
                write(b, k.b, k.coords, if bad { one } else { k.zero }, None);
            })
        }),
        case(R::TensorOperandsOutOfBoundsType, |bad| {
            tensor_module(|b, k| {
                let one = b.const_u32(1);
                read(
                    b,
                    k.float,
                    k.a,
                    k.coords,
                    operands(OUT_OF_BOUNDS_VALUE, Some(if bad { one } else { k.zero }), None),
                );
            })
        }),
        case(R::TensorOperandsOutOfBoundsNotConstant, |bad| {
            tensor_module(|b, k| {
                let x = read(b, k.float, k.a, k.coords, None);
                read(
                    b,
                    k.float,
                    k.a,
                    k.coords,
                    operands(OUT_OF_BOUNDS_VALUE, Some(if bad { x } else { k.zero }), None),
                );
            })
        }),
        case(R::TensorOperandsInstruction, |bad| {
            tensor_module(|b, k| {
                let mask = if bad { MAKE_ELEMENT_VISIBLE } else { MAKE_ELEMENT_AVAILABLE } | NON_PRIVATE_ELEMENT;
                write(b, k.b, k.coords, k.zero, operands(mask, None, Some(k.scope)));
            })
        }),
        case(R::TensorOperandsNonPrivate, |bad| {
            tensor_module(|b, k| {
                let mask = if bad { MAKE_ELEMENT_VISIBLE } else { MAKE_ELEMENT_VISIBLE | NON_PRIVATE_ELEMENT };
                read(b, k.float, k.a, k.coords, operands(mask, None, Some(k.scope)));
            })
        }),
        case(R::TensorOperandsScope, |bad| {
            tensor_module(|b, k| {
                let scope = if bad { k.zero } else { k.scope };
                let mask = MAKE_ELEMENT_VISIBLE | NON_PRIVATE_ELEMENT;
                read(b, k.float, k.a, k.coords, operands(mask, None, Some(scope)));
            })
        }),
        case(R::TensorQueryResultType, |bad| {
            tensor_module(|b, k| {
                let one = b.const_u32(1);
                query(b, if bad { k.float } else { k.uint }, k.a, one);
            })
        }),
        case(R::TensorQueryDimensionNotConstant, |bad| {
            tensor_module(|b, k| {
                let zero = b.const_u32(0);
                let d = query(b, k.uint, k.a, zero);
                query(b, k.uint, k.a, if bad { d } else { zero });
            })
        }),
        case(R::TensorQueryDimensionRange, |bad| {
            tensor_module(|b, k| {
                let dim = b.const_u32(if bad { 2 } else { 1 });
                query(b, k.uint, k.a, dim);
            })
        }),
        case(R::TensorReplicateValueType, |bad| {
            tensor_module(|b, k| {
                let one = b.const_u32(1);
                replicate(b, k.shaped, if bad { one } else { k.zero });
            })
        }),
        case(R::TensorReplicateUnshaped, |bad| {
            tensor_module(|b, k| {
                replicate(b, if bad { k.ranked } else { k.shaped }, k.zero);
            })
        }),
        case(R::DecorationNonReadableWritableTarget, |bad| {
            // NonReadable on the read tensor's variable is what SPV_ARM_tensors
            // allows; on a Private variable it is invalid.
            tensor_module(|b, k| {
                let target = if bad { b.variable(spirv::StorageClass::Private, k.float) } else { k.dst };
                b.decorate(target, spirv::Decoration::NonReadable, &[]);
                read(b, k.float, k.a, k.coords, None);
            })
        }),
    ]
}

/// Rules without a case here, and why.
const NO_CASE: &[(RuleId, &str)] = &[];

#[test]
fn every_rule_has_a_near_valid_case() {
    let cases = cases();
    for rule in RuleId::ALL {
        let has = cases.iter().any(|c| c.rule == *rule) || NO_CASE.iter().any(|(r, _)| r == rule);
        assert!(has, "no near-valid case for {rule}");
    }
}

/// The pipeline-rule findings of every graph entry point of a module.
fn pipeline_rules(v: &Validator, words: &[u32]) -> Vec<RuleId> {
    let module = Module::decode_words(words).expect("decodes");
    let mut rules: Vec<RuleId> = v
        .pipeline_rules_by_entry_point(&module)
        .into_iter()
        .flat_map(|(_, fs)| fs.into_iter().map(|f| f.rule))
        .collect();
    rules.sort();
    rules.dedup();
    rules
}

#[test]
fn each_case_breaks_exactly_its_rule() {
    let mut failures = Vec::new();
    for c in cases() {
        let v = Validator::new(c.options());
        let base = v.check_words(&(c.make)(false));
        let broken = v.check_words(&(c.make)(true));
        let base_ok = base.is_valid() && !base.rules().contains(&c.rule);
        let got = match c.rule.severity() {
            Severity::MustReject => errors(&broken),
            Severity::MayAccept => warnings(&broken),
            // Module validity is untouched: only a pipeline breaks it.
            Severity::Pipeline => pipeline_rules(&v, &(c.make)(true)),
        };
        let base_pipelines_ok = !c.rule.is_pipeline() || pipeline_rules(&v, &(c.make)(false)).is_empty();
        let base_ok = base_ok && base_pipelines_ok;
        let exact = got == vec![c.rule] && (c.rule.is_must_reject() || broken.is_valid());
        if !base_ok || !exact {
            failures.push(format!(
                "{}:\n base ({}):\n{} broken:\n{}",
                c.rule,
                if base_ok { "ok" } else { "NOT CLEAN" },
                show(&base),
                show(&broken)
            ));
        }
    }
    assert!(failures.is_empty(), "{} case(s) failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn findings_name_rule_instruction_and_word_offset() {
    for c in cases() {
        if c.rule.info().category == spvgraph_ir::rules::Category::Binary {
            continue;
        }
        let v = Validator::new(c.options());
        let r = v.check_words(&(c.make)(true));
        for f in r.findings.iter().filter(|f| f.rule == c.rule) {
            assert!(!f.message.is_empty(), "{}", c.rule);
            if f.word_offset.is_some() {
                assert!(f.instruction.as_deref().is_some_and(|t| t.contains("Op")), "{}: {f:?}", c.rule);
            }
        }
    }
}

/// The cases on which `sv`'s verdict differs from `flag` (or that reject a
/// base module), one line each.
fn flag_mismatches(sv: &dyn Oracle, flag: impl Fn(RuleId) -> bool, what: &str) -> Vec<String> {
    let mut wrong = Vec::new();
    for c in cases() {
        let opts = c.options();
        let base = sv.validator().and_then(|v| v.validate(&(c.make)(false), &opts)).expect("spirv-val runs");
        let broken = sv.validator().and_then(|v| v.validate(&(c.make)(true), &opts)).expect("spirv-val runs");
        if !base.is_valid() {
            wrong.push(format!("{}: spirv-val rejects the BASE module: {base:?}", c.rule));
            continue;
        }
        let rejects = !broken.is_valid();
        if rejects != flag(c.rule) {
            wrong.push(format!(
                "{}: catalogue says {what} = {}, spirv-val {}: {:?}",
                c.rule,
                flag(c.rule),
                if rejects { "rejects" } else { "accepts" },
                broken
            ));
        } else if let Verdict::Invalid(d) = &broken {
            eprintln!("{}: spirv-val says {:?}", c.rule, d.first().map(|x| &x.message));
        }
    }
    wrong
}

#[test]
fn spirv_val_checks_flags_match_spirv_val() {
    if tool(Tool::LibSpirvTools).is_none() && tool(Tool::SpirvVal).is_none() {
        return;
    }
    let sv = SpirvVal::discover();
    if sv.available().is_err() && !spvgraph_oracle::tools::Tools::required() {
        eprintln!("skipping: {:?}", sv.available());
        return;
    }
    let wrong = flag_mismatches(&sv, |r| r.info().spirv_val_checks, "spirv_val_checks");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The `spirv_val_main` flags of the provenance table against a build of
/// SPIRV-Tools main (not provisioned by `ci/setup-oracles`, hence ignored):
/// `SPVGRAPH_SPIRV_VAL_MAIN=/path/to/spirv-val cargo test -p spvgraph-oracle
/// --test it -- --ignored validate_rules::spirv_val_main`.
#[test]
#[ignore = "needs a SPIRV-Tools main build in SPVGRAPH_SPIRV_VAL_MAIN"]
fn spirv_val_main_flags_match_spirv_val_main() {
    let path = std::env::var_os("SPVGRAPH_SPIRV_VAL_MAIN")
        .expect("SPVGRAPH_SPIRV_VAL_MAIN names a spirv-val of SPIRV-Tools main");
    let sv = SpirvVal::process_only(std::path::PathBuf::from(path));
    sv.available().expect("that spirv-val runs");
    let wrong = flag_mismatches(&sv, |r| r.provenance().spirv_val_main, "spirv_val_main");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The `spirv_val_sdk` flags of the provenance table against the `sdk`
/// channel's library (`spirv-val@sdk`: SPIRV-Tools v2026.3 as tagged for the
/// Vulkan SDK 1.4.357.0), which is how they were determined.
#[test]
fn spirv_val_sdk_flags_match_the_sdk_library() {
    let Some(sv) = spvgraph_testkit::registry_oracle("spirv-val@sdk") else { return };
    let version = sv.version().unwrap_or_default();
    assert!(version.contains(spvgraph_ir::rules::provenance::SPIRV_TOOLS_SDK), "measured on another build: {version}");
    let wrong = flag_mismatches(sv.as_ref(), |r| r.provenance().spirv_val_sdk, "spirv_val_sdk");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The DescriptorSet and Binding decorations of the interface variables
/// need Shader (the grammar says so): a module without it, which a reducer
/// may propose, is invalid for the in-tree validator as for spirv-val; one
/// that declares Shader through a capability depending on it (Geometry) is
/// not.
#[test]
fn interface_decorations_need_shader_declared_or_implied() {
    let without = |replacement: Option<spirv::Capability>| {
        let mut m = spvgraph_ir::samples::elementwise_chain(1);
        let shader = Inst::Capability(spirv::Capability::Shader as u32);
        let at = m.insts.iter().position(|i| *i == shader).expect("the sample declares Shader");
        match replacement {
            Some(c) => m.insts[at] = Inst::Capability(c as u32),
            None => {
                m.insts.remove(at);
            }
        }
        m.encode_words().expect("encodes")
    };
    let v = Validator::new(ValidateOptions::default());
    let dropped = v.check_words(&without(None));
    assert_eq!(errors(&dropped), vec![RuleId::CapsMissingCapability], "{}", show(&dropped));
    assert!(dropped.findings.iter().any(|f| f.message.contains("Shader")), "{}", show(&dropped));
    let implied = v.check_words(&without(Some(spirv::Capability::Geometry)));
    assert!(!errors(&implied).contains(&RuleId::CapsMissingCapability), "{}", show(&implied));
    if let Some(sv) = spvgraph_testkit::spirv_val() {
        let verdict = sv.validate(&without(None), &ValidateOptions::default()).expect("spirv-val runs");
        assert!(!verdict.is_valid(), "spirv-val accepts interface decorations without Shader: {verdict:?}");
    }
}
