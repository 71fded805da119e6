//! Modules from the builder are accepted by spirv-val and round-trip.

use spvgraph_ir::builder::ModuleBuilder;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::Module;
use spvgraph_oracle::tools::Tool;

fn chain(n: usize) -> Module {
    spvgraph_ir::samples::elementwise_chain(n)
}

#[test]
fn ten_op_chain_is_valid_and_round_trips() {
    let m = chain(10);
    let bytes = m.encode_bytes().expect("encode");
    let again = Module::decode_bytes(&bytes).expect("decode");
    assert_eq!(again, m);
    let Some(val) = spvgraph_testkit::tool(Tool::SpirvVal) else { return };
    let dir = spvgraph_testkit::scratch("builder");
    let f = dir.join("chain.spv");
    std::fs::write(&f, &bytes).expect("write");
    spvgraph_testkit::spirv_val_file(&val, &f).expect("spirv-val accepts the builder's layout");
}

#[test]
fn tensor_constants_of_every_element_type_are_valid() {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(ElemType::Fp32, Some(&[2, 3]));
    for elem in ElemType::ALL {
        let bits: Vec<u64> = (0..6).map(|i| if elem == ElemType::Bool { i % 2 } else { i }).collect();
        b.const_tensor(elem, &[2, 3], &bits).expect("shape matches");
        b.const_tensor(elem, &[3, 1, 2], &bits).expect("shape matches");
        let ty = b.type_tensor(elem, Some(&[4]));
        b.const_null(ty);
        let one = b.const_scalar(elem, 1);
        b.const_replicate(ty, one);
    }
    let gty = b.type_graph(&[t], &[t]);
    let vars = vec![b.interface_variable(t, 0, 0), b.interface_variable(t, 0, 1)];
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "id", vars);
    let x = b.graph_input(t, 0, None);
    b.graph_output(x, 0, None);
    b.end_graph();
    let m = b.finish();
    let bytes = m.encode_bytes().expect("encode");
    assert_eq!(Module::decode_bytes(&bytes).expect("decode"), m);
    let Some(val) = spvgraph_testkit::tool(Tool::SpirvVal) else { return };
    let dir = spvgraph_testkit::scratch("consts");
    let f = dir.join("consts.spv");
    std::fs::write(&f, &bytes).expect("write");
    spvgraph_testkit::spirv_val_file(&val, &f).expect("spirv-val accepts tensor constants of every element type");
}
