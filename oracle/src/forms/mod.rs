//! Equivalent forms of a case: rewrites of a valid module (and its request)
//! that compute the same outputs, so that a backend can be asked the same
//! question several ways and must answer it the same way every time.
//!
//! PolyJuice compares equivalent graphs with each other and needs no
//! reference; spirv-fuzz does the same for shaders with semantics-preserving
//! transformations. Here each [`Form`] is one such rewrite. [`apply`] takes
//! a valid request (module, entry point, inputs, graph constants) and
//! returns the [`Rewritten`] request, or says why the form does not apply
//! (nothing in the module to rewrite, or a construct the rewrite does not
//! handle). Every rewritten module is checked with the in-tree validator
//! before it is returned: a form never hands a backend an invalid module
//! (a rewrite that would is a bug of ours, [`FormError::Invalid`]).
//!
//! Most forms keep the graph's operators and their order
//! ([`Form::keeps_operators`]): a backend must give the same bits for them
//! (see [`crate::judge`] for how floating-point results are judged). Two
//! kinds change the operator sequence: a graph split in two through its
//! intermediate values (two stages, the second fed with the first's
//! outputs) and identity operators inserted on operand edges.
//!
//! Forms also rescue cases: a backend that refuses a documented construct
//! (a null row, a replicated constant, a graph constant as a compile-time
//! constant, a value set as several outputs, a tensor-array interface) is
//! asked again in a form without it ([`rescue`]).

mod constants;
mod edit;
mod fp8;
mod identity;
mod interface;
mod layout;
mod rounding;
pub mod run;
mod split;

use crate::oracle::{ExecRequest, OwnedExecRequest, ValidateOptions};
use crate::validate::Validator;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::Module;

spvgraph_ir::enum_with_all! {
    /// A semantics-preserving rewrite of a case.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum Form {
        /// Every tensor constant an operator reads spelled out as nested
        /// `OpConstantComposite`s of scalar constants (no `OpConstantNull`, no
        /// null rows or constituents, no replicated composites), and every
        /// `OpConstantNull` scalar operand as `OpConstant 0` / `OpConstantFalse`.
        ExplicitConstants,
        /// Tensor constants (and rows of them) whose elements are all equal as
        /// `OpConstantCompositeReplicateEXT`.
        ReplicatedConstants,
        /// All-zero tensor constants as `OpConstantNull`.
        NullConstants,
        /// All-zero rows of tensor constants (rank 2 and more) as `OpConstantNull` rows.
        NullRows,
        /// Zero elements of tensor constants as `OpConstantNull` constituents.
        NullElements,
        /// Zero or false scalar attribute operands as `OpConstantNull`.
        NullScalars,
        /// Tensor constants that are ordinary (not compile-time-constant)
        /// operands as `OpGraphConstantARM`s, their data bound with the request.
        GraphConstants,
        /// Graph constants as tensor constants in the module.
        PlainConstants,
        /// Tensor constants and graph constants that are ordinary operands as
        /// graph inputs (their data an input of the request).
        ConstantsAsInputs,
        /// Every id renumbered (the order of definition reversed).
        Renumbered,
        /// The declarations, names and decorations, and the graph body, in
        /// another valid order.
        Reordered,
        /// Only the requested graph entry point.
        SingleEntryPoint,
        /// A second graph entry point for the same graph, with interface
        /// variables of its own, declared before the requested one.
        ExtraEntryPoint,
        /// No debug information (NonSemantic instructions and their imports,
        /// `OpName`, `OpString`, `OpLine`).
        Stripped,
        /// `NonSemantic.Graph.DebugInfo` (DebugGraph, a DebugTensor per input,
        /// a DebugOperation per operator) and `OpName`s for the graph's values.
        DebugInfo,
        /// A value set as several graph outputs set once; the other outputs
        /// are taken from that one.
        DistinctOutputs,
        /// Every tensor-array input or output as one interface per element;
        /// input elements the graph does not read are left out.
        ArrayElements,
        /// Identity RESHAPE operators inserted on operand edges.
        IdentityReshape,
        /// Identity TRANSPOSE operators inserted on operand edges.
        IdentityTranspose,
        /// Identity SLICE operators inserted on operand edges.
        IdentitySlice,
        /// Identity PAD operators inserted on operand edges.
        IdentityPad,
        /// RESCALE with INEXACT_ROUND computed with SINGLE_ROUND, whose result
        /// INEXACT_ROUND allows: a narrower form of the case, judged on its
        /// own (for backends without EXT-INEXACTROUND).
        SingleRound,
        /// fp8 to and from fp16 through fp32: CASTs split in two, fp8 operands
        /// of dot-product operators with fp16 results cast to fp16, MAX_POOL2D
        /// on fp8 run on fp32 values (the same values; for backends that cannot
        /// convert fp8 to fp16 directly or pool fp8 values).
        Fp8ThroughFp32,
        /// AVG_POOL2D on fp8 (fp16 accumulator) run on fp32 values with an fp32
        /// accumulator, its result cast back: a narrower form, judged on its
        /// own (TOSA lets an operator run in higher-precision types; for
        /// backends that cannot convert fp8 to fp16).
        Fp8AvgPoolInFp32,
        /// The graph split in two through its intermediate values: two graph
        /// entry points in one module, the second fed with the first's outputs.
        SplitEntryPoints,
        /// The same split as two modules.
        SplitModules,
    }
    /// Every form, the cheap ones (one run, the operators kept) first.
    pub const ALL;
}

impl Form {
    /// Its stable name (as in JSON and finding signatures).
    pub fn name(self) -> &'static str {
        match self {
            Form::ExplicitConstants => "explicit-constants",
            Form::ReplicatedConstants => "replicated-constants",
            Form::NullConstants => "null-constants",
            Form::NullRows => "null-rows",
            Form::NullElements => "null-elements",
            Form::NullScalars => "null-scalars",
            Form::GraphConstants => "graph-constants",
            Form::PlainConstants => "plain-constants",
            Form::ConstantsAsInputs => "constants-as-inputs",
            Form::Renumbered => "renumbered",
            Form::Reordered => "reordered",
            Form::SingleEntryPoint => "single-entry-point",
            Form::ExtraEntryPoint => "extra-entry-point",
            Form::Stripped => "stripped",
            Form::DebugInfo => "debug-info",
            Form::DistinctOutputs => "distinct-outputs",
            Form::ArrayElements => "array-elements",
            Form::SplitEntryPoints => "split-entry-points",
            Form::SplitModules => "split-modules",
            Form::IdentityReshape => "identity-reshape",
            Form::IdentityTranspose => "identity-transpose",
            Form::IdentitySlice => "identity-slice",
            Form::IdentityPad => "identity-pad",
            Form::SingleRound => "single-round",
            Form::Fp8ThroughFp32 => "fp8-through-fp32",
            Form::Fp8AvgPoolInFp32 => "fp8-avg-pool-in-fp32",
        }
    }

    /// The form with this name.
    pub fn from_name(name: &str) -> Option<Form> {
        Form::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Whether the rewritten graph runs the same operators in the same
    /// order: a backend must then give the same bits (floating point as
    /// [`crate::judge`] documents), where a changed sequence is judged
    /// against the reference instead.
    pub fn keeps_operators(self) -> bool {
        match self {
            Form::ExplicitConstants
            | Form::ReplicatedConstants
            | Form::NullConstants
            | Form::NullRows
            | Form::NullElements
            | Form::NullScalars
            | Form::GraphConstants
            | Form::PlainConstants
            | Form::ConstantsAsInputs
            | Form::Renumbered
            | Form::Reordered
            | Form::SingleEntryPoint
            | Form::ExtraEntryPoint
            | Form::Stripped
            | Form::DebugInfo
            | Form::DistinctOutputs
            | Form::ArrayElements => true,
            Form::SplitEntryPoints
            | Form::SplitModules
            | Form::IdentityReshape
            | Form::IdentityTranspose
            | Form::IdentitySlice
            | Form::IdentityPad
            // The operators stay, but the rounding narrows: a backend may
            // answer the case and this form differently and be right both times.
            | Form::SingleRound
            // The same values through more CASTs.
            | Form::Fp8ThroughFp32
            // Narrower, like SingleRound: an fp32 accumulator where the case has fp16.
            | Form::Fp8AvgPoolInFp32 => false,
        }
    }

    /// Whether the form takes away a construct that backends are known to
    /// refuse or mishandle, with nothing added: a form to rescue a refused
    /// case with ([`rescue`]).
    pub fn rescues(self) -> bool {
        match self {
            Form::ExplicitConstants
            | Form::PlainConstants
            | Form::SingleEntryPoint
            | Form::Stripped
            | Form::DistinctOutputs
            | Form::ArrayElements
            | Form::SingleRound
            | Form::Fp8ThroughFp32
            | Form::Fp8AvgPoolInFp32 => true,
            Form::ReplicatedConstants
            | Form::NullConstants
            | Form::NullRows
            | Form::NullElements
            | Form::NullScalars
            | Form::GraphConstants
            | Form::ConstantsAsInputs
            | Form::Renumbered
            | Form::Reordered
            | Form::ExtraEntryPoint
            | Form::DebugInfo
            | Form::SplitEntryPoints
            | Form::SplitModules
            | Form::IdentityReshape
            | Form::IdentityTranspose
            | Form::IdentitySlice
            | Form::IdentityPad => false,
        }
    }
}

impl std::fmt::Display for Form {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a form was not made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FormError {
    /// The module has nothing this form rewrites (no constant of the kind,
    /// one entry point, ...): the form would be the case itself.
    #[error("nothing to rewrite")]
    NothingToChange,
    /// The case has something the rewrite does not handle.
    #[error("not applicable: {0}")]
    NotApplicable(String),
    /// The request is not a valid case (the module does not decode, the
    /// entry point is missing): forms are made of valid cases only.
    #[error("the case cannot be rewritten: {0}")]
    BadCase(String),
    /// The rewrite produced a module the in-tree validator rejects: a bug
    /// of the rewrite, never handed to a backend.
    #[error("the {form} form of the case is invalid ({rules}): a bug of the rewrite")]
    Invalid {
        /// The form.
        form: Form,
        /// The rules broken.
        rules: String,
    },
}

/// Where a stage's input comes from when it is not the request's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Feed {
    /// The input (flat position) of the stage fed.
    pub input: usize,
    /// The earlier stage whose output it is.
    pub stage: usize,
    /// That stage's output (flat position).
    pub output: usize,
}

/// One run of a rewritten case.
#[derive(Clone, Debug, PartialEq)]
pub struct Stage {
    /// What to run. Inputs fed by an earlier stage hold zeros of the right
    /// type until [`Rewritten::fill`] puts that stage's outputs in.
    pub request: OwnedExecRequest,
    /// The inputs that earlier stages' outputs feed.
    pub fed: Vec<Feed>,
}

/// A case in another form: one or more stages run in order, and where each
/// output of the case comes from.
#[derive(Clone, Debug, PartialEq)]
pub struct Rewritten {
    /// The forms applied, in order.
    pub forms: Vec<Form>,
    /// The runs.
    pub stages: Vec<Stage>,
    /// For each output of the case (flat position): the stage and that
    /// stage's output carrying it.
    pub outputs: Vec<(usize, usize)>,
}

impl Rewritten {
    /// The form's name (`a+b` when several were applied).
    pub fn label(&self) -> String {
        self.forms.iter().map(|f| f.name()).collect::<Vec<_>>().join("+")
    }

    /// Whether every form applied keeps the operator sequence.
    pub fn keeps_operators(&self) -> bool {
        self.forms.iter().all(|f| f.keeps_operators())
    }

    /// The one request, when the form has one stage (every form but the splits).
    pub fn single(&self) -> Option<&OwnedExecRequest> {
        match self.stages.as_slice() {
            [s] if s.fed.is_empty() => Some(&s.request),
            _ => None,
        }
    }

    /// Stage `k`'s request with the inputs earlier stages feed taken from
    /// `earlier` (their outputs, in stage order). `None` when an output it
    /// needs is missing or does not fit.
    pub fn fill(&self, k: usize, earlier: &[Vec<TensorData>]) -> Option<OwnedExecRequest> {
        let stage = self.stages.get(k)?;
        let mut request = stage.request.clone();
        for feed in &stage.fed {
            let t = earlier.get(feed.stage)?.get(feed.output)?;
            let slot = request.inputs.get_mut(feed.input)?;
            if slot.elem() != t.elem() || slot.shape() != t.shape() {
                return None;
            }
            *slot = t.clone();
        }
        Some(request)
    }

    /// The case's outputs from every stage's outputs; `None` when one is missing.
    pub fn assemble(&self, stage_outputs: &[Vec<TensorData>]) -> Option<Vec<TensorData>> {
        self.outputs.iter().map(|&(s, j)| stage_outputs.get(s)?.get(j).cloned()).collect()
    }

    /// This form with `form` applied on top (one-stage forms only).
    pub fn then(self, form: Form) -> Result<Rewritten, FormError> {
        let Some(request) = self.single() else {
            return Err(FormError::NotApplicable("a split form cannot be rewritten further".into()));
        };
        let next = apply(form, request)?;
        let Some(inner) = next.single().cloned() else {
            return Err(FormError::NotApplicable("a split form cannot follow another form".into()));
        };
        let outputs = self
            .outputs
            .iter()
            .map(|&(_, j)| next.outputs.get(j).copied())
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| FormError::BadCase("an output of the form is missing".into()))?;
        let mut forms = self.forms;
        forms.extend(next.forms);
        Ok(Rewritten { forms, stages: vec![Stage { request: inner, fed: Vec::new() }], outputs })
    }
}

/// `request` in form `form`. The request must be a valid case (the
/// hunt's valid cases, a corpus module the in-tree validator accepts).
pub fn apply(form: Form, request: &OwnedExecRequest) -> Result<Rewritten, FormError> {
    let module = Module::decode_words(&request.module).map_err(|e| FormError::BadCase(e.to_string()))?;
    let entry = match &request.entry_point {
        Some(e) => e.clone(),
        None => edit::first_entry(&module).ok_or_else(|| FormError::BadCase("no graph entry point".into()))?,
    };
    let case =
        edit::Case { module, entry, inputs: request.inputs.clone(), graph_constants: request.graph_constants.clone() };
    let made = match form {
        Form::ExplicitConstants => constants::explicit(case),
        Form::ReplicatedConstants => constants::restyle(case, constants::Style::Replicated),
        Form::NullConstants => constants::restyle(case, constants::Style::NullTensor),
        Form::NullRows => constants::restyle(case, constants::Style::NullRows),
        Form::NullElements => constants::restyle(case, constants::Style::NullElements),
        Form::NullScalars => constants::null_scalars(case),
        Form::GraphConstants => constants::to_graph_constants(case),
        Form::PlainConstants => constants::to_plain_constants(case),
        Form::ConstantsAsInputs => constants::to_inputs(case),
        Form::Renumbered => layout::renumbered(case),
        Form::Reordered => layout::reordered(case),
        Form::Stripped => layout::stripped(case),
        Form::DebugInfo => layout::debug_info(case),
        Form::SingleEntryPoint => interface::single_entry_point(case),
        Form::ExtraEntryPoint => interface::extra_entry_point(case),
        Form::DistinctOutputs => interface::distinct_outputs(case),
        Form::ArrayElements => interface::array_elements(case),
        Form::SplitEntryPoints => split::split(case, false),
        Form::SplitModules => split::split(case, true),
        Form::IdentityReshape => identity::insert(case, identity::Identity::Reshape),
        Form::IdentityTranspose => identity::insert(case, identity::Identity::Transpose),
        Form::IdentitySlice => identity::insert(case, identity::Identity::Slice),
        Form::IdentityPad => identity::insert(case, identity::Identity::Pad),
        Form::SingleRound => rounding::single_round(case),
        Form::Fp8ThroughFp32 => fp8::through_fp32(case),
        Form::Fp8AvgPoolInFp32 => fp8::avg_pool_in_fp32(case),
    }?;
    made.finish(form, request)
}

/// The forms of [`Form::ALL`] that [`Form::rescues`], applied one after the
/// other wherever they apply: `request` without any construct a backend is
/// known to refuse. `None` when none applies (the case has none of them).
pub fn rescue(request: &OwnedExecRequest) -> Option<Rewritten> {
    let mut out: Option<Rewritten> = None;
    for form in Form::ALL.into_iter().filter(|f| f.rescues()) {
        out = match out {
            None => apply(form, request).ok(),
            Some(r) => match r.clone().then(form) {
                Ok(next) => Some(next),
                Err(_) => Some(r),
            },
        };
    }
    out
}

/// Whether the in-tree validator accepts `module` (Vulkan 1.3, every profile).
fn valid(module: &Module) -> Result<(), String> {
    let ruling = Validator::new(ValidateOptions::default()).rule(module);
    if ruling.is_valid() {
        Ok(())
    } else {
        Err(ruling.error_rules().iter().map(|r| r.name()).collect::<Vec<_>>().join(", "))
    }
}

/// The request of a stage as the oracles take it.
pub fn stage_request(stage: &Stage) -> ExecRequest<'_> {
    stage.request.request()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ALL` is derived from the declaration: it must still be the list
    /// that was written by hand, in the same order.
    #[test]
    fn all_forms_are_the_hand_written_list() {
        let hand_written = [
            Form::ExplicitConstants,
            Form::ReplicatedConstants,
            Form::NullConstants,
            Form::NullRows,
            Form::NullElements,
            Form::NullScalars,
            Form::GraphConstants,
            Form::PlainConstants,
            Form::ConstantsAsInputs,
            Form::Renumbered,
            Form::Reordered,
            Form::SingleEntryPoint,
            Form::ExtraEntryPoint,
            Form::Stripped,
            Form::DebugInfo,
            Form::DistinctOutputs,
            Form::ArrayElements,
            Form::IdentityReshape,
            Form::IdentityTranspose,
            Form::IdentitySlice,
            Form::IdentityPad,
            Form::SingleRound,
            Form::Fp8ThroughFp32,
            Form::Fp8AvgPoolInFp32,
            Form::SplitEntryPoints,
            Form::SplitModules,
        ];
        assert_eq!(Form::ALL, hand_written);
    }

    #[test]
    fn names_round_trip_and_are_unique() {
        let mut seen = std::collections::BTreeSet::new();
        for f in Form::ALL {
            assert_eq!(Form::from_name(f.name()), Some(f));
            assert!(seen.insert(f.name()));
            assert_eq!(serde_json::to_value(f).ok(), Some(serde_json::json!(f.name())));
        }
    }
}
