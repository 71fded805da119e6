//! Printing one graph as a `func.func` of TOSA MLIR operations.

use super::error::MlirErrorKind;
use super::literal::mlir_elem_type;
use super::types::{interface_entry, tensor_ty, TensorTy};
use crate::analysis::{Analysis, GraphView, Type};
use crate::inst::{Id, Inst};
use crate::tensor::TensorData;
use crate::tosa::{MlirRepr, ResultKind, ShapeRule, TosaOp};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

/// A failure, tied to the index of the instruction being printed.
pub(crate) struct Fail {
    /// Index into `Module::insts`.
    pub at: Option<usize>,
    /// What went wrong.
    pub kind: MlirErrorKind,
}

pub(super) type R<T> = Result<T, Fail>;

/// One function argument or result: an interface entry, or one element of a
/// tensor-array entry.
struct Slot {
    index: usize,
    element: Option<u64>,
    ty: TensorTy,
}

/// An SSA value of the function.
#[derive(Clone)]
pub(super) enum Val {
    /// A tensor (`%3`, `%arg0`, or `%5#1` for an FFT member).
    Tensor { name: String, ty: TensorTy },
    /// Both results of FFT2D/RFFT2D (`%5:2`); read with OpCompositeExtract.
    Pair { name: String, parts: [TensorTy; 2] },
}

/// An SSA operand as it appears in an operation.
pub(super) struct Operand {
    /// `%3`, `%arg0`, `%5#1`.
    pub name: String,
    /// Its MLIR type text.
    pub ty: String,
    /// Its tensor type (`None` for `!tosa.shape` values).
    pub tensor: Option<TensorTy>,
}

/// The printer's state for one graph.
pub(crate) struct Printer<'a, 'm> {
    pub(super) a: &'a Analysis<'m>,
    /// Graph-constant data by GraphConstantID.
    pub(super) data: &'a BTreeMap<u32, TensorData>,
    /// The function body printed so far.
    pub(super) body: String,
    /// SSA value of each SPIR-V id printed so far (constants included).
    pub(super) values: HashMap<Id, Val>,
    /// `tosa.const_shape` value and length of each shape constant.
    pub(super) shapes: HashMap<Id, (String, usize)>,
    next: usize,
    /// Index of the instruction being printed, for error locations.
    at: Option<usize>,
}

/// Prints the graph of entry point `entry`.
pub(crate) fn print_entry_point(a: &Analysis<'_>, data: &BTreeMap<u32, TensorData>, entry: &str) -> R<String> {
    let mut found = None;
    let mut available = Vec::new();
    for &i in &a.graph_entry_points {
        if let Some(Inst::GraphEntryPoint { graph, name, .. }) = a.module.insts.get(i) {
            if name == entry && found.is_none() {
                found = Some((i, *graph));
            }
            available.push(name.clone());
        }
    }
    let Some((ep_index, graph)) = found else {
        return Err(Fail { at: None, kind: MlirErrorKind::UnknownEntryPoint { name: entry.to_string(), available } });
    };
    let Some(view) = a.graph(graph).filter(|g| g.end.is_some()) else {
        return Err(Fail {
            at: Some(ep_index),
            kind: MlirErrorKind::GraphNotDefined { name: entry.to_string(), graph },
        });
    };
    let mut p = Printer {
        a,
        data,
        body: String::new(),
        values: HashMap::new(),
        shapes: HashMap::new(),
        next: 0,
        at: Some(view.begin),
    };
    p.graph(entry, view)
}

impl<'a, 'm> Printer<'a, 'm> {
    /// An error about the instruction being printed.
    pub(super) fn fail<T>(&self, kind: MlirErrorKind) -> R<T> {
        Err(Fail { at: self.at, kind })
    }

    /// Ties an error from a helper to the instruction being printed.
    pub(super) fn lift<T>(&self, r: Result<T, MlirErrorKind>) -> R<T> {
        r.map_err(|kind| Fail { at: self.at, kind })
    }

    /// A new SSA name.
    pub(super) fn fresh(&mut self) -> String {
        let name = format!("%{}", self.next);
        self.next += 1;
        name
    }

    fn graph(&mut self, entry: &str, view: &GraphView) -> R<String> {
        let Some(Type::Graph { inputs, outputs }) = self.a.ty(view.ty) else {
            return self.fail(MlirErrorKind::NotAGraphType { ty: view.ty });
        };
        let args = self.slots(&inputs, "input")?;
        let results = self.slots(&outputs, "output")?;
        for &i in &view.inputs {
            self.at = Some(i);
            self.input(i, &args)?;
        }
        for &i in &view.body {
            self.at = Some(i);
            self.body_inst(i)?;
        }
        let mut set: Vec<Option<String>> = vec![None; results.len()];
        for &i in &view.outputs {
            self.at = Some(i);
            self.output(i, &results, &mut set)?;
        }
        self.at = view.end;
        let mut returned = Vec::with_capacity(results.len());
        for (slot, name) in results.iter().zip(set) {
            match name {
                Some(n) => returned.push(n),
                None => {
                    return self.fail(MlirErrorKind::OutputNotSet { index: slot.index, element: slot.element });
                }
            }
        }

        let mut out = String::new();
        let _ = writeln!(out, "// TOSA MLIR of graph entry point {entry:?} (graph {})", view.result);
        let params: Vec<String> = args.iter().enumerate().map(|(k, s)| format!("%arg{k}: {}", s.ty.mlir())).collect();
        let result_types: Vec<String> = results.iter().map(|s| s.ty.mlir()).collect();
        let _ = writeln!(
            out,
            "func.func @{}({}) -> ({}) {{",
            symbol_name(entry),
            params.join(", "),
            result_types.join(", ")
        );
        out.push_str(&self.body);
        if returned.is_empty() {
            out.push_str("  return\n");
        } else {
            let _ = writeln!(out, "  return {} : {}", returned.join(", "), result_types.join(", "));
        }
        out.push_str("}\n");
        Ok(out)
    }

    /// The function arguments (or results) of a graph type's inputs (outputs).
    fn slots(&self, types: &[Id], role: &str) -> R<Vec<Slot>> {
        let mut slots = Vec::new();
        for (index, &ty) in types.iter().enumerate() {
            let (tensor, len) = self.lift(interface_entry(self.a, ty, &format!("{role} {index}")))?;
            match len {
                None => slots.push(Slot { index, element: None, ty: tensor }),
                Some(n) => {
                    slots.extend((0..n).map(|e| Slot { index, element: Some(e), ty: tensor.clone() }));
                }
            }
        }
        Ok(slots)
    }

    /// The slot selected by an InputIndex/OutputIndex and optional ElementIndex.
    fn slot_of(&self, slots: &[Slot], role: &str, index: Id, element: Option<Id>) -> R<usize> {
        let Some(i) = self.a.const_uint(index) else {
            return self
                .fail(MlirErrorKind::BadIndex { what: format!("{role}Index {index} is not an integer constant") });
        };
        let e = match element {
            None => None,
            Some(id) => match self.a.const_uint(id) {
                Some(v) => Some(v),
                None => {
                    return self.fail(MlirErrorKind::BadIndex {
                        what: format!("ElementIndex {id} is not an integer constant"),
                    })
                }
            },
        };
        match slots.iter().position(|s| s.index as u64 == i && s.element == e) {
            Some(k) => Ok(k),
            None => self.fail(MlirErrorKind::BadIndex {
                what: format!(
                    "{role}Index {i}{} does not select a {} of the graph type",
                    e.map(|e| format!(" with ElementIndex {e}")).unwrap_or_default(),
                    if role == "Input" { "tensor input" } else { "tensor output" }
                ),
            }),
        }
    }

    fn input(&mut self, i: usize, args: &[Slot]) -> R<()> {
        let Some(Inst::GraphInput { ty, result, input_index, element_index }) = self.a.module.insts.get(i) else {
            return self.fail(MlirErrorKind::NotPrintable);
        };
        let k = self.slot_of(args, "Input", *input_index, *element_index)?;
        let declared = self.lift(tensor_ty(self.a, *ty, &format!("graph input {result}")))?;
        let Some(slot) = args.get(k) else { return self.fail(MlirErrorKind::NotPrintable) };
        if declared != slot.ty {
            return self.fail(MlirErrorKind::TypeMismatch {
                what: format!("graph input {result}"),
                expected: slot.ty.mlir(),
                found: declared.mlir(),
            });
        }
        self.values.insert(*result, Val::Tensor { name: format!("%arg{k}"), ty: declared });
        Ok(())
    }

    fn output(&mut self, i: usize, results: &[Slot], set: &mut [Option<String>]) -> R<()> {
        let Some(Inst::GraphSetOutput { value, output_index, element_index }) = self.a.module.insts.get(i) else {
            return self.fail(MlirErrorKind::NotPrintable);
        };
        let k = self.slot_of(results, "Output", *output_index, *element_index)?;
        let operand = self.value(*value, "the output value")?;
        let (Some(slot), Some(entry)) = (results.get(k), set.get_mut(k)) else {
            return Err(Fail { at: self.at, kind: MlirErrorKind::NotPrintable });
        };
        if operand.tensor.as_ref() != Some(&slot.ty) {
            return Err(Fail {
                at: self.at,
                kind: MlirErrorKind::TypeMismatch {
                    what: format!("the value {value} set as output {}", slot.index),
                    expected: slot.ty.mlir(),
                    found: operand.ty,
                },
            });
        }
        if entry.is_some() {
            return Err(Fail {
                at: self.at,
                kind: MlirErrorKind::OutputSetTwice { index: slot.index, element: slot.element },
            });
        }
        *entry = Some(operand.name);
        Ok(())
    }

    fn body_inst(&mut self, i: usize) -> R<()> {
        let Some(inst) = self.a.module.insts.get(i) else { return Ok(()) };
        match inst {
            Inst::Tosa { ty, result, op, args, .. } => self.tosa(*ty, *result, *op, args),
            Inst::CompositeExtract { ty, result, composite, indices } => {
                self.extract(*ty, *result, *composite, indices)
            }
            // Debug information has no semantics and no TOSA MLIR form.
            Inst::GraphDebug { .. } | Inst::Line { .. } | Inst::NoLine => Ok(()),
            _ => self.fail(MlirErrorKind::NotPrintable),
        }
    }

    fn extract(&mut self, ty: Id, result: Id, composite: Id, indices: &[u32]) -> R<()> {
        let Some(Val::Pair { name, parts }) = self.values.get(&composite).cloned() else {
            return self.fail(MlirErrorKind::BadExtract {
                reason: format!("reads {composite}, which is not an earlier FFT2D/RFFT2D result of this graph"),
            });
        };
        let member = match indices {
            [m] if (*m as usize) < parts.len() => *m as usize,
            _ => {
                return self.fail(MlirErrorKind::BadExtract {
                    reason: format!("indices {indices:?} must be exactly one index, 0 (real) or 1 (imaginary)"),
                })
            }
        };
        let declared = self.lift(tensor_ty(self.a, ty, &format!("OpCompositeExtract result {result}")))?;
        let part = parts[member].clone();
        if declared != part {
            return self.fail(MlirErrorKind::TypeMismatch {
                what: format!("OpCompositeExtract result {result}"),
                expected: part.mlir(),
                found: declared.mlir(),
            });
        }
        self.values.insert(result, Val::Tensor { name: format!("{name}#{member}"), ty: part });
        Ok(())
    }

    /// One TOSA instruction, printed from its catalogue entry: attributes
    /// into the attribute dictionary, the other operands as SSA operands.
    fn tosa(&mut self, ty: Id, result: Id, op: TosaOp, args: &[Id]) -> R<()> {
        let spec = op.spec();
        if !spec.accepts_operand_count(args.len()) {
            return self.fail(MlirErrorKind::OperandCount {
                op,
                expected: spec.operands.len(),
                variadic: spec.variadic,
                found: args.len(),
            });
        }
        let mut operands: Vec<Operand> = Vec::new();
        let mut attrs: Vec<String> = Vec::new();
        for (i, &arg) in args.iter().enumerate() {
            let Some(o) = spec.operand(i) else {
                return self.fail(MlirErrorKind::OperandCount {
                    op,
                    expected: spec.operands.len(),
                    variadic: spec.variadic,
                    found: args.len(),
                });
            };
            match o.mlir {
                MlirRepr::Attr(kind) => {
                    let v = self.attribute(o, kind, arg)?;
                    attrs.push(format!("{} = {v}", o.name));
                }
                MlirRepr::Operand => operands.push(self.value(arg, &format!("operand {}", o.name))?),
                MlirRepr::Const => {
                    self.require_constant(o, arg)?;
                    operands.push(self.value(arg, &format!("operand {}", o.name))?);
                }
                MlirRepr::ConstShape => operands.push(self.const_shape(o, arg)?),
            }
        }
        let head = generic_head(op.mlir_name(), &operands, &attrs);
        match spec.result.kind {
            ResultKind::Tensor => {
                let out = self.lift(tensor_ty(self.a, ty, &format!("{op} result {result}")))?;
                let name = self.fresh();
                if spec.shape == ShapeRule::Argmax && self.rank_one_input(&operands) {
                    // TOSA's ARGMAX of a rank-1 tensor is rank 0, which SPIR-V
                    // writes as [1]; MLIR wants rank 0, so reshape it back.
                    let scalar = format!("tensor<{}>", mlir_elem_type(out.elem));
                    let _ = writeln!(self.body, "  {name} = {head} -> {scalar}");
                    let shape = self.shape_const(&out.shape.iter().map(|&d| d as i64).collect::<Vec<_>>());
                    let reshaped = self.fresh();
                    let _ = writeln!(
                        self.body,
                        "  {reshaped} = \"tosa.reshape\"({name}, {shape}) : ({scalar}, !tosa.shape<{}>) -> {}",
                        out.shape.len(),
                        out.mlir()
                    );
                    self.values.insert(result, Val::Tensor { name: reshaped, ty: out });
                } else {
                    let _ = writeln!(self.body, "  {name} = {head} -> {}", out.mlir());
                    self.values.insert(result, Val::Tensor { name, ty: out });
                }
            }
            ResultKind::RealImagStruct => {
                let parts = self.struct_result(op, ty, result)?;
                let name = self.fresh();
                let _ = writeln!(self.body, "  {name}:2 = {head} -> ({}, {})", parts[0].mlir(), parts[1].mlir());
                self.values.insert(result, Val::Pair { name, parts });
            }
        }
        Ok(())
    }

    fn rank_one_input(&self, operands: &[Operand]) -> bool {
        operands.iter().find_map(|o| o.tensor.as_ref()).is_some_and(|t| t.shape.len() == 1)
    }

    fn struct_result(&self, op: TosaOp, ty: Id, result: Id) -> R<[TensorTy; 2]> {
        match self.a.ty(ty) {
            Some(Type::Struct(members)) => match members.as_slice() {
                [re, im] => {
                    let real = self.lift(tensor_ty(self.a, *re, &format!("{op} real result {result}")))?;
                    let imag = self.lift(tensor_ty(self.a, *im, &format!("{op} imaginary result {result}")))?;
                    Ok([real, imag])
                }
                _ => self.fail(MlirErrorKind::BadStructResult { op, ty }),
            },
            _ => self.fail(MlirErrorKind::BadStructResult { op, ty }),
        }
    }
}

/// The generic form of an operation up to its result types:
/// `"tosa.transpose"(%arg0) <{perms = array<i32: 0, 2, 1>}> : (tensor<...>)`.
/// Every generation of the TOSA dialect parses it (the custom assembly
/// formats differ between them), so every producer reads the same text.
fn generic_head(op: &str, operands: &[Operand], properties: &[String]) -> String {
    let names: Vec<&str> = operands.iter().map(|o| o.name.as_str()).collect();
    let types: Vec<&str> = operands.iter().map(|o| o.ty.as_str()).collect();
    let props = if properties.is_empty() { String::new() } else { format!(" <{{{}}}>", properties.join(", ")) };
    format!("\"{op}\"({}){props} : ({})", names.join(", "), types.join(", "))
}

/// `@name` when the entry-point name is a bare MLIR identifier, else a quoted
/// symbol with every byte outside printable ASCII (and `"`, `\`) escaped.
fn symbol_name(name: &str) -> String {
    let bare = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.'));
    if bare {
        return name.to_string();
    }
    let mut s = String::from("\"");
    for b in name.bytes() {
        if (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\' {
            s.push(char::from(b));
        } else {
            let _ = write!(s, "\\{b:02X}");
        }
    }
    s.push('"');
    s
}

#[cfg(test)]
mod tests {
    use super::symbol_name;

    #[test]
    fn symbols() {
        assert_eq!(symbol_name("main"), "main");
        assert_eq!(symbol_name("net.v2_$x"), "net.v2_$x");
        assert_eq!(symbol_name("my graph"), "\"my graph\"");
        assert_eq!(symbol_name("2x"), "\"2x\"");
        assert_eq!(symbol_name(""), "\"\"");
        assert_eq!(symbol_name("a\"b\\é"), "\"a\\22b\\5C\\C3\\A9\"");
    }
}
