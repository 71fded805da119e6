//! TABLE (§4.3): i8 direct lookup, i16 interpolated lookup (16.7 fixed point in i32).

use super::convert::{flat, from_i64, to_i64};
use super::ctx::Ctx;
use super::error::OpError;
use super::intmath::{self as im, Require};
use super::zipmap::{checked, map1};
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::spec::table_size;

/// Runs TABLE.
pub(crate) fn run(cx: &Ctx<'_>) -> Result<TensorData, OpError> {
    let input = cx.tensor("input1")?;
    let table_t = cx.tensor("table")?;
    let elem = input.elem();
    let size = table_size(elem).ok_or_else(|| OpError::invalid(format!("TABLE: no table size for {elem}")))?;
    if table_t.len() != size as usize {
        return Err(OpError::invalid(format!("TABLE: table has {} entries, {elem} needs {size}", table_t.len())));
    }
    let table = flat(&to_i64(table_t)?).into_owned();
    let x = to_i64(input)?;
    let out = if elem == ElemType::I8 {
        checked(map1(&x, |v| im::lookup_i8(&table, v).ok_or(Require::IndexRange)))?
    } else {
        checked(map1(&x, |v| im::lookup_i16(&table, v)))?
    };
    from_i64(cx.out_elem()?, out)
}
