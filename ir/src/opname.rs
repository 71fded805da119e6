//! Opcode names for messages and the text form, from the `spirv` crate's grammar.

/// `OpTypeInt`-style name of a core opcode, or `Op<number>` when unknown.
pub fn opcode_name(opcode: u16) -> String {
    match spirv::Op::from_u32(u32::from(opcode)) {
        Some(op) => format!("Op{op:?}"),
        None => format!("Op<{opcode}>"),
    }
}
