//! Opcode names for messages and the text form, from the `spirv` crate's grammar.

/// `OpTypeInt`-style name of a core opcode, or `Op<number>` when unknown.
pub fn opcode_name(opcode: u16) -> String {
    match spirv::Op::from_u32(u32::from(opcode)) {
        Some(op) => format!("Op{op:?}"),
        None => format!("Op<{opcode}>"),
    }
}

/// Whether declaring capability `declared` declares `wanted` too: the same
/// capability, or one the grammar has it depend on, directly or through
/// others (`Geometry` declares `Shader`, which declares `Matrix`). An
/// unknown capability number declares only itself.
pub fn capability_declares(declared: u32, wanted: spirv::Capability) -> bool {
    let Some(start) = spirv::Capability::from_u32(declared) else { return false };
    // The grammar's dependencies form a small acyclic graph; the walk keeps
    // a visited list anyway, so a cycle in a future grammar cannot hang it.
    let mut todo = vec![start];
    let mut seen = Vec::new();
    while let Some(c) = todo.pop() {
        if c == wanted {
            return true;
        }
        if seen.contains(&c) {
            continue;
        }
        seen.push(c);
        todo.extend(rspirv::dr::Operand::Capability(c).required_capabilities());
    }
    false
}

#[cfg(test)]
mod capability_tests {
    use super::capability_declares;
    use spirv::Capability as C;

    #[test]
    fn a_capability_declares_what_it_depends_on() {
        assert!(capability_declares(C::Shader as u32, C::Shader));
        assert!(capability_declares(C::Geometry as u32, C::Shader));
        assert!(capability_declares(C::Shader as u32, C::Matrix));
        assert!(!capability_declares(C::TensorsARM as u32, C::Shader));
        assert!(!capability_declares(C::Kernel as u32, C::Shader));
        assert!(!capability_declares(u32::MAX, C::Shader));
    }
}
