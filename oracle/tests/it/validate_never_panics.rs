//! The validator never panics: on arbitrary bytes, and on valid modules with
//! words flipped, inserted or removed (which reach far deeper than random
//! bytes, since they still decode). Every finding names a rule, and findings
//! with an instruction carry its word offset.

use crate::validate_common as common;

use common::*;
use proptest::prelude::*;
use spvgraph_ir::builder::ModuleBuilder;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::env::TargetEnv;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_oracle::oracle::{Level, ValidateOptions};
use spvgraph_oracle::validate::Validator;

/// A module with several kinds of operators, constants and a second graph.
fn seed() -> Vec<u32> {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(ElemType::I8, Some(&[1, 4, 4, 2]));
    let w = b.type_tensor(ElemType::I8, Some(&[2, 1, 1, 2]));
    let o = b.type_tensor(ElemType::I32, Some(&[1, 4, 4, 2]));
    graph(&mut b, &[t], &[o, t], |b, xs| {
        let (pad, st, dil) =
            (b.const_i32_vector(&[0, 0, 0, 0]), b.const_i32_vector(&[1, 1]), b.const_i32_vector(&[1, 1]));
        let acc = b.const_u32(1);
        let lb = b.const_bool(false);
        let wc = b.const_null(w);
        let bias = b.const_tensor(ElemType::I32, &[2], &[1, 2]).expect("shape");
        let zp = zero(b, ElemType::I8);
        let c = b.tosa(TosaOp::Conv2d, o, vec![pad, st, dil, acc, lb, xs[0], wc, bias, zp, zp]);
        let n = b.tosa(TosaOp::Negate, t, vec![xs[0], zp, zp]);
        vec![c, n]
    });
    let f = b.type_tensor(ElemType::Fp32, Some(&[1, 4, 8]));
    let f2 = b.type_tensor(ElemType::Fp32, Some(&[1, 4, 5]));
    let st = b.type_struct(vec![f2, f2]);
    let gty = b.type_graph(&[f], &[f2]);
    let vars = vec![b.interface_variable(f, 1, 0), b.interface_variable(f2, 1, 1)];
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "fft", vars);
    let x = b.graph_input(f, 0, None);
    let lb = b.const_bool(true);
    let r = b.tosa(TosaOp::Rfft2d, st, vec![lb, x]);
    let re = b.composite_extract(f2, r, 0);
    b.graph_output(re, 0, None);
    b.end_graph();
    words(&b.finish())
}

fn validators() -> Vec<Validator> {
    ["vulkan1.3", "spv1.6"]
        .into_iter()
        .flat_map(|env| {
            [Level::EightK, Level::None].into_iter().map(move |level| {
                let target_env = TargetEnv::parse(env).expect("known env");
                Validator::new(ValidateOptions { target_env, level, ..Default::default() })
            })
        })
        .collect()
}

#[derive(Clone, Debug)]
enum Edit {
    Set(usize, u32),
    Xor(usize, u32),
    Insert(usize, u32),
    Remove(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), any::<u32>()).prop_map(|(i, v)| Edit::Set(i, v)),
        (any::<usize>(), 0u32..32).prop_map(|(i, b)| Edit::Xor(i, 1 << b)),
        (any::<usize>(), 0u32..64).prop_map(|(i, v)| Edit::Xor(i, v)),
        (any::<usize>(), any::<u32>()).prop_map(|(i, v)| Edit::Insert(i, v)),
        any::<usize>().prop_map(Edit::Remove),
    ]
}

fn apply(words: &mut Vec<u32>, e: &Edit) {
    // Keep the header intact most of the time so edits reach the decoder's
    // typed instructions and the checks behind it.
    let body = |i: usize, len: usize| 5 + i % len.saturating_sub(5).max(1);
    match *e {
        Edit::Set(i, v) if words.len() > 5 => {
            let at = body(i, words.len());
            words[at] = v;
        }
        Edit::Xor(i, m) if words.len() > 5 => {
            let at = body(i, words.len());
            words[at] ^= m;
        }
        Edit::Insert(i, v) => {
            let at = body(i, words.len() + 1).min(words.len());
            words.insert(at, v);
        }
        Edit::Remove(i) if words.len() > 5 => {
            let at = body(i, words.len());
            words.remove(at);
        }
        _ => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn edited_modules_never_panic(edits in proptest::collection::vec(edit(), 1..6)) {
        let mut w = seed();
        for e in &edits {
            apply(&mut w, e);
        }
        for v in validators() {
            let r = v.check_words(&w);
            for f in &r.findings {
                prop_assert!(!f.message.is_empty());
                if f.instruction.is_some() {
                    prop_assert!(f.word_offset.is_some());
                }
            }
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        for v in validators() {
            let _ = v.check_bytes(&bytes);
        }
    }
}

/// Found by `graph_validator`: an `OpConstant` of a zero-width
/// `OpTypeInt` made the constant check shift by `width - 1` (an overflow
/// panic wherever overflow checks are on, as in fuzz builds).
#[test]
fn constants_of_a_zero_width_integer_type_are_invalid_without_a_panic() {
    use spvgraph_ir::Inst;
    for signedness in [0, 1] {
        let mut b = ModuleBuilder::new();
        let ty = b.id();
        b.global_inst(Inst::TypeInt { result: ty, width: 0, signedness });
        let c = b.id();
        b.global_inst(Inst::Constant { ty, result: c, value: vec![5], spec: false });
        let words = b.finish().encode_words().expect("encodes");
        for v in validators() {
            assert!(!v.check_words(&words).is_valid());
            assert!(!v.rule_words(&words).is_valid());
        }
    }
}

#[test]
fn the_seed_is_valid() {
    for v in validators() {
        let r = v.check_words(&seed());
        assert!(r.is_valid() && r.findings.is_empty(), "{}", show(&r));
    }
}
