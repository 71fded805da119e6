//! Constructors of the shader instructions the typed model keeps verbatim
//! ([`Inst::Raw`]): entry points, execution modes, function definitions and
//! loads. The module builder and the near-valid mutators that add a compute
//! function next to the graphs both use them.

use crate::binary::encode_string;
use crate::inst::{Id, Inst};
use spirv::{ExecutionMode, ExecutionModel, Op};

fn raw(op: Op, operands: Vec<u32>) -> Inst {
    Inst::Raw { opcode: op as u16, operands }
}

/// `OpEntryPoint model function "name" interface...`.
pub fn entry_point(model: ExecutionModel, function: Id, name: &str, interface: &[Id]) -> Inst {
    let mut operands = vec![model as u32, function.0];
    encode_string(&mut operands, name);
    operands.extend(interface.iter().map(|v| v.0));
    raw(Op::EntryPoint, operands)
}

/// `OpExecutionMode function mode literals...`.
pub fn execution_mode(function: Id, mode: ExecutionMode, literals: &[u32]) -> Inst {
    let mut operands = vec![function.0, mode as u32];
    operands.extend_from_slice(literals);
    raw(Op::ExecutionMode, operands)
}

/// `%result = OpTypeFunction ret params...`.
pub fn type_function(result: Id, ret: Id, params: &[Id]) -> Inst {
    let mut operands = vec![result.0, ret.0];
    operands.extend(params.iter().map(|p| p.0));
    raw(Op::TypeFunction, operands)
}

/// `%result = OpFunction ret None fn_type`.
pub fn function(ret: Id, result: Id, fn_type: Id) -> Inst {
    raw(Op::Function, vec![ret.0, result.0, 0, fn_type.0])
}

/// `%result = OpLabel`.
pub fn label(result: Id) -> Inst {
    raw(Op::Label, vec![result.0])
}

/// `%result = OpLoad ty pointer`.
pub fn load(ty: Id, result: Id, pointer: Id) -> Inst {
    raw(Op::Load, vec![ty.0, result.0, pointer.0])
}

/// `OpReturn`.
pub fn ret() -> Inst {
    raw(Op::Return, Vec::new())
}

/// `OpFunctionEnd`.
pub fn function_end() -> Inst {
    raw(Op::FunctionEnd, Vec::new())
}

/// The pointer a raw `OpLoad` reads, when `inst` is one.
pub fn loaded_pointer(inst: &Inst) -> Option<Id> {
    match inst {
        Inst::Raw { opcode, operands } if *opcode == Op::Load as u16 => operands.get(2).map(|&w| Id(w)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_point_encodes_the_name_then_the_interface() {
        let inst = entry_point(ExecutionModel::GLCompute, Id(5), "main", &[Id(7), Id(8)]);
        let Inst::Raw { operands, .. } = &inst else { panic!("raw") };
        // "main" is one word plus a nul word.
        assert_eq!(operands.len(), 2 + 2 + 2);
        assert_eq!(operands[0], ExecutionModel::GLCompute as u32);
        assert_eq!(&operands[4..], &[7, 8]);
        assert_eq!(inst.result_id(), None);
        assert_eq!(load(Id(1), Id(2), Id(3)).result_id(), Some(Id(2)));
        assert_eq!(loaded_pointer(&load(Id(1), Id(2), Id(3))), Some(Id(3)));
        assert!(type_function(Id(9), Id(1), &[]).is_type());
    }
}
