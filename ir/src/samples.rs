//! Small, valid sample modules shared by tests, benchmarks and fuzz seeds.

use crate::builder::ModuleBuilder;
use crate::elem::ElemType;
use crate::module::Module;
use crate::tosa::TosaOp;

/// A graph `chain` of `n` element-wise fp32 operations (ADD, ABS, SUB in turn)
/// over two `1x8x8x4` inputs, with one output; spirv-val accepts it.
pub fn elementwise_chain(n: usize) -> Module {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(ElemType::Fp32, Some(&[1, 8, 8, 4]));
    let gty = b.type_graph(&[t, t], &[t]);
    let vars: Vec<_> = (0..3).map(|i| b.interface_variable(t, 0, i)).collect();
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "chain", vars);
    let x = b.graph_input(t, 0, None);
    let y = b.graph_input(t, 1, None);
    let mut v = x;
    for i in 0..n {
        v = match i % 3 {
            0 => b.tosa(TosaOp::Add, t, vec![v, y]),
            1 => b.tosa(TosaOp::Abs, t, vec![v]),
            _ => b.tosa(TosaOp::Sub, t, vec![v, x]),
        };
    }
    b.graph_output(v, 0, None);
    b.end_graph();
    b.finish()
}
