//! The text form: a spirv-dis-like listing with friendly names, for reports.
//!
//! Names come from `OpName` where present, otherwise from what the id is
//! (`%uint`, `%tensor_float_1x8x8x4`, `%uint_4`, `%tosa`), made unique with a
//! numeric suffix. Values are printed as numbers of their declared type
//! (bf16/fp8 constants as decoded floats). The listing is meant for people;
//! it is not guaranteed to re-assemble with spirv-as.

use crate::analysis::{raw_bits, Analysis, Type};
use crate::elem::{ElemType, ScalarKind};
use crate::inst::{Id, Inst};
use crate::module::Module;
use crate::opname::opcode_name;
use rspirv::grammar::{OperandKind, OperandQuantifier, INSTRUCTION_TABLE};
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

/// Renders the whole module.
pub fn disassemble(module: &Module) -> String {
    let a = Analysis::new(module);
    let names = FriendlyNames::new(&a);
    let mut out = String::new();
    let h = &module.header;
    let (major, minor) = h.version_pair();
    let _ = writeln!(out, "; SPIR-V");
    let _ = writeln!(out, "; Version: {major}.{minor}");
    let _ = writeln!(out, "; Generator: {:#010x}", h.generator);
    let _ = writeln!(out, "; Bound: {}", h.bound);
    let _ = writeln!(out, "; Schema: {}", h.schema);
    let mut depth = 0usize;
    for inst in &module.insts {
        if matches!(inst, Inst::GraphEnd) {
            depth = depth.saturating_sub(1);
        }
        let body = render_inst(&a, &names, inst);
        let indent = "  ".repeat(depth);
        match inst.result_id() {
            Some(id) => {
                let lhs = format!("{} = ", names.get(id));
                let _ = writeln!(out, "{indent}{lhs:>19}{body}");
            }
            None => {
                let _ = writeln!(out, "{indent}{:>19}{body}", "");
            }
        }
        if matches!(inst, Inst::Graph { .. }) {
            depth += 1;
        }
    }
    out
}

/// Renders one instruction (without its `%result =` part) using the module's names.
pub fn render_one(module: &Module, inst: &Inst) -> String {
    let a = Analysis::new(module);
    let names = FriendlyNames::new(&a);
    render_inst(&a, &names, inst)
}

/// Unique, readable names for every result id of a module.
pub struct FriendlyNames {
    names: HashMap<Id, String>,
}

impl FriendlyNames {
    /// Derives names for every result id.
    pub fn new(a: &Analysis<'_>) -> FriendlyNames {
        let mut names = HashMap::new();
        let mut used = HashSet::new();
        for inst in &a.module.insts {
            let Some(id) = inst.result_id() else { continue };
            if names.contains_key(&id) {
                continue;
            }
            let base = a.name(id).map(sanitize).filter(|s| !s.is_empty()).unwrap_or_else(|| derive_name(a, inst, id));
            let mut candidate = base.clone();
            let mut n = 0;
            while !used.insert(candidate.clone()) {
                candidate = format!("{base}_{n}");
                n += 1;
            }
            names.insert(id, candidate);
        }
        FriendlyNames { names }
    }

    /// `%name` for an id (`%N` for ids never defined).
    pub fn get(&self, id: Id) -> String {
        match self.names.get(&id) {
            Some(n) => format!("%{n}"),
            None => format!("%{}", id.0),
        }
    }
}

fn sanitize(s: &str) -> String {
    s.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect()
}

fn scalar_name(k: ScalarKind) -> String {
    match k {
        ScalarKind::Bool => "bool".into(),
        ScalarKind::Int { width, signed } => {
            let base = match width {
                8 => "char",
                16 => "short",
                32 => "int",
                64 => "long",
                _ => return format!("{}int{width}", if signed { "" } else { "u" }),
            };
            format!("{}{base}", if signed { "" } else { "u" })
        }
        ScalarKind::Float { width, encoding } => match ElemType::from_spirv(k) {
            Some(ElemType::Fp16) => "half".into(),
            Some(ElemType::Fp32) => "float".into(),
            Some(ElemType::Bf16) => "bfloat16".into(),
            Some(e @ (ElemType::Fp8E4M3 | ElemType::Fp8E5M2)) => e.name().into(),
            _ if width == 64 && encoding.is_none() => "double".into(),
            _ => format!("float{width}"),
        },
    }
}

fn type_name(a: &Analysis<'_>, id: Id, depth: u32) -> String {
    if depth > 8 {
        return format!("{}", id.0);
    }
    match a.ty(id) {
        Some(Type::Void) => "void".into(),
        Some(Type::Scalar(k)) => scalar_name(k),
        Some(Type::Array { element, length }) => match length {
            Some(n) => format!("_arr_{}_{n}", type_name(a, element, depth + 1)),
            None => format!("_arr_{}", type_name(a, element, depth + 1)),
        },
        Some(Type::RuntimeArray { element }) => format!("_runtimearr_{}", type_name(a, element, depth + 1)),
        Some(Type::Struct(_)) => format!("_struct_{}", id.0),
        Some(Type::Pointer { storage, pointee }) => {
            let sc =
                spirv::StorageClass::from_u32(storage).map(|s| format!("{s:?}")).unwrap_or_else(|| storage.to_string());
            format!("_ptr_{sc}_{}", type_name(a, pointee, depth + 1))
        }
        Some(Type::Tensor(t)) => {
            let elem = type_name(a, t.element, depth + 1);
            match (&t.shape, t.rank) {
                (Some(s), _) => {
                    let dims: Vec<String> = s.iter().map(|d| d.to_string()).collect();
                    format!("tensor_{elem}_{}", dims.join("x"))
                }
                (None, Some(r)) => format!("tensor_{elem}_r{r}"),
                _ => format!("tensor_{elem}"),
            }
        }
        Some(Type::Graph { .. }) => format!("graph_type_{}", id.0),
        Some(Type::Other) | None => format!("type_{}", id.0),
    }
}

fn derive_name(a: &Analysis<'_>, inst: &Inst, id: Id) -> String {
    match inst {
        i if i.is_type() => type_name(a, id, 0),
        Inst::ExtInstImport { name, .. } => match crate::inst::ExtSet::from_import_name(name) {
            crate::inst::ExtSet::Tosa => "tosa".into(),
            crate::inst::ExtSet::GraphDebugInfo => "graph_debug".into(),
            crate::inst::ExtSet::NonSemantic | crate::inst::ExtSet::Other => sanitize(name),
        },
        Inst::ConstantTrue { spec: false, .. } => "true".into(),
        Inst::ConstantFalse { spec: false, .. } => "false".into(),
        Inst::Constant { ty, value, spec: false, .. } => match a.scalar_kind(*ty) {
            Some(k) => {
                let v = scalar_text(k, value).replace('-', "n").replace(['.', '+'], "_");
                format!("{}_{}", scalar_name(k), sanitize(&v))
            }
            None => format!("{}", id.0),
        },
        Inst::ConstantNull { ty, .. } => format!("null_{}", type_name(a, *ty, 0)),
        Inst::GraphConstant { graph_constant_id, .. } => format!("graph_constant_{graph_constant_id}"),
        Inst::Variable { result, .. } => interface_role(a, *result).unwrap_or_else(|| format!("{}", id.0)),
        Inst::GraphInput { input_index, element_index, .. } => {
            let graph = a.graphs.iter().find(|g| g.inputs.iter().any(|&i| a.module.insts.get(i) == Some(inst)));
            let prefix = graph.map(|g| graph_label(a, g.result)).unwrap_or_else(|| "graph".into());
            match (a.const_uint(*input_index), element_index.and_then(|e| a.const_uint(e))) {
                (Some(i), Some(e)) => format!("{prefix}_in{i}_{e}"),
                (Some(i), None) => format!("{prefix}_in{i}"),
                _ => format!("{}", id.0),
            }
        }
        Inst::Graph { result, .. } => graph_label(a, *result),
        _ => format!("{}", id.0),
    }
}

/// `<entry point>_in<k>` / `_out<k>` for an interface variable.
fn interface_role(a: &Analysis<'_>, var: Id) -> Option<String> {
    a.graph_entry_points.iter().find_map(|&i| match a.module.insts.get(i) {
        Some(Inst::GraphEntryPoint { graph, name, interface }) => {
            let pos = interface.iter().position(|&v| v == var)?;
            let n_in = a.graph(*graph).and_then(|g| match a.ty(g.ty) {
                Some(Type::Graph { inputs, .. }) => Some(inputs.len()),
                _ => None,
            });
            Some(match n_in {
                Some(k) if pos >= k => format!("{}_iface_out{}", sanitize(name), pos - k),
                _ => format!("{}_iface_in{pos}", sanitize(name)),
            })
        }
        _ => None,
    })
}

/// The name a graph's values are prefixed with: its entry point's name or `graph_<id>`.
fn graph_label(a: &Analysis<'_>, graph: Id) -> String {
    if let Some(n) = a.name(graph) {
        return sanitize(n);
    }
    a.graph_entry_points
        .iter()
        .find_map(|&i| match a.module.insts.get(i) {
            Some(Inst::GraphEntryPoint { graph: g, name, .. }) if *g == graph => Some(sanitize(name)),
            _ => None,
        })
        .unwrap_or_else(|| format!("graph_{}", graph.0))
}

/// A scalar constant's value as text, read as its declared type.
pub fn scalar_text(kind: ScalarKind, words: &[u32]) -> String {
    match kind {
        ScalarKind::Bool => (raw_bits(words, 1) != 0).to_string(),
        ScalarKind::Int { width, signed } => {
            let bits = raw_bits(words, width);
            if signed && width > 0 && width <= 64 {
                let shift = 64 - width;
                (((bits << shift) as i64) >> shift).to_string()
            } else {
                bits.to_string()
            }
        }
        ScalarKind::Float { width, .. } => {
            let bits = raw_bits(words, width);
            match ElemType::from_spirv(kind) {
                Some(e) => {
                    crate::scalar::float_bits_to_f64(e, bits).map(format_float).unwrap_or_else(|| format!("{bits:#x}"))
                }
                None if width == 64 => format_float(f64::from_bits(bits)),
                None => format!("{bits:#x}"),
            }
        }
    }
}

fn format_float(v: f64) -> String {
    if v.is_nan() {
        "nan".into()
    } else if v.is_infinite() {
        if v > 0.0 {
            "inf".into()
        } else {
            "-inf".into()
        }
    } else {
        format!("{v:?}")
    }
}

fn enum_name(kind: &OperandKind, w: u32) -> Option<String> {
    let s = match kind {
        OperandKind::Capability => format!("{:?}", spirv::Capability::from_u32(w)?),
        OperandKind::StorageClass => format!("{:?}", spirv::StorageClass::from_u32(w)?),
        OperandKind::Decoration => format!("{:?}", spirv::Decoration::from_u32(w)?),
        OperandKind::ExecutionModel => format!("{:?}", spirv::ExecutionModel::from_u32(w)?),
        OperandKind::ExecutionMode => format!("{:?}", spirv::ExecutionMode::from_u32(w)?),
        OperandKind::AddressingModel => format!("{:?}", spirv::AddressingModel::from_u32(w)?),
        OperandKind::MemoryModel => format!("{:?}", spirv::MemoryModel::from_u32(w)?),
        OperandKind::SourceLanguage => format!("{:?}", spirv::SourceLanguage::from_u32(w)?),
        OperandKind::BuiltIn => format!("{:?}", spirv::BuiltIn::from_u32(w)?),
        OperandKind::FPEncoding => format!("{:?}", spirv::FPEncoding::from_u32(w)?),
        OperandKind::Dim => format!("{:?}", spirv::Dim::from_u32(w)?),
        OperandKind::Scope => format!("{:?}", spirv::Scope::from_u32(w)?),
        OperandKind::FunctionControl => {
            if w == 0 {
                "None".into()
            } else {
                format!("{:?}", spirv::FunctionControl::from_bits_retain(w))
            }
        }
        _ => return None,
    };
    Some(s)
}

/// Renders one instruction (without its `%result =` part) with prebuilt tables,
/// for callers that render many instructions of one module.
pub fn render_inst(a: &Analysis<'_>, n: &FriendlyNames, inst: &Inst) -> String {
    let ids = |v: &[Id]| v.iter().map(|&i| n.get(i)).collect::<Vec<_>>().join(" ");
    let opt = |v: &Option<Id>| v.map(|i| format!(" {}", n.get(i))).unwrap_or_default();
    let name = opcode_name(inst.opcode());
    let spec = |s: bool, base: &str| if s { format!("OpSpec{base}") } else { format!("Op{base}") };
    match inst {
        Inst::Capability(c) => {
            format!("{name} {}", enum_name(&OperandKind::Capability, *c).unwrap_or_else(|| c.to_string()))
        }
        Inst::Extension(s) => format!("{name} {s:?}"),
        Inst::ExtInstImport { name: s, .. } => format!("{name} {s:?}"),
        Inst::MemoryModel { addressing, memory } => format!(
            "{name} {} {}",
            enum_name(&OperandKind::AddressingModel, *addressing).unwrap_or_else(|| addressing.to_string()),
            enum_name(&OperandKind::MemoryModel, *memory).unwrap_or_else(|| memory.to_string())
        ),
        Inst::String { text, .. } => format!("{name} {text:?}"),
        Inst::Name { target, name: s } => format!("{name} {} {s:?}", n.get(*target)),
        Inst::Line { file, line, column } => format!("{name} {} {line} {column}", n.get(*file)),
        Inst::NoLine | Inst::GraphEnd => name,
        Inst::Decorate { target, decoration, literals } => {
            let d = enum_name(&OperandKind::Decoration, *decoration).unwrap_or_else(|| decoration.to_string());
            let lits: Vec<String> = literals.iter().map(|l| l.to_string()).collect();
            format!("{name} {} {d}{}{}", n.get(*target), if lits.is_empty() { "" } else { " " }, lits.join(" "))
        }
        Inst::TypeVoid { .. } | Inst::TypeBool { .. } => name,
        Inst::TypeInt { width, signedness, .. } => format!("{name} {width} {signedness}"),
        Inst::TypeFloat { width, encoding, .. } => match encoding {
            Some(e) => {
                format!("{name} {width} {}", enum_name(&OperandKind::FPEncoding, *e).unwrap_or_else(|| e.to_string()))
            }
            None => format!("{name} {width}"),
        },
        Inst::TypeArray { element, length, .. } => format!("{name} {} {}", n.get(*element), n.get(*length)),
        Inst::TypeRuntimeArray { element, .. } => format!("{name} {}", n.get(*element)),
        Inst::TypeStruct { members, .. } => format!("{name} {}", ids(members)).trim_end().to_string(),
        Inst::TypePointer { storage, pointee, .. } => format!(
            "{name} {} {}",
            enum_name(&OperandKind::StorageClass, *storage).unwrap_or_else(|| storage.to_string()),
            n.get(*pointee)
        ),
        Inst::TypeTensor { element, rank, shape, .. } => {
            format!("{name} {}{}{}", n.get(*element), opt(rank), opt(shape))
        }
        Inst::TypeGraph { num_inputs, io, .. } => format!("{name} {num_inputs} {}", ids(io)),
        Inst::ConstantTrue { ty, spec: s, .. } => format!("{} {}", spec(*s, "ConstantTrue"), n.get(*ty)),
        Inst::ConstantFalse { ty, spec: s, .. } => format!("{} {}", spec(*s, "ConstantFalse"), n.get(*ty)),
        Inst::Constant { ty, value, spec: s, .. } => {
            let v = match a.scalar_kind(*ty) {
                Some(k) => scalar_text(k, value),
                None => value.iter().map(|w| format!("{w:#x}")).collect::<Vec<_>>().join(" "),
            };
            format!("{} {} {v}", spec(*s, "Constant"), n.get(*ty))
        }
        Inst::ConstantComposite { ty, constituents, spec: s, .. } => {
            format!("{} {} {}", spec(*s, "ConstantComposite"), n.get(*ty), ids(constituents))
        }
        Inst::ConstantCompositeReplicate { ty, constituent, spec: s, .. } => {
            format!("{} {} {}", spec(*s, "ConstantCompositeReplicateEXT"), n.get(*ty), n.get(*constituent))
        }
        Inst::ConstantNull { ty, .. } => format!("{name} {}", n.get(*ty)),
        Inst::GraphConstant { ty, graph_constant_id, .. } => format!("{name} {} {graph_constant_id}", n.get(*ty)),
        Inst::Variable { ty, storage, initializer, .. } => format!(
            "{name} {} {}{}",
            n.get(*ty),
            enum_name(&OperandKind::StorageClass, *storage).unwrap_or_else(|| storage.to_string()),
            opt(initializer)
        ),
        Inst::GraphEntryPoint { graph, name: s, interface } => {
            format!("{name} {} {s:?} {}", n.get(*graph), ids(interface)).trim_end().to_string()
        }
        Inst::Graph { ty, .. } => format!("{name} {}", n.get(*ty)),
        Inst::GraphInput { ty, input_index, element_index, .. } => {
            format!("{name} {} {}{}", n.get(*ty), n.get(*input_index), opt(element_index))
        }
        Inst::GraphSetOutput { value, output_index, element_index } => {
            format!("{name} {} {}{}", n.get(*value), n.get(*output_index), opt(element_index))
        }
        Inst::Tosa { ty, set, op, args, .. } => {
            format!("{name} {} {} {} {}", n.get(*ty), n.get(*set), op.name(), ids(args))
        }
        Inst::GraphDebug { ty, set, inst: d, .. } => {
            format!("{name} {} {} {} {}", n.get(*ty), n.get(*set), d.name(), ids(&d.operands()))
        }
        Inst::ExtInst { ty, set, number, operands, .. } => {
            let ops: Vec<String> = operands.iter().map(|&w| n.get(Id(w))).collect();
            format!("{name} {} {} {number} {}", n.get(*ty), n.get(*set), ops.join(" ")).trim_end().to_string()
        }
        Inst::CompositeExtract { ty, composite, indices, .. } => {
            let idx: Vec<String> = indices.iter().map(|i| i.to_string()).collect();
            format!("{name} {} {} {}", n.get(*ty), n.get(*composite), idx.join(" ")).trim_end().to_string()
        }
        Inst::Raw { opcode, operands } => render_raw(n, *opcode, operands),
    }
}

/// Renders an instruction the model keeps verbatim, guided by the core grammar;
/// words the grammar cannot account for are printed as numbers.
fn render_raw(n: &FriendlyNames, opcode: u16, operands: &[u32]) -> String {
    let mut parts = vec![opcode_name(opcode)];
    let grammar = INSTRUCTION_TABLE.lookup_opcode(u32::from(opcode));
    let mut at = 0;
    if let Some(g) = grammar {
        'outer: for lo in g.operands {
            loop {
                if at >= operands.len() {
                    break 'outer;
                }
                let w = operands[at];
                match lo.kind {
                    OperandKind::IdResult => at += 1,
                    OperandKind::IdResultType
                    | OperandKind::IdRef
                    | OperandKind::IdMemorySemantics
                    | OperandKind::IdScope => {
                        parts.push(n.get(Id(w)));
                        at += 1;
                    }
                    // The mask, then the ids its bits bring, as spirv-as reads them.
                    OperandKind::TensorOperands => {
                        parts.push(crate::tensor_access::mask_text(w));
                        at += 1;
                        for _ in 0..crate::tensor_access::mask_ids(w) {
                            let Some(&id) = operands.get(at) else { break 'outer };
                            parts.push(n.get(Id(id)));
                            at += 1;
                        }
                    }
                    OperandKind::LiteralString => match crate::binary::decode_string(&operands[at..]) {
                        Ok((s, used)) => {
                            parts.push(format!("{s:?}"));
                            at += used;
                        }
                        Err(_) => break 'outer,
                    },
                    ref k => {
                        parts.push(enum_name(k, w).unwrap_or_else(|| w.to_string()));
                        at += 1;
                    }
                }
                if lo.quantifier != OperandQuantifier::ZeroOrMore {
                    break;
                }
            }
        }
    }
    parts.extend(operands.iter().skip(at).map(|w| w.to_string()));
    parts.join(" ")
}
