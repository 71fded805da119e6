//! The documented work-arounds for the emulation layer, applied through this
//! one module by both consumer oracles (`emulation-layer` through
//! scenario-runner, `vulkan` through the API), so that a difference between
//! the two paths is never a difference in what they were given.

use spvgraph_ir::analysis::Analysis;
use spvgraph_ir::inst::{ExtSet, Id, Inst};
use spvgraph_ir::Module;
use std::collections::{BTreeSet, HashSet};
use std::fmt;

/// Changes an adapter makes to a module before the consumer sees it, because
/// the emulation layer (0.11) mishandles something valid that is not what
/// the run is about. Each is a documented discrepancy with a finding of its
/// own.
///
/// They apply only to modules the in-tree validator accepts (Vulkan 1.3,
/// every profile): a module that breaks a rule goes to the consumer exactly
/// as given, so that no work-around repairs the break (removing debug
/// information would repair every `debuginfo.*` break) and what the
/// consumer does with an invalid module is reported as it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Workarounds {
    /// Keep only the requested `OpGraphEntryPointARM`: the layer ignores the
    /// pipeline's entry-point name and builds every entry point's graph,
    /// binding all of their interface variables to the one pipeline's
    /// resources (`emulation-layer-ignores-entry-point`).
    pub single_entry_point: bool,
    /// Remove `NonSemantic.Graph.DebugInfo` (its import and instructions):
    /// the layer refuses any module importing it
    /// (`emulation-layer-rejects-debug-info`). Non-semantic instructions have
    /// no meaning for execution, so the outputs are those of the module.
    pub strip_debug_info: bool,
    /// Do not run a graph that sets one value as several outputs (it is
    /// `unsupported`): the layer writes only the last of those outputs and
    /// leaves the others as they were (`emulation-layer-shared-output`).
    pub skip_shared_outputs: bool,
}

impl Workarounds {
    /// Every work-around on (the default).
    pub const ALL: Workarounds =
        Workarounds { single_entry_point: true, strip_debug_info: true, skip_shared_outputs: true };
    /// None: the module goes to the consumer exactly as given.
    pub const NONE: Workarounds =
        Workarounds { single_entry_point: false, strip_debug_info: false, skip_shared_outputs: false };

    /// [`Workarounds::ALL`] when `enabled`, else [`Workarounds::NONE`]: the
    /// one switch a command line (`--no-workarounds`) turns.
    pub fn enabled(enabled: bool) -> Workarounds {
        if enabled {
            Workarounds::ALL
        } else {
            Workarounds::NONE
        }
    }
}

impl Default for Workarounds {
    fn default() -> Self {
        Workarounds::ALL
    }
}

/// A work-around applied to one module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Workaround {
    /// Other graph entry points removed.
    OtherEntryPointsRemoved,
    /// NonSemantic.Graph.DebugInfo removed.
    DebugInfoRemoved,
}

impl fmt::Display for Workaround {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Workaround::OtherEntryPointsRemoved => "the other graph entry points were removed",
            Workaround::DebugInfoRemoved => "NonSemantic.Graph.DebugInfo was removed",
        })
    }
}

/// Why a graph is not run with the shared-output work-around on.
pub const SHARED_OUTPUT_REFUSAL: &str = "one value is set as several graph outputs, of which the layer writes only \
     the last (documented: corpus/findings/emulation-layer-shared-output.spv)";

/// Whether the graph of entry point `entry` sets one value as several outputs.
pub(crate) fn shares_an_output(a: &Analysis<'_>, entry: &str) -> bool {
    let graph = a.graph_entry_points.iter().find_map(|&i| match a.module.insts.get(i) {
        Some(Inst::GraphEntryPoint { graph, name, .. }) if name == entry => Some(*graph),
        _ => None,
    });
    let Some(view) = graph.and_then(|g| a.graph(g)) else { return false };
    let mut seen = BTreeSet::new();
    view.outputs.iter().any(|&i| match a.module.insts.get(i) {
        Some(Inst::GraphSetOutput { value, .. }) => !seen.insert(*value),
        _ => false,
    })
}

/// Applies the module-rewriting work-arounds that concern this module: the
/// words the consumer gets and what was done.
pub(crate) fn rewrite(
    module: &Module,
    a: &Analysis<'_>,
    entry: &str,
    w: Workarounds,
) -> Result<(Vec<u32>, Vec<Workaround>), spvgraph_ir::module::EncodeError> {
    let mut applied = Vec::new();
    let several_entry_points = a.graph_entry_points.len() > 1;
    let debug_sets: HashSet<Id> =
        a.sets.iter().filter(|(_, s)| **s == ExtSet::GraphDebugInfo).map(|(id, _)| *id).collect();
    let drop_entries = w.single_entry_point && several_entry_points;
    let drop_debug = w.strip_debug_info && !debug_sets.is_empty();
    if !drop_entries && !drop_debug {
        return Ok((module.encode_words()?, applied));
    }
    if drop_entries {
        applied.push(Workaround::OtherEntryPointsRemoved);
    }
    if drop_debug {
        applied.push(Workaround::DebugInfoRemoved);
    }
    let mut removed: HashSet<Id> = HashSet::new();
    let mut kept = Vec::with_capacity(module.insts.len());
    for inst in &module.insts {
        let drop = match inst {
            Inst::GraphEntryPoint { name, .. } => drop_entries && name != entry,
            Inst::ExtInstImport { result, .. } => drop_debug && debug_sets.contains(result),
            Inst::GraphDebug { set, .. } | Inst::ExtInst { set, .. } => drop_debug && debug_sets.contains(set),
            _ => false,
        };
        if drop {
            removed.extend(inst.result_id());
        } else {
            kept.push(inst.clone());
        }
    }
    // Names and decorations of removed results go with them.
    kept.retain(|inst| match inst {
        Inst::Name { target, .. } | Inst::Decorate { target, .. } => !removed.contains(target),
        _ => true,
    });
    let out = Module { insts: kept, ..module.clone() };
    Ok((out.encode_words()?, applied))
}
