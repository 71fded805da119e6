//! The state shared by every check: lookup tables over the module, the
//! options, and the issues found so far.
//!
//! The tables are plain vectors indexed by id or instruction index (no
//! hashing) because the validator is meant to be much faster than spirv-val;
//! nothing here assumes the module is valid, and every lookup that does not
//! resolve returns `None`.

use super::tosa::TosaBuffers;
use crate::oracle::{Level, ValidateOptions};
use spvgraph_ir::analysis::raw_bits;
use spvgraph_ir::elem::{ElemType, Profile, ScalarKind};
use spvgraph_ir::env::TargetEnv;
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

/// An issue's text, rendered only if it is kept (see [`Cx::report`]).
pub trait Message {
    /// The text.
    fn render(self) -> String;
}

impl Message for &str {
    fn render(self) -> String {
        self.to_string()
    }
}

impl Message for String {
    fn render(self) -> String {
        self
    }
}

impl Message for std::fmt::Arguments<'_> {
    fn render(self) -> String {
        std::fmt::format(self)
    }
}

impl Message for &String {
    fn render(self) -> String {
        self.clone()
    }
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
    /// Where the shape is in `Cx::shapes` (read it with [`Cx::shape`]),
    /// when present and every entry is a readable constant.
    shape: Option<ShapeRef>,
    /// Whether the shape is known, non-empty and every entry fits a `u32`
    /// (what [`Cx::dims`] and [`Cx::tensor_dims`] need).
    dims_ok: bool,
}

/// A shape's place in the shape arena (`start..start + len`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ShapeRef {
    start: usize,
    len: usize,
}

/// Instruction indices by kind, in module order, so that a check visits
/// only the instructions it is about: a pass over every instruction that
/// `match`es on it costs a hard-to-predict jump per instruction.
#[derive(Debug, Default)]
pub struct Lists {
    /// The type declarations the type checks read (void, bool, int,
    /// float, tensor and graph types) and `OpVariable`.
    pub types: Vec<usize>,
    /// Constant declarations (`OpConstant*`, `OpConstantNull`,
    /// `OpGraphConstantARM`).
    pub constants: Vec<usize>,
    /// Everything the capability check is about: instructions that need a
    /// capability, `OpCapability` and `OpExtInstImport`.
    pub caps: Vec<usize>,
    /// `OpGraphEntryPointARM`, `OpVariable` and `OpMemoryModel`.
    pub interface: Vec<usize>,
    /// `OpDecorate`.
    pub decorations: Vec<usize>,
    /// Extended instructions (TOSA, DebugInfo and other `OpExtInst`).
    pub ext: Vec<usize>,
    /// `OpExtInstImport`.
    pub imports: Vec<usize>,
    /// SPV_ARM_tensors accesses (read, write, size query) and
    /// `OpCompositeConstructReplicateEXT`, wherever they are.
    pub tensor_ops: Vec<usize>,
}

impl Lists {
    fn recycle(self) -> Lists {
        Lists {
            types: recycle(self.types),
            constants: recycle(self.constants),
            caps: recycle(self.caps),
            interface: recycle(self.interface),
            decorations: recycle(self.decorations),
            ext: recycle(self.ext),
            imports: recycle(self.imports),
            tensor_ops: recycle(self.tensor_ops),
        }
    }
}

/// Tables one check leaves for the next on the same thread, so that their
/// allocations are reused rather than made again for every module.
#[derive(Debug, Default)]
pub struct Scratch {
    lists: Lists,
    tosa: TosaBuffers,
    type_keys: Vec<(u128, usize)>,
    ids: Vec<IdSlot>,
    graph_of: Vec<u32>,
    graphs: Vec<GraphSpan>,
    tensors: Vec<(usize, TensorInfo)>,
    shapes: Vec<u64>,
    capabilities: Vec<u32>,
    extensions: Vec<usize>,
    sets: Vec<(Id, ExtSet)>,
}

/// Tables larger than this many entries are not kept for the next check
/// (only hostile modules make them that large).
const KEEP_LIMIT: usize = 1 << 16;

/// `v` cleared, when it is small enough to keep.
fn recycle<T>(mut v: Vec<T>) -> Vec<T> {
    if v.capacity() > KEEP_LIMIT {
        return Vec::new();
    }
    v.clear();
    v
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
    /// Per id below the table size: its first definition and tensor type.
    ids: Vec<IdSlot>,
    /// Ids below this and beyond `ids` are undefined; ids at or above it
    /// (hostile modules only) are looked up by scanning.
    id_cap: usize,
    /// Instruction index → graph ordinal + 1 for instructions from
    /// `OpGraphARM` to `OpGraphEndARM` inclusive (0: outside graphs).
    pub graph_of: Vec<u32>,
    /// Graph definitions in module order.
    pub graphs: Vec<GraphSpan>,
    /// `OpTypeTensorARM` declarations by instruction index (sorted).
    tensors: Vec<(usize, TensorInfo)>,
    /// The tensor types' shapes, one after the other (see [`TensorInfo`]).
    shapes: Vec<u64>,
    /// Declared capabilities.
    pub capabilities: Vec<u32>,
    /// Indices of the `OpExtension` instructions.
    extensions: Vec<usize>,
    /// Instruction indices by kind.
    pub lists: Lists,
    /// The TOSA checks' buffers.
    pub tosa: TosaBuffers,
    /// A buffer for the type checks' sort keys (kept for the next module).
    pub type_keys: Vec<(u128, usize)>,
    /// Whether there is an `OpFunction`.
    pub has_functions: bool,
    /// Imported instruction sets.
    pub sets: Vec<(Id, ExtSet)>,
    /// The header's SPIR-V version `(major, minor)`.
    pub version: (u32, u32),
    /// Issues found so far.
    pub issues: Vec<Issue>,
    /// Whether issues keep their messages (off when only the rules and
    /// offsets are wanted: [`Cx::report`] then renders nothing).
    pub messages: bool,
    /// Parts of the module that were not checked, for the report.
    pub not_checked: Vec<String>,
}

/// What the tables know about one id.
#[derive(Clone, Copy, Debug, Default)]
struct IdSlot {
    /// Index of the first defining instruction + 1 (0: undefined).
    def: u32,
    /// Index into `Cx::tensors` + 1 when that instruction is an
    /// `OpTypeTensorARM` (0: not a tensor type).
    tensor: u32,
    /// The graph ordinal + 1 of that instruction when it is inside a graph
    /// body (0: module scope, or the `OpGraphARM` itself).
    local_graph: u32,
    /// Whether that instruction declares a type.
    is_type: bool,
}

/// What the id checks need about an id's first definition (see
/// [`Cx::id_facts`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IdFacts {
    /// Index of the defining instruction.
    pub def: usize,
    /// Whether it declares a type.
    pub is_type: bool,
    /// The graph whose body it is in (not for `OpGraphARM` itself).
    pub local_graph: Option<usize>,
}

/// Whether an opcode is one the tensor-instruction checks read (see [`Lists::tensor_ops`]).
fn is_tensor_op(opcode: u16) -> bool {
    use spvgraph_ir::tensor_access::*;
    matches!(opcode, OP_TENSOR_READ | OP_TENSOR_WRITE | OP_TENSOR_QUERY_SIZE | OP_COMPOSITE_CONSTRUCT_REPLICATE)
}

/// Largest id the tables index directly; ids above it (only in hostile
/// inputs, since the bound caps real ones) are looked up by scanning.
const MAX_DIRECT_ID: u32 = 1 << 22;

impl<'m> Cx<'m> {
    /// Builds the tables in two passes over the instructions, in the
    /// vectors `scratch` holds (give them back with [`Cx::finish`]).
    pub fn new(module: &'m Module, options: &'m ValidateOptions, env: TargetEnv, scratch: &mut Scratch) -> Cx<'m> {
        let insts = module.insts.as_slice();
        // Ids are below the header's bound in valid modules; ids at or above
        // the table size (hostile bounds or ids) are found by scanning.
        // The table covers every id below `id_cap` that an instruction
        // defines, growing as they appear: a huge bound alone (a hostile
        // module) does not make it huge; ids below the cap it does not
        // cover are undefined.
        let id_cap = module.header.bound.min(MAX_DIRECT_ID) as usize;
        let mut ids = recycle(std::mem::take(&mut scratch.ids));
        ids.resize(id_cap.min(2 * insts.len() + 64), IdSlot::default());
        let mut graph_of = recycle(std::mem::take(&mut scratch.graph_of));
        graph_of.resize(insts.len(), 0);
        let mut graphs = recycle(std::mem::take(&mut scratch.graphs));
        let mut open: Option<usize> = None;
        let mut capabilities = recycle(std::mem::take(&mut scratch.capabilities));
        let mut extensions = recycle(std::mem::take(&mut scratch.extensions));
        let mut sets = recycle(std::mem::take(&mut scratch.sets));
        let mut lists = std::mem::take(&mut scratch.lists).recycle();
        let mut has_functions = false;
        // Result-id problems are found here, in the one pass that reads every
        // result id (the id checks read operands).
        let mut issues = Vec::new();
        let bound = module.header.bound;
        for (i, inst) in insts.iter().enumerate() {
            // The table slot of an id this instruction defines first.
            let mut first: Option<usize> = None;
            if let Some(id) = inst.result_id() {
                if id.0 == 0 || id.0 >= bound {
                    let message = format!("result id %{} is not in 1..{bound} (the header's bound)", id.0);
                    issues.push(Issue { rule: RuleId::BinaryIdBound, inst: Some(i), message });
                }
                let k = id.0 as usize;
                if k < id_cap && k >= ids.len() {
                    let len = (k + 1).max(2 * ids.len()).min(id_cap);
                    ids.resize(len, IdSlot::default());
                }
                match ids.get_mut(k) {
                    Some(slot) if slot.def == 0 => {
                        slot.def = i as u32 + 1;
                        slot.is_type = inst.is_type();
                        first = Some(id.0 as usize);
                    }
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
            // One match files the instruction in the lists and records what
            // the tables need from it.
            match inst {
                Inst::TypeVoid { .. } | Inst::TypeBool { .. } => lists.types.push(i),
                Inst::TypeInt { .. } | Inst::TypeFloat { .. } | Inst::TypeTensor { .. } | Inst::TypeGraph { .. } => {
                    lists.types.push(i);
                    lists.caps.push(i);
                }
                Inst::Variable { .. } => {
                    lists.types.push(i);
                    lists.interface.push(i);
                }
                Inst::ConstantTrue { .. }
                | Inst::ConstantFalse { .. }
                | Inst::Constant { .. }
                | Inst::ConstantComposite { .. }
                | Inst::ConstantNull { .. } => lists.constants.push(i),
                Inst::ConstantCompositeReplicate { .. } | Inst::GraphConstant { .. } => {
                    lists.constants.push(i);
                    lists.caps.push(i);
                }
                Inst::GraphEntryPoint { .. } | Inst::MemoryModel { .. } => {
                    lists.caps.push(i);
                    lists.interface.push(i);
                }
                Inst::GraphInput { .. } | Inst::GraphSetOutput { .. } | Inst::GraphEnd => lists.caps.push(i),
                Inst::Capability(c) => {
                    capabilities.push(*c);
                    lists.caps.push(i);
                }
                Inst::Extension(_) => extensions.push(i),
                Inst::ExtInstImport { result, name } => {
                    sets.push((*result, ExtSet::from_import_name(name)));
                    lists.caps.push(i);
                    lists.imports.push(i);
                }
                Inst::Graph { ty, result } => {
                    // A nested OpGraphARM starts a new span; the nesting itself
                    // is a layout error reported by the layout check.
                    graphs.push(GraphSpan { begin: i, end: None, result: *result, ty: *ty });
                    open = Some(graphs.len() - 1);
                    lists.caps.push(i);
                }
                Inst::Decorate { .. } => {
                    lists.decorations.push(i);
                    lists.caps.push(i);
                }
                Inst::Tosa { .. } | Inst::GraphDebug { .. } | Inst::ExtInst { .. } => lists.ext.push(i),
                Inst::Raw { opcode, .. } if *opcode == spirv::Op::Function as u16 => has_functions = true,
                Inst::Raw { opcode, .. } if is_tensor_op(*opcode) => {
                    lists.tensor_ops.push(i);
                    lists.caps.push(i);
                }
                _ => {}
            }
            if let Some(g) = open {
                graph_of[i] = g as u32 + 1;
                if let Some(slot) = first.and_then(|k| ids.get_mut(k)) {
                    if !matches!(inst, Inst::Graph { .. }) {
                        slot.local_graph = g as u32 + 1;
                    }
                }
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
            ids,
            id_cap,
            graph_of,
            graphs,
            tensors: Vec::new(),
            shapes: Vec::new(),
            capabilities,
            extensions,
            lists,
            tosa: std::mem::take(&mut scratch.tosa).recycle(KEEP_LIMIT),
            type_keys: recycle(std::mem::take(&mut scratch.type_keys)),
            has_functions,
            sets,
            version,
            issues,
            messages: true,
            not_checked: Vec::new(),
        };
        let mut tensors = recycle(std::mem::take(&mut scratch.tensors));
        let mut shapes = recycle(std::mem::take(&mut scratch.shapes));
        for (i, inst) in cx.lists.types.iter().filter_map(|&i| Some((i, insts.get(i)?))) {
            if let Inst::TypeTensor { result, element, rank, shape } = inst {
                tensors.push((i, cx.resolve_tensor(*element, *rank, *shape, &mut shapes)));
                // Only the first definition of an id names its type.
                if let Some(slot) = cx.ids.get_mut(result.0 as usize).filter(|s| s.def as usize == i + 1) {
                    slot.tensor = tensors.len() as u32;
                }
            }
        }
        cx.tensors = tensors;
        cx.shapes = shapes;
        cx
    }

    /// Gives the tables back to `scratch` for the next check; returns the
    /// issues and the parts not checked.
    pub fn finish(self, scratch: &mut Scratch) -> (Vec<Issue>, Vec<String>) {
        scratch.ids = self.ids;
        scratch.graph_of = self.graph_of;
        scratch.graphs = self.graphs;
        scratch.tensors = self.tensors;
        scratch.shapes = self.shapes;
        scratch.capabilities = self.capabilities;
        scratch.extensions = self.extensions;
        scratch.lists = self.lists;
        scratch.tosa = self.tosa;
        scratch.type_keys = self.type_keys;
        scratch.sets = self.sets;
        (self.issues, self.not_checked)
    }

    /// Resolves one tensor type; its shape goes at the end of `shapes`.
    fn resolve_tensor(&self, element: Id, rank: Option<Id>, shape: Option<Id>, shapes: &mut Vec<u64>) -> TensorInfo {
        let elem = self.scalar(element).and_then(ElemType::from_spirv);
        let (ranked, shaped) = (rank.is_some(), shape.is_some());
        let start = shapes.len();
        let shape = match shape.map(|s| self.push_const_uint_array(s, shapes)) {
            Some(Some(())) => Some(ShapeRef { start, len: shapes.len() - start }),
            _ => {
                shapes.truncate(start);
                None
            }
        };
        let dims_ok = shape.is_some_and(|r| {
            shapes
                .get(r.start..r.start + r.len)
                .is_some_and(|s| !s.is_empty() && s.iter().all(|&d| d <= u64::from(u32::MAX)))
        });
        TensorInfo { element, elem, ranked, shaped, shape, dims_ok }
    }

    /// The shape of a resolved tensor type, when known.
    pub fn shape(&self, t: &TensorInfo) -> Option<&[u64]> {
        let r = t.shape?;
        self.shapes.get(r.start..r.start + r.len)
    }

    /// The position of a tensor type among the module's tensor types (for
    /// [`Cx::tensor_dims`]), when `ty` is one.
    pub fn tensor_index(&self, ty: Id) -> Option<usize> {
        match self.ids.get(ty.0 as usize) {
            Some(slot) => (slot.tensor as usize).checked_sub(1),
            None => {
                let at = self.def_index(ty)?;
                self.tensors.binary_search_by_key(&at, |(i, _)| *i).ok()
            }
        }
    }

    /// The tensor type at position `k` (see [`Cx::tensor_index`]).
    pub fn tensor_by_index(&self, k: usize) -> Option<&TensorInfo> {
        self.tensors.get(k).map(|(_, t)| t)
    }

    /// The shape of the tensor type at position `k` when it is known,
    /// non-empty and every entry fits a `u32` (the shapes TOSA reads).
    pub fn tensor_dims(&self, k: usize) -> Option<&[u64]> {
        let t = self.tensor_by_index(k)?;
        if !t.dims_ok {
            return None;
        }
        self.shape(t)
    }

    /// Records an issue; its message is rendered only when
    /// [`Cx::messages`] is on (pass `format_args!(...)` rather than
    /// `format_args!(...)` so that nothing is formatted otherwise).
    pub fn report(&mut self, rule: RuleId, inst: Option<usize>, message: impl Message) {
        let message = if self.messages { message.render() } else { String::new() };
        self.issues.push(Issue { rule, inst, message });
    }

    /// A message's text when messages are kept ([`Cx::messages`]), else
    /// nothing: for checks that collect messages before reporting them.
    pub fn text(&self, message: impl Message) -> String {
        if self.messages {
            message.render()
        } else {
            String::new()
        }
    }

    /// Records an issue at instruction `inst`.
    pub fn at(&mut self, inst: usize, rule: RuleId, message: impl Message) {
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
    #[inline]
    pub fn def_index(&self, id: Id) -> Option<usize> {
        match self.ids.get(id.0 as usize) {
            Some(slot) => (slot.def as usize).checked_sub(1),
            None => self.def_index_by_scan(id),
        }
    }

    /// Where `id` is first defined, whether that declares a type, and the
    /// graph it is local to (one table read for the id checks, which ask
    /// this of every operand).
    #[inline]
    pub fn id_facts(&self, id: Id) -> Option<IdFacts> {
        match self.ids.get(id.0 as usize) {
            Some(slot) => Some(IdFacts {
                def: (slot.def as usize).checked_sub(1)?,
                is_type: slot.is_type,
                local_graph: (slot.local_graph as usize).checked_sub(1),
            }),
            None => {
                let def = self.def_index_by_scan(id)?;
                let inst = self.insts.get(def)?;
                let local_graph = self.graph_at(def).filter(|_| !matches!(inst, Inst::Graph { .. }));
                Some(IdFacts { def, is_type: inst.is_type(), local_graph })
            }
        }
    }

    /// [`Cx::def_index`] for ids beyond the table (hostile modules only),
    /// kept out of line so that the table lookup stays small.
    #[cold]
    #[inline(never)]
    fn def_index_by_scan(&self, id: Id) -> Option<usize> {
        // The table covers every defined id below the cap.
        if (id.0 as usize) < self.id_cap {
            return None;
        }
        self.insts.iter().position(|inst| inst.result_id() == Some(id))
    }

    /// The instruction defining `id`.
    #[inline]
    pub fn def(&self, id: Id) -> Option<&'m Inst> {
        self.def_index(id).and_then(|i| self.insts.get(i))
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
        match self.ids.get(ty.0 as usize) {
            Some(slot) => {
                let k = (slot.tensor as usize).checked_sub(1)?;
                self.tensors.get(k).map(|(_, t)| t)
            }
            None => self.tensor_at(self.def_index(ty)?),
        }
    }

    /// The resolved `OpTypeTensorARM` declared by instruction `at`, which is
    /// the `k`-th tensor type of the module (the position saves a search).
    pub fn tensor_nth(&self, k: usize, at: usize) -> Option<&TensorInfo> {
        match self.tensors.get(k) {
            Some((i, t)) if *i == at => Some(t),
            _ => self.tensor_at(at),
        }
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

    /// Appends the elements of a constant integer array (composite of an
    /// `OpTypeArray`, or null) to `out`; `None` (with `out` partly
    /// written) if any element is not readable.
    fn push_const_uint_array(&self, id: Id, out: &mut Vec<u64>) -> Option<()> {
        match self.def(id)? {
            Inst::ConstantComposite { constituents, spec: false, .. } => {
                out.reserve(constituents.len());
                for &c in constituents {
                    out.push(self.const_uint(c)?);
                }
                Some(())
            }
            Inst::ConstantNull { ty, .. } => match self.def(*ty)? {
                Inst::TypeArray { length, .. } => {
                    let n = self.const_uint(*length)?;
                    (n <= 64).then(|| out.resize(out.len() + n as usize, 0))
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// Appends the raw element bits of a constant (scalar, or tensor
    /// flattened in row-major order) with at most `limit` elements to `out`
    /// and returns where they are; `None` (with `out` unchanged) for graph
    /// constants, spec constants and anything malformed.
    pub fn const_bits_into(&self, id: Id, limit: u64, out: &mut Vec<u64>) -> Option<(usize, usize)> {
        let base = out.len();
        // The limit counts from `base`: the nested reads compare it with the
        // whole length of `out`.
        match self.push_const_bits(id, limit.saturating_add(base as u64), 0, out) {
            Some(()) => Some((base, out.len() - base)),
            None => {
                out.truncate(base);
                None
            }
        }
    }

    /// Appends the elements of constant `id` to `out` (see
    /// [`Cx::const_bits_into`]; `limit` bounds the length of all of `out`).
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
        let count = spvgraph_ir::count::checked(self.shape(t)?.iter().copied())?;
        if count > limit || out.len() as u64 + count > limit {
            return None;
        }
        let start = out.len();
        // `count` is at most `limit`: the whole tensor in one allocation.
        out.reserve(count as usize);
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
                // Scalar constituents are read here, their type resolved once
                // per run of equal types; anything else recurses (the depth
                // limit applies to the recursion).
                let mut last: Option<(Id, Option<ScalarKind>)> = None;
                for c in constituents {
                    let scalar = if depth < 64 {
                        let inst = self.def(*c)?;
                        let cty = inst.result_type()?;
                        let kind = match last {
                            Some((t, k)) if t == cty => k,
                            _ => {
                                let k = self.scalar(cty);
                                last = Some((cty, k));
                                k
                            }
                        };
                        kind.map(|k| (inst, k))
                    } else {
                        None
                    };
                    match scalar {
                        // The common case, read here rather than in `scalar_bits`.
                        Some((Inst::Constant { value, spec: false, .. }, ScalarKind::Int { width, .. }))
                        | Some((Inst::Constant { value, spec: false, .. }, ScalarKind::Float { width, .. })) => {
                            out.push(raw_bits(value, width))
                        }
                        Some((inst, kind)) => out.push(self.scalar_bits(inst, kind)?),
                        None => self.push_const_bits(*c, limit, depth + 1, out)?,
                    }
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
    #[inline]
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

    /// Whether capability `c` is declared, explicitly or implicitly (by a
    /// declared capability that depends on it: `Geometry` declares `Shader`).
    pub fn declares_capability(&self, c: spirv::Capability) -> bool {
        self.capabilities.iter().any(|&d| spvgraph_ir::opname::capability_declares(d, c))
    }

    /// Whether an extension is declared.
    pub fn has_extension(&self, e: &str) -> bool {
        self.extensions.iter().any(|&i| matches!(self.insts.get(i), Some(Inst::Extension(x)) if x == e))
    }

    /// The graph (ordinal) that instruction `inst` belongs to, if any.
    pub fn graph_at(&self, inst: usize) -> Option<usize> {
        match self.graph_of.get(inst) {
            Some(&0) | None => None,
            Some(&g) => Some(g as usize - 1),
        }
    }
}
