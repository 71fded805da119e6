//! What spirv-val 2025.5 (`--target-env vulkan1.3`) says about the
//! constructs that are off by default, measured by enabling each one:
//!
//! * unshaped (ranked-only or unranked) graph-input interface types: valid
//!   and accepted by 2025.5, but a Vulkan data-graph pipeline cannot be
//!   created for them (VUID-RuntimeSpirv-pNext-09919, a pipeline-creation
//!   rule), and TOSA needs static shapes;
//! * a second entry point reusing another's name: accepted by 2025.5, invalid
//!   under SPV_ARM_graph revision 3 (SPIRV-Tools #6754 adds the check);
//! * attribute tensors (kernel, stride, pad, perms, shape_t inputs) as
//!   `OpGraphConstantARM`: accepted (it is a constant instruction), but
//!   consumers read attributes from inline constants.
//!
//! If a later spirv-val starts rejecting one of these, this test says which.

use crate::support;

use spvgraph_generator::{generate_from_seed, Config};

fn accepted(config: &Config, feature: &str, seeds: std::ops::Range<u64>) {
    let Some(val) = support::spirv_val_tool() else { return };
    let dir = spvgraph_testkit::scratch(&feature.replace([':', '>'], "_"));
    let mut reached = 0;
    for seed in seeds {
        let case = generate_from_seed(seed, config);
        assert!(case.meta.internal_errors.is_empty(), "seed {seed}: {:?}", case.meta.internal_errors);
        reached += usize::from(case.meta.features.contains(feature));
        let file = dir.join(format!("{seed}.spv"));
        std::fs::write(&file, case.module.encode_bytes().expect("encodes")).expect("write");
        if let Err(e) = spvgraph_testkit::spirv_val_file(&val, &file) {
            panic!("seed {seed} with {feature}: spirv-val 2025.5 now rejects it: {e}");
        }
    }
    assert!(reached > 0, "{feature} never generated");
}

#[test]
fn unshaped_graph_inputs_are_accepted_by_spirv_val_2025_5() {
    let mut c = Config::default();
    c.probs.unshaped_input = 1.0;
    c.probs.output_from_input = 0.5;
    c.probs.ranked_unshaped = 1.0;
    accepted(&c, "iface:ranked-unshaped-input", 0..150);
    c.probs.ranked_unshaped = 0.0;
    accepted(&c, "iface:unranked-input", 0..150);
}

#[test]
fn duplicate_entry_point_names_are_accepted_by_spirv_val_2025_5() {
    let mut c = Config::default();
    c.probs.alias_entry_point = 1.0;
    c.probs.duplicate_entry_point_name = 1.0;
    accepted(&c, "entry:duplicate-name", 0..150);
}

#[test]
fn attribute_graph_constants_are_accepted_by_spirv_val_2025_5() {
    let mut c = Config::default();
    c.probs.attribute_graph_constant = 1.0;
    c.probs.null_constant = 0.0;
    c.probs.replicate_constant = 0.0;
    accepted(&c, "const:graph-constant", 0..150);
}
