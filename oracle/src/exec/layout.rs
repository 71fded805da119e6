//! Data-layout operators (§4.8): CONCAT, PAD, RESHAPE, REVERSE, SLICE, TILE,
//! TRANSPOSE. Pure data movement, generic over the element type.

use super::convert::shaped;
use super::ctx::Ctx;
use super::error::OpError;
use super::generic::{map_tensor, map_tensor_pair};
use ndarray::{concatenate, ArrayD, Axis, IxDyn, Slice};
use spvgraph_ir::tensor::TensorData;

/// The operators of this group, each named by [`super::dispatch`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Layout {
    Concat,
    Pad,
    Reshape,
    Reverse,
    Slice,
    Tile,
    Transpose,
}

/// Runs one data-layout operator.
pub(crate) fn run(cx: &Ctx<'_>, op: Layout) -> Result<TensorData, OpError> {
    let out_shape = cx.out_shape(0)?.to_vec();
    match op {
        Layout::Concat => concat(cx, &out_shape),
        Layout::Pad => {
            let padding = cx.ints("padding")?.to_vec();
            map_tensor_pair!(cx.tensor("input1")?, cx.tensor("pad_const")?, (a, p) => pad(a, p, &padding, &out_shape))
        }
        Layout::Reshape => map_tensor!(cx.tensor("input1")?, a => reshape(a, &out_shape)),
        Layout::Reverse => {
            let axis = axis(cx)?;
            map_tensor!(cx.tensor("input1")?, a => reverse(a, axis))
        }
        Layout::Slice => {
            let start = cx.ints("start")?.to_vec();
            map_tensor!(cx.tensor("input1")?, a => slice(a, &start, &out_shape))
        }
        Layout::Tile => {
            let multiples = cx.ints("multiples")?.to_vec();
            map_tensor!(cx.tensor("input1")?, a => tile(a, &multiples))
        }
        Layout::Transpose => {
            let perms = cx.ints("perms")?.iter().map(|&p| p as usize).collect::<Vec<_>>();
            map_tensor!(cx.tensor("input1")?, a => transpose(a, &perms))
        }
    }
}

/// The validated `axis` attribute.
pub(crate) fn axis(cx: &Ctx<'_>) -> Result<usize, OpError> {
    let a = cx.int("axis")?;
    usize::try_from(a).map_err(|_| OpError::invalid(format!("{}: axis {a} is negative", cx.op)))
}

fn concat(cx: &Ctx<'_>, out_shape: &[usize]) -> Result<TensorData, OpError> {
    let axis = axis(cx)?;
    let elem = cx.out_elem()?;
    let inputs = cx.tensors_from(1)?;
    // Through raw bits: the inputs are a list of one (checked) element type.
    let mut parts = Vec::with_capacity(inputs.len());
    for t in &inputs {
        if t.elem() != elem {
            return Err(OpError::invalid(format!("CONCAT: input of type {} in a {elem} concatenation", t.elem())));
        }
        parts.push(shaped(t.shape(), t.to_bits())?);
    }
    let views: Vec<_> = parts.iter().map(|p| p.view()).collect();
    let joined = concatenate(Axis(axis), &views).map_err(|e| OpError::invalid(format!("CONCAT: {e}")))?;
    let bits: Vec<u64> = joined.iter().copied().collect();
    TensorData::from_bits(elem, out_shape, &bits).map_err(|e| OpError::invalid(e.to_string()))
}

fn pad<T: Clone>(a: &ArrayD<T>, value: &ArrayD<T>, padding: &[i64], out_shape: &[usize]) -> Result<ArrayD<T>, OpError> {
    let v = value.iter().next().cloned().ok_or_else(|| OpError::invalid("PAD: pad_const is empty"))?;
    let mut out = ArrayD::from_elem(IxDyn(out_shape), v);
    let before: Vec<usize> = padding.iter().step_by(2).map(|&p| p.max(0) as usize).collect();
    let dims = a.shape().to_vec();
    let fits = dims.len() == out_shape.len()
        && before.len() == dims.len()
        && dims.iter().zip(&before).zip(out_shape).all(|((&n, &b), &o)| b + n <= o);
    if !fits {
        return Err(OpError::invalid(format!("PAD: padding {padding:?} does not fit {dims:?} into {out_shape:?}")));
    }
    out.slice_each_axis_mut(|ax| {
        let b = before.get(ax.axis.index()).copied().unwrap_or(0);
        let n = dims.get(ax.axis.index()).copied().unwrap_or(0);
        Slice::from(b..b + n)
    })
    .assign(a);
    Ok(out)
}

fn reshape<T: Clone>(a: &ArrayD<T>, out_shape: &[usize]) -> Result<ArrayD<T>, OpError> {
    let data: Vec<T> = a.iter().cloned().collect();
    shaped(out_shape, data)
}

fn reverse<T: Clone>(a: &ArrayD<T>, axis: usize) -> Result<ArrayD<T>, OpError> {
    if axis >= a.ndim() {
        return Err(OpError::invalid(format!("REVERSE: axis {axis} out of range")));
    }
    let mut v = a.view();
    v.invert_axis(Axis(axis));
    Ok(v.as_standard_layout().into_owned())
}

fn slice<T: Clone>(a: &ArrayD<T>, start: &[i64], size: &[usize]) -> Result<ArrayD<T>, OpError> {
    let fits = start.len() == a.ndim()
        && size.len() == a.ndim()
        && a.shape().iter().zip(start).zip(size).all(|((&d, &s), &n)| s >= 0 && s as usize + n <= d);
    if !fits {
        return Err(OpError::invalid(format!("SLICE: start {start:?} size {size:?} outside {:?}", a.shape())));
    }
    let v = a.slice_each_axis(|ax| {
        let s = start.get(ax.axis.index()).copied().unwrap_or(0).max(0) as usize;
        let n = size.get(ax.axis.index()).copied().unwrap_or(0);
        Slice::from(s..s + n)
    });
    Ok(v.as_standard_layout().into_owned())
}

fn tile<T: Clone>(a: &ArrayD<T>, multiples: &[i64]) -> Result<ArrayD<T>, OpError> {
    let mut cur = a.clone();
    for (axis, &m) in multiples.iter().enumerate() {
        if m > 1 {
            let copies = vec![cur.view(); m as usize];
            cur = concatenate(Axis(axis), &copies).map_err(|e| OpError::invalid(format!("TILE: {e}")))?;
        }
    }
    Ok(cur)
}

fn transpose<T: Clone>(a: &ArrayD<T>, perms: &[usize]) -> Result<ArrayD<T>, OpError> {
    // permuted_axes panics on a non-permutation; shape inference has checked it.
    let mut seen = vec![false; a.ndim()];
    for &p in perms {
        match seen.get_mut(p) {
            Some(s) if !*s => *s = true,
            _ => return Err(OpError::invalid(format!("TRANSPOSE: perms {perms:?} is not a permutation"))),
        }
    }
    if perms.len() != a.ndim() {
        return Err(OpError::invalid(format!("TRANSPOSE: perms {perms:?} has the wrong length")));
    }
    Ok(a.view().permuted_axes(IxDyn(perms)).as_standard_layout().into_owned())
}
