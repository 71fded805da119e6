//! The rule catalogue: one [`RuleId`] per validity rule of a SPIR-V graph module.
//!
//! Every rule names where it comes from ([`Source`]), whether breaking it makes
//! the module invalid ([`Severity::MustReject`]: structural rules, Vulkan
//! standalone VUIDs, TOSA ERROR_IF and the argument/type tables), only makes
//! its execution unpredictable ([`Severity::MayAccept`]: TOSA REQUIRE on
//! constant operands, level limits, shapes that cannot be checked
//! statically) or only concerns the creation of a data-graph pipeline for one
//! entry point ([`Severity::Pipeline`]: Vulkan runtime VUIDs, never part of a
//! module's verdict), and whether `spirv-val` (SPIRV-Tools 2025.5, the pinned
//! release) is known to check it. The `spirv_val_checks` flags were
//! determined by experiment: `oracle/tests/it/validate_rules.rs` builds one module
//! per rule and asserts the flag against spirv-val's verdict on it.
//!
//! What each rule follows (the spec revision, or the SPIRV-Tools behaviour)
//! and what SPIRV-Tools main does with it is in [`provenance`].
//!
//! # Per-operator TOSA rules are parameterised
//!
//! TOSA rules (`tosa.*`, `level.*`) are *not* one id per operator: a rule such
//! as [`RuleId::TosaShapeOutput`] holds for all 66 operators, and the
//! diagnostic names the operator (its message starts with the operator's
//! grammar name, e.g. `CONV2D: ...`). This keeps the catalogue at one entry per
//! kind of mistake, so a near-valid mutator is written once per rule and
//! applied to any operator the rule covers (`per_operator` is true), and a
//! finding's dedup signature is `(rule, operator)`. Rules that exist for one
//! operator only (RESCALE's unsigned flags, CLAMP's bounds, FFT sizes) carry
//! the operator in their name.
//!
//! Spec excerpts are restated, not quoted; `reference` says where to read the
//! original.

pub mod provenance;

pub use provenance::Provenance;
use std::fmt;

/// Where a rule is written down.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Source {
    /// The SPIR-V specification (logical layout, ids, types, constants, capabilities).
    SpirvCore,
    /// `SPV_ARM_tensors` (revision 2).
    SpvArmTensors,
    /// `SPV_ARM_graph` (revision 3).
    SpvArmGraph,
    /// `SPV_KHR_non_semantic_info` (where non-semantic instructions may appear).
    NonSemanticInfo,
    /// The `NonSemantic.Graph.DebugInfo` instruction set (version 1).
    GraphDebugInfo,
    /// The Vulkan environment for SPIR-V: standalone VUIDs
    /// (`VUID-StandaloneSpirv-*`, module validity under `vulkan*` target
    /// environments) and runtime VUIDs (`VUID-RuntimeSpirv-*`, checked when a
    /// pipeline is created: [`Severity::Pipeline`]).
    Vulkan,
    /// The `TOSA.001000.1` instruction set (registry): operand counts and forms,
    /// constant operands, enum values.
    TosaInstructionSet,
    /// A TOSA `ERROR_IF` in an operator's pseudocode.
    TosaErrorIf,
    /// TOSA's argument and supported-types tables (implicit ERROR_IFs of
    /// `tosa_execute_graph`: ranks, shape letters, type rows).
    TosaArgumentTable,
    /// A TOSA `REQUIRE` that can be evaluated on constant operands.
    TosaRequire,
    /// A TOSA level limit (`LEVEL_CHECK`, a REQUIRE).
    TosaLevel,
    /// The naming and versioning of extended instruction sets (the
    /// `TOSA.001000.1` name convention, `Arm.ExperimentalMLOperations`
    /// '2. Version').
    ExtendedInstructionSets,
}

impl Source {
    /// A short label for reports.
    pub fn name(self) -> &'static str {
        match self {
            Source::SpirvCore => "SPIR-V",
            Source::SpvArmTensors => "SPV_ARM_tensors",
            Source::SpvArmGraph => "SPV_ARM_graph",
            Source::NonSemanticInfo => "SPV_KHR_non_semantic_info",
            Source::GraphDebugInfo => "NonSemantic.Graph.DebugInfo",
            Source::Vulkan => "Vulkan environment",
            Source::TosaInstructionSet => "TOSA.001000.1",
            Source::TosaErrorIf => "TOSA ERROR_IF",
            Source::TosaArgumentTable => "TOSA argument/type tables",
            Source::TosaRequire => "TOSA REQUIRE",
            Source::TosaLevel => "TOSA level",
            Source::ExtendedInstructionSets => "extended instruction sets",
        }
    }
}

/// What breaking a rule means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// The module is invalid; a validator must reject it.
    MustReject,
    /// Only the result of running the graph is unpredictable (TOSA REQUIRE,
    /// level limits) or the rule cannot be decided statically; a validator
    /// may accept the module. Reported as warnings.
    MayAccept,
    /// Not module validity: a rule the Vulkan implementation checks when a
    /// data-graph pipeline is created for one graph entry point
    /// (`VUID-RuntimeSpirv-*`). A module breaking it is valid; only a
    /// pipeline for that entry point may be refused. Checked only when a
    /// pipeline entry point is asked for, never part of the verdict.
    Pipeline,
}

impl Severity {
    /// `error`, `warning` or `pipeline`.
    pub fn label(self) -> &'static str {
        match self {
            Severity::MustReject => "error",
            Severity::MayAccept => "warning",
            Severity::Pipeline => "pipeline",
        }
    }
}

/// Which part of a module a rule is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Category {
    /// Physical layout: header, framing, operand counts, version.
    Binary,
    /// Logical layout: section order, the graph section, graph bodies.
    Layout,
    /// Result ids: definitions, uses, scope.
    Ids,
    /// Capabilities and extensions each construct needs.
    Capabilities,
    /// Type declarations (`OpTypeTensorARM`, `OpTypeGraphARM`, ...).
    Types,
    /// Constant declarations (tensor constants, graph constants).
    Constants,
    /// Graph definitions, inputs, outputs, entry points.
    Graph,
    /// Interface variables and their decorations.
    Interface,
    /// SPV_ARM_tensors instructions in function bodies (reads, writes, size
    /// queries, replicated tensor composites) and the memory-object
    /// decorations tensor variables take.
    TensorAccess,
    /// `NonSemantic.Graph.DebugInfo` instructions.
    DebugInfo,
    /// TOSA operator rules.
    Tosa,
    /// TOSA level limits.
    Level,
    /// Extended instruction set imports and their versions.
    Imports,
}

/// Everything the catalogue says about one rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleInfo {
    /// The rule.
    pub id: RuleId,
    /// Stable dotted name (`graph.input.index-not-constant`).
    pub name: &'static str,
    /// What part of a module it is about.
    pub category: Category,
    /// Where it is written down.
    pub source: Source,
    /// Must-reject or may-accept.
    pub severity: Severity,
    /// Whether spirv-val 2025.5 rejects a module that breaks only this rule
    /// (for Vulkan rules: under a `vulkan*` target environment).
    pub spirv_val_checks: bool,
    /// Whether diagnostics of this rule name a TOSA operator (see the module docs).
    pub per_operator: bool,
    /// The rule, restated.
    pub spec: &'static str,
    /// Where to read the original text.
    pub reference: &'static str,
    /// Fragments of the messages spirv-val 2025.5 prints for this rule, as
    /// seen in `oracle/tests/it/validate_rules.rs` (empty when it does not
    /// check the rule or the message is not distinctive).
    pub spirv_val_messages: &'static [&'static str],
}

macro_rules! rules {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident = $name:literal, $cat:ident, $src:ident, $sev:ident, $val:literal, $per_op:literal,
        $reference:literal, $msg:expr,
        $spec:literal;
    )*) => {
        /// A validity rule of SPIR-V graph modules (see the module docs).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum RuleId {
            $( $(#[doc = $doc])* $variant, )*
        }

        static TABLE: &[RuleInfo] = &[
            $( RuleInfo {
                id: RuleId::$variant,
                name: $name,
                category: Category::$cat,
                source: Source::$src,
                severity: Severity::$sev,
                spirv_val_checks: $val,
                per_operator: $per_op,
                spec: $spec,
                reference: $reference,
                spirv_val_messages: $msg,
            }, )*
        ];

        impl RuleId {
            /// Every rule, in catalogue order.
            pub const ALL: &'static [RuleId] = &[$(RuleId::$variant,)*];
        }
    };
}

rules! {
    // ---- binary ----------------------------------------------------------------
    /// Header: byte length, magic number, header words.
    BinaryHeader = "binary.header", Binary, SpirvCore, MustReject, true, false,
        "SPIR-V 2.3 Physical Layout", &["Invalid SPIR-V magic number"],
        "A module is a stream of 32-bit words that starts with a five-word header: the magic number, the version, the generator, the id bound and a zero schema word.";
    /// Instruction framing: word counts.
    BinaryFraming = "binary.framing", Binary, SpirvCore, MustReject, true, false,
        "SPIR-V 2.3 Physical Layout", &["End of input reached while decoding"],
        "Every instruction starts with a word whose high half is its word count (at least 1) and the instruction must end within the module.";
    /// Operand counts and literal strings of an instruction.
    BinaryOperands = "binary.operands", Binary, SpirvCore, MustReject, true, false,
        "SPIR-V 3 (instruction grammar)", &["expected no more operands"],
        "Each instruction has the operands its grammar lists: the right number of words, and literal strings that are nul-terminated, zero-padded UTF-8.";
    /// The version word.
    BinaryVersion = "binary.version", Binary, SpirvCore, MustReject, true, false,
        "SPIR-V 2.3 Physical Layout (version word)", &["Invalid SPIR-V header"],
        "The version word holds a major and minor version in bits 16-23 and 8-15, the other bits zero; only published versions (1.0 to 1.6) are valid.";
    /// The version against the target environment.
    BinaryVersionForEnv = "binary.version-for-env", Binary, SpirvCore, MustReject, true, false,
        "SPIRV-Tools target environments; Vulkan 'Versions and Formats'", &["for target environment"],
        "A target environment accepts modules up to its highest SPIR-V version (Vulkan 1.0: 1.0, 1.1: 1.3, 1.2: 1.5, 1.3 and 1.4: 1.6; spvX.Y: X.Y).";
    /// Result ids within the header's bound.
    BinaryIdBound = "binary.id-bound", Binary, SpirvCore, MustReject, true, false,
        "SPIR-V 2.3 Physical Layout (bound)", &["must be less than the ID bound"],
        "Every <id> is greater than 0 and less than the bound given in the header.";

    // ---- layout ----------------------------------------------------------------
    /// Logical layout section order.
    LayoutSectionOrder = "layout.section-order", Layout, SpirvCore, MustReject, true, false,
        "SPIR-V 2.4 Logical Layout of a Module", &["is in an invalid layout section"],
        "Instructions appear in this order: capabilities, extensions, extended-instruction imports, the one memory model, entry points, execution modes, debug instructions, annotations, types/constants/global variables, function declarations, function definitions, and (SPV_ARM_graph) graph definitions and graph entry points.";
    /// Exactly one OpMemoryModel.
    LayoutMemoryModel = "layout.memory-model", Layout, SpirvCore, MustReject, true, false,
        "SPIR-V 2.4 Logical Layout of a Module, item 5", &["OpMemoryModel should only be provided once", "Missing required OpMemoryModel"],
        "A module has exactly one OpMemoryModel instruction.";
    /// At least one OpEntryPoint unless Linkage or GraphARM is declared.
    LayoutEntryPoint = "layout.entry-point", Layout, SpvArmGraph, MustReject, true, false,
        "SPIR-V 2.16.1 as modified by SPV_ARM_graph", &["No OpEntryPoint instruction was found"],
        "There is at least one OpEntryPoint instruction unless the Linkage or GraphARM capability is declared.";
    /// Only graph definitions and graph entry points in the graph section.
    LayoutGraphSectionOutsideGraph = "layout.graph-section.outside-graph", Layout, SpvArmGraph, MustReject, true, false,
        "SPV_ARM_graph 'Logical Layout of a Module'; SPV_KHR_non_semantic_info (non-semantic instructions from the types section on)", &["must appear in a graph body"],
        "SPV_ARM_graph adds a section after the function definitions that holds only graph definitions (OpGraphARM ... OpGraphEndARM) and OpGraphEntryPointARM instructions. Non-semantic OpExtInst instructions (any NonSemantic.* set, NonSemantic.Graph.DebugInfo included) are the exception: they may appear anywhere from the types section on, so also between, before and after graph definitions (model-converter puts NonSemantic.Graph.DebugInfo after OpGraphEndARM).";
    /// Graph definitions cannot nest.
    LayoutGraphNested = "layout.graph.nested", Layout, SpvArmGraph, MustReject, true, false,
        "SPV_ARM_graph 'Logical Layout of a Module'", &["Cannot define a graph in a graph"],
        "A graph definition ends with OpGraphEndARM before the next OpGraphARM; graphs cannot nest.";
    /// OpGraphARM without OpGraphEndARM, or graph instructions outside a graph.
    LayoutGraphUnterminated = "layout.graph.unterminated", Layout, SpvArmGraph, MustReject, true, false,
        "SPV_ARM_graph OpGraphARM, OpGraphEndARM", &["Missing OpGraphEndARM"],
        "Every OpGraphARM is closed by an OpGraphEndARM, and OpGraphInputARM, OpGraphSetOutputARM and OpGraphEndARM appear only inside a graph definition.";
    /// Instruction not allowed in a graph body.
    LayoutGraphBodyInstruction = "layout.graph.body-instruction", Layout, SpvArmGraph, MustReject, true, false,
        "SPV_ARM_graph 'Validation Rules'", &["cannot appear in the graph definitions section"],
        "A graph definition may only contain OpGraphInputARM, OpGraphSetOutputARM, OpExtInst and OpCompositeExtract (between OpGraphARM and OpGraphEndARM).";
    /// OpGraphInputARM not directly after OpGraphARM or another input.
    LayoutGraphInputPosition = "layout.graph.input-position", Layout, SpvArmGraph, MustReject, true, false,
        "SPV_ARM_graph OpGraphInputARM; SPV_KHR_non_semantic_info", &["OpGraphInputARM must immediately follow"],
        "OpGraphInputARM must immediately follow an OpGraphARM or another OpGraphInputARM; non-semantic instructions (any NonSemantic.* set) between them do not count, so the inputs come first among the graph's other instructions.";
    /// OpGraphSetOutputARM not directly before OpGraphEndARM or another output.
    LayoutGraphOutputPosition = "layout.graph.output-position", Layout, SpvArmGraph, MustReject, true, false,
        "SPV_ARM_graph OpGraphSetOutputARM; SPV_KHR_non_semantic_info", &["cannot appear after a graph output instruction"],
        "OpGraphSetOutputARM must immediately precede an OpGraphEndARM or another OpGraphSetOutputARM; non-semantic instructions (any NonSemantic.* set) between them do not count, so the outputs come last among the graph's other instructions.";
    /// TOSA instruction outside a graph body.
    LayoutTosaOutsideGraph = "layout.tosa-outside-graph", Layout, TosaInstructionSet, MustReject, true, false,
        "TOSA.001000.1 (instructions are used inside graphs)", &["ExtInst must appear in a block"],
        "TOSA.001000.1 instructions are operations of a graph: they appear in graph bodies, not among the global declarations or in functions.";

    // ---- ids ---------------------------------------------------------------------
    /// An <id> used but never defined.
    IdsUndefined = "ids.undefined", Ids, SpirvCore, MustReject, true, false,
        "SPIR-V 2.16.1 Universal Validation Rules", &["has not been defined"],
        "Every <id> operand is the result of some instruction of the module.";
    /// A result id defined twice.
    IdsDuplicate = "ids.duplicate-definition", Ids, SpirvCore, MustReject, true, false,
        "SPIR-V 2.16.1 (single static assignment)", &["is defined more than once"],
        "Each <id> is the result of exactly one instruction.";
    /// An <id> used before its definition where SPIR-V does not allow it.
    IdsForwardReference = "ids.forward-reference", Ids, SpirvCore, MustReject, true, false,
        "SPIR-V 2.4 Logical Layout (forward references)", &[],
        "An <id> must be defined before it is used, except as the target of debug and annotation instructions, the graph of OpGraphEntryPointARM, and the few other places SPIR-V lists; NonSemantic.Graph.DebugInfo allows no forward references.";
    /// A value defined in a graph body used outside that graph.
    IdsGraphScope = "ids.graph-scope", Ids, SpvArmGraph, MustReject, false, false,
        "SPV_ARM_graph (graph definitions); SPIR-V 2.2.2 (scope of local ids)", &[],
        "The results of OpGraphInputARM, OpExtInst and OpCompositeExtract in a graph body are local to that graph: they can be used only inside the same graph definition. Non-semantic instructions are exempt: they describe values and can be removed, so they may name a graph's values from anywhere after them (model-converter's DebugTensor instructions follow OpGraphEndARM).";
    /// A Result Type (or type operand) that is not a type.
    IdsNotAType = "ids.not-a-type", Ids, SpirvCore, MustReject, true, false,
        "SPIR-V 2.16.1 (Result Type)", &["is not a type id"],
        "A Result Type operand, and every operand that names a type, is the result of a type-declaration instruction.";

    // ---- capabilities ------------------------------------------------------------
    /// A construct used without the capability it requires.
    CapsMissingCapability = "caps.missing-capability", Capabilities, SpirvCore, MustReject, true, false,
        "SPIR-V 2.16.1; capability tables of SPV_ARM_tensors, SPV_ARM_graph, SPV_KHR_bfloat16, SPV_EXT_float8, SPV_EXT_replicated_composites", &["requires the", "requires one of these capabilities"],
        "Each instruction, type and operand value used must have its capability declared: TensorsARM for OpTypeTensorARM, GraphARM for the graph instructions, Int8/Int16/Int64 and Float16 for those widths, BFloat16TypeKHR and Float8EXT for those encodings, ReplicatedCompositesEXT for replicated composites, VulkanMemoryModel for the Vulkan memory model.";
    /// A capability or instruction set used without its extension.
    CapsMissingExtension = "caps.missing-extension", Capabilities, SpirvCore, MustReject, true, false,
        "SPIR-V 2.16.1; SPV_KHR_non_semantic_info; NonSemantic.Graph.DebugInfo 'Dependencies'", &["requires one of these extensions", "(or requires extension)", "NonSemantic.Graph.DebugInfo requires SPV_ARM_graph"],
        "A capability defined by an extension needs its OpExtension (SPV_ARM_tensors, SPV_ARM_graph, SPV_KHR_bfloat16, SPV_EXT_float8, SPV_EXT_replicated_composites; SPV_KHR_vulkan_memory_model before SPIR-V 1.5); importing a NonSemantic.* set needs SPV_KHR_non_semantic_info before SPIR-V 1.6, and importing NonSemantic.Graph.DebugInfo needs SPV_ARM_graph.";

    // ---- types -------------------------------------------------------------------
    /// OpTypeTensorARM element type not a scalar.
    TypesTensorElement = "types.tensor.element-type", Types, SpvArmTensors, MustReject, true, false,
        "SPV_ARM_tensors OpTypeTensorARM", &["is not a scalar type"],
        "The Element Type of OpTypeTensorARM is a scalar type: an integer, floating-point or boolean type.";
    /// OpTypeTensorARM Rank not a constant scalar integer.
    TypesTensorRankNotConstant = "types.tensor.rank-not-constant", Types, SpvArmTensors, MustReject, true, false,
        "SPV_ARM_tensors OpTypeTensorARM", &["does not have a scalar integer type"],
        "Rank, when present, is a constant instruction of scalar integer type (read as unsigned).";
    /// OpTypeTensorARM Rank of 0.
    TypesTensorRankZero = "types.tensor.rank-zero", Types, SpvArmTensors, MustReject, true, false,
        "SPV_ARM_tensors OpTypeTensorARM (as checked by spirv-val)", &["must define a value greater than 0"],
        "A tensor's Rank is greater than 0.";
    /// OpTypeTensorARM Shape not a constant integer array.
    TypesTensorShapeNotConstant = "types.tensor.shape-not-constant", Types, SpvArmTensors, MustReject, true, false,
        "SPV_ARM_tensors OpTypeTensorARM", &[],
        "Shape, when present, is a constant of an OpTypeArray of integers, and Rank is present too.";
    /// Shape length differs from Rank.
    TypesTensorShapeLength = "types.tensor.shape-length", Types, SpvArmTensors, MustReject, true, false,
        "SPV_ARM_tensors OpTypeTensorARM", &["whose Length is equal to Rank"],
        "The Shape array has exactly Rank elements.";
    /// A shape entry of 0.
    TypesTensorShapeZero = "types.tensor.shape-zero", Types, SpvArmTensors, MustReject, true, false,
        "SPV_ARM_tensors OpTypeTensorARM (as checked by spirv-val)", &["is not greater than 0"],
        "Every entry of a tensor's Shape is greater than 0.";
    /// OpTypeGraphARM with no output or a bad NumInputs.
    TypesGraphOutputs = "types.graph.outputs", Types, SpvArmGraph, MustReject, true, false,
        "SPV_ARM_graph OpTypeGraphARM", &["A graph type must have at least one output"],
        "NumInputs counts the leading InOut types that are inputs; at least one type follows them as an output.";
    /// OpTypeGraphARM with a non-interface type.
    TypesGraphInterfaceType = "types.graph.interface-type", Types, SpvArmGraph, MustReject, true, false,
        "SPV_ARM_graph OpTypeGraphARM ('Graph Interface Type')", &["is not a Graph Interface Type"],
        "Every input and output type of a graph type is a Graph Interface Type: OpTypeTensorARM, or an OpTypeArray or OpTypeRuntimeArray of OpTypeTensorARM.";
    /// Two declarations of the same non-aggregate type.
    TypesDuplicate = "types.duplicate", Types, SpirvCore, MustReject, true, false,
        "SPIR-V 2.8 Types (non-aggregate, non-pointer types are unique)", &["Duplicate non-aggregate type declarations are not allowed"],
        "A non-aggregate, non-pointer type is declared once: two declarations with the same opcode and operands (void, bool, integer, float, tensor and graph types) are not allowed.";
    /// OpVariable type not a pointer of the same storage class.
    TypesVariablePointer = "types.variable-pointer", Types, SpirvCore, MustReject, true, false,
        "SPIR-V OpVariable", &["Storage class must match result type storage class"],
        "The Result Type of OpVariable is an OpTypePointer whose Storage Class equals the variable's Storage Class.";

    // ---- constants -----------------------------------------------------------------
    /// Scalar constant with the wrong number of words or non-canonical high bits.
    ConstantsScalarValue = "constants.scalar-value", Constants, SpirvCore, MustReject, true, false,
        "SPIR-V OpConstant (literal encoding)", &["The high-order bits of a literal number"],
        "OpConstant of a scalar type takes one word per 32 bits of its width; for types narrower than 32 bits the unused high bits are 0 (unsigned or signless) or the sign extension (signed). OpConstant's type is an integer or float type.";
    /// Composite constant of an array: wrong count or constituent types.
    ConstantsArray = "constants.array", Constants, SpirvCore, MustReject, true, false,
        "SPIR-V OpConstantComposite", &["Constituent count does not match Result Type"],
        "An OpConstantComposite of an array type has as many constituents as the array length, each of the element type.";
    /// Tensor constant constituent count.
    ConstantsTensorCount = "constants.tensor.constituent-count", Constants, SpvArmTensors, MustReject, true, false,
        "SPV_ARM_tensors (composite tensor constants)", &["Constituent count does not match the shape"],
        "An OpConstantComposite of a tensor type has as many constituents as the tensor's outermost dimension.";
    /// Tensor constant constituent types.
    ConstantsTensorConstituent = "constants.tensor.constituent-type", Constants, SpvArmTensors, MustReject, true, false,
        "SPV_ARM_tensors (composite tensor constants)", &["does not match the element type of the tensor"],
        "The constituents of a rank-1 tensor constant are scalars of its element type; those of a rank-N tensor constant are rank-(N-1) tensor constants of the same element type and the remaining dimensions.";
    /// Composite, null or replicated constant of an unshaped tensor type.
    ConstantsTensorUnshaped = "constants.tensor.unshaped", Constants, SpvArmTensors, MustReject, true, false,
        "SPV_ARM_tensors (shaped tensors are composite types)", &["cannot have a null value"],
        "Only shaped tensor types are composite types, so OpConstantComposite, OpConstantNull and OpConstantCompositeReplicateEXT can only have a shaped OpTypeTensorARM as a tensor Result Type.";
    /// Replicated tensor constant with a constituent of the wrong type.
    ConstantsReplicateConstituent = "constants.replicate.constituent-type", Constants, SpvArmTensors, MustReject, false, false,
        "SPV_EXT_replicated_composites with SPV_ARM_tensors", &[],
        "OpConstantCompositeReplicateEXT of a tensor type has one constituent whose type is the tensor's element type.";
    /// OpGraphConstantARM whose type is not a tensor.
    ConstantsGraphConstantType = "constants.graph-constant.type", Constants, SpvArmGraph, MustReject, true, false,
        "SPV_ARM_graph OpGraphConstantARM", &["GraphConstantARM must have a Result Type that is a tensor type"],
        "The Result Type of OpGraphConstantARM is an OpTypeTensorARM.";
    /// Two graph constants with the same GraphConstantID.
    ConstantsGraphConstantDuplicateId = "constants.graph-constant.duplicate-id", Constants, SpvArmGraph, MustReject, true, false,
        "SPV_ARM_graph 'Validation Rules'", &["No two OpGraphConstantARM instructions may have the same GraphConstantID"],
        "The GraphConstantID of every OpGraphConstantARM is unique within the module.";
    /// Pipeline: graph constants used by the entry point's graph are shaped.
    VulkanGraphConstantShaped = "vulkan.graph-constant.shaped", Constants, Vulkan, Pipeline, false, false,
        "VUID-RuntimeSpirv-pNext-09920 (checked by the Vulkan validation layers when a data-graph pipeline is created)", &[],
        "When a data-graph pipeline is created for a graph entry point, every OpGraphConstantARM that the entry point's graph uses has a tensor type with Shape present (its data is described by a VkTensorDescriptionARM with explicit dimensions). A pipeline-creation rule, not module validity: modules with unshaped graph constants are valid.";

    // ---- graph -----------------------------------------------------------------------
    /// OpGraphARM Result Type not OpTypeGraphARM.
    GraphType = "graph.type", Graph, SpvArmGraph, MustReject, true, false,
        "SPV_ARM_graph OpGraphARM", &["GraphARM Result Type must be an OpTypeGraphARM"],
        "The Result Type of OpGraphARM is an OpTypeGraphARM.";
    /// GraphARM declared but no graph entry point.
    GraphEntryPointMissing = "graph.entry-point.missing", Graph, SpvArmGraph, MustReject, true, false,
        "SPV_ARM_graph 'Validation Rules'", &["No OpGraphEntryPointARM instruction was found"],
        "If the GraphARM capability is declared, the module has at least one OpGraphEntryPointARM.";
    /// Graph entry point naming something that is not a graph.
    GraphEntryPointNotAGraph = "graph.entry-point.not-a-graph", Graph, SpvArmGraph, MustReject, true, false,
        "SPV_ARM_graph OpGraphEntryPointARM", &["GraphEntryPointARM Graph must be a OpGraphARM"],
        "The Graph operand of OpGraphEntryPointARM is the result of an OpGraphARM.";
    /// Two graph entry points with the same name.
    GraphEntryPointDuplicateName = "graph.entry-point.duplicate-name", Graph, SpvArmGraph, MustReject, false, false,
        "SPV_ARM_graph revision 3 OpGraphEntryPointARM (Registry #426; not in spirv-val 2025.5)", &[],
        "The Name of an OpGraphEntryPointARM is unique among the module's graph entry points.";
    /// Interface list length differs from the graph's inputs + outputs.
    GraphEntryPointInterfaceCount = "graph.entry-point.interface-count", Graph, SpvArmGraph, MustReject, true, false,
        "SPV_ARM_graph OpGraphEntryPointARM", &["Interface list contains"],
        "The Interface list of OpGraphEntryPointARM names one variable per graph input, then one per graph output.";
    /// Interface id not a UniformConstant OpVariable.
    GraphEntryPointInterfaceVariable = "graph.entry-point.interface-variable", Graph, SpvArmGraph, MustReject, true, false,
        "SPV_ARM_graph OpGraphEntryPointARM", &["must come from OpVariable with UniformConstant"],
        "Every Interface <id> of OpGraphEntryPointARM is an OpVariable whose Storage Class is UniformConstant.";
    /// Interface variable type differs from the graph's I/O type.
    GraphEntryPointInterfaceType = "graph.entry-point.interface-type", Graph, SpvArmGraph, MustReject, true, false,
        "SPV_ARM_graph OpGraphEntryPointARM", &["must match the type of the corresponding graph I/O"],
        "The pointee type of each interface variable is the graph type's input or output type at the same position.";
    /// OpGraphInputARM index not a constant (Vulkan).
    GraphInputIndexNotConstant = "graph.input.index-not-constant", Graph, Vulkan, MustReject, false, false,
        "VUID-StandaloneSpirv-OpGraphInputARM-09931 (newer than spirv-val 2025.5)", &[],
        "The InputIndex and ElementIndex operands of OpGraphInputARM are results of constant instructions.";
    /// OpGraphInputARM index not a 32-bit integer.
    GraphInputIndexType = "graph.input.index-type", Graph, SpvArmGraph, MustReject, true, false,
        "SPV_ARM_graph OpGraphInputARM", &["InputIndex must be a 32-bit integer", "ElementIndex must be a 32-bit integer"],
        "InputIndex and ElementIndex are 32-bit integers.";
    /// InputIndex past the graph's inputs.
    GraphInputIndexRange = "graph.input.index-out-of-range", Graph, SpvArmGraph, MustReject, true, false,
        "SPV_ARM_graph OpGraphInputARM", &["with an InputIndex that is"],
        "InputIndex selects one of the graph type's inputs: it is less than NumInputs.";
    /// Two inputs with the same index.
    GraphInputDuplicateIndex = "graph.input.duplicate-index", Graph, SpvArmGraph, MustReject, true, false,
        "SPV_ARM_graph 'Validation Rules'", &["Two OpGraphInputARM instructions with the same InputIndex"],
        "Two OpGraphInputARM instructions of one graph with the same InputIndex must both have ElementIndex, with different values.";
    /// ElementIndex on a non-array input, or past the array length.
    GraphInputElementIndex = "graph.input.element-index", Graph, SpvArmGraph, MustReject, true, false,
        "SPV_ARM_graph OpGraphInputARM", &["OpGraphInputARM ElementIndex"],
        "ElementIndex is present only when the selected input is an OpTypeArray or OpTypeRuntimeArray of tensors, and then selects an element within the array's length.";
    /// OpGraphInputARM Result Type differs from the input type.
    GraphInputType = "graph.input.type-mismatch", Graph, SpvArmGraph, MustReject, true, false,
        "SPV_ARM_graph OpGraphInputARM", &["of graph input instruction"],
        "The Result Type of OpGraphInputARM is the graph type's input type selected by InputIndex (its element type when ElementIndex is present).";
    /// OpGraphSetOutputARM index not a constant (Vulkan).
    GraphOutputIndexNotConstant = "graph.output.index-not-constant", Graph, Vulkan, MustReject, false, false,
        "VUID-StandaloneSpirv-OpGraphSetOutputARM-09932 (newer than spirv-val 2025.5)", &[],
        "The OutputIndex and ElementIndex operands of OpGraphSetOutputARM are results of constant instructions.";
    /// OpGraphSetOutputARM index not a 32-bit integer.
    GraphOutputIndexType = "graph.output.index-type", Graph, SpvArmGraph, MustReject, true, false,
        "SPV_ARM_graph OpGraphSetOutputARM", &["OutputIndex must be a 32-bit integer", "ElementIndex must be a 32-bit integer"],
        "OutputIndex and ElementIndex are 32-bit integers.";
    /// OutputIndex past the graph's outputs.
    GraphOutputIndexRange = "graph.output.index-out-of-range", Graph, SpvArmGraph, MustReject, true, false,
        "SPV_ARM_graph OpGraphSetOutputARM", &["setting OutputIndex"],
        "OutputIndex selects one of the graph type's outputs.";
    /// Two outputs with the same index.
    GraphOutputDuplicateIndex = "graph.output.duplicate-index", Graph, SpvArmGraph, MustReject, true, false,
        "SPV_ARM_graph 'Validation Rules'", &["Two OpGraphSetOutputARM instructions with the same OutputIndex"],
        "Two OpGraphSetOutputARM instructions of one graph with the same OutputIndex must both have ElementIndex, with different values.";
    /// ElementIndex on a non-array output, or past the array length.
    GraphOutputElementIndex = "graph.output.element-index", Graph, SpvArmGraph, MustReject, true, false,
        "SPV_ARM_graph OpGraphSetOutputARM", &["OpGraphSetOutputARM ElementIndex"],
        "ElementIndex is present only when the selected output is an array of tensors, and then selects an element within the array's length.";
    /// Value type differs from the output type.
    GraphOutputType = "graph.output.type-mismatch", Graph, SpvArmGraph, MustReject, true, false,
        "SPV_ARM_graph OpGraphSetOutputARM", &["provided to the graph output instruction"],
        "The type of Value is the graph type's output type selected by OutputIndex (its element type when ElementIndex is present).";
    /// Graph without OpGraphSetOutputARM.
    GraphOutputMissing = "graph.output.missing", Graph, SpvArmGraph, MustReject, true, false,
        "SPV_ARM_graph 'Validation Rules'; OpGraphEndARM", &["must be preceded by at least one OpGraphSetOutputARM"],
        "A graph definition contains at least one OpGraphSetOutputARM.";
    /// OpCompositeExtract in a graph body with a bad composite, index or type.
    GraphCompositeExtract = "graph.composite-extract", Graph, SpirvCore, MustReject, true, false,
        "SPIR-V OpCompositeExtract", &["Index is out of bounds", "does not match the type that results from indexing into the composite"],
        "The Indexes of OpCompositeExtract walk into the Composite's type (each index within the member count of a struct or an array whose length is a constant; any index into a runtime array, such as a graph input of runtime-array type, or an array whose length is a specialization constant), and the Result Type is the type reached.";

    // ---- interface (Vulkan) ----------------------------------------------------------
    /// UniformConstant interface variable without DescriptorSet and Binding.
    VulkanDescriptorSetBinding = "vulkan.interface.descriptor-set-binding", Interface, Vulkan, MustReject, true, false,
        "VUID-StandaloneSpirv-UniformConstant-06677", &["UniformConstant-06677"],
        "Under Vulkan, every variable in the UniformConstant, Uniform or StorageBuffer storage class is decorated with DescriptorSet and Binding.";
    /// OpVariable of a runtime array (Vulkan) outside the forms 04680 allows.
    VulkanRuntimeArrayVariable = "vulkan.interface.runtime-array", Interface, Vulkan, MustReject, true, false,
        "VUID-StandaloneSpirv-OpTypeRuntimeArray-04680; RuntimeDescriptorArray capability (as SPIRV-Tools checks it)", &["OpTypeRuntimeArray-04680"],
        "Under Vulkan, a variable may have an OpTypeRuntimeArray type only as the outermost dimension of an arrayed variable in the StorageBuffer, Uniform or UniformConstant storage class, and such a run-time sized array of resources needs the RuntimeDescriptorArray capability. So a graph interface may be a runtime array of tensors, declared with RuntimeDescriptorArray.";
    /// Pipeline: the entry point's graph type uses shaped tensors only.
    VulkanInterfaceShaped = "vulkan.interface.shaped", Interface, Vulkan, Pipeline, false, false,
        "VUID-RuntimeSpirv-pNext-09919 (checked by the Vulkan validation layers when a data-graph pipeline is created)", &[],
        "When a data-graph pipeline is created for a graph entry point, the OpTypeGraphARM of its graph uses only OpTypeTensorARM types with Shape present (directly or as the element of an array or runtime array): every graph resource is bound with a VkTensorDescriptionARM that fixes its dimensions. A pipeline-creation rule, not module validity: modules with unshaped graph interfaces are valid.";
    /// Vulkan: Logical addressing.
    VulkanAddressingModel = "vulkan.addressing-model", Interface, Vulkan, MustReject, true, false,
        "VUID-StandaloneSpirv-None-04635", &["04635", "Capability Addresses is not allowed by Vulkan"],
        "Under Vulkan the addressing model is Logical or PhysicalStorageBuffer64.";

    // ---- tensor instructions in functions ---------------------------------------------
    /// Tensor operand of a read, write or size query not a ranked tensor.
    TensorAccessNotRanked = "tensor.access.not-ranked", TensorAccess, SpvArmTensors, MustReject, true, false,
        "SPV_ARM_tensors OpTensorReadARM, OpTensorWriteARM, OpTensorQuerySizeARM", &["Expected Tensor to be an OpTypeTensorARM whose Rank is specified"],
        "The Tensor operand of OpTensorReadARM, OpTensorWriteARM and OpTensorQuerySizeARM is a Ranked Tensor: an object whose type is an OpTypeTensorARM with a Rank (not the pointer to it, not an unranked tensor).";
    /// Coordinates not an integer array of the tensor's rank.
    TensorAccessCoordinates = "tensor.access.coordinates", TensorAccess, SpvArmTensors, MustReject, true, false,
        "SPV_ARM_tensors OpTensorReadARM, OpTensorWriteARM", &["Expected Coordinates to be an array whose Element Type is an integer type"],
        "Coordinates is an object of an OpTypeArray whose Element Type is an integer type and whose Length equals the Rank of Tensor (compared when both are non-specialization constants).";
    /// OpTensorReadARM Result Type not a scalar or array of the element type.
    TensorReadResultType = "tensor.read.result-type", TensorAccess, SpvArmTensors, MustReject, true, false,
        "SPV_ARM_tensors OpTensorReadARM", &["Expected Result Type to be a scalar type or array of scalar type", "Expected Result Type to be the same as the Element Type of Tensor"],
        "The Result Type of OpTensorReadARM is a scalar type or an OpTypeArray of a scalar type, and that scalar type is the Element Type of Tensor.";
    /// OpTensorWriteARM Object not a scalar or array of the element type.
    TensorWriteObjectType = "tensor.write.object-type", TensorAccess, SpvArmTensors, MustReject, true, false,
        "SPV_ARM_tensors OpTensorWriteARM", &["Expected Object to be a scalar type or array of scalar type"],
        "Object of OpTensorWriteARM is an object of a scalar type or of an OpTypeArray of a scalar type, and that scalar type is the Element Type of Tensor.";
    /// OutOfBoundsValueARM value of another type than the element type.
    TensorOperandsOutOfBoundsType = "tensor.operands.out-of-bounds-type", TensorAccess, SpvArmTensors, MustReject, true, false,
        "SPV_ARM_tensors 'Tensor Operands' (OutOfBoundsValueARM)", &["Expected the type of the OutOfBoundsValueARM value"],
        "The value after OutOfBoundsValueARM has the type of the Element Type of the tensor read: a scalar (spirv-val compares only the component type, so an array of the element type passes; see the known discrepancies).";
    /// OutOfBoundsValueARM value not from a constant instruction.
    TensorOperandsOutOfBoundsNotConstant = "tensor.operands.out-of-bounds-not-constant", TensorAccess, SpvArmTensors, MustReject, false, false,
        "SPV_ARM_tensors 'Tensor Operands' (OutOfBoundsValueARM); not checked by spirv-val 2025.5 or SPIRV-Tools main (Aug 2026)", &[],
        "The value after OutOfBoundsValueARM must be a constant instruction.";
    /// A Tensor Operand used with the instruction it is not valid for.
    TensorOperandsInstruction = "tensor.operands.wrong-instruction", TensorAccess, SpvArmTensors, MustReject, true, false,
        "SPV_ARM_tensors 'Tensor Operands'", &["cannot be used with OpTensorReadARM", "not allowed with OpTensorWriteARM"],
        "OutOfBoundsValueARM and MakeElementVisibleARM are only valid with OpTensorReadARM, MakeElementAvailableARM only with OpTensorWriteARM.";
    /// MakeElementAvailableARM or MakeElementVisibleARM without NonPrivateElementARM.
    TensorOperandsNonPrivate = "tensor.operands.non-private", TensorAccess, SpvArmTensors, MustReject, true, false,
        "SPV_ARM_tensors 'Tensor Operands'", &["requires NonPrivateElementARM"],
        "MakeElementAvailableARM and MakeElementVisibleARM require NonPrivateElementARM to be set as well (spirv-val names MakeElementAvailableARM in its message for both).";
    /// The scope after MakeElementAvailableARM/MakeElementVisibleARM is not a Scope <id>.
    TensorOperandsScope = "tensor.operands.scope", TensorAccess, SpvArmTensors, MustReject, false, false,
        "SPV_ARM_tensors 'Tensor Operands'; SPIR-V 2.16.1 and 3.27 (Scope <id>); not checked by spirv-val 2025.5 or SPIRV-Tools main (Aug 2026): the grammar gives these operands as IdRef, not IdScope", &[],
        "The operand after MakeElementAvailableARM or MakeElementVisibleARM is a memory Scope <id>: a constant instruction of a 32-bit integer type whose value, when known, is a Scope enumerant (0 to 6).";
    /// OpTensorQuerySizeARM Result Type not an integer scalar.
    TensorQueryResultType = "tensor.query.result-type", TensorAccess, SpvArmTensors, MustReject, true, false,
        "SPV_ARM_tensors OpTensorQuerySizeARM", &["Expected Result Type to be an integer type scalar"],
        "The Result Type of OpTensorQuerySizeARM is an integer scalar type.";
    /// OpTensorQuerySizeARM Dimension not a constant integer.
    TensorQueryDimensionNotConstant = "tensor.query.dimension-not-constant", TensorAccess, SpvArmTensors, MustReject, true, false,
        "SPV_ARM_tensors OpTensorQuerySizeARM", &["Dimension must come from a constant instruction of scalar integer type"],
        "Dimension is a constant instruction (specialization constants included) of a scalar integer type.";
    /// OpTensorQuerySizeARM Dimension not below the rank.
    TensorQueryDimensionRange = "tensor.query.dimension-range", TensorAccess, SpvArmTensors, MustReject, true, false,
        "SPV_ARM_tensors OpTensorQuerySizeARM", &["must be less than the Rank of Tensor"],
        "Dimension, read as unsigned, is less than the Rank of Tensor (compared when both are non-specialization constants).";
    /// OpCompositeConstructReplicateEXT of a tensor with a Value of another type.
    TensorReplicateValueType = "tensor.replicate.value-type", TensorAccess, SpvArmTensors, MustReject, false, false,
        "SPV_EXT_replicated_composites OpCompositeConstructReplicateEXT with SPV_ARM_tensors; not checked by spirv-val 2025.5, checked by SPIRV-Tools main since #6583 (Mar 2026)", &[],
        "When the Result Type of OpCompositeConstructReplicateEXT is a tensor type, the type of Value is the tensor's Element Type.";
    /// OpCompositeConstructReplicateEXT of an unshaped tensor type.
    TensorReplicateUnshaped = "tensor.replicate.unshaped", TensorAccess, SpvArmTensors, MustReject, false, false,
        "SPV_ARM_tensors (only shaped tensors are composite types) with SPV_EXT_replicated_composites; not checked by spirv-val 2025.5, checked by SPIRV-Tools main since #6583 (Mar 2026)", &[],
        "The Result Type of OpCompositeConstructReplicateEXT is a composite type, and only a shaped OpTypeTensorARM is one: a ranked-only or unranked tensor Result Type is invalid.";
    /// NonReadable/NonWritable on something that is not a valid memory object.
    DecorationNonReadableWritableTarget = "decoration.non-readable-writable-target", TensorAccess, SpirvCore, MustReject, true, false,
        "SPIR-V 3.20 Decoration (NonWritable, NonReadable) as modified by SPV_ARM_tensors revision 2 (SPIRV-Registry #348; SPIRV-Tools #6184, in 2025.5 and main alike)", &["NonReadable decoration on target", "NonWritable decoration on target", "Target of NonReadable decoration", "Target of NonWritable decoration"],
        "NonReadable and NonWritable decorate a memory object declaration (a variable or function parameter) that points to a storage image, a uniform block, a storage buffer or, added by SPV_ARM_tensors, a tensor variable in the UniformConstant storage class (also through one level of arraying); from SPIR-V 1.4 NonWritable may also decorate a Private or Function variable.";

    // ---- debug info -------------------------------------------------------------------
    /// DebugInfo import version.
    DebugInfoVersion = "debuginfo.version", DebugInfo, GraphDebugInfo, MustReject, false, false,
        "NonSemantic.Graph.DebugInfo '2. Version'", &[],
        "The import name is NonSemantic.Graph.DebugInfo.<ver> with <ver> an integer from 1 to the instruction set's version (1), written in decimal digits (leading zeros allowed; no sign, space or other character).";
    /// Unknown DebugInfo instruction or wrong operand count.
    DebugInfoInstruction = "debuginfo.instruction", DebugInfo, GraphDebugInfo, MustReject, false, false,
        "NonSemantic.Graph.DebugInfo 'Instructions'", &[],
        "The instruction number is 1 (DebugGraph: Graph, Name), 2 (DebugOperation: DebugGraph, Name, one or more Instructions) or 3 (DebugTensor: Tensor, Name, optional Index).";
    /// DebugInfo Result Type not void.
    DebugInfoResultType = "debuginfo.result-type", DebugInfo, GraphDebugInfo, MustReject, false, false,
        "NonSemantic.Graph.DebugInfo '3. Binary Form'", &[],
        "The Result Type of every NonSemantic.Graph.DebugInfo instruction is OpTypeVoid.";
    /// DebugInfo operand used before its definition.
    DebugInfoForwardReference = "debuginfo.forward-reference", DebugInfo, GraphDebugInfo, MustReject, true, false,
        "NonSemantic.Graph.DebugInfo '3. Binary Form'", &[],
        "No NonSemantic.Graph.DebugInfo instruction refers to an <id> defined after it.";
    /// DebugGraph Graph not an OpGraphARM.
    DebugInfoGraph = "debuginfo.graph", DebugInfo, GraphDebugInfo, MustReject, false, false,
        "NonSemantic.Graph.DebugInfo DebugGraph", &[],
        "The Graph operand of DebugGraph is an OpGraphARM.";
    /// Name operand not an OpString.
    DebugInfoName = "debuginfo.name", DebugInfo, GraphDebugInfo, MustReject, false, false,
        "NonSemantic.Graph.DebugInfo DebugGraph, DebugOperation, DebugTensor", &[],
        "The Name operand of every debug instruction is an OpString.";
    /// DebugOperation's DebugGraph operand or instruction list.
    DebugInfoOperation = "debuginfo.operation", DebugInfo, GraphDebugInfo, MustReject, false, false,
        "NonSemantic.Graph.DebugInfo DebugOperation", &[],
        "The DebugGraph operand of DebugOperation is a DebugGraph result, and each of its Instructions is the result of an instruction within the graph that DebugGraph describes.";
    /// DebugTensor's Tensor or Index operand.
    DebugInfoTensor = "debuginfo.tensor", DebugInfo, GraphDebugInfo, MustReject, false, false,
        "NonSemantic.Graph.DebugInfo DebugTensor", &[],
        "Tensor is a value of OpTypeTensorARM type or of a composite type whose top-level constituents are tensors (a struct of tensors, an array or a runtime array of tensors); for a composite, Index is present, a constant instruction of 32-bit unsigned integer type within the member count (any value for a runtime array); for a tensor, Index is absent.";

    // ---- TOSA -------------------------------------------------------------------------
    /// Unknown TOSA instruction number.
    TosaUnknownInstruction = "tosa.unknown-instruction", Tosa, TosaInstructionSet, MustReject, true, false,
        "TOSA.001000.1 grammar (opcodes 0-65)", &["Invalid extended instruction number"],
        "The instruction number of an OpExtInst of the TOSA.001000.1 set is one of its 66 opcodes (0 to 65).";
    /// Wrong operand count.
    TosaOperandCount = "tosa.operand-count", Tosa, TosaInstructionSet, MustReject, true, true,
        "TOSA.001000.1 grammar", &["Invalid instruction OpExtInst"],
        "Each operator takes exactly the operands of its grammar entry, in order (CONCAT: the axis and at least one input).";
    /// Attribute or CTC input not from a constant instruction.
    TosaOperandNotConstant = "tosa.operand.not-constant", Tosa, TosaInstructionSet, MustReject, false, true,
        "TOSA.001000.1 operator pages; TOSA 1.0 compile-time constants", &[],
        "Attribute operands and compile-time-constant inputs (zero points, MUL shift, TABLE table, PAD padding/pad_const, RESHAPE shape, SLICE start/size, TILE multiples, RESIZE scale/offset/border, RESCALE multiplier/shift/zero points) must come from constant instructions.";
    /// Operand of the wrong kind for its form.
    TosaOperandForm = "tosa.operand.form", Tosa, TosaInstructionSet, MustReject, false, true,
        "TOSA.001000.1 operator pages (operand types)", &[],
        "Each operand has the SPIR-V form its operator page gives: enum and axis attributes are OpConstant of a 32-bit integer, bool attributes OpConstantTrue/False, CLAMP bounds scalar constants, array attributes and shape_t inputs rank-1 tensor constants, zero points [1] tensor constants, inputs tensor values.";
    /// Invalid enumerant.
    TosaEnumValue = "tosa.enum.value", Tosa, TosaInstructionSet, MustReject, false, true,
        "TOSA.001000.1 enumerations; TOSA 1.0 'the provided value must be a valid enumerant'", &[],
        "nan_mode is 1 or 2, acc_type 1 to 4, RESIZE mode 1 or 2, rounding_mode 1 to 3; 0 and larger values are not enumerants.";
    /// Enumerant needing an extension that is not enabled.
    TosaEnumExtension = "tosa.enum.extension", Tosa, TosaErrorIf, MustReject, false, true,
        "TOSA 1.0 RESCALE (rounding modes need EXT-INEXACTROUND / EXT-DOUBLEROUND)", &[],
        "rounding_mode INEXACT_ROUND needs EXT-INEXACTROUND and DOUBLE_ROUND needs EXT-DOUBLEROUND.";
    /// Result type kind.
    TosaResultType = "tosa.result-type", Tosa, TosaInstructionSet, MustReject, false, true,
        "TOSA.001000.1 operator pages (Result Type)", &[],
        "The Result Type is an OpTypeTensorARM, except for FFT2D and RFFT2D whose Result Type is an OpTypeStruct of two tensor types (real, imaginary).";
    /// Operand of a fixed element type with another type.
    TosaTypeFixed = "tosa.type.fixed", Tosa, TosaArgumentTable, MustReject, false, true,
        "TOSA 1.0 argument tables", &[],
        "Operands of a fixed type have it whatever the type row: SELECT input1 is bool, GATHER/SCATTER indices i32, MUL and RESCALE shift i8, enum/axis/array attributes 32-bit integers, bool attributes bool.";
    /// Operands sharing a type slot with different element types.
    TosaTypeSlotConflict = "tosa.type.slot-conflict", Tosa, TosaArgumentTable, MustReject, false, true,
        "TOSA 1.0 argument tables (shared type names such as in_out_t)", &[],
        "Operands and results that the argument table gives the same type name (in_t, weight_t, out_t, ...) have the same element type.";
    /// Element types that form no row of the supported-types table.
    TosaTypeNoRow = "tosa.type.no-row", Tosa, TosaArgumentTable, MustReject, false, true,
        "TOSA 1.0 supported data types; TOSA.001000.1 type-support tables", &[],
        "The element types of an instruction form one row of the operator's supported-types table (e.g. CAST to the same type, MUL i8 to i8, GATHER of bool are not rows).";
    /// Row exists but not for this acc_type / mode / scale32.
    TosaTypeRowQualifier = "tosa.type.row-qualifier", Tosa, TosaArgumentTable, MustReject, false, true,
        "TOSA 1.0 supported data types (acc_type column; RESIZE mode rows of tosa.xml; RESCALE mul_t)", &[],
        "The row's attribute matches: acc_type is the row's accumulator, integer RESIZE rows go with their mode (BILINEAR widens, NEAREST keeps the type), and RESCALE's multiplier type follows scale32 (i32 with scale32, i16 without; i48 input only without scale32).";
    /// Row not enabled by the selected profiles/extensions.
    TosaTypeProfile = "tosa.type.profile", Tosa, TosaArgumentTable, MustReject, false, true,
        "TOSA 1.0 profiles and extensions", &[],
        "The row used is available in the profiles and extensions the consumer supports.";
    /// Rank of an operand or result outside the argument table.
    TosaShapeRank = "tosa.shape.rank", Tosa, TosaArgumentTable, MustReject, false, true,
        "TOSA 1.0 argument tables (ranks)", &[],
        "Tensor operands and results have the rank of their argument (e.g. rank 4 for CONV2D input, equal ranks for broadcasting operators and CONCAT inputs).";
    /// Length of a rank-1 constant operand.
    TosaShapeLength = "tosa.shape.length", Tosa, TosaArgumentTable, MustReject, false, true,
        "TOSA 1.0 argument tables (shape of attributes and shape_t inputs)", &[],
        "Rank-1 constant operands have their argument's length: kernel/stride/dilation 2 (3 for CONV3D), pad 4 (6), zero points and MUL shift [1], PAD padding 2*rank, SLICE start/size and TILE multiples rank, TABLE 256 (i8) or 513 (i16), RESCALE multiplier/shift NC.";
    /// Dimensions that must agree do not.
    TosaShapeMismatch = "tosa.shape.mismatch", Tosa, TosaArgumentTable, MustReject, false, true,
        "TOSA 1.0 argument tables (shared shape letters)", &[],
        "Dimensions that the argument table names with the same letter agree (N, C, IC between input and weight; FFT real and imaginary shapes; GATHER/SCATTER N, W, C).";
    /// Broadcast incompatibility.
    TosaShapeBroadcast = "tosa.shape.broadcast", Tosa, TosaErrorIf, MustReject, false, true,
        "TOSA 1.0 broadcast_shape", &[],
        "Element-wise operands have equal ranks, and in every dimension their sizes are equal or one of them is 1.";
    /// Output division not exact.
    TosaShapeInexactDivision = "tosa.shape.inexact-division", Tosa, TosaErrorIf, MustReject, false, true,
        "TOSA 1.0 AVG_POOL2D, MAX_POOL2D, CONV2D, CONV3D, DEPTHWISE_CONV2D, RESIZE (idiv_check)", &[],
        "The divisions of the output-size formulas (by the stride, or by scale_d for RESIZE) are exact.";
    /// Computed output dimension out of range.
    TosaShapeOutputRange = "tosa.shape.output-range", Tosa, TosaErrorIf, MustReject, false, true,
        "TOSA 1.0 output-size formulas", &[],
        "Every computed output dimension is at least 1 (and fits in 32 bits).";
    /// RESHAPE element count.
    TosaShapeElementCount = "tosa.shape.element-count", Tosa, TosaErrorIf, MustReject, false, true,
        "TOSA 1.0 RESHAPE", &[],
        "RESHAPE keeps the number of elements: the product of shape equals the input's element count.";
    /// Declared result shape differs from the operator's output shape.
    TosaShapeOutput = "tosa.shape.output", Tosa, TosaErrorIf, MustReject, false, true,
        "TOSA 1.0 operator pages (output shape ERROR_IFs)", &[],
        "The shape of the Result Type is the one the operator computes from its inputs and attributes (broadcast shape, pooling/convolution formulas, reduced axis of size 1, concatenation sum, ...).";
    /// Attribute value out of range.
    TosaAttributeRange = "tosa.attribute.range", Tosa, TosaErrorIf, MustReject, false, true,
        "TOSA 1.0 operator pages (ERROR_IF on attribute values)", &[],
        "Attribute and shape_t values are within their ranges: kernel, stride, dilation >= 1; pads >= 0 and pool pads below the kernel size; TRANSPOSE_CONV2D out_pad > -K; PAD padding >= 0; SLICE start >= 0, size >= 1, start + size within the input; TILE multiples >= 1; RESHAPE shape >= 1; RESIZE scale, offset, border and sizes in range.";
    /// Axis out of range.
    TosaAttributeAxis = "tosa.attribute.axis", Tosa, TosaErrorIf, MustReject, false, true,
        "TOSA 1.0 ARGMAX, REDUCE_*, CONCAT, REVERSE", &[],
        "axis is in 0 .. rank(input) - 1.";
    /// TRANSPOSE perms not a permutation.
    TosaTransposePerms = "tosa.transpose.perms", Tosa, TosaErrorIf, MustReject, false, true,
        "TOSA 1.0 TRANSPOSE", &[],
        "perms is a permutation of 0 .. rank - 1 (each value in range, none repeated).";
    /// FFT sizes not powers of two.
    TosaFftPowerOfTwo = "tosa.fft.power-of-two", Tosa, TosaErrorIf, MustReject, false, true,
        "TOSA 1.0 FFT2D, RFFT2D", &[],
        "The H and W dimensions of FFT2D and RFFT2D inputs are powers of two.";
    /// Non-zero zero point for a non-i8 type.
    TosaZeroPoint = "tosa.zero-point", Tosa, TosaErrorIf, MustReject, false, true,
        "TOSA 1.0 AVG_POOL2D, CONV2D, CONV3D, DEPTHWISE_CONV2D, TRANSPOSE_CONV2D, MATMUL, NEGATE", &[],
        "A zero point is 0 (0.0 for floating point) unless the tensor it belongs to is i8.";
    /// RESCALE zero points.
    TosaRescaleZeroPoint = "tosa.rescale.zero-point", Tosa, TosaErrorIf, MustReject, false, true,
        "TOSA 1.0 RESCALE", &[],
        "RESCALE zero points are 0, except for i8 (any value) and for i16 with the matching unsigned flag (0 or 32768).";
    /// RESCALE unsigned flag combinations.
    TosaRescaleUnsigned = "tosa.rescale.unsigned", Tosa, TosaErrorIf, MustReject, false, true,
        "TOSA 1.0 RESCALE", &[],
        "input_unsigned and output_unsigned are not both true; input_unsigned is false for i32/i48 inputs and for i32 outputs; output_unsigned is false for i32 outputs and for i32/i48 inputs.";
    /// RESCALE DOUBLE_ROUND without scale32.
    TosaRescaleDoubleRound = "tosa.rescale.double-round", Tosa, TosaErrorIf, MustReject, false, true,
        "TOSA 1.0 RESCALE", &[],
        "rounding_mode DOUBLE_ROUND is only used with scale32 = true.";
    /// CLAMP bounds.
    TosaClampBounds = "tosa.clamp.bounds", Tosa, TosaErrorIf, MustReject, false, true,
        "TOSA 1.0 CLAMP", &[],
        "CLAMP's min_val is not greater than max_val, and neither is NaN.";
    /// Unshaped operands or results: shape rules cannot be checked.
    TosaShapeUnknown = "tosa.shape.unknown", Tosa, TosaArgumentTable, MayAccept, false, true,
        "TOSA 1.0 (static shapes); TOSA.001000.1 with SPV_ARM_tensors (unshaped types)", &[],
        "TOSA shapes are known when the graph is compiled, but SPIR-V allows unranked or unshaped tensor types and graph constants whose values are bound later; where a shape or attribute value is not in the module, the operator's shape rules cannot be checked statically.";
    /// MUL shift REQUIRE.
    TosaRequireMulShift = "tosa.require.mul-shift", Tosa, TosaRequire, MayAccept, false, true,
        "TOSA 1.0 MUL (REQUIRE)", &[],
        "MUL shift is in 0..63 for i32 inputs and 0 for other inputs; otherwise the result is unpredictable.";
    /// RESCALE shift REQUIRE.
    TosaRequireRescaleShift = "tosa.require.rescale-shift", Tosa, TosaRequire, MayAccept, false, true,
        "TOSA 1.0 RESCALE, apply_scale_32/apply_scale_16 (REQUIRE)", &[],
        "Every RESCALE shift is in 2..62; otherwise the result is unpredictable.";
    /// RESCALE multiplier REQUIRE.
    TosaRequireRescaleMultiplier = "tosa.require.rescale-multiplier", Tosa, TosaRequire, MayAccept, false, true,
        "TOSA 1.0 RESCALE, apply_scale_32/apply_scale_16 (REQUIRE)", &[],
        "Every RESCALE multiplier is non-negative; otherwise the result is unpredictable.";

    // ---- level ------------------------------------------------------------------------
    /// Rank above MAX_RANK.
    LevelRank = "level.rank", Level, TosaLevel, MayAccept, false, true,
        "TOSA 1.0 levels: MAX_RANK (8K: 6, none: 32)", &[],
        "Tensor ranks are at most MAX_RANK.";
    /// Kernel-like sizes above MAX_KERNEL.
    LevelKernel = "level.kernel", Level, TosaLevel, MayAccept, false, true,
        "TOSA 1.0 levels: MAX_KERNEL (8K: 8192)", &[],
        "Pool kernels, dilated convolution kernels, TRANSPOSE_CONV2D kernels, every pad and out_pad, and FFT H/W are at most MAX_KERNEL.";
    /// Strides above MAX_STRIDE.
    LevelStride = "level.stride", Level, TosaLevel, MayAccept, false, true,
        "TOSA 1.0 levels: MAX_STRIDE (8K: 8192)", &[],
        "Pooling and convolution strides are at most MAX_STRIDE.";
    /// RESIZE scale above MAX_SCALE.
    LevelScale = "level.scale", Level, TosaLevel, MayAccept, false, true,
        "TOSA 1.0 levels: MAX_SCALE (8K: 256)", &[],
        "RESIZE scale_n / scale_d, as a reduced fraction, is at most MAX_SCALE in each axis.";
    /// Too many CONCAT inputs.
    LevelTensorList = "level.tensor-list", Level, TosaLevel, MayAccept, false, true,
        "TOSA 1.0 levels: MAX_TENSOR_LIST_SIZE (8K: 64)", &[],
        "CONCAT has at most MAX_TENSOR_LIST_SIZE inputs.";
    /// Tensor too large.
    LevelTensorSize = "level.tensor-size", Level, TosaLevel, MayAccept, false, true,
        "TOSA 1.0 levels: MAX_LOG2_SIZE (8K: 31)", &[],
        "Every tensor's size in bytes (elements times element bytes, at least one byte per element) is below 2^MAX_LOG2_SIZE.";

    // ---- imports ------------------------------------------------------------------------
    /// A versioned instruction-set import naming a version that does not exist.
    ImportsVersion = "imports.version", Imports, ExtendedInstructionSets, MustReject, true, false,
        "TOSA.001000.1 'Overview' (TOSA.<major><minor>.<revision>); Arm.ExperimentalMLOperations '2. Version'", &["Invalid extended instruction import", "Arm.ExperimentalMLOperations import", "Missing Arm.ExperimentalMLOperations import version"],
        "An import of a versioned extended instruction set names a version that exists. TOSA sets are named TOSA.<major><minor>.<revision> (3-digit TOSA major and minor versions, then the instruction-set revision) and the only one published is TOSA.001000.1, so any other TOSA.* name imports a set no consumer knows. Arm.ExperimentalMLOperations.<ver> has <ver> an integer from 1 to the set's revision (1), in decimal digits. (NonSemantic.Graph.DebugInfo versions: debuginfo.version.)";
}

impl RuleId {
    /// The catalogue entry.
    pub fn info(self) -> &'static RuleInfo {
        // TABLE is generated in the same order as the enum, so the
        // discriminant is the index (checked by a test); fall back to a scan
        // so that no input can make this panic.
        TABLE
            .get(self as usize)
            .filter(|i| i.id == self)
            .unwrap_or_else(|| TABLE.iter().find(|i| i.id == self).unwrap_or(&TABLE[0]))
    }

    /// The stable dotted name.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// Must-reject or may-accept.
    pub fn severity(self) -> Severity {
        self.info().severity
    }

    /// Whether a violation makes the module invalid.
    pub fn is_must_reject(self) -> bool {
        self.severity() == Severity::MustReject
    }

    /// Whether the rule is checked when a pipeline is created for a graph
    /// entry point rather than on the module ([`Severity::Pipeline`]).
    pub fn is_pipeline(self) -> bool {
        self.severity() == Severity::Pipeline
    }

    /// Looks a rule up by its dotted name.
    pub fn from_name(name: &str) -> Option<RuleId> {
        TABLE.iter().find(|i| i.name == name).map(|i| i.id)
    }

    /// The rule whose known spirv-val message fragment occurs in `message`
    /// (the longest matching fragment wins: it is the most specific). This
    /// is a best guess for comparing verdicts, not something spirv-val says.
    pub fn from_spirv_val_message(message: &str) -> Option<RuleId> {
        TABLE
            .iter()
            .flat_map(|i| i.spirv_val_messages.iter().map(move |m| (i.id, *m)))
            .filter(|(_, m)| message.contains(m))
            .max_by_key(|(_, m)| m.len())
            .map(|(id, _)| id)
    }
}

impl fmt::Display for RuleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

// Serialized as the dotted name, so manifests and findings stay readable and
// survive reordering of the enum.
impl serde::Serialize for RuleId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for RuleId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<RuleId, D::Error> {
        let name = String::deserialize(d)?;
        RuleId::from_name(&name).ok_or_else(|| serde::de::Error::custom(format!("unknown rule {name:?}")))
    }
}

/// The whole catalogue, in [`RuleId::ALL`] order.
pub fn catalogue() -> &'static [RuleInfo] {
    TABLE
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn table_is_in_enum_order_and_names_are_unique() {
        assert_eq!(TABLE.len(), RuleId::ALL.len());
        let mut names = HashSet::new();
        for (i, (info, id)) in TABLE.iter().zip(RuleId::ALL).enumerate() {
            assert_eq!(info.id, *id);
            assert_eq!(*id as usize, i);
            assert!(names.insert(info.name), "duplicate name {}", info.name);
            assert_eq!(RuleId::from_name(info.name), Some(*id));
            assert_eq!(id.info().name, info.name);
        }
        assert_eq!(RuleId::from_name("no.such.rule"), None);
    }

    #[test]
    fn serde_uses_the_dotted_name() {
        let json = serde_json::to_string(&RuleId::GraphInputDuplicateIndex).expect("serializes");
        assert_eq!(json, "\"graph.input.duplicate-index\"");
        let back: RuleId = serde_json::from_str(&json).expect("parses");
        assert_eq!(back, RuleId::GraphInputDuplicateIndex);
        assert!(serde_json::from_str::<RuleId>("\"no.such.rule\"").is_err());
    }

    #[test]
    fn names_are_dotted_lowercase_and_prefixed_by_category() {
        for info in TABLE {
            assert!(
                info.name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '.' || c == '-'),
                "{}",
                info.name
            );
            let prefix = info.name.split('.').next().unwrap_or("");
            let expected: &[&str] = match info.category {
                Category::Binary => &["binary"],
                Category::Layout => &["layout"],
                Category::Ids => &["ids"],
                Category::Capabilities => &["caps"],
                Category::Types => &["types"],
                Category::Constants => &["constants", "vulkan"],
                Category::Graph => &["graph"],
                Category::Interface => &["vulkan"],
                Category::TensorAccess => &["tensor", "decoration"],
                Category::DebugInfo => &["debuginfo"],
                Category::Tosa => &["tosa"],
                Category::Level => &["level"],
                Category::Imports => &["imports"],
            };
            assert!(expected.contains(&prefix), "{} in {:?}", info.name, info.category);
            assert!(!info.spec.is_empty() && !info.reference.is_empty());
        }
    }

    #[test]
    fn severities_follow_the_sources() {
        for info in TABLE {
            let may = matches!(info.source, Source::TosaRequire | Source::TosaLevel);
            if may {
                assert_eq!(info.severity, Severity::MayAccept, "{}", info.name);
            }
            if info.severity == Severity::MayAccept {
                // spirv-val checks no TOSA semantics at all.
                assert!(!info.spirv_val_checks, "{}", info.name);
            }
            if info.source == Source::Vulkan {
                assert!(info.name.starts_with("vulkan.") || info.name.contains("index-not-constant"), "{}", info.name);
                // Standalone VUIDs are module validity; runtime VUIDs are
                // checked when a pipeline is created.
                let standalone = info.reference.contains("VUID-StandaloneSpirv-");
                let runtime = info.reference.contains("VUID-RuntimeSpirv-");
                assert!(standalone != runtime, "{}: names no VUID, or both kinds", info.name);
                let expected = if runtime { Severity::Pipeline } else { Severity::MustReject };
                assert_eq!(info.severity, expected, "{}", info.name);
            }
            if info.severity == Severity::Pipeline {
                assert_eq!(info.source, Source::Vulkan, "{}", info.name);
                assert!(!info.spirv_val_checks, "{}: spirv-val validates modules, not pipelines", info.name);
            }
        }
    }

    #[test]
    fn spirv_val_messages_map_back() {
        assert_eq!(
            RuleId::from_spirv_val_message("OpExtInst must appear in a graph body"),
            Some(RuleId::LayoutGraphSectionOutsideGraph)
        );
        assert_eq!(
            RuleId::from_spirv_val_message("No two OpGraphConstantARM instructions may have the same GraphConstantID"),
            Some(RuleId::ConstantsGraphConstantDuplicateId)
        );
        assert_eq!(RuleId::from_spirv_val_message("something else entirely"), None);
    }
}
