//! The consumer-breaking constructs a case claims (`CaseMeta::features`) are
//! really in its module and data: each claim is re-derived from the
//! instructions (dead results, outputs, entry points, constant forms,
//! tensor shapes, attribute values read back from their constants) and from
//! the input and constant data (NaN, infinities, subnormals), independently
//! of the generator's bookkeeping. Every checked construct is claimed by
//! some seed of the range, so no check is vacuous.

use crate::support;

use spvgraph_generator::coverage::CONSTRUCTS;
use spvgraph_generator::{generate_from_seed, Case, Config};
use spvgraph_ir::analysis::Analysis;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::{ResultKind, TosaOp};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

const SEEDS: u64 = 3000;

/// What a module holds, read from its instructions.
struct Facts<'a> {
    case: &'a Case,
    a: Analysis<'a>,
    leaves: HashMap<Id, TensorData>,
}

impl<'a> Facts<'a> {
    fn new(case: &'a Case) -> Facts<'a> {
        Facts { case, a: Analysis::new(&case.module), leaves: support::leaf_data(case) }
    }

    fn insts(&self) -> &'a [Inst] {
        &self.case.module.insts
    }

    fn tosa(&self) -> impl Iterator<Item = (TosaOp, Id, Id, &'a [Id])> + 'a {
        self.insts().iter().filter_map(|i| match i {
            Inst::Tosa { op, result, ty, args, .. } => Some((*op, *result, *ty, args.as_slice())),
            _ => None,
        })
    }

    fn arg(&self, op: TosaOp, args: &[Id], name: &str) -> Option<Id> {
        op.spec().operand_named(name).and_then(|(i, _)| args.get(i).copied())
    }

    /// Signed values of a constant operand (inline or graph constant).
    fn ints(&self, id: Id) -> Vec<i64> {
        let Some(t) = self.leaves.get(&id) else { return Vec::new() };
        let w = t.elem().storage_bits();
        t.to_bits().into_iter().map(|b| if w >= 64 { b as i64 } else { ((b << (64 - w)) as i64) >> (64 - w) }).collect()
    }

    fn shape(&self, id: Id) -> Vec<u64> {
        self.a.type_of(id).and_then(|t| self.a.tensor_type(t)).and_then(|t| t.shape).unwrap_or_default()
    }

    fn any_attr(&self, ops: &[TosaOp], name: &str, pred: impl Fn(i64) -> bool) -> bool {
        self.tosa()
            .filter(|(op, ..)| ops.contains(op))
            .any(|(op, _, _, args)| self.arg(op, args, name).is_some_and(|id| self.ints(id).into_iter().any(&pred)))
    }

    /// Some operation has an enumerant operand `name` equal to `value`.
    fn enum_value(&self, name: &str, value: u64) -> bool {
        self.tosa().any(|(op, _, _, args)| self.arg(op, args, name).and_then(|id| self.a.const_uint(id)) == Some(value))
    }

    /// Ids read by an operation, an extraction or an output (debug info does not count).
    fn read_ids(&self) -> HashSet<Id> {
        let mut used = HashSet::new();
        for i in self.insts() {
            match i {
                Inst::Tosa { args, .. } => used.extend(args.iter().copied()),
                Inst::GraphSetOutput { value, .. } => {
                    used.insert(*value);
                }
                Inst::CompositeExtract { composite, .. } => {
                    used.insert(*composite);
                }
                _ => {}
            }
        }
        used
    }

    /// Per graph, the values written to its outputs (in order).
    fn outputs_per_graph(&self) -> Vec<Vec<Id>> {
        self.a
            .graphs
            .iter()
            .map(|g| {
                g.outputs
                    .iter()
                    .filter_map(|&i| match self.insts().get(i) {
                        Some(Inst::GraphSetOutput { value, .. }) => Some(*value),
                        _ => None,
                    })
                    .collect()
            })
            .collect()
    }

    fn is_constant(&self, id: Id) -> bool {
        self.a.def(id).is_some_and(|i| i.is_constant() || matches!(i, Inst::GraphConstant { .. }))
    }

    fn tensor_rank(&self, ty: Id) -> Option<usize> {
        self.a.tensor_type(ty).and_then(|t| t.shape).map(|s| s.len())
    }

    /// Whether the construct `feature` is in the case; `None` when this
    /// test does not check it.
    fn holds(&self, feature: &str) -> Option<bool> {
        let near = 4096i64;
        let pools = [TosaOp::AvgPool2d, TosaOp::MaxPool2d];
        let convs = [TosaOp::Conv2d, TosaOp::Conv3d, TosaOp::DepthwiseConv2d];
        Some(match feature {
            "unused:result" => {
                let used = self.read_ids();
                let dead_op =
                    self.tosa().any(|(op, r, ..)| op.spec().result.kind == ResultKind::Tensor && !used.contains(&r));
                dead_op
                    || self
                        .insts()
                        .iter()
                        .any(|i| matches!(i, Inst::CompositeExtract { result, .. } if !used.contains(result)))
            }
            "unused:fft-extracted-member" => {
                let used = self.read_ids();
                self.insts()
                    .iter()
                    .any(|i| matches!(i, Inst::CompositeExtract { result, .. } if !used.contains(result)))
            }
            "fft:one-result" => {
                self.tosa().filter(|(op, ..)| matches!(op, TosaOp::Fft2d | TosaOp::Rfft2d)).any(|(_, r, ..)| {
                    self.insts()
                        .iter()
                        .filter(|i| matches!(i, Inst::CompositeExtract { composite, .. } if *composite == r))
                        .count()
                        == 1
                })
            }
            "output:same-value-twice" => self.outputs_per_graph().iter().any(|outs| {
                let set: BTreeSet<Id> = outs.iter().copied().collect();
                set.len() < outs.len()
            }),
            "output:from-input" => self
                .outputs_per_graph()
                .iter()
                .flatten()
                .any(|v| matches!(self.a.def(*v), Some(Inst::GraphInput { .. }))),
            "output:from-constant" => self.outputs_per_graph().iter().flatten().any(|v| self.is_constant(*v)),
            "graph:no-operations" => self
                .a
                .graphs
                .iter()
                .any(|g| !g.body.iter().any(|&i| matches!(self.insts().get(i), Some(Inst::Tosa { .. })))),
            "entry:alias" | "entry:three-or-more" | "entry:shared-interface" => {
                let mut per_graph: BTreeMap<Id, Vec<&Vec<Id>>> = BTreeMap::new();
                for i in self.insts() {
                    if let Inst::GraphEntryPoint { graph, interface, .. } = i {
                        per_graph.entry(*graph).or_default().push(interface);
                    }
                }
                per_graph.values().any(|eps| match feature {
                    "entry:alias" => eps.len() >= 2,
                    "entry:three-or-more" => eps.len() >= 3,
                    _ => eps.iter().enumerate().any(|(k, e)| eps[..k].contains(e)),
                })
            }
            "iface:array-input" => {
                self.insts().iter().any(|i| matches!(i, Inst::GraphInput { element_index: Some(_), .. }))
            }
            "iface:array-unread-element" => self.a.graphs.iter().any(|g| {
                let Some(spvgraph_ir::analysis::Type::Graph { inputs, .. }) = self.a.ty(g.ty) else { return false };
                inputs.iter().enumerate().any(|(index, &ty)| {
                    let Some(spvgraph_ir::analysis::Type::Array { length: Some(len), .. }) = self.a.ty(ty) else {
                        return false;
                    };
                    let read = g
                        .inputs
                        .iter()
                        .filter(|&&i| {
                            matches!(self.insts().get(i), Some(Inst::GraphInput { input_index, .. })
                            if self.a.const_uint(*input_index) == Some(index as u64))
                        })
                        .count();
                    (read as u64) < len
                })
            }),
            "iface:array-output" => {
                self.insts().iter().any(|i| matches!(i, Inst::GraphSetOutput { element_index: Some(_), .. }))
            }
            "const:null" | "const:null-scalar" => self.insts().iter().any(|i| match i {
                Inst::ConstantNull { ty, .. } => (self.a.tensor_type(*ty).is_some()) == (feature == "const:null"),
                _ => false,
            }),
            "const:replicate" | "const:replicate-rank>1" => self.insts().iter().any(|i| match i {
                Inst::ConstantCompositeReplicate { ty, .. } => {
                    self.tensor_rank(*ty).is_some_and(|r| (r > 1) == (feature == "const:replicate-rank>1"))
                }
                _ => false,
            }),
            "const:composite" | "const:composite-nested" => self.insts().iter().any(|i| match i {
                Inst::ConstantComposite { ty, .. } => {
                    self.tensor_rank(*ty).is_some_and(|r| (r > 1) == (feature == "const:composite-nested"))
                }
                _ => false,
            }),
            "const:composite-mixed-rows" => self.insts().iter().any(|i| match i {
                Inst::ConstantComposite { ty, constituents, .. } if self.a.tensor_type(*ty).is_some() => {
                    constituents.iter().any(|c| match self.a.def(*c) {
                        Some(Inst::ConstantNull { ty, .. }) | Some(Inst::ConstantCompositeReplicate { ty, .. }) => {
                            self.a.tensor_type(*ty).is_some()
                        }
                        _ => false,
                    })
                }
                _ => false,
            }),
            "const:graph-constant" => self.insts().iter().any(|i| matches!(i, Inst::GraphConstant { .. })),
            "level:rank=6" => self
                .insts()
                .iter()
                .any(|i| matches!(i, Inst::TypeTensor { result, .. } if self.tensor_rank(*result) == Some(6))),
            "level:dim>=4096" => self.insts().iter().any(|i| match i {
                Inst::TypeTensor { result, .. } => self
                    .a
                    .tensor_type(*result)
                    .and_then(|t| t.shape)
                    .is_some_and(|s| s.iter().any(|&d| d >= near as u64)),
                _ => false,
            }),
            "level:fft-size>=4096" => {
                self.tosa().filter(|(op, ..)| matches!(op, TosaOp::Fft2d | TosaOp::Rfft2d)).any(|(op, _, _, args)| {
                    self.arg(op, args, "input_real")
                        .is_some_and(|x| self.shape(x).iter().skip(1).any(|&d| d >= near as u64))
                })
            }
            "level:resize-dim>=8192" => self.tosa().filter(|(op, ..)| *op == TosaOp::Resize).any(|(op, r, _, args)| {
                let x = self.arg(op, args, "input").map(|x| self.shape(x)).unwrap_or_default();
                let y = self.shape(r);
                x.iter().chain(&y).skip(1).take(2).chain(y.iter().skip(1).take(2)).any(|&d| d >= 8192)
            }),
            "level:concat-inputs>=32" => self.tosa().any(|(op, _, _, args)| op == TosaOp::Concat && args.len() > 32),
            "attr:pool-kernel>=4096" => self.any_attr(&pools, "kernel", |v| v >= near),
            "attr:pool-stride>=4096" => self.any_attr(&pools, "stride", |v| v >= near),
            "attr:pool-pad>=4096" => self.any_attr(&pools, "pad", |v| v >= near),
            "attr:conv-stride>=4096" => self.any_attr(&convs, "stride", |v| v >= near),
            "attr:conv-pad>=4096" => self.any_attr(&convs, "pad", |v| v >= near),
            "attr:conv-kernel>=4096" => self.tosa().filter(|(op, ..)| convs.contains(op)).any(|(op, _, _, args)| {
                let w = self.arg(op, args, "weight").map(|w| self.shape(w)).unwrap_or_default();
                let ks: Vec<u64> = match op {
                    TosaOp::DepthwiseConv2d => w.iter().take(2).copied().collect(),
                    _ => w.iter().skip(1).take(w.len().saturating_sub(2)).copied().collect(),
                };
                let d = self.arg(op, args, "dilation").map(|d| self.ints(d)).unwrap_or_default();
                ks.iter().zip(&d).any(|(&k, &d)| k as i64 * d >= near)
            }),
            "attr:transpose_conv2d-kernel>=4096" => {
                self.tosa().filter(|(op, ..)| *op == TosaOp::TransposeConv2d).any(|(op, _, _, args)| {
                    self.arg(op, args, "weight").is_some_and(|w| self.shape(w)[1..3].iter().any(|&k| k >= near as u64))
                })
            }
            "attr:transpose_conv2d-stride>=4096" => self.any_attr(&[TosaOp::TransposeConv2d], "stride", |v| v >= near),
            "attr:transpose_conv2d-out_pad>=4096" => {
                self.any_attr(&[TosaOp::TransposeConv2d], "out_pad", |v| v.abs() >= near)
            }
            "transpose_conv2d:negative-out_pad" => self.any_attr(&[TosaOp::TransposeConv2d], "out_pad", |v| v < 0),
            "attr:resize-scale_n>=1024" | "attr:resize-upscale>=128" | "attr:resize-downscale>=8" => {
                self.tosa().filter(|(op, ..)| *op == TosaOp::Resize).any(|(op, _, _, args)| {
                    let s = self.arg(op, args, "scale").map(|s| self.ints(s)).unwrap_or_default();
                    s.chunks(2).any(|nd| match (nd, feature) {
                        ([n, _], "attr:resize-scale_n>=1024") => *n >= 1024,
                        ([n, d], "attr:resize-upscale>=128") => *n >= 128 * d,
                        ([n, d], _) => *d >= 8 * n,
                        _ => false,
                    })
                })
            }
            "attr:pad-padding>=4096" => self.any_attr(&[TosaOp::Pad], "padding", |v| v >= near),
            "attr:tile-multiples>=4096" => self.any_attr(&[TosaOp::Tile], "multiples", |v| v >= near),
            "attr:mul-shift>=32" => self.any_attr(&[TosaOp::Mul], "shift", |v| v >= 32),
            "attr:rescale-shift>=48" => self.any_attr(&[TosaOp::Rescale], "shift", |v| v >= 48),
            "attr:clamp-min=max" | "attr:clamp-extreme-bounds" => {
                self.tosa().filter(|(op, ..)| *op == TosaOp::Clamp).any(|(op, _, _, args)| {
                    let bits = |name: &str| {
                        self.arg(op, args, name)
                            .and_then(|id| self.a.const_tensor_bits(id, 1))
                            .and_then(|b| b.first().copied())
                    };
                    let (Some(lo), Some(hi)) = (bits("min_val"), bits("max_val")) else { return false };
                    if feature == "attr:clamp-min=max" {
                        return lo == hi;
                    }
                    let elem = self
                        .arg(op, args, "input")
                        .and_then(|x| self.a.type_of(x))
                        .and_then(|t| self.a.tensor_type(t))
                        .and_then(|t| t.elem);
                    match elem {
                        Some(e) if e.is_float() => {
                            let v = |b: u64| spvgraph_ir::scalar::float_bits_to_f64(e, b).unwrap_or(0.0);
                            v(lo) == -max_or_inf(e) && v(hi) == max_or_inf(e)
                        }
                        Some(e) => {
                            let w = e.storage_bits();
                            let s = |b: u64| ((b << (64 - w)) as i64) >> (64 - w);
                            s(lo) == -(1i64 << (w - 1)) && s(hi) == (1i64 << (w - 1)) - 1
                        }
                        None => false,
                    }
                })
            }
            "attr:nan_mode=PROPAGATE" | "attr:nan_mode=IGNORE" => {
                self.enum_value("nan_mode", if feature.ends_with("PROPAGATE") { 1 } else { 2 })
            }
            "resize:mode=NEAREST_NEIGHBOR" | "resize:mode=BILINEAR" => {
                self.enum_value("mode", if feature.ends_with("NEIGHBOR") { 1 } else { 2 })
            }
            "rescale:rounding=SINGLE_ROUND" | "rescale:rounding=INEXACT_ROUND" | "rescale:rounding=DOUBLE_ROUND" => {
                let v = match feature.trim_start_matches("rescale:rounding=") {
                    "SINGLE_ROUND" => spvgraph_ir::tosa::RoundingMode::SingleRound,
                    "INEXACT_ROUND" => spvgraph_ir::tosa::RoundingMode::InexactRound,
                    _ => spvgraph_ir::tosa::RoundingMode::DoubleRound,
                };
                self.enum_value("rounding_mode", u64::from(v.value()))
            }
            "special:nan-input" | "special:inf-input" | "special:subnormal-input" => {
                let what = feature.trim_start_matches("special:").trim_end_matches("-input");
                self.case
                    .entry_points
                    .iter()
                    .flat_map(|e| &e.inputs)
                    .filter(|i| i.slot.used)
                    .any(|i| has_special(&i.data, what))
            }
            "special:nan-constant" | "special:inf-constant" | "special:subnormal-constant" => {
                let what = feature.trim_start_matches("special:").trim_end_matches("-constant");
                self.leaves.iter().filter(|(id, _)| self.is_constant(**id)).any(|(_, t)| has_special(t, what))
            }
            _ => return None,
        })
    }
}

fn max_or_inf(e: ElemType) -> f64 {
    if e == ElemType::Fp8E4M3 {
        448.0
    } else {
        f64::INFINITY
    }
}

fn has_special(t: &TensorData, what: &str) -> bool {
    let e = t.elem();
    if !e.is_float() {
        return false;
    }
    let normal = match e {
        ElemType::Fp32 | ElemType::Bf16 => 2f64.powi(-126),
        ElemType::Fp16 | ElemType::Fp8E5M2 => 2f64.powi(-14),
        _ => 2f64.powi(-6),
    };
    t.to_f64().into_iter().any(|v| match what {
        "nan" => v.is_nan(),
        "inf" => v.is_infinite(),
        _ => v != 0.0 && v.abs() < normal,
    })
}

#[test]
fn claimed_constructs_are_in_the_module_and_data() {
    let config = Config::default();
    let mut claimed: BTreeMap<&'static str, u64> = BTreeMap::new();
    let mut failures = Vec::new();
    for seed in 0..SEEDS {
        let case = generate_from_seed(seed, &config);
        let facts = Facts::new(&case);
        for k in CONSTRUCTS {
            if !case.meta.features.contains(k.feature) {
                continue;
            }
            match facts.holds(k.feature) {
                Some(true) => *claimed.entry(k.feature).or_default() += 1,
                Some(false) => failures.push(format!("seed {seed}: claims {} but the module has none", k.feature)),
                None => {}
            }
        }
        if failures.len() > 10 {
            break;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let unchecked: Vec<&str> = CONSTRUCTS.iter().map(|k| k.feature).filter(|f| !claimed.contains_key(f)).collect();
    // The one construct not re-derived from the module: out-of-range casts
    // (of non-leaf inputs known by range analysis only); the CAST test below
    // checks the leaf ones.
    assert_eq!(unchecked, ["special:cast-out-of-range"], "constructs never claimed and checked: {unchecked:?}");
}

/// CASTs whose input is a leaf and that claim out-of-range values: the
/// leaf's data reaches beyond the output type (its largest finite value,
/// its integer range, or an infinity).
#[test]
fn out_of_range_casts_see_values_beyond_the_output_type() {
    let config = Config::default();
    let mut checked = 0;
    for seed in 0..SEEDS {
        let case = generate_from_seed(seed, &config);
        if !case.meta.features.contains("special:cast-out-of-range") {
            continue;
        }
        let facts = Facts::new(&case);
        let mut any_beyond = false;
        let mut any_leaf = false;
        for (op, r, _, args) in facts.tosa() {
            if op != TosaOp::Cast {
                continue;
            }
            let Some(x) = args.first() else { continue };
            let Some(data) = facts.leaves.get(x) else { continue };
            let Some(out) = facts.a.type_of(r).and_then(|t| facts.a.tensor_type(t)).and_then(|t| t.elem) else {
                continue;
            };
            any_leaf = true;
            let values = data.to_f64();
            any_beyond |= values.iter().any(|v| {
                if out.is_float() {
                    v.abs() > max_finite(out)
                } else if out == ElemType::Bool {
                    false
                } else {
                    let bits = out.storage_bits();
                    *v < -(2f64.powi(bits as i32 - 1)) || *v > 2f64.powi(bits as i32 - 1) - 1.0
                }
            });
        }
        if any_leaf && any_beyond {
            checked += 1;
        }
    }
    assert!(checked > 20, "only {checked} cases with a leaf CAST input beyond the output range");
}

fn max_finite(e: ElemType) -> f64 {
    match e {
        ElemType::Fp16 => 65504.0,
        ElemType::Bf16 => 3.3895313892515355e38,
        ElemType::Fp8E4M3 => 448.0,
        ElemType::Fp8E5M2 => 57344.0,
        _ => f32::MAX as f64,
    }
}
