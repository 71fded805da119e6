//! The `roundtrip` property: the codec is total and lossless on everything it
//! accepts.
//!
//! For any byte string:
//! - `Module::decode_bytes` returns (never panics);
//! - a decode error points inside the input (the header errors point at word 0);
//! - an accepted module re-encodes to exactly the input bytes (same byte order),
//!   and decoding those bytes again gives an equal `Module`;
//! - the consumers that run on untrusted modules (`text::disassemble`,
//!   `info::module_info`, `Module::word_offsets`) return without panicking,
//!   and the word offsets agree with the encoding.
#![expect(clippy::panic, reason = "a property reports a violation by panicking: libFuzzer saves the input as a crash")]

use spvgraph_ir::{info, text, Module};

/// Checks the property on one input; panics on a violation.
pub fn check(data: &[u8]) {
    let module = match Module::decode_bytes(data) {
        Ok(m) => m,
        Err(e) => {
            // Header-level errors (alignment, length, magic) are reported at
            // word 0 even for inputs shorter than one word; every other error
            // names the instruction that starts at `word_offset`, which must
            // therefore be a word of the input.
            let words = data.len() / 4;
            assert!(
                e.word_offset == 0 || e.word_offset < words,
                "decode error offset {} outside a {words}-word input: {e}",
                e.word_offset
            );
            return;
        }
    };

    let encoded = match module.encode_bytes() {
        Ok(b) => b,
        // A decoded instruction cannot be longer than its 16-bit word count
        // allowed, so re-encoding can never hit the length limit.
        Err(e) => panic!("a decoded module failed to encode: {e}"),
    };
    if encoded != data {
        let first = encoded.iter().zip(data).position(|(a, b)| a != b).unwrap_or(encoded.len().min(data.len()));
        panic!(
            "decode → encode is not the identity: first differing byte {first} (word {}), lengths {} vs {}",
            first / 4,
            data.len(),
            encoded.len()
        );
    }
    match Module::decode_bytes(&encoded) {
        Ok(again) => assert!(again == module, "decode(encode(m)) != m"),
        Err(e) => panic!("re-encoded module no longer decodes: {e}"),
    }

    // Offsets: one per instruction, strictly increasing, inside the module.
    let offsets = module.word_offsets();
    assert_eq!(offsets.len(), module.insts.len(), "word_offsets length");
    let total_words = data.len() / 4;
    assert!(offsets.windows(2).all(|w| w[0] < w[1]), "word_offsets not increasing");
    assert!(offsets.iter().all(|&o| o >= 5 && o < total_words), "word_offsets outside the module");

    // These walk ids, types and constants of an arbitrary (possibly cyclic or
    // dangling) module; they must degrade to placeholders, not panic or loop.
    let listing = text::disassemble(&module);
    assert!(listing.starts_with("; SPIR-V"), "disassembly lacks its header comment");
    let summary = info::module_info(&module);
    assert_eq!(summary.instructions, module.insts.len(), "module_info instruction count");
}
