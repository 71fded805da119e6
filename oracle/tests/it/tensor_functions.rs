//! SPV_ARM_tensors instructions inside functions: a graph-and-tensor module
//! (one graph, one GLCompute entry point whose function reads, writes and
//! queries tensors) that must be accepted, and variants that break one rule
//! of `tensor.*`/`decoration.*` each (every instruction a rule applies to)
//! or use what the rules allow (NonReadable/NonWritable on tensor variables,
//! specialization constants). Each case states the rules the in-tree
//! validator must report and spirv-val 2025.5's verdict, which is asserted
//! when spirv-val is available.

use crate::validate_common as common;
use spvgraph_oracle::oracle::Validator as _;

use common::*;
use spvgraph_ir::builder::ModuleBuilder;
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::rules::RuleId;
use spvgraph_ir::tensor_access::*;
use spvgraph_ir::Module;
use spvgraph_oracle::external::spirv_val::SpirvVal;
use spvgraph_oracle::oracle::{Oracle, ValidateOptions};
use spvgraph_oracle::validate::TargetEnv;
use spvgraph_oracle::validate::Validator;
use RuleId as R;

/// One module and what both validators must say about it.
struct Case {
    name: &'static str,
    module: Module,
    /// The must-reject rules the in-tree validator reports (empty: valid).
    rules: Vec<RuleId>,
    /// Whether spirv-val 2025.5 rejects the module.
    spirv_val_rejects: bool,
    /// Why spirv-val's verdict is not what the catalogue's
    /// `spirv_val_checks` flags predict (a documented discrepancy).
    discrepancy: Option<&'static str>,
}

fn accept(name: &'static str, module: Module) -> Case {
    Case { name, module, rules: Vec::new(), spirv_val_rejects: false, discrepancy: None }
}

/// A module breaking `rule`; spirv-val's verdict follows the catalogue.
fn reject(name: &'static str, rule: RuleId, module: Module) -> Case {
    let spirv_val_rejects = rule.info().spirv_val_checks;
    Case { name, module, rules: vec![rule], spirv_val_rejects, discrepancy: None }
}

/// A module breaking `rule` that spirv-val 2025.5 accepts although it
/// checks the rule.
fn missed(name: &'static str, rule: RuleId, why: &'static str, module: Module) -> Case {
    Case { name, module, rules: vec![rule], spirv_val_rejects: false, discrepancy: Some(why) }
}

/// Everything the function may do, correctly.
fn shader_body(b: &mut ModuleBuilder, k: &Kit) {
    let arr2 = b.type_array(k.float, 2);
    // Scalar and array reads, with and without Tensor Operands.
    let x = read(b, k.float, k.a, k.coords, None);
    read(b, arr2, k.a, k.coords, operands(NONTEMPORAL | OUT_OF_BOUNDS_VALUE, Some(k.zero), None));
    read(b, k.float, k.a, k.coords, operands(MAKE_ELEMENT_VISIBLE | NON_PRIVATE_ELEMENT, None, Some(k.scope)));
    let both = OUT_OF_BOUNDS_VALUE | MAKE_ELEMENT_VISIBLE | NON_PRIVATE_ELEMENT;
    read(b, k.float, k.b, k.coords, operands(both, Some(k.zero), Some(k.scope)));
    // Writes of a scalar and of an array read before.
    write(b, k.b, k.coords, x, None);
    let y = read(b, arr2, k.b, k.coords, None);
    write(b, k.b, k.coords, y, operands(MAKE_ELEMENT_AVAILABLE | NON_PRIVATE_ELEMENT, None, Some(k.scope)));
    write(b, k.b, k.coords, k.zero, operands(NONTEMPORAL, None, None));
    // Every dimension of both tensors.
    for d in 0..2 {
        let dim = b.const_u32(d);
        query(b, k.uint, k.a, dim);
        query(b, k.uint, k.b, dim);
    }
    // A replicated tensor from a value read at run time.
    replicate(b, k.shaped, x);
}

fn cases() -> Vec<Case> {
    vec![
        accept("shader-style function", tensor_module(shader_body)),
        // ---- relaxed: NonReadable/NonWritable targets ----
        accept(
            "NonWritable on the read tensor's variable",
            tensor_module(|b, k| {
                b.decorate(k.src, spirv::Decoration::NonWritable, &[]);
                read(b, k.float, k.a, k.coords, None);
            }),
        ),
        accept(
            "NonReadable on the written tensor's variable",
            tensor_module(|b, k| {
                b.decorate(k.dst, spirv::Decoration::NonReadable, &[]);
                write(b, k.b, k.coords, k.zero, None);
            }),
        ),
        accept(
            "NonReadable on an array of tensors in UniformConstant",
            tensor_module(|b, k| {
                let arr = b.type_array(k.shaped, 2);
                let var = b.variable(spirv::StorageClass::UniformConstant, arr);
                b.decorate(var, spirv::Decoration::DescriptorSet, &[2]);
                b.decorate(var, spirv::Decoration::Binding, &[0]);
                b.decorate(var, spirv::Decoration::NonReadable, &[]);
            }),
        ),
        accept(
            "NonWritable on a Private variable (SPIR-V 1.4 and later)",
            tensor_module(|b, k| {
                let var = b.variable(spirv::StorageClass::Private, k.float);
                b.decorate(var, spirv::Decoration::NonWritable, &[]);
            }),
        ),
        // ---- what the rules leave open ----
        accept(
            "Dimension from a specialization constant",
            tensor_module(|b, k| {
                let dim = spec_u32(b, 7);
                query(b, k.uint, k.a, dim);
            }),
        ),
        accept(
            "Dimension from OpConstantNull",
            tensor_module(|b, k| {
                let dim = b.const_null(k.uint);
                query(b, k.uint, k.a, dim);
            }),
        ),
        accept(
            "rank from a specialization constant: any coordinate count",
            tensor_module(|b, k| {
                let rank = spec_u32(b, 3);
                let t = spec_ranked(b, k.float, rank);
                let var = b.variable(spirv::StorageClass::UniformConstant, t);
                b.decorate(var, spirv::Decoration::DescriptorSet, &[2]);
                b.decorate(var, spirv::Decoration::Binding, &[0]);
                let loaded = b.load(t, var);
                read(b, k.float, loaded, k.coords, None);
                let big = b.const_u32(9);
                query(b, k.uint, loaded, big);
            }),
        ),
        // ---- tensor.access.not-ranked ----
        reject(
            "read through the variable, not the loaded tensor",
            R::TensorAccessNotRanked,
            tensor_module(|b, k| {
                read(b, k.float, k.src, k.coords, None);
            }),
        ),
        reject(
            "write to an unranked tensor",
            R::TensorAccessNotRanked,
            tensor_module(|b, k| {
                let u = unranked_variable(b);
                write(b, u, k.coords, k.zero, None);
            }),
        ),
        reject(
            "size of an unranked tensor",
            R::TensorAccessNotRanked,
            tensor_module(|b, k| {
                let u = unranked_variable(b);
                let zero = b.const_u32(0);
                query(b, k.uint, u, zero);
            }),
        ),
        // ---- tensor.access.coordinates ----
        reject(
            "coordinates longer than the rank",
            R::TensorAccessCoordinates,
            tensor_module(|b, k| {
                let arr = b.type_array(k.uint, 3);
                let c0 = b.const_u32(0);
                let c = b.const_composite(arr, vec![c0, c0, c0]);
                read(b, k.float, k.a, c, None);
            }),
        ),
        reject(
            "float coordinates",
            R::TensorAccessCoordinates,
            tensor_module(|b, k| {
                let arr = b.type_array(k.float, 2);
                let c = b.const_composite(arr, vec![k.zero, k.zero]);
                write(b, k.b, c, k.zero, None);
            }),
        ),
        reject(
            "a scalar as coordinates",
            R::TensorAccessCoordinates,
            tensor_module(|b, k| {
                let c0 = b.const_u32(0);
                read(b, k.float, k.a, c0, None);
            }),
        ),
        // ---- tensor.read.result-type ----
        reject(
            "read into void",
            R::TensorReadResultType,
            tensor_module(|b, k| {
                let void = b.type_void();
                read(b, void, k.a, k.coords, None);
            }),
        ),
        reject(
            "read into another scalar type",
            R::TensorReadResultType,
            tensor_module(|b, k| {
                read(b, k.uint, k.a, k.coords, None);
            }),
        ),
        reject(
            "read into an array of another scalar type",
            R::TensorReadResultType,
            tensor_module(|b, k| {
                let arr = b.type_array(k.uint, 2);
                read(b, arr, k.a, k.coords, None);
            }),
        ),
        // ---- tensor.write.object-type ----
        reject(
            "write another scalar type",
            R::TensorWriteObjectType,
            tensor_module(|b, k| {
                let one = b.const_u32(1);
                write(b, k.b, k.coords, one, None);
            }),
        ),
        reject(
            "write an array of another scalar type",
            R::TensorWriteObjectType,
            tensor_module(|b, k| {
                write(b, k.b, k.coords, k.coords, None);
            }),
        ),
        // ---- tensor.operands.* ----
        reject(
            "OutOfBoundsValueARM of another scalar type",
            R::TensorOperandsOutOfBoundsType,
            tensor_module(|b, k| {
                let one = b.const_u32(1);
                read(b, k.float, k.a, k.coords, operands(OUT_OF_BOUNDS_VALUE, Some(one), None));
            }),
        ),
        missed(
            "OutOfBoundsValueARM of an array of the element type",
            R::TensorOperandsOutOfBoundsType,
            "spirv-val compares the component type only",
            tensor_module(|b, k| {
                let arr = b.type_array(k.float, 2);
                let v = b.const_composite(arr, vec![k.zero, k.zero]);
                read(b, k.float, k.a, k.coords, operands(OUT_OF_BOUNDS_VALUE, Some(v), None));
            }),
        ),
        reject(
            "OutOfBoundsValueARM from a read",
            R::TensorOperandsOutOfBoundsNotConstant,
            tensor_module(|b, k| {
                let x = read(b, k.float, k.a, k.coords, None);
                read(b, k.float, k.a, k.coords, operands(OUT_OF_BOUNDS_VALUE, Some(x), None));
            }),
        ),
        reject(
            "OutOfBoundsValueARM on a write",
            R::TensorOperandsInstruction,
            tensor_module(|b, k| {
                write(b, k.b, k.coords, k.zero, operands(OUT_OF_BOUNDS_VALUE, Some(k.zero), None));
            }),
        ),
        reject(
            "MakeElementVisibleARM on a write",
            R::TensorOperandsInstruction,
            tensor_module(|b, k| {
                let mask = MAKE_ELEMENT_VISIBLE | NON_PRIVATE_ELEMENT;
                write(b, k.b, k.coords, k.zero, operands(mask, None, Some(k.scope)));
            }),
        ),
        reject(
            "MakeElementAvailableARM on a read",
            R::TensorOperandsInstruction,
            tensor_module(|b, k| {
                let mask = MAKE_ELEMENT_AVAILABLE | NON_PRIVATE_ELEMENT;
                read(b, k.float, k.a, k.coords, operands(mask, None, Some(k.scope)));
            }),
        ),
        reject(
            "MakeElementVisibleARM without NonPrivateElementARM",
            R::TensorOperandsNonPrivate,
            tensor_module(|b, k| {
                read(b, k.float, k.a, k.coords, operands(MAKE_ELEMENT_VISIBLE, None, Some(k.scope)));
            }),
        ),
        reject(
            "MakeElementAvailableARM without NonPrivateElementARM",
            R::TensorOperandsNonPrivate,
            tensor_module(|b, k| {
                write(b, k.b, k.coords, k.zero, operands(MAKE_ELEMENT_AVAILABLE, None, Some(k.scope)));
            }),
        ),
        reject(
            "a float scope",
            R::TensorOperandsScope,
            tensor_module(|b, k| {
                let mask = MAKE_ELEMENT_AVAILABLE | NON_PRIVATE_ELEMENT;
                write(b, k.b, k.coords, k.zero, operands(mask, None, Some(k.zero)));
            }),
        ),
        reject(
            "scope 99",
            R::TensorOperandsScope,
            tensor_module(|b, k| {
                let s = b.const_u32(99);
                read(b, k.float, k.a, k.coords, operands(MAKE_ELEMENT_VISIBLE | NON_PRIVATE_ELEMENT, None, Some(s)));
            }),
        ),
        reject(
            "a scope computed at run time",
            R::TensorOperandsScope,
            tensor_module(|b, k| {
                let zero = b.const_u32(0);
                let s = query(b, k.uint, k.a, zero);
                read(b, k.float, k.a, k.coords, operands(MAKE_ELEMENT_VISIBLE | NON_PRIVATE_ELEMENT, None, Some(s)));
            }),
        ),
        missed(
            "NonPrivateElementARM without the VulkanMemoryModel capability",
            R::CapsMissingCapability,
            "the SPIR-V grammar gives TensorsARM as the capability of every Tensor Operand",
            {
                let mut m = tensor_module(|b, k| {
                    read(b, k.float, k.a, k.coords, operands(NON_PRIVATE_ELEMENT, None, None));
                });
                glsl450(&mut m);
                m
            },
        ),
        // ---- tensor.query.* ----
        reject(
            "size as a float",
            R::TensorQueryResultType,
            tensor_module(|b, k| {
                let one = b.const_u32(1);
                query(b, k.float, k.a, one);
            }),
        ),
        reject(
            "size as an array",
            R::TensorQueryResultType,
            tensor_module(|b, k| {
                let one = b.const_u32(1);
                let arr = b.type_array(k.uint, 2);
                query(b, arr, k.a, one);
            }),
        ),
        reject(
            "a float Dimension",
            R::TensorQueryDimensionNotConstant,
            tensor_module(|b, k| {
                query(b, k.uint, k.a, k.zero);
            }),
        ),
        reject(
            "a Dimension computed at run time",
            R::TensorQueryDimensionNotConstant,
            tensor_module(|b, k| {
                let zero = b.const_u32(0);
                let d = query(b, k.uint, k.b, zero);
                query(b, k.uint, k.a, d);
            }),
        ),
        reject(
            "Dimension equal to the rank",
            R::TensorQueryDimensionRange,
            tensor_module(|b, k| {
                let two = b.const_u32(2);
                query(b, k.uint, k.b, two);
            }),
        ),
        reject(
            "Dimension far past the rank",
            R::TensorQueryDimensionRange,
            tensor_module(|b, k| {
                let big = b.const_u32(u32::MAX);
                query(b, k.uint, k.a, big);
            }),
        ),
        // ---- tensor.replicate.* ----
        reject(
            "replicate a value of another type",
            R::TensorReplicateValueType,
            tensor_module(|b, k| {
                let one = b.const_u32(1);
                replicate(b, k.shaped, one);
            }),
        ),
        reject(
            "replicate an array",
            R::TensorReplicateValueType,
            tensor_module(|b, k| {
                let arr = b.type_array(k.float, 2);
                let y = read(b, arr, k.a, k.coords, None);
                replicate(b, k.shaped, y);
            }),
        ),
        reject(
            "replicate into a ranked tensor",
            R::TensorReplicateUnshaped,
            tensor_module(|b, k| {
                replicate(b, k.ranked, k.zero);
            }),
        ),
        reject(
            "replicate into an unranked tensor",
            R::TensorReplicateUnshaped,
            tensor_module(|b, k| {
                let t = b.type_tensor(spvgraph_ir::elem::ElemType::Fp32, None);
                replicate(b, t, k.zero);
            }),
        ),
        // ---- decoration.non-readable-writable-target ----
        reject(
            "NonReadable on a Private variable",
            R::DecorationNonReadableWritableTarget,
            tensor_module(|b, k| {
                let var = b.variable(spirv::StorageClass::Private, k.float);
                b.decorate(var, spirv::Decoration::NonReadable, &[]);
            }),
        ),
        reject(
            "NonWritable on a constant",
            R::DecorationNonReadableWritableTarget,
            tensor_module(|b, k| {
                b.decorate(k.coords, spirv::Decoration::NonWritable, &[]);
            }),
        ),
        reject(
            "NonReadable on a tensor type",
            R::DecorationNonReadableWritableTarget,
            tensor_module(|b, k| {
                b.decorate(k.shaped, spirv::Decoration::NonReadable, &[]);
            }),
        ),
        // ---- ids and operand words (the id checks skip function bodies) ----
        reject(
            "an undefined coordinates id",
            R::IdsUndefined,
            tensor_module(|b, k| {
                let nowhere = b.id();
                read(b, k.float, k.a, nowhere, None);
            }),
        ),
        reject(
            "OutOfBoundsValueARM without its value",
            R::BinaryOperands,
            tensor_module(|b, k| {
                let r = b.id();
                b.function_inst(Inst::Raw {
                    opcode: OP_TENSOR_READ,
                    operands: vec![k.float.0, r.0, k.a.0, k.coords.0, OUT_OF_BOUNDS_VALUE],
                });
            }),
        ),
        reject(
            "an undefined Tensor Operands bit",
            R::BinaryOperands,
            tensor_module(|b, k| {
                b.function_inst(Inst::Raw {
                    opcode: OP_TENSOR_WRITE,
                    operands: vec![k.b.0, k.coords.0, k.zero.0, 0x20],
                });
            }),
        ),
    ]
}

/// `OpSpecConstant %uint value` (a global).
fn spec_u32(b: &mut ModuleBuilder, value: u32) -> Id {
    let ty = b.type_u32();
    let result = b.id();
    b.global_inst(Inst::Constant { ty, result, value: vec![value], spec: true });
    result
}

/// An fp32 tensor type whose rank is the specialization constant `rank`.
fn spec_ranked(b: &mut ModuleBuilder, float: Id, rank: Id) -> Id {
    let result = b.id();
    b.global_inst(Inst::TypeTensor { result, element: float, rank: Some(rank), shape: None });
    result
}

/// A loaded unranked fp32 tensor from a new UniformConstant variable.
fn unranked_variable(b: &mut ModuleBuilder) -> Id {
    let t = b.type_tensor(spvgraph_ir::elem::ElemType::Fp32, None);
    let var = b.variable(spirv::StorageClass::UniformConstant, t);
    b.decorate(var, spirv::Decoration::DescriptorSet, &[2]);
    b.decorate(var, spirv::Decoration::Binding, &[0]);
    b.load(t, var)
}

#[test]
fn in_tree_validator_reports_exactly_the_rules() {
    let v = Validator::new(ValidateOptions::default());
    let mut failures = Vec::new();
    for c in cases() {
        let report = v.check(&c.module);
        let got = errors(&report);
        let mut want = c.rules.clone();
        want.sort();
        if got != want {
            failures.push(format!("{}: want {want:?}, got:\n{}", c.name, show(&report)));
        }
        // Function bodies are now partly checked; the note says what is not.
        assert!(report.not_checked.iter().any(|n| n.contains("SPV_ARM_tensors instructions")), "{}", c.name);
    }
    assert!(failures.is_empty(), "{} case(s) failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn every_new_rule_has_a_rejected_case_and_relaxations_an_accepted_one() {
    use spvgraph_ir::rules::Category;
    let cases = cases();
    for info in spvgraph_ir::rules::catalogue().iter().filter(|i| i.category == Category::TensorAccess) {
        assert!(cases.iter().any(|c| c.rules == vec![info.id]), "no rejected case for {}", info.name);
    }
    let accepted = cases.iter().filter(|c| c.rules.is_empty()).count();
    assert!(accepted >= 4, "the relaxed NonReadable/NonWritable targets need accepted cases");
}

#[test]
fn spirv_val_agrees_where_documented() {
    let sv = SpirvVal::discover();
    if let Err(e) = sv.available() {
        assert!(!spvgraph_oracle::tools::Tools::required(), "CI=true and {e}");
        eprintln!("skipping: {e}");
        return;
    }
    let opts = ValidateOptions { target_env: TargetEnv::VULKAN_1_3, ..Default::default() };
    let mut wrong = Vec::new();
    for c in cases() {
        let verdict = sv.validate(&words(&c.module), &opts).expect("spirv-val runs");
        if verdict.is_valid() == c.spirv_val_rejects {
            wrong.push(format!(
                "{}: expected spirv-val to {}, it says {verdict:?}",
                c.name,
                if c.spirv_val_rejects { "reject" } else { "accept" }
            ));
        }
        // The expectation is the catalogue's, except for documented discrepancies.
        let predicted = c.rules.iter().any(|r| r.info().spirv_val_checks);
        assert_eq!(predicted != c.spirv_val_rejects, c.discrepancy.is_some(), "{}", c.name);
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The starting point of the near-valid mutators of the tensor rules (a
/// generated graph module plus a compute function using tensors correctly,
/// with random element types, ranks, Tensor Operands and decorations) is
/// accepted by both validators. `TENSOR_FUNCTION_SEEDS` sets the count.
#[test]
fn mutator_starting_points_are_valid() {
    use spvgraph_generator::near_valid::with_tensor_function;
    use spvgraph_generator::{generate_from_seed, prng, Config};
    let n: u64 = std::env::var("TENSOR_FUNCTION_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(200);
    let sv = spirv_val();
    let ours = Validator::new(ValidateOptions::default());
    let mut failures = Vec::new();
    for seed in 0..n {
        let case = generate_from_seed(seed, &Config::default());
        let Some(words) = with_tensor_function(&case, &prng::seed_bytes(seed ^ 0x7e5, 256)) else {
            failures.push(format!("seed {seed}: no function added"));
            continue;
        };
        let report = ours.check_words(&words);
        if !report.is_valid() {
            failures.push(format!("seed {seed}: in-tree rejects:\n{}", show(&report)));
        }
        if let Some(sv) = &sv {
            match sv.validate_in_process(&words, TargetEnv::VULKAN_1_3) {
                Ok(v) if v.is_valid() => {}
                other => failures.push(format!("seed {seed}: spirv-val: {other:?}")),
            }
        }
    }
    assert!(failures.is_empty(), "{} of {n} failed:\n{}", failures.len(), failures.join("\n"));
}
