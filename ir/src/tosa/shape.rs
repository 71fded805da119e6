//! Shape inference: the inputs it needs, its errors, and the checks every
//! operator shares (operand kinds, ranks, attribute lengths, axes).
//!
//! The per-operator formulas are in `shape_rules.rs`. Everything here is
//! total: no input makes it panic or overflow (arithmetic is done in i128,
//! which cannot overflow for sums and single products of i64 values).

use super::ops::TosaOp;
use super::spec::{Form, Len, OpSpec, RankReq};
use crate::rules::RuleId;
use std::fmt;

/// What shape inference knows about one operand.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ShapeArg {
    /// The shape of a tensor operand (a graph value or a tensor constant).
    Tensor(Vec<u32>),
    /// The values of an integer constant: one value for `axis` (read as a
    /// signed i32) or every element of a rank-1 i32 constant, in order.
    Ints(Vec<i64>),
    /// The value of a bool constant (only RESCALE `per_channel` matters).
    Bool(bool),
    /// Unknown or irrelevant (enums, CLAMP bounds, and constant tensors whose
    /// length does not feed the output: zero points, MUL `shift`, `pad_const`,
    /// `table`, RESCALE `multiplier`/`shift`; those are checked when given
    /// as [`ShapeArg::Tensor`] and skipped when opaque).
    Opaque,
}

/// Per-operand facts for [`infer_shapes`], in instruction order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ShapeInputs {
    /// One entry per operand (CONCAT: the axis, then one per input).
    pub args: Vec<ShapeArg>,
}

impl ShapeInputs {
    /// No operands yet.
    pub fn new() -> ShapeInputs {
        ShapeInputs::default()
    }

    /// Appends a tensor operand's shape.
    pub fn tensor(mut self, shape: impl Into<Vec<u32>>) -> ShapeInputs {
        self.args.push(ShapeArg::Tensor(shape.into()));
        self
    }

    /// Appends an integer constant's values.
    pub fn ints(mut self, values: impl Into<Vec<i64>>) -> ShapeInputs {
        self.args.push(ShapeArg::Ints(values.into()));
        self
    }

    /// Appends a scalar integer constant (an axis).
    pub fn int(self, value: i64) -> ShapeInputs {
        self.ints(vec![value])
    }

    /// Appends a bool constant.
    pub fn boolean(mut self, value: bool) -> ShapeInputs {
        self.args.push(ShapeArg::Bool(value));
        self
    }

    /// Appends an operand whose value does not matter here.
    pub fn opaque(mut self) -> ShapeInputs {
        self.args.push(ShapeArg::Opaque);
        self
    }
}

impl From<Vec<ShapeArg>> for ShapeInputs {
    fn from(args: Vec<ShapeArg>) -> ShapeInputs {
        ShapeInputs { args }
    }
}

/// A shape-related ERROR_IF (or malformed request), with the operator.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{op}: {kind}")]
pub struct ShapeError {
    /// The operator.
    pub op: TosaOp,
    /// What is wrong.
    pub kind: ShapeErrorKind,
}

/// A list of dimensions, printed as `[1, 2, 3]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dims(pub Vec<u32>);

impl fmt::Display for Dims {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.0)
    }
}

/// What a [`ShapeError`] is about.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShapeErrorKind {
    /// Wrong number of operands.
    #[error("expected {}{expected} operands, found {found}", if *.variadic { "at least " } else { "" })]
    OperandCount {
        /// Required count (minimum when variadic).
        expected: usize,
        /// Whether more are allowed.
        variadic: bool,
        /// Count given.
        found: usize,
    },
    /// An operand was described with the wrong kind of [`ShapeArg`].
    #[error("operand {index} ({name}) must be given as {expected}")]
    ArgKind {
        /// Operand index.
        index: usize,
        /// Operand name.
        name: &'static str,
        /// What was needed.
        expected: &'static str,
    },
    /// A tensor has rank 0 or a zero dimension (SPIR-V needs rank ≥ 1, dims ≥ 1).
    #[error("{name} has shape {shape}: rank and every dimension must be >= 1")]
    EmptyShape {
        /// Operand name.
        name: String,
        /// Its shape.
        shape: Dims,
    },
    /// A tensor has the wrong rank.
    #[error("{name} has rank {rank}, expected {expected}")]
    Rank {
        /// Operand name.
        name: String,
        /// Its rank.
        rank: usize,
        /// The requirement.
        expected: String,
    },
    /// A rank-1 constant has the wrong number of elements.
    #[error("{name} has {len} elements, expected {expected}")]
    Length {
        /// Operand name.
        name: &'static str,
        /// Its element count.
        len: usize,
        /// The requirement.
        expected: String,
    },
    /// A value is out of its allowed range.
    #[error("{name} = {value} {requirement}")]
    Value {
        /// What the value is (`stride_y`, `padding[3]`, `axis`).
        name: String,
        /// The value.
        value: i128,
        /// The violated requirement (`must be >= 1`).
        requirement: String,
    },
    /// An output-size division is not exact.
    #[error("({expr}) = {value} is not divisible by {divisor_name} = {divisor}")]
    NotDivisible {
        /// The numerator formula.
        expr: &'static str,
        /// Its value.
        value: i128,
        /// Divisor name.
        divisor_name: &'static str,
        /// Divisor value.
        divisor: i128,
    },
    /// Two dimensions that must agree do not.
    #[error("{left_name} = {left} does not match {right_name} = {right}")]
    Mismatch {
        /// First dimension name.
        left_name: String,
        /// First value.
        left: i128,
        /// Second dimension name.
        right_name: String,
        /// Second value.
        right: i128,
    },
    /// Two dimensions cannot be broadcast together.
    #[error("dimension {dim}: {left} ({left_name}) and {right} ({right_name}) cannot be broadcast")]
    Broadcast {
        /// Dimension index.
        dim: usize,
        /// First operand name.
        left_name: &'static str,
        /// First size (the broadcast so far).
        left: u32,
        /// Second operand name.
        right_name: &'static str,
        /// Second size.
        right: u32,
    },
    /// A computed output dimension is below 1 or does not fit in 32 bits.
    #[error("output {name} = {value} is out of range (must be 1 ..= 4294967295)")]
    OutputDim {
        /// Dimension name (`OH`).
        name: String,
        /// Computed value.
        value: i128,
    },
    /// FFT sizes must be powers of two.
    #[error("{name} = {value} is not a power of two")]
    NotPowerOfTwo {
        /// `H` or `W`.
        name: &'static str,
        /// The size.
        value: u32,
    },
    /// TRANSPOSE `perms` is not a permutation of `0..rank`.
    #[error("perms {perms:?} is not a permutation of 0..{rank}")]
    NotPermutation {
        /// The values.
        perms: Vec<i64>,
        /// The input rank.
        rank: usize,
    },
    /// RESHAPE changes the element count.
    #[error("input has {input} elements but shape {shape:?} has {output}")]
    ElementCount {
        /// Input element count (`"overflow"` past 2^128).
        input: String,
        /// Shape values.
        shape: Vec<i64>,
        /// Their product.
        output: String,
    },
    /// Two tensors that must have the same shape do not.
    #[error("{left_name} {left} and {right_name} {right} must have the same shape")]
    ShapeMismatch {
        /// First operand.
        left_name: &'static str,
        /// Its shape.
        left: Dims,
        /// Second operand.
        right_name: &'static str,
        /// Its shape.
        right: Dims,
    },
    /// A declared output shape differs from the inferred one.
    #[error("result {index} is declared {declared} but must be {inferred}")]
    OutputMismatch {
        /// Result index.
        index: usize,
        /// Declared shape.
        declared: Dims,
        /// Inferred shape.
        inferred: Dims,
    },
    /// The number of declared outputs is wrong.
    #[error("{found} result shapes declared, the operator has {expected}")]
    OutputCount {
        /// Results of the operator.
        expected: usize,
        /// Declared.
        found: usize,
    },
    /// The catalogue lacks an operand the rule needs (a bug in the catalogue).
    #[error("catalogue has no operand {0:?} for this rule")]
    Catalogue(&'static str),
}

impl ShapeErrorKind {
    /// The validator rule this error breaks; `None` for an empty shape,
    /// which the type checks already report.
    pub fn rule(&self) -> Option<RuleId> {
        let rule = match self {
            ShapeErrorKind::OperandCount { .. } => RuleId::TosaOperandCount,
            ShapeErrorKind::ArgKind { .. } | ShapeErrorKind::Catalogue(_) => RuleId::TosaShapeUnknown,
            ShapeErrorKind::EmptyShape { .. } => return None,
            ShapeErrorKind::Rank { .. } => RuleId::TosaShapeRank,
            ShapeErrorKind::Length { .. } => RuleId::TosaShapeLength,
            ShapeErrorKind::Value { name, .. } if *name == "axis" => RuleId::TosaAttributeAxis,
            ShapeErrorKind::Value { .. } => RuleId::TosaAttributeRange,
            ShapeErrorKind::NotDivisible { .. } => RuleId::TosaShapeInexactDivision,
            ShapeErrorKind::Mismatch { .. } | ShapeErrorKind::ShapeMismatch { .. } => RuleId::TosaShapeMismatch,
            ShapeErrorKind::Broadcast { .. } => RuleId::TosaShapeBroadcast,
            ShapeErrorKind::OutputDim { .. } => RuleId::TosaShapeOutputRange,
            ShapeErrorKind::NotPowerOfTwo { .. } => RuleId::TosaFftPowerOfTwo,
            ShapeErrorKind::NotPermutation { .. } => RuleId::TosaTransposePerms,
            ShapeErrorKind::ElementCount { .. } => RuleId::TosaShapeElementCount,
            ShapeErrorKind::OutputMismatch { .. } => RuleId::TosaShapeOutput,
            ShapeErrorKind::OutputCount { .. } => RuleId::TosaResultType,
        };
        Some(rule)
    }
}

pub(crate) type R<T> = Result<T, ShapeError>;

/// Computes the output shape(s) of `op` (two for FFT2D/RFFT2D) and checks
/// every shape-related ERROR_IF of §4.
pub fn infer_shapes(op: TosaOp, inputs: &ShapeInputs) -> Result<Vec<Vec<u32>>, ShapeError> {
    let cx = Cx { op, spec: op.spec(), args: &inputs.args };
    cx.check_common()?;
    cx.apply_rule()
}

/// Checks that `declared` (the result type shapes) are what `op` produces.
pub fn check_output(op: TosaOp, inputs: &ShapeInputs, declared: &[Vec<u32>]) -> Result<(), ShapeError> {
    let inferred = infer_shapes(op, inputs)?;
    if inferred.len() != declared.len() {
        return Err(ShapeError {
            op,
            kind: ShapeErrorKind::OutputCount { expected: inferred.len(), found: declared.len() },
        });
    }
    for (index, (want, got)) in inferred.iter().zip(declared).enumerate() {
        if want != got {
            return Err(ShapeError {
                op,
                kind: ShapeErrorKind::OutputMismatch {
                    index,
                    declared: Dims(got.clone()),
                    inferred: Dims(want.clone()),
                },
            });
        }
    }
    Ok(())
}

/// The context of one inference.
pub(crate) struct Cx<'a> {
    pub(crate) op: TosaOp,
    pub(crate) spec: &'static OpSpec,
    pub(crate) args: &'a [ShapeArg],
}

impl<'a> Cx<'a> {
    pub(crate) fn err<T>(&self, kind: ShapeErrorKind) -> R<T> {
        Err(ShapeError { op: self.op, kind })
    }

    fn name(&self, index: usize) -> &'static str {
        self.spec.operand(index).map_or("?", |o| o.name)
    }

    /// Index of the operand called `name`.
    pub(crate) fn index(&self, name: &'static str) -> R<usize> {
        match self.spec.operand_named(name) {
            Some((i, _)) => Ok(i),
            None => self.err(ShapeErrorKind::Catalogue(name)),
        }
    }

    pub(crate) fn shape(&self, index: usize) -> R<&'a [u32]> {
        match self.args.get(index) {
            Some(ShapeArg::Tensor(s)) => Ok(s),
            _ => self.err(ShapeErrorKind::ArgKind { index, name: self.name(index), expected: "a tensor shape" }),
        }
    }

    pub(crate) fn ints(&self, index: usize) -> R<&'a [i64]> {
        match self.args.get(index) {
            Some(ShapeArg::Ints(v)) => Ok(v),
            _ => self.err(ShapeErrorKind::ArgKind { index, name: self.name(index), expected: "integer values" }),
        }
    }

    pub(crate) fn shape_named(&self, name: &'static str) -> R<&'a [u32]> {
        self.shape(self.index(name)?)
    }

    pub(crate) fn ints_named(&self, name: &'static str) -> R<&'a [i64]> {
        self.ints(self.index(name)?)
    }

    fn rank_of(&self, index: usize) -> R<usize> {
        Ok(self.shape(index)?.len())
    }

    /// Operand count, tensor shapes and ranks, then constant lengths and
    /// axes (which may refer to later tensors, hence two passes).
    fn check_common(&self) -> R<()> {
        if !self.spec.accepts_operand_count(self.args.len()) {
            return self.err(ShapeErrorKind::OperandCount {
                expected: self.spec.operands.len(),
                variadic: self.spec.variadic,
                found: self.args.len(),
            });
        }
        for index in 0..self.args.len() {
            let Some(spec) = self.spec.operand(index) else { continue };
            if let Form::Tensor { .. } = spec.form {
                self.check_tensor(index, self.shape(index)?)?;
            }
        }
        for index in 0..self.args.len() {
            let Some(spec) = self.spec.operand(index) else { continue };
            match spec.form {
                Form::Tensor { rank, .. } => self.check_rank(index, rank)?,
                Form::ConstTensor { len, .. } => {
                    if let Some(ShapeArg::Tensor(shape)) = self.args.get(index) {
                        self.check_tensor(index, shape)?;
                        if shape.len() != 1 {
                            return self.err(ShapeErrorKind::Rank {
                                name: spec.name.to_string(),
                                rank: shape.len(),
                                expected: "1".into(),
                            });
                        }
                        let count = shape.first().map_or(0, |&d| d as usize);
                        self.check_len(index, count, len)?;
                    }
                }
                Form::I32Array { len } => {
                    let count = self.ints(index)?.len();
                    self.check_len(index, count, len)?;
                }
                Form::AxisConst { of } => self.check_axis(index, usize::from(of))?,
                Form::BoolConst | Form::EnumConst(_) | Form::ScalarConst { .. } => {}
            }
        }
        Ok(())
    }

    fn check_tensor(&self, index: usize, shape: &[u32]) -> R<()> {
        if shape.is_empty() || shape.contains(&0) {
            return self
                .err(ShapeErrorKind::EmptyShape { name: self.name(index).to_string(), shape: Dims(shape.to_vec()) });
        }
        Ok(())
    }

    fn check_rank(&self, index: usize, req: RankReq) -> R<()> {
        let rank = self.rank_of(index)?;
        let expected = match req {
            RankReq::Any => return Ok(()),
            RankReq::Exact(n) if rank == n as usize => return Ok(()),
            RankReq::Exact(n) => n.to_string(),
            RankReq::SameAs(j) => {
                let other = self.rank_of(usize::from(j))?;
                if other == rank {
                    return Ok(());
                }
                format!("{other} (the rank of {})", self.name(usize::from(j)))
            }
        };
        self.err(ShapeErrorKind::Rank { name: self.name(index).to_string(), rank, expected })
    }

    fn check_len(&self, index: usize, count: usize, len: Len) -> R<()> {
        let expected = match len {
            Len::Fixed(n) if count == n as usize => return Ok(()),
            Len::Fixed(n) => n.to_string(),
            Len::RankOf(j) => {
                let rank = self.rank_of(usize::from(j))?;
                if count == rank {
                    return Ok(());
                }
                format!("{rank} (the rank of {})", self.name(usize::from(j)))
            }
            Len::TwiceRankOf(j) => {
                let rank = self.rank_of(usize::from(j))?;
                if count == 2 * rank {
                    return Ok(());
                }
                format!("{} (twice the rank of {})", 2 * rank, self.name(usize::from(j)))
            }
            Len::OutputRank if count >= 1 => return Ok(()),
            Len::OutputRank => "at least 1 (the output rank)".into(),
            // The exact size depends on the element type; shapes alone allow either.
            Len::TableSize { .. } if count == 256 || count == 513 => return Ok(()),
            Len::TableSize { .. } => "256 (i8) or 513 (i16)".into(),
            // Needs the per_channel value; checked by the RESCALE rule.
            Len::PerChannel { .. } => return Ok(()),
        };
        self.err(ShapeErrorKind::Length { name: self.name(index), len: count, expected })
    }

    fn check_axis(&self, index: usize, of: usize) -> R<()> {
        let values = self.ints(index)?;
        let [axis] = values else {
            return self.err(ShapeErrorKind::Length {
                name: self.name(index),
                len: values.len(),
                expected: "1".into(),
            });
        };
        let rank = self.rank_of(of)?;
        if *axis < 0 || *axis >= rank as i64 {
            return self.err(ShapeErrorKind::Value {
                name: "axis".into(),
                value: i128::from(*axis),
                requirement: format!("must be in 0..{rank} (rank of {})", self.name(of)),
            });
        }
        Ok(())
    }

    /// The validated axis value.
    pub(crate) fn axis(&self) -> R<usize> {
        let values = self.ints_named("axis")?;
        match values {
            [a] => usize::try_from(*a).or_else(|_| self.err(ShapeErrorKind::Catalogue("axis"))),
            _ => self.err(ShapeErrorKind::Catalogue("axis")),
        }
    }

    /// Fails unless `value >= min`.
    pub(crate) fn at_least(&self, name: &str, value: i128, min: i128) -> R<()> {
        if value < min {
            return self.err(ShapeErrorKind::Value {
                name: name.to_string(),
                value,
                requirement: format!("must be >= {min}"),
            });
        }
        Ok(())
    }

    /// `value / divisor`, failing unless the division is exact.
    pub(crate) fn exact_div(
        &self,
        expr: &'static str,
        value: i128,
        divisor_name: &'static str,
        divisor: i128,
    ) -> R<i128> {
        if divisor == 0 || value % divisor != 0 {
            return self.err(ShapeErrorKind::NotDivisible { expr, value, divisor_name, divisor });
        }
        Ok(value / divisor)
    }

    /// Converts a computed output dimension, failing outside 1..=u32::MAX.
    pub(crate) fn out_dim(&self, name: &str, value: i128) -> R<u32> {
        match u32::try_from(value) {
            Ok(d) if d >= 1 => Ok(d),
            _ => self.err(ShapeErrorKind::OutputDim { name: name.to_string(), value }),
        }
    }

    /// Fails unless two dimensions agree.
    pub(crate) fn same(&self, left_name: &str, left: u32, right_name: &str, right: u32) -> R<()> {
        if left != right {
            return self.err(ShapeErrorKind::Mismatch {
                left_name: left_name.to_string(),
                left: i128::from(left),
                right_name: right_name.to_string(),
                right: i128::from(right),
            });
        }
        Ok(())
    }
}

/// The first `N` elements as an array, if there are exactly `N`.
pub(crate) fn fixed<T: Copy + Default, const N: usize>(values: &[T]) -> Option<[T; N]> {
    <[T; N]>::try_from(values).ok()
}
