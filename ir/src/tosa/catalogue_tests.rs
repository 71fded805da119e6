//! Consistency of the catalogue with itself and with §4 of the reference.

use super::spec::*;
use super::{catalogue, AccType, EnumKind, ResizeMode, SlotError, TosaOp};
use crate::elem::ElemType::{self, *};
use crate::elem::Profile::{self, *};
use std::collections::BTreeMap;

#[test]
fn table_is_indexed_by_opcode() {
    for (i, spec) in catalogue().iter().enumerate() {
        assert_eq!(spec.op.opcode() as usize, i, "{:?}", spec.op);
        assert!(std::ptr::eq(spec.op.spec(), spec));
    }
}

/// Row counts per operator, in opcode order, as listed in §4 (RESCALE: the
/// 12 registry rows split by scale32, minus the 3 invalid i48 + scale32 rows).
const ROW_COUNTS: [usize; TosaOp::COUNT] = [
    7, 8, 8, 8, 8, 1, 8, 7, 1, 8, 5, 3, 3, 3, 4, 3, 3, 3, 3, 1, 1, 3, 3, 1, 1, 4, 4, 6, 3, 4, 2, 4, 3, 3, 1, 3, 3, 3,
    3, 1, 6, 3, 3, 3, 7, 4, 4, 4, 1, 1, 6, 6, 3, 4, 9, 9, 9, 9, 9, 9, 9, 8, 8, 7, 46, 21,
];

#[test]
fn every_op_has_well_formed_rows() {
    for spec in catalogue() {
        let op = spec.op;
        assert_eq!(spec.type_rows.len(), ROW_COUNTS[op as usize], "{op} row count");
        for row in spec.type_rows {
            assert!(!row.profiles.is_empty(), "{op}: row without a profile");
            assert_eq!(row.types.len(), spec.slots.len(), "{op}: row {row:?} vs slots");
        }
        // No two rows may be indistinguishable.
        for (i, a) in spec.type_rows.iter().enumerate() {
            for b in &spec.type_rows[i + 1..] {
                assert!(!(a.types == b.types && a.qualifier == b.qualifier), "{op}: duplicate row {a:?}");
            }
        }
    }
}

#[test]
fn rows_per_profile_match_section_4() {
    let mut mentions: BTreeMap<Profile, usize> = BTreeMap::new();
    for spec in catalogue() {
        for row in spec.type_rows {
            for p in row.mentions() {
                *mentions.entry(p).or_default() += 1;
            }
        }
    }
    let expected =
        [(ProFp, 136), (ProInt, 129), (ExtBf16, 58), (ExtFp8E4M3, 23), (ExtFp8E5M2, 23), (ExtInt16, 16), (ExtFft, 2)];
    for (p, n) in expected {
        assert_eq!(mentions.get(&p).copied().unwrap_or(0), n, "{p}");
    }
    // The rounding extensions are attribute values, never a row's profile.
    assert!(!mentions.contains_key(&ExtDoubleRound));
    assert!(!mentions.contains_key(&ExtInexactRound));
}

fn check_index(spec: &OpSpec, i: u8, what: &str, want_tensor: bool) {
    let o = spec.operands.get(usize::from(i));
    let o = o.unwrap_or_else(|| panic!("{}: {what} refers to missing operand {i}", spec.op));
    if want_tensor {
        assert!(matches!(o.form, Form::Tensor { .. }), "{}: {what} -> {} is not a tensor", spec.op, o.name);
    } else {
        assert_eq!(o.form, Form::BoolConst, "{}: {what} -> {} is not a bool", spec.op, o.name);
    }
}

#[test]
fn operand_references_are_consistent() {
    for spec in catalogue() {
        let op = spec.op;
        let nslots = spec.slots.len();
        let mut slot_used = vec![false; nslots];
        if let Some(u) = slot_used.get_mut(usize::from(spec.result.slot)) {
            *u = true;
        } else {
            panic!("{op}: result slot out of range");
        }
        let mut seen_input = false;
        for o in spec.operands {
            if let ElemRef::Slot(s) = o.form.elem() {
                assert!(usize::from(s) < nslots, "{op}.{}: slot {s}", o.name);
                slot_used[usize::from(s)] = true;
            }
            // Attributes come first in the instruction.
            match o.role {
                Role::Attribute => assert!(!seen_input, "{op}.{}: attribute after an input", o.name),
                _ => seen_input = true,
            }
            // Role, form and MLIR representation agree.
            match (o.role, o.form, o.mlir) {
                (Role::Attribute, f, MlirRepr::Attr(_)) => {
                    assert!(!matches!(f, Form::Tensor { .. } | Form::ConstTensor { .. }), "{op}.{}", o.name)
                }
                (Role::CtcInput, Form::I32Array { .. }, MlirRepr::ConstShape) => {}
                (Role::CtcInput, Form::ConstTensor { .. }, MlirRepr::Const) => {}
                (Role::Input, Form::Tensor { .. }, MlirRepr::Operand) => {}
                other => panic!("{op}.{}: inconsistent {other:?}", o.name),
            }
            match o.form {
                Form::Tensor { rank: RankReq::SameAs(j), .. } => check_index(spec, j, "rank", true),
                Form::AxisConst { of } => check_index(spec, of, "axis", true),
                Form::I32Array { len } | Form::ConstTensor { len, .. } => match len {
                    Len::RankOf(j) | Len::TwiceRankOf(j) => check_index(spec, j, "len", true),
                    Len::PerChannel { flag, of } => {
                        check_index(spec, flag, "per_channel", false);
                        check_index(spec, of, "channels", true);
                    }
                    Len::TableSize { slot } => assert!(usize::from(slot) < nslots),
                    Len::Fixed(n) => assert!(n >= 1),
                    Len::OutputRank => {}
                },
                _ => {}
            }
            if let ValueRule::RescaleZeroPoint { unsigned_flag } = o.value {
                check_index(spec, unsigned_flag, "unsigned flag", false);
            }
            if o.value == ValueRule::ZeroPoint {
                assert!(o.name.ends_with("_zp"), "{op}.{}", o.name);
            }
        }
        assert!(slot_used.iter().all(|&u| u), "{op}: a type slot is never used");
        assert_eq!(
            spec.result.names.len(),
            match spec.result.kind {
                ResultKind::Tensor => 1,
                ResultKind::RealImagStruct => 2,
            }
        );
        assert_eq!(spec.variadic, op == TosaOp::Concat);
    }
}

#[test]
fn ctc_inputs_are_those_of_section_2_5() {
    let mut got: Vec<(TosaOp, Vec<&str>)> = Vec::new();
    for spec in catalogue() {
        let names: Vec<&str> = spec.ctc_inputs().map(|(_, o)| o.name).collect();
        if !names.is_empty() {
            got.push((spec.op, names));
        }
    }
    let conv = ["input_zp", "weight_zp"];
    let expected: Vec<(TosaOp, Vec<&str>)> = vec![
        (TosaOp::AvgPool2d, vec!["input_zp", "output_zp"]),
        (TosaOp::Conv2d, conv.to_vec()),
        (TosaOp::Conv3d, conv.to_vec()),
        (TosaOp::DepthwiseConv2d, conv.to_vec()),
        (TosaOp::Matmul, vec!["A_zp", "B_zp"]),
        (TosaOp::TransposeConv2d, conv.to_vec()),
        (TosaOp::Mul, vec!["shift"]),
        (TosaOp::Table, vec!["table"]),
        (TosaOp::Negate, vec!["input1_zp", "output_zp"]),
        (TosaOp::Pad, vec!["padding", "pad_const"]),
        (TosaOp::Reshape, vec!["shape"]),
        (TosaOp::Slice, vec!["start", "size"]),
        (TosaOp::Tile, vec!["multiples"]),
        (TosaOp::Resize, vec!["scale", "offset", "border"]),
        (TosaOp::Rescale, vec!["multiplier", "shift", "input_zp", "output_zp"]),
    ];
    assert_eq!(got, expected);
}

#[test]
fn attributes_have_the_forms_of_section_1_3() {
    for spec in catalogue() {
        for (_, o) in spec.attributes() {
            let expected_form = match o.name {
                "axis" => "axis",
                "nan_mode" | "acc_type" | "mode" | "rounding_mode" => "enum",
                "local_bound" | "inverse" | "round" | "scale32" | "per_channel" | "input_unsigned"
                | "output_unsigned" => "bool",
                "min_val" | "max_val" => "scalar",
                "kernel" | "stride" | "pad" | "dilation" | "out_pad" | "perms" => "array",
                other => panic!("{}: unexpected attribute {other}", spec.op),
            };
            let form = match o.form {
                Form::AxisConst { .. } => "axis",
                Form::EnumConst(_) => "enum",
                Form::BoolConst => "bool",
                Form::ScalarConst { .. } => "scalar",
                Form::I32Array { .. } => "array",
                _ => "tensor",
            };
            assert_eq!(form, expected_form, "{}.{}", spec.op, o.name);
            let mlir_ok = match (o.form, o.mlir) {
                (Form::AxisConst { .. }, MlirRepr::Attr(MlirAttr::I32)) => true,
                (Form::EnumConst(EnumKind::AccType), MlirRepr::Attr(MlirAttr::AccType)) => true,
                (Form::EnumConst(k), MlirRepr::Attr(MlirAttr::Enum(m))) => k == m,
                (Form::BoolConst, MlirRepr::Attr(MlirAttr::Bool)) => true,
                (Form::ScalarConst { slot }, MlirRepr::Attr(MlirAttr::ElemScalar { slot: s })) => slot == s,
                (Form::I32Array { .. }, MlirRepr::Attr(MlirAttr::I32Array)) => o.name == "perms",
                (Form::I32Array { .. }, MlirRepr::Attr(MlirAttr::I64Array)) => o.name != "perms",
                _ => false,
            };
            assert!(mlir_ok, "{}.{}: {:?}", spec.op, o.name, o.mlir);
        }
    }
}

#[test]
fn attribute_array_lengths() {
    let len = |op: TosaOp, name: &str| match op.spec().operand_named(name).map(|(_, o)| o.form) {
        Some(Form::I32Array { len }) | Some(Form::ConstTensor { len, .. }) => Some(len),
        _ => None,
    };
    assert_eq!(len(TosaOp::Conv2d, "pad"), Some(Len::Fixed(4)));
    assert_eq!(len(TosaOp::Conv3d, "pad"), Some(Len::Fixed(6)));
    assert_eq!(len(TosaOp::Conv3d, "stride"), Some(Len::Fixed(3)));
    assert_eq!(len(TosaOp::AvgPool2d, "kernel"), Some(Len::Fixed(2)));
    assert_eq!(len(TosaOp::TransposeConv2d, "out_pad"), Some(Len::Fixed(4)));
    assert_eq!(len(TosaOp::Pad, "padding"), Some(Len::TwiceRankOf(0)));
    assert_eq!(len(TosaOp::Slice, "size"), Some(Len::RankOf(0)));
    assert_eq!(len(TosaOp::Tile, "multiples"), Some(Len::RankOf(0)));
    assert_eq!(len(TosaOp::Transpose, "perms"), Some(Len::RankOf(1)));
    assert_eq!(len(TosaOp::Reshape, "shape"), Some(Len::OutputRank));
    assert_eq!(len(TosaOp::Resize, "scale"), Some(Len::Fixed(4)));
    assert_eq!(len(TosaOp::Resize, "border"), Some(Len::Fixed(2)));
    assert_eq!(len(TosaOp::Table, "table"), Some(Len::TableSize { slot: 0 }));
    assert_eq!(len(TosaOp::Mul, "shift"), Some(Len::Fixed(1)));
    assert_eq!(len(TosaOp::Rescale, "multiplier"), Some(Len::PerChannel { flag: 2, of: 5 }));
    assert_eq!(table_size(I8), Some(256));
    assert_eq!(table_size(I16), Some(513));
    assert_eq!(table_size(I32), None);
}

#[test]
fn profile_filtering() {
    let cast = TosaOp::Cast.spec();
    let pair = |r: &&TypeRow| r.types == [Bf16, Fp8E4M3];
    assert!(!cast.rows_for(&[ExtBf16]).any(|r| pair(&r)));
    assert!(!cast.rows_for(&[ExtFp8E4M3]).any(|r| pair(&r)));
    assert!(cast.rows_for(&[ExtBf16, ExtFp8E4M3]).any(|r| pair(&r)));
    // A row listed under "PRO-INT, PRO-FP" is available with either.
    let add = TosaOp::Add.spec();
    assert!(add.rows_for(&[ProFp]).any(|r| r.types == [I32]));
    assert!(add.rows_for(&[ProInt]).any(|r| r.types == [I32]));
    assert_eq!(add.rows_for(&[ProInt]).count(), 1);
    assert_eq!(TosaOp::Fft2d.spec().rows_for(&[ProInt, ProFp]).count(), 0);
    assert_eq!(TosaOp::Conv2d.spec().rows_for(&[ProFp]).count(), 3);
    assert_eq!(TosaOp::Cast.spec().rows_for(&Profile::ALL).count(), 46);
    assert_eq!(TosaOp::Concat.spec().rows_for(&[ProInt]).count(), 3);
    assert_eq!(TosaOp::Pad.spec().rows_for(&[ProInt]).count(), 4);
}

#[test]
fn find_row_uses_types_and_qualifier() {
    use AccType::{Int32, Int48};
    let conv = TosaOp::Conv2d.spec();
    assert!(conv.find_row(&[I16, I8, I48], RowQualifier::AccType(Int48)).is_some());
    assert!(conv.find_row(&[I16, I8, I48], RowQualifier::AccType(Int32)).is_none());
    assert!(conv.find_row(&[Fp16, Fp16, Fp16], RowQualifier::AccType(AccType::Fp32)).is_some());
    assert!(conv.find_row(&[Bf16, Bf16, Bf16], RowQualifier::AccType(AccType::Fp16)).is_none());
    assert_eq!(conv.qualifier_operand(), Some(3));

    let resize = TosaOp::Resize.spec();
    let bil = RowQualifier::Mode(ResizeMode::Bilinear);
    let nn = RowQualifier::Mode(ResizeMode::NearestNeighbor);
    assert!(resize.find_row(&[I8, I32], bil).is_some());
    assert!(resize.find_row(&[I8, I32], nn).is_none());
    assert!(resize.find_row(&[I8, I8], nn).is_some());
    assert!(resize.find_row(&[I16, I48], bil).is_some());
    assert!(resize.find_row(&[Fp16, Fp16], bil).is_some());
    assert!(resize.find_row(&[Fp16, Fp16], nn).is_some());
    assert_eq!(resize.qualifier_operand(), Some(0));

    let rescale = TosaOp::Rescale.spec();
    assert!(rescale.find_row(&[I48, I8, I16], RowQualifier::Scale32(false)).is_some());
    assert!(rescale.find_row(&[I48, I8, I32], RowQualifier::Scale32(true)).is_none());
    assert!(rescale.find_row(&[I32, I8, I32], RowQualifier::Scale32(true)).is_some());
    assert!(rescale.find_row(&[I32, I8, I32], RowQualifier::Scale32(false)).is_none());
    assert_eq!(rescale.qualifier_operand(), Some(0));

    let mul = TosaOp::Mul.spec();
    assert!(mul.find_row(&[I8, I32], RowQualifier::Any).is_some());
    assert!(mul.find_row(&[I8, I8], RowQualifier::Any).is_none());
    assert_eq!(mul.qualifier_operand(), None);
    let table = TosaOp::Table.spec();
    assert!(table.find_row(&[I16, I32], RowQualifier::Any).is_some());
    assert!(table.find_row(&[I16, I16], RowQualifier::Any).is_none());
    let cast = TosaOp::Cast.spec();
    for (a, b) in [(Fp16, Fp16), (Bool, Fp32), (Fp16, Bf16), (Bf16, Fp16), (Fp8E4M3, I8)] {
        assert!(cast.find_row(&[a, b], RowQualifier::Any).is_none(), "{a}->{b}");
    }
    for spec in catalogue() {
        for row in spec.type_rows {
            assert_eq!(spec.find_row(row.types, row.qualifier), Some(row), "{}", spec.op);
        }
    }
    let eq = TosaOp::Equal.spec();
    assert!(eq.type_rows.iter().all(|r| r.types.get(1) == Some(&Bool)));
}

#[test]
fn slot_types_collects_and_checks() {
    let conv = TosaOp::Conv2d.spec();
    let mut ops = vec![Some(I32); 3];
    ops.extend([Some(I32), Some(Bool), Some(I16), Some(I8), Some(I48), Some(I16), Some(I8)]);
    let slots = conv.slot_types(&ops, &[Some(I48)]).unwrap_or_default();
    assert_eq!(slots, vec![Some(I16), Some(I8), Some(I48)]);
    let found: Vec<ElemType> = slots.iter().flatten().copied().collect();
    assert!(conv.find_row(&found, RowQualifier::AccType(AccType::Int48)).is_some());

    // input_zp of another type than input.
    ops[8] = Some(I8);
    assert!(matches!(conv.slot_types(&ops, &[]), Err(SlotError::Conflict { slot: "in_t", .. })));

    let gather = TosaOp::Gather.spec();
    let err = gather.slot_types(&[Some(Fp16), Some(I16)], &[Some(Fp16)]);
    assert!(matches!(err, Err(SlotError::Fixed { expected: I32, found: I16, .. })), "{err:?}");
    assert!(matches!(gather.slot_types(&[None], &[]), Err(SlotError::OperandCount { .. })));

    let concat = TosaOp::Concat.spec();
    let ok = concat.slot_types(&[Some(I32), Some(I8), Some(I8), Some(I8)], &[Some(I8)]);
    assert_eq!(ok.ok(), Some(vec![Some(I8)]));
    let bad = concat.slot_types(&[Some(I32), Some(I8), Some(I16)], &[]);
    assert!(bad.is_err());
    let partial = TosaOp::Cast.spec().slot_types(&[Some(I8)], &[None]).unwrap_or_default();
    assert_eq!(TosaOp::Cast.spec().rows_matching(&partial).count(), 6);
}

#[test]
fn variadic_operand_lookup() {
    let concat = TosaOp::Concat.spec();
    assert!(!concat.accepts_operand_count(1));
    assert!(concat.accepts_operand_count(2));
    assert!(concat.accepts_operand_count(300));
    assert_eq!(concat.operand(7).map(|o| o.name), Some("input1"));
    let add = TosaOp::Add.spec();
    assert!(add.accepts_operand_count(2));
    assert!(!add.accepts_operand_count(3));
    assert!(add.operand(2).is_none());
}

#[test]
fn conv2d_operand_order_is_the_grammar_order() {
    let names: Vec<&str> = TosaOp::Conv2d.spec().operands.iter().map(|o| o.name).collect();
    assert_eq!(
        names,
        ["pad", "stride", "dilation", "acc_type", "local_bound", "input", "weight", "bias", "input_zp", "weight_zp"]
    );
    assert_eq!(TosaOp::Fft2d.spec().result.kind, ResultKind::RealImagStruct);
    assert_eq!(TosaOp::Rfft2d.spec().result.names, ["output_real", "output_imag"]);
}

#[test]
fn mlir_names() {
    let expected = [
        (TosaOp::Argmax, "tosa.argmax"),
        (TosaOp::AvgPool2d, "tosa.avg_pool2d"),
        (TosaOp::DepthwiseConv2d, "tosa.depthwise_conv2d"),
        (TosaOp::TransposeConv2d, "tosa.transpose_conv2d"),
        (TosaOp::Rfft2d, "tosa.rfft2d"),
        (TosaOp::ArithmeticRightShift, "tosa.arithmetic_right_shift"),
        (TosaOp::Intdiv, "tosa.intdiv"),
        (TosaOp::BitwiseNot, "tosa.bitwise_not"),
        (TosaOp::GreaterEqual, "tosa.greater_equal"),
        (TosaOp::ReduceAll, "tosa.reduce_all"),
        (TosaOp::Rescale, "tosa.rescale"),
    ];
    for (op, name) in expected {
        assert_eq!(op.mlir_name(), name);
    }
    for op in TosaOp::ALL {
        let m = op.mlir_name();
        assert_eq!(
            m.strip_prefix("tosa.").map(|s| s.replace('_', "")),
            Some(op.name().to_lowercase().replace('_', ""))
        );
    }
}

#[test]
fn accuracy_classes() {
    assert_eq!(TosaOp::Conv2d.spec().accuracy, Accuracy::DotProduct);
    assert_eq!(TosaOp::ReduceSum.spec().accuracy, Accuracy::DotProduct);
    assert_eq!(TosaOp::Rsqrt.spec().accuracy, Accuracy::Ulp(2.0));
    assert_eq!(TosaOp::Erf.spec().accuracy, Accuracy::Ulp(5.0));
    assert_eq!(TosaOp::Resize.spec().accuracy, Accuracy::Relative);
    assert_eq!(TosaOp::Sigmoid.spec().accuracy, Accuracy::AbsError(AbsErrorBound::Calc(AbsErrorSpec::PLAIN)));
    assert_eq!(TosaOp::Pow.spec().accuracy, Accuracy::AbsError(AbsErrorBound::PerElement));
    let abs_error_ops: Vec<TosaOp> =
        TosaOp::ALL.into_iter().filter(|op| matches!(op.spec().accuracy, Accuracy::AbsError(_))).collect();
    use TosaOp::{Cos, Exp, Log, Pow, Sigmoid, Sin, Tanh};
    assert_eq!(abs_error_ops, [Sigmoid, Tanh, Pow, Cos, Exp, Log, Sin]);
    assert_eq!(Accuracy::for_cast(Fp32, Fp16), Accuracy::AsymmetricUlp { below: 1.0, above: 0.5 });
    assert_eq!(Accuracy::for_cast(I8, Bf16), Accuracy::AsymmetricUlp { below: 1.0, above: 0.5 });
    // Through fp32, as the reference model does: half an fp32 unit more.
    let above = 0.5 + 2f64.powi(8 - 25);
    assert_eq!(Accuracy::for_cast(I32, Bf16), Accuracy::AsymmetricUlp { below: 1.0, above });
    assert_eq!(Accuracy::for_cast(I32, Fp32), Accuracy::AsymmetricUlp { below: 1.0, above: 0.5 });
    assert_eq!(Accuracy::for_cast(Fp32, I8), Accuracy::Exact);
}
