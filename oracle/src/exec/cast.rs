//! CAST (§4.11): bool ↔ int, int → int (sign-extend or keep the low bits),
//! int → float and float → float rounded once to nearest-even, float → int
//! rounded to nearest-even then saturated (NaN is a REQUIRE failure).

use super::convert::{bools, from_f64, from_i64, int_bits, to_f64, to_i64};
use super::ctx::Ctx;
use super::error::OpError;
use super::intmath::{self as im};
use super::zipmap::{checked, map1};
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;

/// Runs CAST.
pub(crate) fn run(cx: &Ctx<'_>) -> Result<TensorData, OpError> {
    let input = cx.tensor("input")?;
    let from = input.elem();
    let to = cx.out_elem()?;
    match (from, to) {
        (ElemType::Bool, _) => from_i64(to, bools(input)?.mapv(i64::from)),
        (_, ElemType::Bool) => {
            let x = to_i64(input)?;
            Ok(TensorData::Bool(map1(&x, |v| v != 0)))
        }
        (f, t) if f.is_float() && t.is_float() => from_f64(t, to_f64(input)?),
        (f, t) if f.is_float() => {
            let (lo, hi) = im::signed_range(int_bits(t));
            let x = to_f64(input)?;
            from_i64(t, checked(map1(&x, move |v| im::float_to_int(v, lo, hi)))?)
        }
        (_, t) if t.is_float() => from_f64(t, to_i64(input)?.mapv(|v| v as f64)),
        (_, t) => from_i64(t, to_i64(input)?),
    }
}
