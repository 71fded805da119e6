//! Element types of graph tensors and the TOSA profiles/extensions that enable them.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A tensor element type as TOSA sees it, with its SPIR-V scalar encoding.
///
/// TOSA's 48-bit accumulator type `i48` is stored in SPIR-V as `OpTypeInt 64 0`
/// (the TOSA instruction set says so explicitly), so [`ElemType::I48`] is the
/// variant for every 64-bit integer element.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ElemType {
    /// `OpTypeBool`.
    Bool,
    /// `OpTypeInt 8 0`.
    I8,
    /// `OpTypeInt 16 0`.
    I16,
    /// `OpTypeInt 32 0`.
    I32,
    /// TOSA `i48_t`, stored as `OpTypeInt 64 0`.
    I48,
    /// `OpTypeFloat 16`.
    Fp16,
    /// `OpTypeFloat 16 BFloat16KHR`.
    Bf16,
    /// `OpTypeFloat 32`.
    Fp32,
    /// `OpTypeFloat 8 Float8E4M3EXT`.
    Fp8E4M3,
    /// `OpTypeFloat 8 Float8E5M2EXT`.
    Fp8E5M2,
}

/// SPIR-V `FPEncoding` operand value for bfloat16 (`BFloat16KHR`).
pub const FP_ENCODING_BFLOAT16: u32 = 0;
/// SPIR-V `FPEncoding` operand value for fp8 E4M3 (`Float8E4M3EXT`).
pub const FP_ENCODING_FLOAT8_E4M3: u32 = 4214;
/// SPIR-V `FPEncoding` operand value for fp8 E5M2 (`Float8E5M2EXT`).
pub const FP_ENCODING_FLOAT8_E5M2: u32 = 4215;

impl ElemType {
    /// Every element type, in a stable order.
    pub const ALL: [ElemType; 10] = [
        ElemType::Bool,
        ElemType::I8,
        ElemType::I16,
        ElemType::I32,
        ElemType::I48,
        ElemType::Fp16,
        ElemType::Bf16,
        ElemType::Fp32,
        ElemType::Fp8E4M3,
        ElemType::Fp8E5M2,
    ];

    /// Short TOSA-style name (`i8`, `fp16`, `bf16`, `fp8e4m3`, ...).
    pub fn name(self) -> &'static str {
        match self {
            ElemType::Bool => "bool",
            ElemType::I8 => "i8",
            ElemType::I16 => "i16",
            ElemType::I32 => "i32",
            ElemType::I48 => "i48",
            ElemType::Fp16 => "fp16",
            ElemType::Bf16 => "bf16",
            ElemType::Fp32 => "fp32",
            ElemType::Fp8E4M3 => "fp8e4m3",
            ElemType::Fp8E5M2 => "fp8e5m2",
        }
    }

    /// Parses the names produced by [`ElemType::name`].
    pub fn from_name(name: &str) -> Option<ElemType> {
        ElemType::ALL.into_iter().find(|e| e.name() == name)
    }

    /// Width in bits of the SPIR-V scalar that stores one element (bool: 8, as
    /// TOSA stores it in one byte).
    pub fn storage_bits(self) -> u32 {
        match self {
            ElemType::Bool | ElemType::I8 | ElemType::Fp8E4M3 | ElemType::Fp8E5M2 => 8,
            ElemType::I16 | ElemType::Fp16 | ElemType::Bf16 => 16,
            ElemType::I32 | ElemType::Fp32 => 32,
            ElemType::I48 => 64,
        }
    }

    /// True for the integer types (not bool).
    pub fn is_int(self) -> bool {
        matches!(self, ElemType::I8 | ElemType::I16 | ElemType::I32 | ElemType::I48)
    }

    /// True for the floating-point types.
    pub fn is_float(self) -> bool {
        matches!(self, ElemType::Fp16 | ElemType::Bf16 | ElemType::Fp32 | ElemType::Fp8E4M3 | ElemType::Fp8E5M2)
    }

    /// Whether `bits` encode a subnormal value of this floating-point type
    /// (exponent field zero, mantissa not). Always false for the others.
    pub fn is_subnormal_bits(self, bits: u64) -> bool {
        let (exponent, mantissa) = match self {
            ElemType::Fp32 => (0x7f80_0000, 0x007f_ffff),
            ElemType::Fp16 => (0x7c00, 0x03ff),
            ElemType::Bf16 => (0x7f80, 0x007f),
            ElemType::Fp8E4M3 => (0x78, 0x07),
            ElemType::Fp8E5M2 => (0x7c, 0x03),
            ElemType::Bool | ElemType::I8 | ElemType::I16 | ElemType::I32 | ElemType::I48 => return false,
        };
        bits & exponent == 0 && bits & mantissa != 0
    }

    /// The element type that a SPIR-V scalar type declaration denotes, if any.
    ///
    /// `int_width`/`float` come from `OpTypeInt`/`OpTypeFloat`; signedness is
    /// not part of the TOSA type (TOSA integers are signless), so it is ignored here.
    pub fn from_spirv(scalar: ScalarKind) -> Option<ElemType> {
        match scalar {
            ScalarKind::Bool => Some(ElemType::Bool),
            ScalarKind::Int { width: 8, .. } => Some(ElemType::I8),
            ScalarKind::Int { width: 16, .. } => Some(ElemType::I16),
            ScalarKind::Int { width: 32, .. } => Some(ElemType::I32),
            ScalarKind::Int { width: 64, .. } => Some(ElemType::I48),
            ScalarKind::Float { width: 16, encoding: None } => Some(ElemType::Fp16),
            ScalarKind::Float { width: 32, encoding: None } => Some(ElemType::Fp32),
            ScalarKind::Float { width: 16, encoding: Some(FP_ENCODING_BFLOAT16) } => Some(ElemType::Bf16),
            ScalarKind::Float { width: 8, encoding: Some(FP_ENCODING_FLOAT8_E4M3) } => Some(ElemType::Fp8E4M3),
            ScalarKind::Float { width: 8, encoding: Some(FP_ENCODING_FLOAT8_E5M2) } => Some(ElemType::Fp8E5M2),
            _ => None,
        }
    }

    /// The SPIR-V scalar type declaration for this element type (integers signless).
    pub fn to_spirv(self) -> ScalarKind {
        match self {
            ElemType::Bool => ScalarKind::Bool,
            ElemType::I8 => ScalarKind::Int { width: 8, signed: false },
            ElemType::I16 => ScalarKind::Int { width: 16, signed: false },
            ElemType::I32 => ScalarKind::Int { width: 32, signed: false },
            ElemType::I48 => ScalarKind::Int { width: 64, signed: false },
            ElemType::Fp16 => ScalarKind::Float { width: 16, encoding: None },
            ElemType::Fp32 => ScalarKind::Float { width: 32, encoding: None },
            ElemType::Bf16 => ScalarKind::Float { width: 16, encoding: Some(FP_ENCODING_BFLOAT16) },
            ElemType::Fp8E4M3 => ScalarKind::Float { width: 8, encoding: Some(FP_ENCODING_FLOAT8_E4M3) },
            ElemType::Fp8E5M2 => ScalarKind::Float { width: 8, encoding: Some(FP_ENCODING_FLOAT8_E5M2) },
        }
    }
}

impl fmt::Display for ElemType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A SPIR-V scalar type declaration (`OpTypeBool`, `OpTypeInt`, `OpTypeFloat`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ScalarKind {
    /// `OpTypeBool`.
    Bool,
    /// `OpTypeInt width signedness`.
    Int {
        /// Bit width.
        width: u32,
        /// Signedness operand (TOSA uses 0).
        signed: bool,
    },
    /// `OpTypeFloat width [encoding]`.
    Float {
        /// Bit width.
        width: u32,
        /// Optional `FPEncoding` operand.
        encoding: Option<u32>,
    },
}

/// A TOSA profile or extension supported by `TOSA.001000.1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Profile {
    /// PRO-INT: integer inference.
    ProInt,
    /// PRO-FP: floating-point inference (fp16, fp32).
    ProFp,
    /// EXT-INT16: 16-bit integer activations.
    ExtInt16,
    /// EXT-BF16: bfloat16.
    ExtBf16,
    /// EXT-FP8E4M3: fp8 E4M3.
    ExtFp8E4M3,
    /// EXT-FP8E5M2: fp8 E5M2.
    ExtFp8E5M2,
    /// EXT-FFT: FFT2D and RFFT2D.
    ExtFft,
    /// EXT-DOUBLEROUND: RESCALE rounding_mode DOUBLE_ROUND.
    ExtDoubleRound,
    /// EXT-INEXACTROUND: RESCALE rounding_mode INEXACT_ROUND.
    ExtInexactRound,
}

impl Profile {
    /// Every profile and extension of the instruction set.
    pub const ALL: [Profile; 9] = [
        Profile::ProInt,
        Profile::ProFp,
        Profile::ExtInt16,
        Profile::ExtBf16,
        Profile::ExtFp8E4M3,
        Profile::ExtFp8E5M2,
        Profile::ExtFft,
        Profile::ExtDoubleRound,
        Profile::ExtInexactRound,
    ];

    /// The TOSA spelling (`PRO-INT`, `EXT-BF16`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Profile::ProInt => "PRO-INT",
            Profile::ProFp => "PRO-FP",
            Profile::ExtInt16 => "EXT-INT16",
            Profile::ExtBf16 => "EXT-BF16",
            Profile::ExtFp8E4M3 => "EXT-FP8E4M3",
            Profile::ExtFp8E5M2 => "EXT-FP8E5M2",
            Profile::ExtFft => "EXT-FFT",
            Profile::ExtDoubleRound => "EXT-DOUBLEROUND",
            Profile::ExtInexactRound => "EXT-INEXACTROUND",
        }
    }

    /// Parses the names produced by [`Profile::name`] (case-insensitive).
    pub fn from_name(name: &str) -> Option<Profile> {
        Profile::ALL.into_iter().find(|p| p.name().eq_ignore_ascii_case(name))
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
