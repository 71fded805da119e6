//! The enumerated attribute types of `TOSA.001000.1` (§1.4 of the reference).
//!
//! Each is passed as an `OpConstant` of `OpTypeInt 32 0`; value 0 and values
//! past the last enumerant are invalid.

use crate::elem::{ElemType, Profile};
use std::fmt;

/// Which enumeration an enum-valued operand holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EnumKind {
    /// `nan_propagation_mode_t` ([`NanMode`]).
    NanMode,
    /// `acc_type_t` ([`AccType`]).
    AccType,
    /// `resize_mode_t` ([`ResizeMode`]).
    ResizeMode,
    /// `rounding_mode_t` ([`RoundingMode`]).
    RoundingMode,
}

impl EnumKind {
    /// The TOSA type name (`"nan_propagation_mode_t"`, ...).
    pub fn tosa_name(self) -> &'static str {
        match self {
            EnumKind::NanMode => "nan_propagation_mode_t",
            EnumKind::AccType => "acc_type_t",
            EnumKind::ResizeMode => "resize_mode_t",
            EnumKind::RoundingMode => "rounding_mode_t",
        }
    }

    /// The valid encoded values, in increasing order.
    pub fn values(self) -> &'static [u32] {
        match self {
            EnumKind::NanMode => &[1, 2],
            EnumKind::AccType => &[1, 2, 3, 4],
            EnumKind::ResizeMode => &[1, 2],
            EnumKind::RoundingMode => &[1, 2, 3],
        }
    }

    /// Whether `value` is a valid enumerant of this kind.
    pub fn is_valid(self, value: u32) -> bool {
        self.values().contains(&value)
    }

    /// The enumerant's name (`"PROPAGATE"`, `"INT48"`, ...), if `value` is valid.
    pub fn value_name(self, value: u32) -> Option<&'static str> {
        match self {
            EnumKind::NanMode => NanMode::from_u32(value).map(NanMode::name),
            EnumKind::AccType => AccType::from_u32(value).map(AccType::name),
            EnumKind::ResizeMode => ResizeMode::from_u32(value).map(ResizeMode::name),
            EnumKind::RoundingMode => RoundingMode::from_u32(value).map(RoundingMode::name),
        }
    }

    /// The extension that `value` needs beyond the operator's type row, if any
    /// (only `rounding_mode` 2 and 3 need one).
    pub fn required_profile(self, value: u32) -> Option<Profile> {
        match self {
            EnumKind::RoundingMode => RoundingMode::from_u32(value).and_then(RoundingMode::required_profile),
            _ => None,
        }
    }
}

/// `nan_propagation_mode_t`: how FP min/max-like operators treat NaN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NanMode {
    /// 1: any NaN operand gives NaN.
    Propagate = 1,
    /// 2: NaN only if every operand is NaN.
    Ignore = 2,
}

/// `acc_type_t`: the accumulator type of pooling and convolution operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AccType {
    /// 1: 32-bit integer.
    Int32 = 1,
    /// 2: fp16.
    Fp16 = 2,
    /// 3: fp32.
    Fp32 = 3,
    /// 4: 48-bit integer.
    Int48 = 4,
}

/// `resize_mode_t`: RESIZE interpolation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ResizeMode {
    /// 1: nearest neighbour.
    NearestNeighbor = 1,
    /// 2: bilinear.
    Bilinear = 2,
}

/// `rounding_mode_t`: RESCALE rounding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RoundingMode {
    /// 1: one rounding step (exact).
    SingleRound = 1,
    /// 2: result may be computed inexactly (needs EXT-INEXACTROUND).
    InexactRound = 2,
    /// 3: the legacy double rounding (needs EXT-DOUBLEROUND; only with `scale32`).
    DoubleRound = 3,
}

impl NanMode {
    /// Every value.
    pub const ALL: [NanMode; 2] = [NanMode::Propagate, NanMode::Ignore];

    /// The encoded value.
    pub fn value(self) -> u32 {
        self as u32
    }

    /// Decodes a value; `None` for 0 and out-of-range values.
    pub fn from_u32(value: u32) -> Option<NanMode> {
        NanMode::ALL.into_iter().find(|m| m.value() == value)
    }

    /// The TOSA enumerant name, which is also the MLIR keyword.
    pub fn name(self) -> &'static str {
        match self {
            NanMode::Propagate => "PROPAGATE",
            NanMode::Ignore => "IGNORE",
        }
    }

    /// The MLIR spelling of the value (`PROPAGATE`); see [`mlir_enum_attr`].
    pub fn mlir_name(self) -> &'static str {
        self.name()
    }

    /// The extension this value needs: none.
    pub fn required_profile(self) -> Option<Profile> {
        None
    }
}

impl AccType {
    /// Every value.
    pub const ALL: [AccType; 4] = [AccType::Int32, AccType::Fp16, AccType::Fp32, AccType::Int48];

    /// The encoded value.
    pub fn value(self) -> u32 {
        self as u32
    }

    /// Decodes a value; `None` for 0 and out-of-range values.
    pub fn from_u32(value: u32) -> Option<AccType> {
        AccType::ALL.into_iter().find(|m| m.value() == value)
    }

    /// The TOSA enumerant name (`"INT32"`, ...).
    pub fn name(self) -> &'static str {
        match self {
            AccType::Int32 => "INT32",
            AccType::Fp16 => "FP16",
            AccType::Fp32 => "FP32",
            AccType::Int48 => "INT48",
        }
    }

    /// The MLIR type attribute (`acc_type = i32`, `f16`, `f32`, `i48`).
    pub fn mlir_name(self) -> &'static str {
        match self {
            AccType::Int32 => "i32",
            AccType::Fp16 => "f16",
            AccType::Fp32 => "f32",
            AccType::Int48 => "i48",
        }
    }

    /// The element type the accumulator has.
    pub fn elem(self) -> ElemType {
        match self {
            AccType::Int32 => ElemType::I32,
            AccType::Fp16 => ElemType::Fp16,
            AccType::Fp32 => ElemType::Fp32,
            AccType::Int48 => ElemType::I48,
        }
    }

    /// The extension this value needs by itself: none (the type row decides).
    pub fn required_profile(self) -> Option<Profile> {
        None
    }
}

impl ResizeMode {
    /// Every value.
    pub const ALL: [ResizeMode; 2] = [ResizeMode::NearestNeighbor, ResizeMode::Bilinear];

    /// The encoded value.
    pub fn value(self) -> u32 {
        self as u32
    }

    /// Decodes a value; `None` for 0 and out-of-range values.
    pub fn from_u32(value: u32) -> Option<ResizeMode> {
        ResizeMode::ALL.into_iter().find(|m| m.value() == value)
    }

    /// The TOSA enumerant name, which is also the MLIR keyword.
    pub fn name(self) -> &'static str {
        match self {
            ResizeMode::NearestNeighbor => "NEAREST_NEIGHBOR",
            ResizeMode::Bilinear => "BILINEAR",
        }
    }

    /// The MLIR spelling of the value (`BILINEAR`); see [`mlir_enum_attr`].
    pub fn mlir_name(self) -> &'static str {
        self.name()
    }

    /// The extension this value needs: none.
    pub fn required_profile(self) -> Option<Profile> {
        None
    }
}

impl RoundingMode {
    /// Every value.
    pub const ALL: [RoundingMode; 3] =
        [RoundingMode::SingleRound, RoundingMode::InexactRound, RoundingMode::DoubleRound];

    /// The encoded value.
    pub fn value(self) -> u32 {
        self as u32
    }

    /// Decodes a value; `None` for 0 and out-of-range values.
    pub fn from_u32(value: u32) -> Option<RoundingMode> {
        RoundingMode::ALL.into_iter().find(|m| m.value() == value)
    }

    /// The TOSA enumerant name, which is also the MLIR keyword.
    pub fn name(self) -> &'static str {
        match self {
            RoundingMode::SingleRound => "SINGLE_ROUND",
            RoundingMode::InexactRound => "INEXACT_ROUND",
            RoundingMode::DoubleRound => "DOUBLE_ROUND",
        }
    }

    /// The MLIR spelling of the value (`SINGLE_ROUND`); see [`mlir_enum_attr`].
    pub fn mlir_name(self) -> &'static str {
        self.name()
    }

    /// The extension a graph must enable to use this value.
    pub fn required_profile(self) -> Option<Profile> {
        match self {
            RoundingMode::SingleRound => None,
            RoundingMode::InexactRound => Some(Profile::ExtInexactRound),
            RoundingMode::DoubleRound => Some(Profile::ExtDoubleRound),
        }
    }
}

/// How an MLIR printer writes an enum attribute value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MlirEnumStyle {
    /// The custom-assembly keyword form of current LLVM (`nan_mode = PROPAGATE`),
    /// accepted by the `tosa-opt` this project pins inside custom syntax only.
    Keyword,
    /// The generic attribute form (`nan_mode = #tosa.nan_mode<PROPAGATE>`),
    /// what [`crate::mlir`] prints: every TOSA dialect generation reads it.
    Generic,
    /// The string form of older LLVM releases (`nan_mode = "PROPAGATE"`). The
    /// pinned `tosa-opt` silently drops such attributes, so avoid it there.
    String,
}

/// The MLIR text of an enum attribute value (`kind` must not be
/// [`EnumKind::AccType`], which MLIR spells as a type, see [`AccType::mlir_name`]).
///
/// Returns `None` for an invalid value or for `AccType`.
pub fn mlir_enum_attr(kind: EnumKind, value: u32, style: MlirEnumStyle) -> Option<String> {
    let mnemonic = match kind {
        EnumKind::NanMode => "nan_mode",
        EnumKind::ResizeMode => "resize_mode",
        EnumKind::RoundingMode => "rounding_mode",
        EnumKind::AccType => return None,
    };
    let name = kind.value_name(value)?;
    Some(match style {
        MlirEnumStyle::Keyword => name.to_string(),
        MlirEnumStyle::Generic => format!("#tosa.{mnemonic}<{name}>"),
        MlirEnumStyle::String => format!("\"{name}\""),
    })
}

macro_rules! display_by_name {
    ($($t:ty),*) => {$(
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }
    )*};
}
display_by_name!(NanMode, AccType, ResizeMode, RoundingMode);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip_and_zero_is_invalid() {
        for kind in [EnumKind::NanMode, EnumKind::AccType, EnumKind::ResizeMode, EnumKind::RoundingMode] {
            assert!(!kind.is_valid(0));
            let last = kind.values().last().copied().unwrap_or(0);
            assert!(!kind.is_valid(last + 1));
            for &v in kind.values() {
                assert!(kind.value_name(v).is_some(), "{kind:?} {v}");
            }
        }
        for m in AccType::ALL {
            assert_eq!(AccType::from_u32(m.value()), Some(m));
        }
        assert_eq!(AccType::from_u32(4), Some(AccType::Int48));
        assert_eq!(NanMode::from_u32(2), Some(NanMode::Ignore));
        assert_eq!(ResizeMode::from_u32(1), Some(ResizeMode::NearestNeighbor));
        assert_eq!(RoundingMode::from_u32(3), Some(RoundingMode::DoubleRound));
    }

    #[test]
    fn rounding_extensions() {
        assert_eq!(RoundingMode::SingleRound.required_profile(), None);
        assert_eq!(RoundingMode::InexactRound.required_profile(), Some(Profile::ExtInexactRound));
        assert_eq!(EnumKind::RoundingMode.required_profile(3), Some(Profile::ExtDoubleRound));
        assert_eq!(EnumKind::AccType.required_profile(4), None);
    }

    #[test]
    fn mlir_spellings() {
        assert_eq!(AccType::Int48.mlir_name(), "i48");
        assert_eq!(
            mlir_enum_attr(EnumKind::ResizeMode, 2, MlirEnumStyle::Generic).as_deref(),
            Some("#tosa.resize_mode<BILINEAR>")
        );
        assert_eq!(mlir_enum_attr(EnumKind::NanMode, 1, MlirEnumStyle::Keyword).as_deref(), Some("PROPAGATE"));
        assert_eq!(mlir_enum_attr(EnumKind::RoundingMode, 0, MlirEnumStyle::Keyword), None);
        assert_eq!(mlir_enum_attr(EnumKind::AccType, 1, MlirEnumStyle::Keyword), None);
    }
}
