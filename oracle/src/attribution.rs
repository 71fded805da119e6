//! Whose bug a discrepancy is, and where it stands upstream.
//!
//! Every documented discrepancy names the [`Owner`] of the bug (the project
//! a report goes to), its [`Status`], and the upstream issue or change where
//! one is known. An oracle names the projects its answers are built from
//! ([`crate::oracle::Oracle::components`]), most specific first, so that a
//! bug two oracles share can be put on the component they have in common
//! (IREE and model-converter both run upstream MLIR's TOSA passes).

use serde::Serialize;

spvgraph_ir::enum_with_all! {
    /// A project that owns bugs.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum Owner {
        /// Upstream MLIR in llvm-project: the TOSA dialect's folds,
        /// decompositions and lowerings, the SPIR-V serializer.
        LlvmMlir,
        /// IREE's own passes and runtime.
        Iree,
        /// SPIRV-Headers: the instruction grammars.
        SpirvHeaders,
        /// SPIRV-Tools: spirv-val and the tools built on it.
        SpirvTools,
        /// The SPIR-V registry: extension and instruction-set texts.
        SpirvRegistry,
        /// Mesa (lavapipe / llvmpipe).
        Mesa,
        /// Arm's ML emulation layer for Vulkan.
        EmulationLayer,
        /// Arm's ML SDK scenario runner.
        ScenarioRunner,
        /// Arm's ML SDK model converter (its own code, not the MLIR it embeds).
        ModelConverter,
        /// The TOSA reference model (tosa-tools).
        TosaReferenceModel,
        /// Arm's SPIR-V adapter for Model Explorer (spirv-adapter-model-explorer).
        SpirvAdapterModelExplorer,
        /// Arm's VGF adapter for Model Explorer (vgf-adapter-model-explorer).
        VgfAdapterModelExplorer,
        /// This harness.
        Spvgraph,
    }
    /// Every owner, in order.
    pub const ALL;
}

impl Owner {
    /// Its stable name (as in JSON).
    pub fn name(self) -> &'static str {
        match self {
            Owner::LlvmMlir => "llvm-mlir",
            Owner::Iree => "iree",
            Owner::SpirvHeaders => "spirv-headers",
            Owner::SpirvTools => "spirv-tools",
            Owner::SpirvRegistry => "spirv-registry",
            Owner::Mesa => "mesa",
            Owner::EmulationLayer => "emulation-layer",
            Owner::ScenarioRunner => "scenario-runner",
            Owner::ModelConverter => "model-converter",
            Owner::TosaReferenceModel => "tosa-reference-model",
            Owner::SpirvAdapterModelExplorer => "spirv-adapter-model-explorer",
            Owner::VgfAdapterModelExplorer => "vgf-adapter-model-explorer",
            Owner::Spvgraph => "spvgraph",
        }
    }

    /// Parses [`Owner::name`].
    pub fn from_name(name: &str) -> Option<Owner> {
        Owner::ALL.into_iter().find(|o| o.name() == name)
    }

    /// The project, for people.
    pub fn project(self) -> &'static str {
        match self {
            Owner::LlvmMlir => "upstream MLIR (llvm-project)",
            Owner::Iree => "IREE",
            Owner::SpirvHeaders => "SPIRV-Headers",
            Owner::SpirvTools => "SPIRV-Tools",
            Owner::SpirvRegistry => "the SPIR-V registry (extension texts)",
            Owner::Mesa => "Mesa (lavapipe)",
            Owner::EmulationLayer => "ML Emulation Layer for Vulkan",
            Owner::ScenarioRunner => "ML SDK Scenario Runner",
            Owner::ModelConverter => "ML SDK Model Converter",
            Owner::TosaReferenceModel => "TOSA reference model (tosa-tools)",
            Owner::SpirvAdapterModelExplorer => "SPIR-V Adapter for Model Explorer",
            Owner::VgfAdapterModelExplorer => "VGF Adapter for Model Explorer",
            Owner::Spvgraph => "spvgraph (this harness)",
        }
    }

    /// Where its bugs are reported.
    pub fn tracker(self) -> &'static str {
        match self {
            Owner::LlvmMlir => "llvm/llvm-project issues, label mlir:tosa",
            Owner::Iree => "iree-org/iree issues",
            Owner::SpirvHeaders => "KhronosGroup/SPIRV-Headers issues",
            Owner::SpirvTools => "KhronosGroup/SPIRV-Tools issues",
            Owner::SpirvRegistry => "KhronosGroup/SPIRV-Registry issues",
            Owner::Mesa => "Mesa's issue tracker (mesa/mesa), component lavapipe",
            Owner::EmulationLayer => "arm/ai-ml-emulation-layer-for-vulkan issues",
            Owner::ScenarioRunner => "arm/ai-ml-sdk-scenario-runner issues",
            Owner::ModelConverter => "arm/ai-ml-sdk-model-converter issues",
            Owner::TosaReferenceModel => "the TOSA reference model's tracker (tosa-tools)",
            Owner::SpirvAdapterModelExplorer => "arm/spirv-adapter-model-explorer issues",
            Owner::VgfAdapterModelExplorer => "arm/vgf-adapter-model-explorer issues",
            Owner::Spvgraph => "this repository's issues",
        }
    }
}

/// Where a documented discrepancy stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "status")]
pub enum Status {
    /// A bug of the owner, not fixed in any release we know of.
    Open,
    /// Fixed upstream in this release (or change), not in the pinned one.
    Fixed {
        /// The release and change, e.g. `SPIRV-Tools v2026.3 (#6666)`.
        version: &'static str,
    },
    /// The specification can be read both ways; the harness follows one
    /// reading and says which.
    SpecAmbiguity,
    /// Not a bug of the tool: a documented decision of the harness (what it
    /// asks, what it works around, what it does not judge).
    NotABug,
}

impl Status {
    /// Its stable name.
    pub fn name(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Fixed { .. } => "fixed",
            Status::SpecAmbiguity => "spec-ambiguity",
            Status::NotABug => "not-a-bug",
        }
    }

    /// The release that fixed it, if any.
    pub fn fixed_in(self) -> Option<&'static str> {
        match self {
            Status::Fixed { version } => Some(version),
            Status::Open | Status::SpecAmbiguity | Status::NotABug => None,
        }
    }

    /// One line for people.
    pub fn describe(self) -> String {
        match self {
            Status::Open => "open".into(),
            Status::Fixed { version } => format!("fixed upstream in {version}"),
            Status::SpecAmbiguity => "spec ambiguity (the harness follows one reading)".into(),
            Status::NotABug => "not a bug: a documented harness decision".into(),
        }
    }
}

/// Who a bug is put on, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Attribution {
    /// The project it belongs to.
    pub owner: Owner,
    /// The facts that decided it.
    pub evidence: Vec<String>,
    /// Other projects that could still be at fault, each with how to tell.
    pub open_questions: Vec<String>,
}

/// Puts a bug that `showing` oracles show (each with its components, most
/// specific first) on one project: the first component they all share,
/// else the first oracle's own. `names` are the oracles' names, for the
/// evidence.
pub fn attribute(showing: &[(&str, &[Owner])]) -> Option<Attribution> {
    let (first_name, first) = showing.first()?;
    let own = *first.first()?;
    if let [_, _, ..] = showing {
        let shared = first.iter().copied().find(|c| showing.iter().all(|(_, cs)| cs.contains(c)));
        if let Some(common) = shared {
            let names: Vec<&str> = showing.iter().map(|(n, _)| *n).collect();
            return Some(Attribution {
                owner: common,
                evidence: vec![format!(
                    "{} show the same disagreement on the same case; {} is what they have in common",
                    names.join(" and "),
                    common.project()
                )],
                open_questions: Vec::new(),
            });
        }
    }
    let rest: Vec<String> = first
        .iter()
        .skip(1)
        .map(|c| {
            format!("{} (it is part of what {first_name} runs; a second oracle built on it would tell)", c.project())
        })
        .collect();
    Some(Attribution {
        owner: own,
        evidence: vec![format!("only {first_name} shows it among the oracles that ran the case")],
        open_questions: rest,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ALL` is derived from the declaration: it must still be the list
    /// that was written by hand, in the same order.
    #[test]
    fn all_owners_are_the_hand_written_list() {
        let hand_written = [
            Owner::LlvmMlir,
            Owner::Iree,
            Owner::SpirvHeaders,
            Owner::SpirvTools,
            Owner::SpirvRegistry,
            Owner::Mesa,
            Owner::EmulationLayer,
            Owner::ScenarioRunner,
            Owner::ModelConverter,
            Owner::TosaReferenceModel,
            Owner::SpirvAdapterModelExplorer,
            Owner::VgfAdapterModelExplorer,
            Owner::Spvgraph,
        ];
        assert_eq!(Owner::ALL, hand_written);
    }

    #[test]
    fn names_round_trip() {
        for o in Owner::ALL {
            assert_eq!(Owner::from_name(o.name()), Some(o));
            assert_eq!(serde_json::to_value(o).ok(), Some(serde_json::json!(o.name())));
        }
    }

    #[test]
    fn a_bug_two_mlir_based_oracles_share_goes_to_mlir() {
        let iree: &[Owner] = &[Owner::Iree, Owner::LlvmMlir];
        let mc: &[Owner] = &[Owner::ModelConverter, Owner::LlvmMlir];
        let a = attribute(&[("iree", iree), ("model-converter", mc)]).expect("attributed");
        assert_eq!(a.owner, Owner::LlvmMlir);
        let a = attribute(&[("iree", iree)]).expect("attributed");
        assert_eq!(a.owner, Owner::Iree);
        assert_eq!(a.open_questions.len(), 1, "{a:?}");
        assert!(attribute(&[]).is_none());
    }
}
