//! NonSemantic.Graph.DebugInfo and OpName on a random subset.
//!
//! spirv-val 2025.5 accepts the debug instructions inside a graph body and
//! rejects them after `OpGraphEndARM` (where model-converter 0.11.0 puts
//! them: "OpExtInst must appear in a graph body"), so they are only emitted
//! inside the body: DebugGraph right after the inputs, DebugOperation after
//! the operation it describes, DebugTensor after the value's definition.

use super::Synth;
use spvgraph_ir::inst::{GraphDebugInst, Id, Inst};
use spvgraph_ir::tosa::TosaOp;

/// Debug info of the current graph.
#[derive(Clone, Debug)]
pub(crate) struct DebugState {
    set: Id,
    void: Id,
    /// Result id of the DebugGraph instruction (emitted at the body's start).
    graph: Id,
    name: Id,
}

impl Synth<'_, '_> {
    /// Decides whether the graph gets debug info.
    pub(crate) fn start_debug(&mut self) {
        if !self.dice.chance(self.cfg.probs.debug_info) {
            return;
        }
        let set = self.b.graph_debug_set();
        let void = self.b.type_void();
        let graph = self.b.id();
        let name = self.b.string(&format!("graph_{}", self.g.index));
        self.g.debug = Some(DebugState { set, void, graph, name });
        self.feature("debuginfo:graph");
    }

    fn debug_inst(&mut self, inst: GraphDebugInst) -> Option<Inst> {
        let d = self.g.debug.clone()?;
        let result = self.b.id();
        Some(Inst::GraphDebug { ty: d.void, result, set: d.set, inst })
    }

    /// A DebugOperation naming `op` and listing its result ids.
    pub(crate) fn debug_operation(&mut self, op: TosaOp, produced: &[Id]) {
        let Some(d) = self.g.debug.clone() else { return };
        if !self.dice.chance(self.cfg.probs.debug_operation) {
            return;
        }
        let name = self.b.string(&format!("{}_{}", op.name().to_ascii_lowercase(), self.g.nodes));
        let inst = GraphDebugInst::Operation { debug_graph: d.graph, name, instructions: produced.to_vec() };
        if let Some(i) = self.debug_inst(inst) {
            self.g.body.push(i);
            self.feature("debuginfo:operation");
        }
    }

    /// Maybe a DebugTensor for value `v`, right after its definition.
    pub(crate) fn debug_tensor_after(&mut self, v: usize) {
        if self.g.debug.is_none() || !self.dice.chance(self.cfg.probs.debug_tensor) {
            return;
        }
        let Some(id) = self.value(v).map(|x| x.id) else { return };
        let name = self.b.string(&format!("tensor_{}", id.0));
        if let Some(i) = self.debug_inst(GraphDebugInst::Tensor { tensor: id, name, index: None }) {
            self.g.body.push(i);
            self.feature("debuginfo:tensor");
        }
    }

    /// The instructions that open the body: DebugGraph, then DebugTensors
    /// for some inputs and constants (defined before the body).
    pub(crate) fn debug_prologue(&mut self) -> Vec<Inst> {
        let Some(d) = self.g.debug.clone() else { return Vec::new() };
        let mut out = Vec::new();
        // The DebugGraph result is the id DebugOperations already refer to.
        out.push(Inst::GraphDebug {
            ty: d.void,
            result: d.graph,
            set: d.set,
            inst: GraphDebugInst::Graph { graph: self.g.id, name: d.name },
        });
        let leaves: Vec<Id> = self.g.values.iter().filter(|v| v.is_leaf()).map(|v| v.id).collect();
        for id in leaves {
            if self.dice.chance(self.cfg.probs.debug_tensor) {
                let name = self.b.string(&format!("leaf_{}", id.0));
                if let Some(i) = self.debug_inst(GraphDebugInst::Tensor { tensor: id, name, index: None }) {
                    out.push(i);
                    self.feature("debuginfo:tensor-leaf");
                }
            }
        }
        out
    }

    /// Maybe an OpName for `id`. Names are emitted after every graph is
    /// built: the builder keeps OpString and OpName in one list in call
    /// order, and SPIR-V wants every OpString before the first OpName.
    pub(crate) fn maybe_name(&mut self, id: Id, name: &str) {
        if self.dice.chance(self.cfg.probs.op_name) {
            self.names.push((id, name.to_string()));
            self.feature("name");
        }
    }
}
