//! The 66 operators of `TOSA.001000.1`: opcodes, grammar names, MLIR names.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

// One list drives the enum, `ALL`, and the three name tables, so an operator
// cannot be added in one place and forgotten in another.
macro_rules! tosa_ops {
    ($( $variant:ident = $code:literal, $name:literal, $mlir:literal; )*) => {
        /// A `TOSA.001000.1` extended instruction (one TOSA 1.0 operator).
        ///
        /// The discriminant is the instruction-set opcode.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u32)]
        pub enum TosaOp {
            $(
                #[doc = concat!("`", $name, "` (opcode ", stringify!($code), ", MLIR `", $mlir, "`).")]
                $variant = $code,
            )*
        }

        impl TosaOp {
            /// How many operators the instruction set has: the arrays indexed
            /// by operator are sized by it, so one added here must be added there.
            pub const COUNT: usize = [$(stringify!($variant),)*].len();

            /// Every operator, in opcode order (`ALL[i].opcode() == i`).
            pub const ALL: [TosaOp; TosaOp::COUNT] = [$(TosaOp::$variant,)*];

            /// The grammar spelling (`"AVG_POOL2D"`, `"DEPTHWISE_CONV2D"`, ...).
            pub const fn name(self) -> &'static str {
                match self { $(TosaOp::$variant => $name,)* }
            }

            /// The TOSA MLIR dialect operation (`"tosa.avg_pool2d"`, ...).
            pub const fn mlir_name(self) -> &'static str {
                match self { $(TosaOp::$variant => $mlir,)* }
            }
        }
    };
}

tosa_ops! {
    Argmax = 0, "ARGMAX", "tosa.argmax";
    AvgPool2d = 1, "AVG_POOL2D", "tosa.avg_pool2d";
    Conv2d = 2, "CONV2D", "tosa.conv2d";
    Conv3d = 3, "CONV3D", "tosa.conv3d";
    DepthwiseConv2d = 4, "DEPTHWISE_CONV2D", "tosa.depthwise_conv2d";
    Fft2d = 5, "FFT2D", "tosa.fft2d";
    Matmul = 6, "MATMUL", "tosa.matmul";
    MaxPool2d = 7, "MAX_POOL2D", "tosa.max_pool2d";
    Rfft2d = 8, "RFFT2D", "tosa.rfft2d";
    TransposeConv2d = 9, "TRANSPOSE_CONV2D", "tosa.transpose_conv2d";
    Clamp = 10, "CLAMP", "tosa.clamp";
    Erf = 11, "ERF", "tosa.erf";
    Sigmoid = 12, "SIGMOID", "tosa.sigmoid";
    Tanh = 13, "TANH", "tosa.tanh";
    Add = 14, "ADD", "tosa.add";
    ArithmeticRightShift = 15, "ARITHMETIC_RIGHT_SHIFT", "tosa.arithmetic_right_shift";
    BitwiseAnd = 16, "BITWISE_AND", "tosa.bitwise_and";
    BitwiseOr = 17, "BITWISE_OR", "tosa.bitwise_or";
    BitwiseXor = 18, "BITWISE_XOR", "tosa.bitwise_xor";
    Intdiv = 19, "INTDIV", "tosa.intdiv";
    LogicalAnd = 20, "LOGICAL_AND", "tosa.logical_and";
    LogicalLeftShift = 21, "LOGICAL_LEFT_SHIFT", "tosa.logical_left_shift";
    LogicalRightShift = 22, "LOGICAL_RIGHT_SHIFT", "tosa.logical_right_shift";
    LogicalOr = 23, "LOGICAL_OR", "tosa.logical_or";
    LogicalXor = 24, "LOGICAL_XOR", "tosa.logical_xor";
    Maximum = 25, "MAXIMUM", "tosa.maximum";
    Minimum = 26, "MINIMUM", "tosa.minimum";
    Mul = 27, "MUL", "tosa.mul";
    Pow = 28, "POW", "tosa.pow";
    Sub = 29, "SUB", "tosa.sub";
    Table = 30, "TABLE", "tosa.table";
    Abs = 31, "ABS", "tosa.abs";
    BitwiseNot = 32, "BITWISE_NOT", "tosa.bitwise_not";
    Ceil = 33, "CEIL", "tosa.ceil";
    Clz = 34, "CLZ", "tosa.clz";
    Cos = 35, "COS", "tosa.cos";
    Exp = 36, "EXP", "tosa.exp";
    Floor = 37, "FLOOR", "tosa.floor";
    Log = 38, "LOG", "tosa.log";
    LogicalNot = 39, "LOGICAL_NOT", "tosa.logical_not";
    Negate = 40, "NEGATE", "tosa.negate";
    Reciprocal = 41, "RECIPROCAL", "tosa.reciprocal";
    Rsqrt = 42, "RSQRT", "tosa.rsqrt";
    Sin = 43, "SIN", "tosa.sin";
    Select = 44, "SELECT", "tosa.select";
    Equal = 45, "EQUAL", "tosa.equal";
    Greater = 46, "GREATER", "tosa.greater";
    GreaterEqual = 47, "GREATER_EQUAL", "tosa.greater_equal";
    ReduceAll = 48, "REDUCE_ALL", "tosa.reduce_all";
    ReduceAny = 49, "REDUCE_ANY", "tosa.reduce_any";
    ReduceMax = 50, "REDUCE_MAX", "tosa.reduce_max";
    ReduceMin = 51, "REDUCE_MIN", "tosa.reduce_min";
    ReduceProduct = 52, "REDUCE_PRODUCT", "tosa.reduce_product";
    ReduceSum = 53, "REDUCE_SUM", "tosa.reduce_sum";
    Concat = 54, "CONCAT", "tosa.concat";
    Pad = 55, "PAD", "tosa.pad";
    Reshape = 56, "RESHAPE", "tosa.reshape";
    Reverse = 57, "REVERSE", "tosa.reverse";
    Slice = 58, "SLICE", "tosa.slice";
    Tile = 59, "TILE", "tosa.tile";
    Transpose = 60, "TRANSPOSE", "tosa.transpose";
    Gather = 61, "GATHER", "tosa.gather";
    Scatter = 62, "SCATTER", "tosa.scatter";
    Resize = 63, "RESIZE", "tosa.resize";
    Cast = 64, "CAST", "tosa.cast";
    Rescale = 65, "RESCALE", "tosa.rescale";
}

impl TosaOp {
    /// The instruction-set opcode (the `OpExtInst` instruction number).
    pub const fn opcode(self) -> u32 {
        self as u32
    }

    /// The operator with this opcode, if it is one of the 66.
    pub fn from_opcode(opcode: u32) -> Option<TosaOp> {
        usize::try_from(opcode).ok().and_then(|i| TosaOp::ALL.get(i)).copied()
    }

    /// Parses a grammar spelling (exact, as produced by [`TosaOp::name`]).
    pub fn from_name(name: &str) -> Option<TosaOp> {
        TosaOp::ALL.into_iter().find(|op| op.name() == name)
    }

    /// Parses an MLIR operation name (`"tosa.conv2d"`).
    pub fn from_mlir_name(name: &str) -> Option<TosaOp> {
        TosaOp::ALL.into_iter().find(|op| op.mlir_name() == name)
    }
}

impl fmt::Display for TosaOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

// Serialized as the grammar name so manifests stay readable and stable even
// if the Rust variant names change.
impl Serialize for TosaOp {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for TosaOp {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        TosaOp::from_name(&name).ok_or_else(|| serde::de::Error::custom(format!("unknown TOSA operator {name:?}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opcodes_are_positions() {
        for (i, op) in TosaOp::ALL.into_iter().enumerate() {
            assert_eq!(op.opcode() as usize, i);
            assert_eq!(TosaOp::from_opcode(op.opcode()), Some(op));
            assert_eq!(TosaOp::from_name(op.name()), Some(op));
            assert_eq!(TosaOp::from_mlir_name(op.mlir_name()), Some(op));
        }
        assert_eq!(TosaOp::from_opcode(TosaOp::COUNT as u32), None);
        assert_eq!(TosaOp::from_opcode(u32::MAX), None);
        assert_eq!(TosaOp::from_name("argmax"), None);
    }

    #[test]
    fn serde_uses_grammar_names() {
        let json = serde_json::to_string(&TosaOp::DepthwiseConv2d).unwrap_or_default();
        assert_eq!(json, "\"DEPTHWISE_CONV2D\"");
        let back: Result<TosaOp, _> = serde_json::from_str("\"AVG_POOL2D\"");
        assert_eq!(back.ok(), Some(TosaOp::AvgPool2d));
        assert!(serde_json::from_str::<TosaOp>("\"NOPE\"").is_err());
    }
}
