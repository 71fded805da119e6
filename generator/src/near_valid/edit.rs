//! The editing surface mutators work on: a generated module being broken,
//! the choices they draw, and helpers that add declarations without
//! breaking anything else (types and constants are reused when the module
//! already declares them, since duplicate non-aggregate types are invalid).

use arbitrary::Unstructured;
use spvgraph_ir::analysis::Analysis;
use spvgraph_ir::elem::Profile;
use spvgraph_ir::env::TargetEnv;
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::Module;

use crate::Case;

/// A module being mutated.
pub struct Edit<'c, 'u> {
    /// The valid case the mutation starts from (unchanged).
    pub base: &'c Case,
    /// The module being broken; starts as a copy of `base.module`.
    pub module: Module,
    /// Words that replace the encoded module, for rules that cannot be
    /// broken in a decoded module (framing, header, literal strings).
    pub words: Option<Vec<u32>>,
    /// The target environment the validator must use to see the break
    /// `vulkan1.3` unless the mutator needs another.
    pub target_env: TargetEnv,
    /// Profiles the consumer supports; `None` = all.
    pub profiles: Option<Vec<Profile>>,
    /// What the mutator did, for manifests and findings.
    pub note: String,
    u: Unstructured<'u>,
}

/// One graph definition's instruction range in [`Edit::module`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GraphSpan {
    /// Index of `OpGraphARM`.
    pub begin: usize,
    /// Index of `OpGraphEndARM`.
    pub end: usize,
    /// The graph's result id.
    pub id: Id,
    /// Its `OpTypeGraphARM`.
    pub ty: Id,
}

impl<'c, 'u> Edit<'c, 'u> {
    /// Starts mutating a copy of `base`, drawing choices from `bytes`.
    pub fn new(base: &'c Case, bytes: &'u [u8]) -> Edit<'c, 'u> {
        Edit {
            base,
            module: base.module.clone(),
            words: None,
            target_env: TargetEnv::VULKAN_1_3,
            profiles: None,
            note: String::new(),
            u: Unstructured::new(bytes),
        }
    }

    /// Records what was done (appended to the note).
    pub fn note(&mut self, text: impl AsRef<str>) {
        if !self.note.is_empty() {
            self.note.push_str("; ");
        }
        self.note.push_str(text.as_ref());
    }

    // ---- choices ------------------------------------------------------------------

    /// One of `items` (the first when the bytes run out); `None` if empty.
    pub fn choose<T: Copy>(&mut self, items: &[T]) -> Option<T> {
        if items.is_empty() {
            return None;
        }
        let i = self.u.choose_index(items.len()).unwrap_or(0);
        items.get(i).copied()
    }

    /// A value in `lo..=hi` (`lo` when the bytes run out or the range is empty).
    pub fn int_in(&mut self, lo: i64, hi: i64) -> i64 {
        if hi <= lo {
            return lo;
        }
        self.u.int_in_range(lo..=hi).unwrap_or(lo)
    }

    /// A coin flip.
    pub fn flip(&mut self) -> bool {
        self.u.arbitrary::<bool>().unwrap_or(false)
    }

    // ---- looking -------------------------------------------------------------------

    /// Analysis of the current module (rebuild after editing).
    pub fn analysis(&self) -> Analysis<'_> {
        Analysis::new(&self.module)
    }

    /// Index of the instruction defining `id`.
    pub fn def_index(&self, id: Id) -> Option<usize> {
        self.module.insts.iter().position(|i| i.result_id() == Some(id))
    }

    /// The instruction defining `id`.
    pub fn def(&self, id: Id) -> Option<&Inst> {
        self.module.insts.iter().find(|i| i.result_id() == Some(id))
    }

    /// Every graph definition, in module order.
    pub fn graphs(&self) -> Vec<GraphSpan> {
        let mut out = Vec::new();
        let mut open: Option<(usize, Id, Id)> = None;
        for (i, inst) in self.module.insts.iter().enumerate() {
            match inst {
                Inst::Graph { ty, result } => open = Some((i, *result, *ty)),
                Inst::GraphEnd => {
                    if let Some((begin, id, ty)) = open.take() {
                        out.push(GraphSpan { begin, end: i, id, ty });
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// Indices of the TOSA instructions for which `keep(op, index)` holds.
    pub fn tosa_where(&self, keep: impl Fn(TosaOp, usize) -> bool) -> Vec<usize> {
        self.module
            .insts
            .iter()
            .enumerate()
            .filter_map(|(i, inst)| match inst {
                Inst::Tosa { op, .. } if keep(*op, i) => Some(i),
                _ => None,
            })
            .collect()
    }

    /// Indices of instructions for which `keep` holds.
    pub fn indices(&self, keep: impl Fn(&Inst) -> bool) -> Vec<usize> {
        self.module.insts.iter().enumerate().filter(|(_, i)| keep(i)).map(|(i, _)| i).collect()
    }

    /// Result ids of the instructions for which `keep` holds, in module order.
    pub fn results_where(&self, keep: impl Fn(&Inst) -> bool) -> Vec<Id> {
        self.module.insts.iter().filter(|i| keep(i)).filter_map(Inst::result_id).collect()
    }

    /// Whether `id` is used as an operand anywhere (names, decorations and
    /// debug instructions included).
    pub fn is_used(&self, id: Id) -> bool {
        let mut words = Vec::new();
        self.module.insts.iter().any(|inst| {
            words.clear();
            inst.encode_operands(&mut words);
            let skip = usize::from(inst.result_type().is_some()) + usize::from(inst.result_id().is_some());
            // Literals can alias ids; a false "used" only makes a mutator skip.
            words.iter().skip(skip).any(|&w| w == id.0) && inst.result_id() != Some(id)
        })
    }

    // ---- adding ------------------------------------------------------------------

    /// A fresh id (raises the header's bound).
    pub fn fresh_id(&mut self) -> Id {
        let id = Id(self.module.header.bound.max(1));
        self.module.header.bound = id.0 + 1;
        id
    }

    /// Where new global declarations go: after the last type, constant or
    /// global variable (before the graph entry points and definitions).
    pub fn globals_end(&self) -> usize {
        let last = self.module.insts.iter().rposition(|i| {
            i.is_type()
                || i.is_constant()
                || matches!(i, Inst::Variable { .. } | Inst::GraphConstant { .. } | Inst::Raw { opcode: 59, .. })
        });
        match last {
            Some(i) => i + 1,
            None => self
                .module
                .insts
                .iter()
                .position(|i| matches!(i, Inst::GraphEntryPoint { .. } | Inst::Graph { .. }))
                .unwrap_or(self.module.insts.len()),
        }
    }

    /// Appends a global declaration; returns its index. This shifts every
    /// later instruction (the whole graph section): find instructions again
    /// by result id ([`Edit::def_index`]) after adding declarations.
    pub fn add_global(&mut self, inst: Inst) -> usize {
        let at = self.globals_end();
        self.module.insts.insert(at, inst);
        at
    }

    /// Inserts `inst` at `index` (shifting later instructions).
    pub fn insert(&mut self, index: usize, inst: Inst) {
        let at = index.min(self.module.insts.len());
        self.module.insts.insert(at, inst);
    }

    /// The 32-bit integer type with `signedness`, declared if missing.
    pub fn int_type(&mut self, width: u32, signedness: u32) -> Id {
        let found = self.module.insts.iter().find_map(|i| match i {
            Inst::TypeInt { result, width: w, signedness: s } if *w == width && *s == signedness => Some(*result),
            _ => None,
        });
        found.unwrap_or_else(|| {
            let result = self.fresh_id();
            self.add_global(Inst::TypeInt { result, width, signedness });
            result
        })
    }

    /// `OpTypeFloat width` (IEEE, no encoding), declared if missing.
    pub fn float_type(&mut self, width: u32) -> Id {
        let found = self.module.insts.iter().find_map(|i| match i {
            Inst::TypeFloat { result, width: w, encoding: None } if *w == width => Some(*result),
            _ => None,
        });
        found.unwrap_or_else(|| {
            let result = self.fresh_id();
            self.add_global(Inst::TypeFloat { result, width, encoding: None });
            result
        })
    }

    /// `OpTypeBool`, declared if missing.
    pub fn bool_type(&mut self) -> Id {
        let found = self.module.insts.iter().find_map(|i| match i {
            Inst::TypeBool { result } => Some(*result),
            _ => None,
        });
        found.unwrap_or_else(|| {
            let result = self.fresh_id();
            self.add_global(Inst::TypeBool { result });
            result
        })
    }

    /// `OpConstantTrue`/`OpConstantFalse` of `OpTypeBool` (declared if
    /// missing), reused if declared.
    pub fn bool_const(&mut self, v: bool) -> Id {
        let ty = self.bool_type();
        let found = self.module.insts.iter().find_map(|i| match i {
            Inst::ConstantTrue { ty: t, result, spec: false } if v && *t == ty => Some(*result),
            Inst::ConstantFalse { ty: t, result, spec: false } if !v && *t == ty => Some(*result),
            _ => None,
        });
        found.unwrap_or_else(|| {
            let result = self.fresh_id();
            let inst = if v {
                Inst::ConstantTrue { ty, result, spec: false }
            } else {
                Inst::ConstantFalse { ty, result, spec: false }
            };
            self.add_global(inst);
            result
        })
    }

    /// `OpConstantNull` of `ty`, reused if declared.
    pub fn null_const(&mut self, ty: Id) -> Id {
        let found = self.module.insts.iter().find_map(|i| match i {
            Inst::ConstantNull { ty: t, result } if *t == ty => Some(*result),
            _ => None,
        });
        found.unwrap_or_else(|| {
            let result = self.fresh_id();
            self.add_global(Inst::ConstantNull { ty, result });
            result
        })
    }

    /// A scalar `OpConstant` of type `ty` with `value` words, reused if declared.
    pub fn constant(&mut self, ty: Id, value: Vec<u32>) -> Id {
        let found = self.module.insts.iter().find_map(|i| match i {
            Inst::Constant { ty: t, result, value: v, spec: false } if *t == ty && *v == value => Some(*result),
            _ => None,
        });
        found.unwrap_or_else(|| {
            let result = self.fresh_id();
            self.add_global(Inst::Constant { ty, result, value, spec: false });
            result
        })
    }

    /// An unsigned 32-bit integer constant.
    pub fn const_u32(&mut self, v: u32) -> Id {
        let ty = self.int_type(32, 0);
        self.constant(ty, vec![v])
    }

    /// A signed 32-bit integer constant (the type TOSA attributes use when
    /// the module declares one; else the unsigned type).
    pub fn const_i32(&mut self, v: i32) -> Id {
        let has_signed = self.module.insts.iter().any(|i| matches!(i, Inst::TypeInt { width: 32, signedness: 1, .. }));
        let ty = self.int_type(32, u32::from(has_signed));
        self.constant(ty, vec![v as u32])
    }

    /// `OpTypeArray element len`, reused if declared.
    pub fn array_type(&mut self, element: Id, len: u32) -> Id {
        let length = self.const_u32(len);
        let found = self.module.insts.iter().find_map(|i| match i {
            Inst::TypeArray { result, element: e, length: l } if *e == element && *l == length => Some(*result),
            _ => None,
        });
        found.unwrap_or_else(|| {
            let result = self.fresh_id();
            self.add_global(Inst::TypeArray { result, element, length });
            result
        })
    }

    /// `OpConstantComposite ty parts`, reused if declared.
    pub fn composite(&mut self, ty: Id, parts: Vec<Id>) -> Id {
        let found = self.module.insts.iter().find_map(|i| match i {
            Inst::ConstantComposite { ty: t, result, constituents, spec: false }
                if *t == ty && *constituents == parts =>
            {
                Some(*result)
            }
            _ => None,
        });
        found.unwrap_or_else(|| {
            let result = self.fresh_id();
            self.add_global(Inst::ConstantComposite { ty, result, constituents: parts, spec: false });
            result
        })
    }

    /// A shaped `OpTypeTensorARM` of `element` (a scalar type id) and
    /// `shape`, reused if the module declares one with the same shape values.
    pub fn tensor_type(&mut self, element: Id, shape: &[u32]) -> Id {
        let existing = {
            let a = self.analysis();
            self.module.insts.iter().find_map(|i| match i {
                Inst::TypeTensor { result, element: e, rank: Some(_), shape: Some(s) } if *e == element => {
                    let dims = a.const_uint_array(*s)?;
                    (dims.len() == shape.len() && dims.iter().zip(shape).all(|(&a, &b)| a == u64::from(b)))
                        .then_some(*result)
                }
                _ => None,
            })
        };
        if let Some(t) = existing {
            return t;
        }
        let rank = self.const_u32(shape.len() as u32);
        let u32t = self.int_type(32, 0);
        let arr = self.array_type(u32t, shape.len() as u32);
        let parts: Vec<Id> = shape.iter().map(|&d| self.const_u32(d)).collect();
        let shape_c = self.composite(arr, parts);
        let result = self.fresh_id();
        self.add_global(Inst::TypeTensor { result, element, rank: Some(rank), shape: Some(shape_c) });
        result
    }

    /// A rank-1 constant of the i32 tensor type with `values`, built fresh
    /// (its scalar constants and tensor type are reused where declared).
    pub fn const_i32_tensor(&mut self, element: Id, values: &[i32]) -> Id {
        let ty = self.tensor_type(element, &[values.len().max(1) as u32]);
        let parts: Vec<Id> = values.iter().map(|&v| self.constant(element, vec![v as u32])).collect();
        self.composite(ty, parts)
    }

    /// Shape of a value or type id when it is a shaped tensor.
    pub fn shape_of(&self, id: Id) -> Option<Vec<u32>> {
        let a = self.analysis();
        let ty = match a.def(id)? {
            Inst::TypeTensor { .. } => id,
            other => other.result_type()?,
        };
        let t = a.tensor_type(ty)?;
        t.shape.map(|s| s.iter().map(|&d| d as u32).collect())
    }

    /// Copies the TOSA instruction at `index` right after itself with a
    /// fresh result id nothing uses, so breaking the copy breaks nothing
    /// downstream; returns the copy's index.
    pub fn dead_copy(&mut self, index: usize) -> Option<usize> {
        let mut copy = self.module.insts.get(index)?.clone();
        let fresh = self.fresh_id();
        match &mut copy {
            Inst::Tosa { result, .. } => *result = fresh,
            _ => return None,
        }
        self.module.insts.insert(index + 1, copy);
        Some(index + 1)
    }

    /// Makes a dead copy ([`Edit::dead_copy`]) of the TOSA instruction whose
    /// result is `orig` (found by id: declarations added before shift the
    /// graph section) and lets `edit` change the copy's Result Type and
    /// operands. Returns the copy's index and what `edit` returned.
    pub fn copy_with<R>(&mut self, orig: Id, edit: impl FnOnce(&mut Id, &mut Vec<Id>) -> R) -> Option<(usize, R)> {
        let at = self.def_index(orig)?;
        let copy = self.dead_copy(at)?;
        let (ty, _, _, args) = self.tosa_mut(copy)?;
        Some((copy, edit(ty, args)))
    }

    /// The TOSA instruction at `index` as `(ty, result, op, args)` (mutable).
    pub fn tosa_mut(&mut self, index: usize) -> Option<(&mut Id, Id, TosaOp, &mut Vec<Id>)> {
        match self.module.insts.get_mut(index)? {
            Inst::Tosa { ty, result, op, args, .. } => Some((ty, *result, *op, args)),
            _ => None,
        }
    }

    /// The encoded words of the current module (or the replacement words).
    pub fn finish_words(&self) -> Option<Vec<u32>> {
        match &self.words {
            Some(w) => Some(w.clone()),
            None => self.module.encode_words().ok(),
        }
    }
}
