//! Mutators for the `binary.*` rules: the physical layout of the module.
//!
//! Most of these break the encoded words (`Edit::words`), since a decoded
//! module cannot hold a bad magic number or a bad word count. Decoding stops
//! at the first such problem, so a validator sees nothing else: each mutator
//! makes sure the words before the break decode cleanly.

use super::{no_bias, Edit, Mutator};
use spvgraph_ir::binary::MAGIC;
use spvgraph_ir::env::TargetEnv;
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::rules::RuleId;

/// The mutators of this category.
pub(super) fn mutators() -> Vec<Mutator> {
    vec![
        Mutator { rule: RuleId::BinaryHeader, name: "bad-magic", bias: no_bias, apply: bad_magic },
        Mutator { rule: RuleId::BinaryFraming, name: "truncate-inside-instruction", bias: no_bias, apply: truncate },
        Mutator { rule: RuleId::BinaryFraming, name: "zero-word-count", bias: no_bias, apply: zero_word_count },
        Mutator { rule: RuleId::BinaryFraming, name: "overlong-last-instruction", bias: no_bias, apply: overlong_last },
        Mutator { rule: RuleId::BinaryOperands, name: "extra-operand-word", bias: no_bias, apply: extra_operand },
        Mutator { rule: RuleId::BinaryOperands, name: "missing-operand-word", bias: no_bias, apply: missing_operand },
        Mutator {
            rule: RuleId::BinaryOperands,
            name: "unterminated-string",
            bias: no_bias,
            apply: unterminated_string,
        },
        Mutator { rule: RuleId::BinaryOperands, name: "word-after-string", bias: no_bias, apply: word_after_string },
        Mutator { rule: RuleId::BinaryOperands, name: "string-padding-not-zero", bias: no_bias, apply: string_padding },
        Mutator { rule: RuleId::BinaryOperands, name: "string-not-utf8", bias: no_bias, apply: string_not_utf8 },
        Mutator { rule: RuleId::BinaryVersion, name: "unpublished-version", bias: no_bias, apply: bad_version },
        Mutator { rule: RuleId::BinaryVersionForEnv, name: "older-target-env", bias: no_bias, apply: older_env },
        Mutator { rule: RuleId::BinaryIdBound, name: "lower-bound", bias: no_bias, apply: lower_bound },
        Mutator { rule: RuleId::BinaryIdBound, name: "id-past-bound", bias: no_bias, apply: id_past_bound },
    ]
}

/// The encoded module and the word offset of every instruction.
fn encoded(e: &Edit) -> Option<(Vec<u32>, Vec<usize>)> {
    let words = e.module.encode_words().ok()?;
    Some((words, e.module.word_offsets()))
}

/// The word count of the instruction starting at `at`.
fn word_count(words: &[u32], at: usize) -> Option<usize> {
    words.get(at).map(|w| (w >> 16) as usize)
}

fn bad_magic(e: &mut Edit) -> Option<()> {
    let (mut words, _) = encoded(e)?;
    let bad = match e.int_in(0, 2) {
        0 => MAGIC ^ (1 << e.int_in(0, 31)),
        1 => 0,
        _ => e.int_in(0, i64::from(u32::MAX)) as u32,
    };
    // The byte-swapped magic announces a big-endian module: not a header error
    // in a byte stream, so it is avoided.
    if bad == MAGIC || bad == MAGIC.swap_bytes() {
        return None;
    }
    *words.first_mut()? = bad;
    e.words = Some(words);
    e.note(format!("magic number replaced by {bad:#010x}"));
    Some(())
}

fn truncate(e: &mut Edit) -> Option<()> {
    let (mut words, offsets) = encoded(e)?;
    let multi: Vec<usize> =
        offsets.iter().copied().filter(|&at| word_count(&words, at).is_some_and(|n| n >= 2)).collect();
    let at = e.choose(&multi)?;
    let n = word_count(&words, at)?;
    // Keep the first word and 0..n-2 operand words: the instruction runs past the end.
    let keep = e.int_in(1, n as i64 - 1) as usize;
    words.truncate(at + keep);
    e.words = Some(words);
    e.note(format!("module cut {keep} word(s) into a {n}-word instruction at word {at}"));
    Some(())
}

fn zero_word_count(e: &mut Edit) -> Option<()> {
    let (mut words, offsets) = encoded(e)?;
    let at = e.choose(&offsets)?;
    let w = words.get_mut(at)?;
    let opcode = *w & 0xffff;
    *w = opcode;
    e.words = Some(words);
    e.note(format!("word count of the instruction at word {at} (opcode {opcode}) set to 0"));
    Some(())
}

fn overlong_last(e: &mut Edit) -> Option<()> {
    let (mut words, offsets) = encoded(e)?;
    let at = *offsets.last()?;
    let n = word_count(&words, at)?;
    let grown = n + e.int_in(1, 64) as usize;
    if grown > 0xffff {
        return None;
    }
    let w = words.get_mut(at)?;
    *w = ((grown as u32) << 16) | (*w & 0xffff);
    e.words = Some(words);
    e.note(format!("word count of the last instruction raised from {n} to {grown}, past the end of the module"));
    Some(())
}

/// Instructions whose operand count is at its grammar maximum: one more
/// word is an operand the grammar does not have.
fn at_max_operands(inst: &Inst) -> bool {
    match inst {
        Inst::Capability(_)
        | Inst::MemoryModel { .. }
        | Inst::NoLine
        | Inst::Line { .. }
        | Inst::TypeVoid { .. }
        | Inst::TypeBool { .. }
        | Inst::TypeInt { .. }
        | Inst::TypeArray { .. }
        | Inst::TypePointer { .. }
        | Inst::ConstantTrue { .. }
        | Inst::ConstantFalse { .. }
        | Inst::ConstantNull { .. }
        | Inst::ConstantCompositeReplicate { .. }
        | Inst::GraphConstant { .. }
        | Inst::Graph { .. }
        | Inst::GraphEnd => true,
        Inst::TypeFloat { encoding, .. } => encoding.is_some(),
        Inst::TypeTensor { shape, .. } => shape.is_some(),
        Inst::Variable { initializer, .. } => initializer.is_some(),
        Inst::GraphInput { element_index, .. } => element_index.is_some(),
        Inst::GraphSetOutput { element_index, .. } => element_index.is_some(),
        _ => false,
    }
}

/// Replaces `remove` words at word `pos` of the instruction starting at
/// `at` (0 is its first word) by `extra`, and fixes its word count.
fn resize_instruction(words: &mut Vec<u32>, at: usize, pos: usize, extra: &[u32], remove: usize) -> Option<()> {
    let n = word_count(words, at)?;
    let first = *words.get(at)?;
    let new_n = (n + extra.len()).checked_sub(remove)?;
    if new_n == 0 || new_n > 0xffff || at + pos + remove > words.len() {
        return None;
    }
    let p = at + pos;
    words.splice(p..p + remove, extra.iter().copied());
    *words.get_mut(at)? = ((new_n as u32) << 16) | (first & 0xffff);
    Some(())
}

fn extra_operand(e: &mut Edit) -> Option<()> {
    let candidates = e.indices(at_max_operands);
    let index = e.choose(&candidates)?;
    let name = opname(e, index);
    let (mut words, offsets) = encoded(e)?;
    let at = *offsets.get(index)?;
    let n = word_count(&words, at)?;
    let value = match e.int_in(0, 2) {
        0 => 0,
        1 => 1,
        _ => e.int_in(0, i64::from(u32::MAX)) as u32,
    };
    resize_instruction(&mut words, at, n, &[value], 0)?;
    e.words = Some(words);
    e.note(format!("{name} at word {at} given an extra operand word {value:#x}"));
    Some(())
}

/// Instructions whose operand count is at its grammar minimum (and whose
/// last operand is not a literal string, which has its own mutator).
fn at_min_operands(inst: &Inst) -> bool {
    match inst {
        Inst::Capability(_)
        | Inst::MemoryModel { .. }
        | Inst::Line { .. }
        | Inst::TypeVoid { .. }
        | Inst::TypeBool { .. }
        | Inst::TypeInt { .. }
        | Inst::TypeArray { .. }
        | Inst::TypePointer { .. }
        | Inst::ConstantTrue { .. }
        | Inst::ConstantFalse { .. }
        | Inst::ConstantNull { .. }
        | Inst::ConstantCompositeReplicate { .. }
        | Inst::GraphConstant { .. }
        | Inst::Graph { .. } => true,
        Inst::TypeFloat { encoding, .. } => encoding.is_none(),
        Inst::Variable { initializer, .. } => initializer.is_none(),
        Inst::GraphInput { element_index, .. } => element_index.is_none(),
        Inst::GraphSetOutput { element_index, .. } => element_index.is_none(),
        Inst::Constant { value, .. } => value.len() == 1,
        _ => false,
    }
}

fn missing_operand(e: &mut Edit) -> Option<()> {
    let candidates = e.indices(at_min_operands);
    let index = e.choose(&candidates)?;
    let name = opname(e, index);
    let (mut words, offsets) = encoded(e)?;
    let at = *offsets.get(index)?;
    let n = word_count(&words, at)?;
    if n < 2 {
        return None;
    }
    // Drop the last operand word.
    resize_instruction(&mut words, at, n - 1, &[], 1)?;
    e.words = Some(words);
    e.note(format!("{name} at word {at} lost its last operand word"));
    Some(())
}

/// Index of the instruction and the offset (from its first word) of the
/// last word of a literal string that ends the instruction.
fn string_ends(e: &Edit) -> Vec<usize> {
    e.indices(|i| {
        matches!(i, Inst::Extension(_) | Inst::ExtInstImport { .. } | Inst::String { .. } | Inst::Name { .. })
    })
}

fn unterminated_string(e: &mut Edit) -> Option<()> {
    let candidates = string_ends(e);
    let index = e.choose(&candidates)?;
    let name = opname(e, index);
    let (mut words, offsets) = encoded(e)?;
    let at = *offsets.get(index)?;
    let n = word_count(&words, at)?;
    let last = words.get_mut(at + n - 1)?;
    // Fill every zero byte of the string's last word (its nul and padding)
    // with a printable ASCII letter: the string now runs to the end of the
    // instruction without a nul.
    let fill = b'a' + e.int_in(0, 25) as u8;
    let mut bytes = last.to_le_bytes();
    for b in bytes.iter_mut().filter(|b| **b == 0) {
        *b = fill;
    }
    *last = u32::from_le_bytes(bytes);
    e.words = Some(words);
    e.note(format!(
        "the literal string of {name} at word {at} lost its nul terminator (padded with {:?})",
        fill as char
    ));
    Some(())
}

fn word_after_string(e: &mut Edit) -> Option<()> {
    let candidates = string_ends(e);
    let index = e.choose(&candidates)?;
    let name = opname(e, index);
    let (mut words, offsets) = encoded(e)?;
    let at = *offsets.get(index)?;
    let n = word_count(&words, at)?;
    let value = if e.flip() { 0 } else { e.int_in(1, i64::from(u32::MAX)) as u32 };
    resize_instruction(&mut words, at, n, &[value], 0)?;
    e.words = Some(words);
    e.note(format!("{name} at word {at}: word {value:#x} after its literal string"));
    Some(())
}

/// Debug strings (names, OpString, entry-point names): instruction index,
/// offset of the string's first word from the instruction's first word, and
/// the string's length in bytes (ASCII strings only). Only strings without meaning to the module
/// are changed: an extension or import name that changes would also name
/// something the module does not declare.
fn debug_strings(e: &Edit) -> Vec<(usize, usize, usize)> {
    e.module
        .insts
        .iter()
        .enumerate()
        .filter_map(|(k, i)| match i {
            Inst::Name { name: s, .. } | Inst::String { text: s, .. } | Inst::GraphEntryPoint { name: s, .. }
                if s.is_ascii() =>
            {
                Some((k, 2, s.len()))
            }
            _ => None,
        })
        .collect()
}

/// Sets a byte after a string's nul terminator, in its last word, to a
/// non-zero value. SPIR-V pads that word with zeros.
fn string_padding(e: &mut Edit) -> Option<()> {
    let candidates: Vec<(usize, usize, usize)> =
        debug_strings(e).into_iter().filter(|(_, _, len)| len % 4 < 3).collect();
    let (index, first, len) = e.choose(&candidates)?;
    let name = opname(e, index);
    let (mut words, offsets) = encoded(e)?;
    let at = *offsets.get(index)?;
    let word = at + first + len / 4;
    // Bytes len%4+1 ..= 3 of the last word are padding.
    let byte = e.int_in((len % 4) as i64 + 1, 3) as usize;
    let value = e.int_in(1, 255) as u8;
    let w = words.get_mut(word)?;
    let mut bytes = w.to_le_bytes();
    *bytes.get_mut(byte)? = value;
    *w = u32::from_le_bytes(bytes);
    e.words = Some(words);
    e.note(format!("{name} at word {at}: padding byte {byte} of its string's last word set to {value:#04x}"));
    Some(())
}

/// Replaces a byte of an (ASCII) debug string by one that cannot appear in UTF-8.
fn string_not_utf8(e: &mut Edit) -> Option<()> {
    let candidates: Vec<(usize, usize, usize)> = debug_strings(e).into_iter().filter(|(_, _, len)| *len > 0).collect();
    let (index, first, len) = e.choose(&candidates)?;
    let name = opname(e, index);
    let (mut words, offsets) = encoded(e)?;
    let at = *offsets.get(index)?;
    let pos = e.int_in(0, len as i64 - 1) as usize;
    // A lone continuation byte, an overlong-encoding lead byte, or a byte
    // never used by UTF-8; every other byte of the string is ASCII.
    let value = match e.int_in(0, 2) {
        0 => e.int_in(0x80, 0xbf) as u8,
        1 => e.int_in(0xc0, 0xc1) as u8,
        _ => e.int_in(0xf5, 0xff) as u8,
    };
    let w = words.get_mut(at + first + pos / 4)?;
    let mut bytes = w.to_le_bytes();
    *bytes.get_mut(pos % 4)? = value;
    *w = u32::from_le_bytes(bytes);
    e.words = Some(words);
    e.note(format!("{name} at word {at}: byte {pos} of its string set to {value:#04x} (not UTF-8)"));
    Some(())
}

fn opname(e: &Edit, index: usize) -> String {
    e.module.insts.get(index).map(|i| spvgraph_ir::opname::opcode_name(i.opcode())).unwrap_or_default()
}

fn bad_version(e: &mut Edit) -> Option<()> {
    let v = e.module.header.version;
    let (major, minor) = ((v >> 16) & 0xff, (v >> 8) & 0xff);
    // Every form keeps the decoded (major, minor) at or above the module's
    // own version, so rules that depend on the version (extensions needed
    // before 1.5 / 1.6) do not change.
    let (bad, what) = match e.int_in(0, 3) {
        0 => ((1 << 16) | ((e.int_in(7, 255) as u32) << 8), "minor version above 6"),
        1 => (((e.int_in(2, 255) as u32) << 16) | (minor << 8), "major version above 1"),
        2 => (v | e.int_in(1, 255) as u32, "non-zero low byte"),
        _ => (v | ((e.int_in(1, 255) as u32) << 24), "non-zero high byte"),
    };
    if major != 1 || bad == v {
        return None;
    }
    e.module.header.version = bad;
    e.note(format!("version word {v:#010x} replaced by {bad:#010x} ({what})"));
    Some(())
}

fn older_env(e: &mut Edit) -> Option<()> {
    let v = e.module.header.version;
    let version = ((v >> 16) & 0xff, (v >> 8) & 0xff);
    // Only Vulkan and the universal environments: OpenCL and OpenGL bring
    // rules of their own.
    const ENVS: &[&str] = &[
        "vulkan1.0",
        "vulkan1.1",
        "vulkan1.1spv1.4",
        "vulkan1.2",
        "spv1.0",
        "spv1.1",
        "spv1.2",
        "spv1.3",
        "spv1.4",
        "spv1.5",
    ];
    let older: Vec<TargetEnv> =
        ENVS.iter().filter_map(|n| TargetEnv::parse(n)).filter(|env| env.max_version < version).collect();
    let env = e.choose(&older)?;
    let (m, n) = env.max_version;
    e.target_env = env;
    e.note(format!("SPIR-V {}.{} module for target environment {env} (up to {m}.{n})", version.0, version.1));
    Some(())
}

fn max_result_id(e: &Edit) -> Option<u32> {
    e.module.insts.iter().filter_map(|i| i.result_id()).map(|id| id.0).max()
}

fn lower_bound(e: &mut Edit) -> Option<()> {
    let max = max_result_id(e)?;
    let old = e.module.header.bound;
    // Usually just below the largest id (one id out of bounds), sometimes far below.
    let bound = if e.flip() { max } else { e.int_in(1, i64::from(max)) as u32 };
    if bound == 0 || bound > max {
        return None;
    }
    e.module.header.bound = bound;
    e.note(format!("bound lowered from {old} to {bound}; the largest result id is {max}"));
    Some(())
}

fn id_past_bound(e: &mut Edit) -> Option<()> {
    // A new, unused OpConstantNull of an existing type whose result id is at
    // or above the bound (the bound is left as it is).
    let types =
        e.results_where(|i| matches!(i, Inst::TypeTensor { rank: Some(_), shape: Some(_), .. } | Inst::TypeInt { .. }));
    let ty = e.choose(&types)?;
    let bound = e.module.header.bound;
    let id = bound.checked_add(e.int_in(0, 1000) as u32)?;
    e.add_global(Inst::ConstantNull { ty, result: Id(id) });
    e.note(format!("unused OpConstantNull %{id} with the header's bound {bound}"));
    Some(())
}
