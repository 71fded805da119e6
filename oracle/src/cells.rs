//! The coordinates of a backend's judged-coverage map: what one operator
//! instruction of a case is (operator, type row, the class of each
//! attribute, the classes of the data it reads) and what constructs the
//! case has, as [`Cell`]s.
//!
//! The in-tree executor records an [`OperatorFacts`] per operator it runs
//! ([`crate::exec::Executor::run_traced`]); [`case_cells`] turns them and
//! the case's module features into cells. A hunt keeps, per backend, which
//! cells that backend has been judged on, and sends it first the cases that
//! bring cells it has not ([`CoverageMap`]).
//!
//! Cells are projections, not one product: an operator gives one cell for
//! its type row, one per attribute operand, one per data class. A product of
//! every coordinate would make nearly every case new and the map useless as
//! a guide; projections saturate, so a case with nothing new is recognised.
//! Every class is derived from the catalogue's operand roles and forms, so a
//! new operator gets its cells without a list to update.

use crate::features::Feature;
use serde::Serialize;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::{Role, TosaOp};
use spvgraph_ir::Id;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// A class of the values an operator reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DataClass {
    /// None of the classes below: ordinary values.
    Plain,
    /// An input tensor of zeros only.
    Zeros,
    /// A bf16/fp16/fp32 subnormal among the inputs (TOSA lets an
    /// implementation flush them).
    Subnormal,
    /// An infinity or NaN among the floating-point inputs.
    NonFinite,
    /// A value at the type's edge: an integer at its lowest or highest
    /// value, a float within a factor of two of its largest finite one.
    Extreme,
    /// A zero point other than 0.
    ZeroPoint,
}

impl DataClass {
    /// Every class, in order.
    pub const ALL: [DataClass; 6] = [
        DataClass::Plain,
        DataClass::Zeros,
        DataClass::Subnormal,
        DataClass::NonFinite,
        DataClass::Extreme,
        DataClass::ZeroPoint,
    ];

    /// Its stable name.
    pub fn name(self) -> &'static str {
        match self {
            DataClass::Plain => "plain",
            DataClass::Zeros => "zeros",
            DataClass::Subnormal => "subnormal",
            DataClass::NonFinite => "non-finite",
            DataClass::Extreme => "extreme",
            DataClass::ZeroPoint => "zero-point",
        }
    }
}

/// One operand of an operator instruction as the executor resolved it, for
/// classification.
#[derive(Clone, Copy, Debug)]
pub enum OperandView<'a> {
    /// A tensor (an input, a compile-time-constant tensor).
    Tensor(&'a TensorData),
    /// A rank-1 i32 attribute array.
    Ints(&'a [i64]),
    /// An enum or axis scalar.
    Int(i64),
    /// A bool.
    Bool(bool),
    /// A scalar constant's raw bits, with its element type when known.
    Scalar(u64, Option<ElemType>),
}

/// What one operator instruction of a graph is, as far as coverage goes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OperatorFacts {
    /// Its result id.
    pub node: Id,
    /// The operator.
    pub op: TosaOp,
    /// The index of its type row in the catalogue.
    pub row: usize,
    /// One class per attribute-like operand: `name=class`.
    pub attributes: Vec<String>,
    /// The classes of the values it reads (at least one: [`DataClass::Plain`]).
    pub data: BTreeSet<DataClass>,
}

impl OperatorFacts {
    /// Classifies an operator instruction from its resolved operands
    /// (`operands[i]` is operand `i` of the catalogue's operand list).
    pub fn classify(node: Id, op: TosaOp, row: usize, operands: &[OperandView<'_>]) -> OperatorFacts {
        let spec = op.spec();
        let mut attributes = Vec::new();
        let mut data = BTreeSet::new();
        for (i, operand) in operands.iter().enumerate() {
            let Some(o) = spec.operand(i) else { continue };
            let zero_point = o.name.ends_with("_zp");
            match (o.role, operand) {
                (Role::Input, OperandView::Tensor(t)) => data.extend(tensor_classes(t)),
                (_, OperandView::Tensor(t)) if zero_point => {
                    if t.to_bits().iter().any(|&b| b != 0) {
                        data.insert(DataClass::ZeroPoint);
                    }
                }
                (_, OperandView::Scalar(bits, _)) if zero_point => {
                    if *bits != 0 {
                        data.insert(DataClass::ZeroPoint);
                    }
                }
                (_, v) => attributes.push(format!("{}={}", o.name, attribute_class(v))),
            }
        }
        if data.is_empty() {
            data.insert(DataClass::Plain);
        }
        OperatorFacts { node, op, row, attributes, data }
    }
}

/// The classes of the values of an input tensor (none: plain).
fn tensor_classes(t: &TensorData) -> BTreeSet<DataClass> {
    let mut out = BTreeSet::new();
    let elem = t.elem();
    let bits = t.to_bits();
    if !bits.is_empty() && bits.iter().all(|&b| b == 0) {
        out.insert(DataClass::Zeros);
    }
    if elem.is_float() {
        let max = crate::exec::fp::FpFormat::of(elem).map_or(f64::MAX, |f| f.max_finite());
        for v in t.to_f64() {
            if !v.is_finite() {
                out.insert(DataClass::NonFinite);
            } else if v.abs() * 2.0 > max {
                out.insert(DataClass::Extreme);
            }
        }
        if bits.iter().any(|&b| elem.is_subnormal_bits(b)) {
            out.insert(DataClass::Subnormal);
        }
    } else if elem.is_int() && elem != ElemType::Bool {
        let (lo, hi) = int_range(elem);
        let width = elem.storage_bits();
        if bits.iter().map(|&b| sign_extend(b, width)).any(|v| v == lo || v == hi) {
            out.insert(DataClass::Extreme);
        }
    }
    out
}

/// The signed range of an integer type (i48: ±2^47).
fn int_range(elem: ElemType) -> (i64, i64) {
    match elem {
        ElemType::I8 => (i64::from(i8::MIN), i64::from(i8::MAX)),
        ElemType::I16 => (i64::from(i16::MIN), i64::from(i16::MAX)),
        ElemType::I32 => (i64::from(i32::MIN), i64::from(i32::MAX)),
        ElemType::I48 => (-(1i64 << 47), (1i64 << 47) - 1),
        ElemType::Bool | ElemType::Fp16 | ElemType::Bf16 | ElemType::Fp32 | ElemType::Fp8E4M3 | ElemType::Fp8E5M2 => {
            (0, 0)
        }
    }
}

/// `bits` read as a two's-complement integer of `width` bits (i48 is
/// stored in 64 bits and compared as such).
fn sign_extend(bits: u64, width: u32) -> i64 {
    if width == 0 || width >= 64 {
        return bits as i64;
    }
    let shift = 64 - width;
    ((bits << shift) as i64) >> shift
}

/// The class of one attribute value: enums, axes and bools exactly; arrays
/// by the set of element classes they hold (`{0,1,2+}`), so that a kernel
/// of 3x5 and one of 4x4 are one class, and a 1x1 kernel another; scalars
/// by sign.
fn attribute_class(v: &OperandView<'_>) -> String {
    match v {
        OperandView::Int(i) => i.to_string(),
        OperandView::Bool(b) => b.to_string(),
        OperandView::Ints(vs) => {
            let classes: BTreeSet<&str> = vs
                .iter()
                .map(|&x| match x {
                    i64::MIN..=-1 => "-",
                    0 => "0",
                    1 => "1",
                    _ => "2+",
                })
                .collect();
            format!("{{{}}}", classes.into_iter().collect::<Vec<_>>().join(","))
        }
        OperandView::Scalar(bits, elem) => scalar_class(*bits, *elem).to_string(),
        OperandView::Tensor(t) => {
            // A compile-time-constant tensor that is no zero point (RESCALE's
            // multiplier and shift, MUL's shift, PAD's padding): by its values' signs.
            let mut classes: BTreeSet<&str> = BTreeSet::new();
            for bits in t.to_bits() {
                classes.insert(scalar_class(bits, Some(t.elem())));
            }
            format!("{{{}}}", classes.into_iter().collect::<Vec<_>>().join(","))
        }
    }
}

/// `0`, `+`, `-`, or `non-finite` for a scalar of `elem` (raw bits).
fn scalar_class(bits: u64, elem: Option<ElemType>) -> &'static str {
    let value = match elem {
        Some(e) if e.is_float() => crate::exec::fp::FpFormat::of(e).map_or(0.0, |f| f.decode(bits)),
        Some(e) if e.is_int() && e != ElemType::Bool => sign_extend(bits, e.storage_bits()) as f64,
        _ => bits as f64,
    };
    if !value.is_finite() {
        "non-finite"
    } else if value == 0.0 {
        "0"
    } else if value > 0.0 {
        "+"
    } else {
        "-"
    }
}

/// One coordinate of a judged-coverage map.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Cell(pub String);

impl Cell {
    /// The cell of an operator's type row: `CONV2D/r3`.
    pub fn row(op: TosaOp, row: usize) -> Cell {
        Cell(format!("{}/r{row}", op.name()))
    }

    /// The operator's cells: its row, each attribute class, each data class.
    pub fn of_operator(f: &OperatorFacts) -> Vec<Cell> {
        let row = format!("{}/r{}", f.op.name(), f.row);
        let mut out = vec![Cell(row.clone())];
        out.extend(f.attributes.iter().map(|a| Cell(format!("{row}/{a}"))));
        out.extend(f.data.iter().map(|d| Cell(format!("{row}/data:{}", d.name()))));
        out
    }

    /// The cell of a construct of the case: `construct:null-row`.
    pub fn construct(f: Feature) -> Cell {
        Cell(format!("construct:{}", f.name()))
    }

    /// The cell of an equivalent form run on an operator's type row:
    /// `form:replicated/ADD/r0`.
    pub fn form(form: &str, op: TosaOp, row: usize) -> Cell {
        Cell(format!("form:{form}/{}/r{row}", op.name()))
    }
}

/// A case's cells: per operator node, and the case's own (constructs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CaseCells {
    /// The cells of each operator, by node.
    pub operators: BTreeMap<Id, Vec<Cell>>,
    /// The type rows of the case's operators (for form cells).
    pub rows: BTreeSet<(TosaOp, usize)>,
    /// Cells of the case as a whole.
    pub case: Vec<Cell>,
}

impl CaseCells {
    /// Every cell of the case.
    pub fn all(&self) -> impl Iterator<Item = &Cell> {
        self.operators.values().flatten().chain(&self.case)
    }

    /// The cells a run judged: all of them when every operator was judged,
    /// else those of the operators judged (and none of the case's own).
    pub fn judged<'a>(&'a self, complete: bool, nodes: &'a BTreeSet<Id>) -> Vec<&'a Cell> {
        if complete {
            return self.all().collect();
        }
        self.operators.iter().filter(|(n, _)| nodes.contains(n)).flat_map(|(_, c)| c).collect()
    }
}

/// The cells of a case from the facts the in-tree executor recorded and the
/// module's features.
pub fn case_cells(facts: &[OperatorFacts], features: &BTreeSet<Feature>) -> CaseCells {
    let mut out = CaseCells::default();
    for f in facts {
        out.operators.entry(f.node).or_default().extend(Cell::of_operator(f));
        out.rows.insert((f.op, f.row));
    }
    out.case = features.iter().map(|f| Cell::construct(*f)).collect();
    out
}

/// What a backend has been judged on, cell by cell, and how often it was
/// sent each cell without being judged on it (a backend that refuses a
/// construct is not sent it forever).
#[derive(Clone, Debug, Default)]
pub struct CoverageMap {
    cells: HashMap<Cell, CellState>,
    judged: usize,
}

#[derive(Clone, Copy, Debug, Default)]
struct CellState {
    /// Times a case holding the cell was sent.
    attempts: u32,
    /// Whether a run was judged on it.
    judged: bool,
}

impl CoverageMap {
    /// An empty map.
    pub fn new() -> CoverageMap {
        CoverageMap::default()
    }

    /// What `cells` would add to the map: each cell never judged counts
    /// `1 / (1 + attempts)`, so that a cell the backend was sent and never
    /// judged on (it refuses it) weighs less each time.
    pub fn score<'a>(&self, cells: impl IntoIterator<Item = &'a Cell>) -> f64 {
        let mut seen: BTreeSet<&Cell> = BTreeSet::new();
        let mut score = 0.0;
        for c in cells {
            if !seen.insert(c) {
                continue;
            }
            match self.cells.get(c) {
                None => score += 1.0,
                Some(s) if !s.judged => score += 1.0 / (1.0 + f64::from(s.attempts)),
                Some(_) => {}
            }
        }
        score
    }

    /// Counts `cells` as sent once.
    pub fn attempt<'a>(&mut self, cells: impl IntoIterator<Item = &'a Cell>) {
        for c in cells.into_iter().collect::<BTreeSet<_>>() {
            let s = self.cells.entry(c.clone()).or_default();
            s.attempts = s.attempts.saturating_add(1);
        }
    }

    /// Marks `cells` judged.
    pub fn judge<'a>(&mut self, cells: impl IntoIterator<Item = &'a Cell>) {
        for c in cells {
            let s = self.cells.entry(c.clone()).or_default();
            if !s.judged {
                s.judged = true;
                self.judged += 1;
            }
        }
    }

    /// Cells judged so far.
    pub fn judged(&self) -> usize {
        self.judged
    }

    /// Whether `cell` was judged.
    pub fn is_judged(&self, cell: &Cell) -> bool {
        self.cells.get(cell).is_some_and(|s| s.judged)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tensor(elem: ElemType, bits: &[u64]) -> TensorData {
        TensorData::from_bits(elem, &[bits.len()], bits).expect("tensor")
    }

    #[test]
    fn data_classes_name_the_edges_of_each_type() {
        let i8s = tensor(ElemType::I8, &[0x80, 3]);
        assert_eq!(tensor_classes(&i8s), BTreeSet::from([DataClass::Extreme]));
        let zeros = tensor(ElemType::I32, &[0, 0]);
        assert_eq!(tensor_classes(&zeros), BTreeSet::from([DataClass::Zeros]));
        // fp32: inf, a subnormal, the largest finite value.
        let f = tensor(ElemType::Fp32, &[0x7f80_0000, 1, 0x7f7f_ffff]);
        assert_eq!(
            tensor_classes(&f),
            BTreeSet::from([DataClass::NonFinite, DataClass::Subnormal, DataClass::Extreme])
        );
        assert!(tensor_classes(&tensor(ElemType::Fp32, &[0x3f80_0000])).is_empty());
    }

    #[test]
    fn an_operator_gets_a_cell_per_attribute_and_data_class() {
        // CONV2D: input, weight, bias, input_zp, weight_zp, then pad/stride/dilation, acc_type, local_bound.
        let spec = TosaOp::Conv2d.spec();
        let input = tensor(ElemType::I8, &[1, 2]);
        let zp = tensor(ElemType::I8, &[5]);
        let mut views = Vec::new();
        let (stride, pad) = ([2i64, 1], [0i64, 0, 1, 1]);
        for (i, o) in spec.operands.iter().enumerate() {
            views.push(match (o.name, o.role) {
                ("stride", _) => OperandView::Ints(&stride),
                ("pad" | "dilation", _) => OperandView::Ints(&pad),
                ("input_zp", _) => OperandView::Tensor(&zp),
                (_, Role::Input) => OperandView::Tensor(&input),
                (_, Role::CtcInput) => OperandView::Tensor(&input),
                _ => OperandView::Int(i as i64),
            });
        }
        let f = OperatorFacts::classify(Id(7), TosaOp::Conv2d, 0, &views);
        assert!(f.attributes.contains(&"stride={1,2+}".to_string()), "{:?}", f.attributes);
        assert!(f.attributes.contains(&"pad={0,1}".to_string()), "{:?}", f.attributes);
        assert!(f.data.contains(&DataClass::ZeroPoint));
        let cells = Cell::of_operator(&f);
        assert_eq!(cells[0], Cell::row(TosaOp::Conv2d, 0));
        assert!(cells.iter().any(|c| c.0 == "CONV2D/r0/data:zero-point"));
    }

    #[test]
    fn the_map_weighs_new_cells_and_forgets_refused_ones_slowly() {
        let mut m = CoverageMap::new();
        let a = Cell("A".into());
        let b = Cell("B".into());
        assert_eq!(m.score([&a, &b, &a]), 2.0);
        m.attempt([&a, &b]);
        assert_eq!(m.score([&a]), 0.5);
        m.judge([&a]);
        assert_eq!(m.score([&a, &b]), 0.5);
        assert_eq!(m.judged(), 1);
        m.judge([&a]);
        assert_eq!(m.judged(), 1, "a cell is judged once");
        assert!(m.is_judged(&a) && !m.is_judged(&b));
    }
}
