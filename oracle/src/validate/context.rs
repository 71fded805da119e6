//! The state shared by every check: lookup tables over the module, the
//! options, and the issues found so far.
//!
//! The tables are plain vectors indexed by id or instruction index (no
//! hashing) because the validator is meant to be much faster than spirv-val;
//! nothing here assumes the module is valid, and every lookup that does not
//! resolve returns `None`.

use super::env::TargetEnv;
use crate::oracle::{Level, ValidateOptions};
use spvgraph_ir::analysis::raw_bits;
use spvgraph_ir::elem::{ElemType, Profile, ScalarKind};
use spvgraph_ir::inst::{ExtSet, Id, Inst};
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::Module;

/// One problem found: the rule, the instruction (index into `Module::insts`)
/// and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Issue {
    /// The rule broken.
    pub rule: RuleId,
    /// Index of the instruction concerned, if any.
    pub inst: Option<usize>,
    /// What is wrong.
    pub message: String,
}

/// A resolved `OpTypeTensorARM`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorInfo {
    /// Element type id.
    pub element: Id,
    /// The TOSA element type, when the element is one.
    pub elem: Option<ElemType>,
    /// Whether a Rank operand is present.
    pub ranked: bool,
    /// Whether a Shape operand is present.
    pub shaped: bool,
    /// The shape, when present and every entry is a readable constant.
    pub shape: Option<Vec<u64>>,
}

impl TensorInfo {
    /// The shape as `u32`s, when known, non-empty and every entry fits.
    pub fn dims(&self) -> Option<Vec<u32>> {
        let shape = self.shape.as_ref()?;
        if shape.is_empty() {
            return None;
        }
        shape.iter().map(|&d| u32::try_from(d).ok()).collect()
    }
}

/// One graph definition found by position (`OpGraphARM` .. `OpGraphEndARM`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphSpan {
    /// Index of `OpGraphARM`.
    pub begin: usize,
    /// Index of `OpGraphEndARM`, if closed.
    pub end: Option<usize>,
    /// The graph's result id.
    pub result: Id,
    /// Its type id.
    pub ty: Id,
}

/// Everything a check needs.
pub struct Cx<'m> {
    /// The module.
    pub module: &'m Module,
    /// Its instructions.
    pub insts: &'m [Inst],
    /// The options.
    pub options: &'m ValidateOptions,
    /// The target environment.
    pub env: TargetEnv,
    /// Id → index of the first defining instruction + 1 (0: undefined).
    def: Vec<u32>,
    /// Instruction index → graph ordinal + 1 for instructions from
    /// `OpGraphARM` to `OpGraphEndARM` inclusive (0: outside graphs).
    pub graph_of: Vec<u32>,
    /// Graph definitions in module order.
    pub graphs: Vec<GraphSpan>,
    /// `OpTypeTensorARM` declarations by instruction index (sorted).
    tensors: Vec<(usize, TensorInfo)>,
    /// Declared capabilities.
    pub capabilities: Vec<u32>,
    /// Declared extensions.
    pub extensions: Vec<&'m str>,
    /// Imported instruction sets.
    pub sets: Vec<(Id, ExtSet)>,
    /// The header's SPIR-V version `(major, minor)`.
    pub version: (u32, u32),
    /// Issues found so far.
    pub issues: Vec<Issue>,
    /// Parts of the module that were not checked, for the report.
    pub not_checked: Vec<String>,
}

/// Largest id the tables index directly; ids above it (only in hostile
/// inputs, since the bound caps real ones) are looked up by scanning.
const MAX_DIRECT_ID: u32 = 1 << 22;

impl<'m> Cx<'m> {
    /// Builds the tables in two passes over the instructions.
    pub fn new(module: &'m Module, options: &'m ValidateOptions, env: TargetEnv) -> Cx<'m> {
        let insts = module.insts.as_slice();
        // Ids are below the header's bound in valid modules; ids at or above
        // the table size (hostile bounds or ids) are found by scanning.
        let size = module.header.bound.min(MAX_DIRECT_ID) as usize;
        let mut def = vec![0u32; size];
        let mut graph_of = vec![0u32; insts.len()];
        let mut graphs: Vec<GraphSpan> = Vec::new();
        let mut open: Option<usize> = None;
        let mut capabilities = Vec::new();
        let mut extensions = Vec::new();
        let mut sets = Vec::new();
        // Result-id problems are found here, in the one pass that reads every
        // result id (the id checks read operands).
        let mut issues = Vec::new();
        let bound = module.header.bound;
        for (i, inst) in insts.iter().enumerate() {
            if let Some(id) = inst.result_id() {
                if id.0 == 0 || id.0 >= bound {
                    let message = format!("result id %{} is not in 1..{bound} (the header's bound)", id.0);
                    issues.push(Issue { rule: RuleId::BinaryIdBound, inst: Some(i), message });
                }
                match def.get_mut(id.0 as usize) {
                    Some(slot) if *slot == 0 => *slot = i as u32 + 1,
                    Some(_) => {
                        let message = format!("%{} is already defined by an earlier instruction", id.0);
                        issues.push(Issue { rule: RuleId::IdsDuplicate, inst: Some(i), message });
                    }
                    // Beyond the table: only in hostile modules, checked by scanning.
                    None => {
                        if insts.iter().take(i).any(|x| x.result_id() == Some(id)) {
                            let message = format!("%{} is already defined by an earlier instruction", id.0);
                            issues.push(Issue { rule: RuleId::IdsDuplicate, inst: Some(i), message });
                        }
                    }
                }
            }
            match inst {
                Inst::Capability(c) => capabilities.push(*c),
                Inst::Extension(e) => extensions.push(e.as_str()),
                Inst::ExtInstImport { result, name } => sets.push((*result, ExtSet::from_import_name(name))),
                Inst::Graph { ty, result } => {
                    // A nested OpGraphARM starts a new span; the nesting itself
                    // is a layout error reported by the layout check.
                    graphs.push(GraphSpan { begin: i, end: None, result: *result, ty: *ty });
                    open = Some(graphs.len() - 1);
                }
                _ => {}
            }
            if let Some(g) = open {
                graph_of[i] = g as u32 + 1;
                if matches!(inst, Inst::GraphEnd) {
                    if let Some(span) = graphs.get_mut(g) {
                        span.end = Some(i);
                    }
                    open = None;
                }
            }
        }
        let h = module.header.version;
        let version = ((h >> 16) & 0xff, (h >> 8) & 0xff);
        let mut cx = Cx {
            module,
            insts,
            options,
            env,
            def,
            graph_of,
            graphs,
            tensors: Vec::new(),
            capabilities,
            extensions,
            sets,
            version,
            issues,
            not_checked: Vec::new(),
        };
        let mut tensors = Vec::with_capacity(insts.len() / 8);
        for (i, inst) in insts.iter().enumerate() {
            if let Inst::TypeTensor { element, rank, shape, .. } = inst {
                tensors.push((i, cx.resolve_tensor(*element, *rank, *shape)));
            }
        }
        cx.tensors = tensors;
        cx
    }

    fn resolve_tensor(&self, element: Id, rank: Option<Id>, shape: Option<Id>) -> TensorInfo {
        let elem = self.scalar(element).and_then(ElemType::from_spirv);
        TensorInfo {
            element,
            elem,
            ranked: rank.is_some(),
            shaped: shape.is_some(),
            shape: shape.and_then(|s| self.const_uint_array(s)),
        }
    }

    /// Records an issue.
    pub fn report(&mut self, rule: RuleId, inst: Option<usize>, message: impl Into<String>) {
        self.issues.push(Issue { rule, inst, message: message.into() });
    }

    /// Records an issue at instruction `inst`.
    pub fn at(&mut self, inst: usize, rule: RuleId, message: impl Into<String>) {
        self.report(rule, Some(inst), message);
    }

    /// Whether the Vulkan environment rules apply.
    pub fn vulkan(&self) -> bool {
        self.env.vulkan
    }

    /// The profiles and extensions the consumer supports.
    pub fn profiles(&self) -> &[Profile] {
        &self.options.profiles
    }

    /// The TOSA level.
    pub fn level(&self) -> Level {
        self.options.level
    }

    /// Index of the instruction defining `id`.
    pub fn def_index(&self, id: Id) -> Option<usize> {
        match self.def.get(id.0 as usize) {
            Some(&0) => None,
            Some(&i) => Some(i as usize - 1),
            None => self.insts.iter().position(|inst| inst.result_id() == Some(id)),
        }
    }

    /// The instruction defining `id`.
    pub fn def(&self, id: Id) -> Option<&'m Inst> {
        self.def_index(id).and_then(|i| self.insts.get(i))
    }

    /// Whether the instruction defining `id` is a type declaration.
    pub fn is_type(&self, id: Id) -> bool {
        self.def(id).is_some_and(Inst::is_type)
    }

    /// The scalar kind of a scalar type id.
    pub fn scalar(&self, ty: Id) -> Option<ScalarKind> {
        match self.def(ty)? {
            Inst::TypeBool { .. } => Some(ScalarKind::Bool),
            Inst::TypeInt { width, signedness, .. } => {
                Some(ScalarKind::Int { width: *width, signed: *signedness != 0 })
            }
            Inst::TypeFloat { width, encoding, .. } => Some(ScalarKind::Float { width: *width, encoding: *encoding }),
            _ => None,
        }
    }

    /// The resolved tensor type of a type id.
    pub fn tensor(&self, ty: Id) -> Option<&TensorInfo> {
        self.tensor_at(self.def_index(ty)?)
    }

    /// The resolved `OpTypeTensorARM` declared by instruction `at`.
    pub fn tensor_at(&self, at: usize) -> Option<&TensorInfo> {
        self.tensors.binary_search_by_key(&at, |(i, _)| *i).ok().and_then(|k| self.tensors.get(k)).map(|(_, t)| t)
    }

    /// The type id of a value (its Result Type).
    pub fn type_of(&self, value: Id) -> Option<Id> {
        self.def(value)?.result_type()
    }

    /// The value of a non-spec `OpConstant` of integer type, zero-extended
    /// from its width (`OpConstantNull` of an integer type reads as 0).
    pub fn const_uint(&self, id: Id) -> Option<u64> {
        match self.def(id)? {
            Inst::Constant { ty, value, spec: false, .. } => match self.scalar(*ty)? {
                ScalarKind::Int { width, .. } => Some(raw_bits(value, width)),
                _ => None,
            },
            Inst::ConstantNull { ty, .. } => match self.scalar(*ty)? {
                ScalarKind::Int { .. } => Some(0),
                _ => None,
            },
            _ => None,
        }
    }

    /// The elements of a constant integer array (composite of an
    /// `OpTypeArray`, or null); `None` if any element is not readable.
    pub fn const_uint_array(&self, id: Id) -> Option<Vec<u64>> {
        match self.def(id)? {
            Inst::ConstantComposite { constituents, spec: false, .. } => {
                let mut out = Vec::with_capacity(constituents.len());
                for &c in constituents {
                    out.push(self.const_uint(c)?);
                }
                Some(out)
            }
            Inst::ConstantNull { ty, .. } => match self.def(*ty)? {
                Inst::TypeArray { length, .. } => {
                    let n = self.const_uint(*length)?;
                    (n <= 64).then(|| vec![0; n as usize])
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// The raw element bits of a constant (scalar, or tensor flattened in
    /// row-major order) with at most `limit` elements; `None` for graph
    /// constants, spec constants and anything malformed.
    pub fn const_bits(&self, id: Id, limit: u64) -> Option<Vec<u64>> {
        let mut out = Vec::new();
        self.push_const_bits(id, limit, 0, &mut out)?;
        Some(out)
    }

    /// Appends the elements of constant `id` to `out` (see [`Cx::const_bits`]).
    fn push_const_bits(&self, id: Id, limit: u64, depth: u32, out: &mut Vec<u64>) -> Option<()> {
        if depth > 64 {
            return None;
        }
        let inst = self.def(id)?;
        let ty = inst.result_type()?;
        if let Some(kind) = self.scalar(ty) {
            out.push(self.scalar_bits(inst, kind)?);
            return Some(());
        }
        let t = self.tensor(ty)?;
        let count = t.shape.as_ref()?.iter().try_fold(1u64, |a, &d| a.checked_mul(d))?;
        if count > limit || out.len() as u64 + count > limit {
            return None;
        }
        let start = out.len();
        match inst {
            Inst::ConstantNull { .. } => out.resize(start + count as usize, 0),
            Inst::ConstantCompositeReplicate { constituent, spec: false, .. } => {
                self.push_const_bits(*constituent, limit, depth + 1, out)?;
                if out.len() != start + 1 {
                    return None;
                }
                let b = out.last().copied()?;
                out.resize(start + count as usize, b);
            }
            Inst::ConstantComposite { constituents, spec: false, .. } => {
                for c in constituents {
                    self.push_const_bits(*c, limit, depth + 1, out)?;
                    if (out.len() - start) as u64 > count {
                        return None;
                    }
                }
                if (out.len() - start) as u64 != count {
                    return None;
                }
            }
            _ => return None,
        }
        Some(())
    }

    /// The raw bits of a scalar constant instruction of `kind`.
    pub fn scalar_bits(&self, inst: &Inst, kind: ScalarKind) -> Option<u64> {
        match (inst, kind) {
            (Inst::ConstantTrue { spec: false, .. }, ScalarKind::Bool) => Some(1),
            (Inst::ConstantFalse { spec: false, .. }, ScalarKind::Bool) => Some(0),
            (Inst::ConstantNull { .. }, _) => Some(0),
            (Inst::Constant { value, spec: false, .. }, ScalarKind::Int { width, .. })
            | (Inst::Constant { value, spec: false, .. }, ScalarKind::Float { width, .. }) => {
                Some(raw_bits(value, width))
            }
            _ => None,
        }
    }

    /// Which instruction set an `OpExtInstImport` id imports.
    pub fn set_kind(&self, set: Id) -> Option<ExtSet> {
        self.sets.iter().find(|(id, _)| *id == set).map(|(_, k)| *k)
    }

    /// Whether a capability is declared.
    pub fn has_capability(&self, c: spirv::Capability) -> bool {
        self.capabilities.contains(&(c as u32))
    }

    /// Whether an extension is declared.
    pub fn has_extension(&self, e: &str) -> bool {
        self.extensions.contains(&e)
    }

    /// The graph (ordinal) that instruction `inst` belongs to, if any.
    pub fn graph_at(&self, inst: usize) -> Option<usize> {
        match self.graph_of.get(inst) {
            Some(&0) | None => None,
            Some(&g) => Some(g as usize - 1),
        }
    }
}
