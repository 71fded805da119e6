//! Type-generic data movement: applies one generic function to the array of
//! whatever element type a tensor holds, so the layout operators are written
//! once for all ten element types.

/// Applies `$body` (using `$a: &ArrayD<T>`) to the array inside a
/// [`TensorData`](spvgraph_ir::tensor::TensorData) and wraps the
/// `Result<ArrayD<T>, OpError>` it returns in the same variant.
macro_rules! map_tensor {
    ($t:expr, $a:ident => $body:expr) => {{
        use spvgraph_ir::tensor::TensorData as TD;
        match $t {
            TD::Bool($a) => $body.map(TD::Bool),
            TD::I8($a) => $body.map(TD::I8),
            TD::I16($a) => $body.map(TD::I16),
            TD::I32($a) => $body.map(TD::I32),
            TD::I48($a) => $body.map(TD::I48),
            TD::Fp16($a) => $body.map(TD::Fp16),
            TD::Bf16($a) => $body.map(TD::Bf16),
            TD::Fp32($a) => $body.map(TD::Fp32),
            TD::Fp8E4M3($a) => $body.map(TD::Fp8E4M3),
            TD::Fp8E5M2($a) => $body.map(TD::Fp8E5M2),
        }
    }};
}

/// Like [`map_tensor!`] for two tensors that must hold the same element type
/// (`$body` uses `$a` and `$b`); differing types are an invalid graph.
macro_rules! map_tensor_pair {
    ($x:expr, $y:expr, ($a:ident, $b:ident) => $body:expr) => {{
        use spvgraph_ir::tensor::TensorData as TD;
        match ($x, $y) {
            (TD::Bool($a), TD::Bool($b)) => $body.map(TD::Bool),
            (TD::I8($a), TD::I8($b)) => $body.map(TD::I8),
            (TD::I16($a), TD::I16($b)) => $body.map(TD::I16),
            (TD::I32($a), TD::I32($b)) => $body.map(TD::I32),
            (TD::I48($a), TD::I48($b)) => $body.map(TD::I48),
            (TD::Fp16($a), TD::Fp16($b)) => $body.map(TD::Fp16),
            (TD::Bf16($a), TD::Bf16($b)) => $body.map(TD::Bf16),
            (TD::Fp32($a), TD::Fp32($b)) => $body.map(TD::Fp32),
            (TD::Fp8E4M3($a), TD::Fp8E4M3($b)) => $body.map(TD::Fp8E4M3),
            (TD::Fp8E5M2($a), TD::Fp8E5M2($b)) => $body.map(TD::Fp8E5M2),
            (x, y) => Err($crate::exec::error::OpError::invalid(format!(
                "operands have different element types ({} and {})",
                x.elem(),
                y.elem()
            ))),
        }
    }};
}

pub(crate) use map_tensor;
pub(crate) use map_tensor_pair;
