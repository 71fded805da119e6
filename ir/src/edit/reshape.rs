//! Giving a graph input a new shape: its type everywhere it is declared or
//! read, and the data a candidate holds for it (shared by the reducer's
//! shape shrinking and the mutator's shape change).

use super::candidate::{Candidate, InputKey};
use super::{graph, shapes};
use crate::analysis::{Analysis, Type};
use crate::decls;
use crate::inst::{Id, Inst};
use crate::tensor::TensorData;

/// The row-major elements of the leading `new` corner of a `old`-shaped tensor.
pub fn corner(bits: &[u64], old: &[usize], new: &[usize]) -> Option<Vec<u64>> {
    if old.len() != new.len() || new.iter().zip(old).any(|(n, o)| n > o) {
        return None;
    }
    let count: usize = new.iter().product();
    let mut out = Vec::with_capacity(count);
    let mut idx = vec![0usize; new.len()];
    for _ in 0..count {
        let mut flat = 0usize;
        for (i, &x) in idx.iter().enumerate() {
            flat = flat * old[i] + x;
        }
        out.push(*bits.get(flat)?);
        for i in (0..idx.len()).rev() {
            idx[i] += 1;
            if idx[i] < new[i] {
                break;
            }
            idx[i] = 0;
        }
    }
    Some(out)
}

/// `t` cut to its leading `shape` corner (`None` if `shape` is larger in some
/// dimension, or of another rank).
pub fn sliced(t: &TensorData, shape: &[u32]) -> Option<TensorData> {
    let new: Vec<usize> = shape.iter().map(|&d| d as usize).collect();
    let bits = corner(&t.to_bits(), t.shape(), &new)?;
    TensorData::from_bits(t.elem(), &new, &bits).ok()
}

/// Gives input `k` of graph `g` the shape `shape`: the graph type, every
/// `OpGraphInputARM` that reads it, the entry points' interface variables
/// and the candidate's data for it (its leading corner, so the data can only
/// shrink: `None` if it would have to grow). Result types are not
/// re-inferred (see [`super::shapes::retype_graph`]).
pub fn reshape_input(c: &mut Candidate, g: Id, k: u32, shape: &[u32]) -> Option<()> {
    let (mut inputs, outputs) = graph::io_types(&c.module, g)?;
    let old = *inputs.get(k as usize)?;
    let array = match Analysis::new(&c.module).ty(old) {
        Some(Type::Array { element, length: Some(n) }) => Some((element, u32::try_from(n).ok()?)),
        _ => None,
    };
    // The type of each read (an array input is read element by element).
    let (read, interface) = match array {
        Some((element, n)) => {
            let t = decls::reshaped_tensor_type(&mut c.module, element, shape)?;
            (t, decls::array_type(&mut c.module, t, n))
        }
        None => {
            let t = decls::reshaped_tensor_type(&mut c.module, old, shape)?;
            (t, t)
        }
    };
    *inputs.get_mut(k as usize)? = interface;
    graph::set_io_types(&mut c.module, g, &inputs, &outputs);
    let (begin, end) = graph::span(&c.module, g)?;
    let reads: Vec<usize> = {
        let a = Analysis::new(&c.module);
        (begin..=end)
            .filter(|&i| {
                matches!(c.module.insts.get(i), Some(Inst::GraphInput { input_index, .. })
                    if a.const_uint(*input_index) == Some(u64::from(k)))
            })
            .collect()
    };
    for i in reads {
        if let Some(Inst::GraphInput { ty, .. }) = c.module.insts.get_mut(i) {
            *ty = read;
        }
    }
    shapes::retype_interface(c, g, k as usize, interface)?;
    let keys: Vec<InputKey> = c.inputs.keys().filter(|key| key.graph == g && key.index == k).copied().collect();
    for key in keys {
        let s = sliced(c.inputs.get(&key)?, shape)?;
        c.inputs.insert(key, s);
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::corner;

    #[test]
    fn corner_keeps_the_leading_elements_of_every_dimension() {
        // 2x3: [[0, 1, 2], [3, 4, 5]]
        let bits: Vec<u64> = (0..6).collect();
        assert_eq!(corner(&bits, &[2, 3], &[1, 2]), Some(vec![0, 1]));
        assert_eq!(corner(&bits, &[2, 3], &[2, 1]), Some(vec![0, 3]));
        assert_eq!(corner(&bits, &[2, 3], &[2, 3]), Some(bits.clone()));
        assert_eq!(corner(&bits, &[2, 3], &[3, 1]), None, "cannot grow");
        assert_eq!(corner(&bits, &[2, 3], &[6]), None, "rank must match");
    }
}
