//! The judgement of readers (`spvgraph_oracle::judge::reading`): what a
//! reader owes a valid module (to show it as it is) and an invalid one (an
//! answer: a clear error is one, a crash or a hang is not), with a stand-in
//! reader whose answers are fixed (what is tested is the decision).

use spvgraph_ir::rules::RuleId;
use spvgraph_oracle::attribution::Owner;
use spvgraph_oracle::judge::{judge, Expectation, Kind, Observations, ReadSubject, ReadingAnswer, Severity};
use spvgraph_oracle::oracle::{Abnormal, Instance, Oracle, OracleError, ReadGraph, ReadNode};
use spvgraph_oracle::oracle::{ReadOperand, ReadOutcome, ReadSource, Reader, Reading};

/// A reader that answers what it is told to.
struct Fixed(ReadOutcome);

/// The stand-in's name.
static READER: Instance = Instance::release("reader");

impl Oracle for Fixed {
    fn instance(&self) -> &Instance {
        &READER
    }
    fn available(&self) -> Result<(), OracleError> {
        Ok(())
    }
    fn version(&self) -> Option<String> {
        None
    }
    fn components(&self) -> &'static [Owner] {
        &[]
    }
    spvgraph_oracle::capabilities! { validator: no, executor: no, producer: no, reader: yes, referee: no }
}

impl Reader for Fixed {
    fn read(&self, _: &[u32]) -> Result<ReadOutcome, OracleError> {
        Ok(self.0.clone())
    }
    fn read_container(&self, _: &[u8]) -> Result<ReadOutcome, OracleError> {
        Err(OracleError::Unsupported { oracle: READER.name().into(), what: "reading containers" })
    }
}

fn judged(expect: &Expectation, reader: &Fixed, words: &[u32]) -> Vec<spvgraph_oracle::judge::Disagreement> {
    let obs = Observations {
        readings: vec![ReadingAnswer {
            oracle: reader,
            subject: ReadSubject::Module(words),
            outcome: reader.read(words),
        }],
        module: Some(words),
        ..Observations::default()
    };
    judge(expect, &obs)
}

fn invalid() -> Expectation {
    Expectation::Breaks { rule: RuleId::TosaOperandCount, mutator: None }
}

fn words() -> Vec<u32> {
    spvgraph_ir::samples::elementwise_chain(3).encode_words().expect("encodes")
}

#[test]
fn a_crash_is_a_finding_on_any_module_and_a_clear_error_only_on_a_valid_one() {
    let w = words();
    let crash = Fixed(ReadOutcome::Abnormal { how: Abnormal::Signal(11), detail: "Segmentation fault".into() });
    let ds = judged(&Expectation::Valid, &crash, &w);
    assert_eq!(ds.iter().map(|d| (d.kind, d.severity)).collect::<Vec<_>>(), [(Kind::ReaderCrash, Severity::High)]);
    assert_eq!(ds[0].discriminator.as_deref(), Some("SIGSEGV"));
    let ds = judged(&invalid(), &crash, &w);
    assert_eq!(ds.iter().map(|d| (d.kind, d.severity)).collect::<Vec<_>>(), [(Kind::ReaderCrash, Severity::Medium)]);
    let hang = Fixed(ReadOutcome::Abnormal { how: Abnormal::Timeout, detail: String::new() });
    assert_eq!(judged(&invalid(), &hang, &w)[0].discriminator.as_deref(), Some("timeout"));

    let error = Fixed(ReadOutcome::Rejected { message: "ValueError: Failed to parse".into(), detail: String::new() });
    assert!(judged(&invalid(), &error, &w).is_empty(), "a clear error is what an invalid module is owed");
    let ds = judged(&Expectation::Valid, &error, &w);
    assert_eq!(ds.iter().map(|d| d.kind).collect::<Vec<_>>(), [Kind::ReaderRejectsValid]);
    assert_eq!(ds[0].discriminator.as_deref(), Some("ValueError"));
}

#[test]
fn a_reading_is_held_to_the_modules_facts_on_valid_modules_only() {
    let w = words();
    let module = spvgraph_ir::Module::decode_words(&w).expect("decodes");
    let info = spvgraph_ir::info::module_info(&module);
    let g = &info.graphs[0];
    // Nothing shown of the graph: it is missing.
    let empty = Fixed(ReadOutcome::Read(Reading::default()));
    let ds = judged(&Expectation::Valid, &empty, &w);
    assert_eq!(ds.len(), 1, "{ds:#?}");
    assert_eq!((ds[0].kind, ds[0].discriminator.as_deref()), (Kind::ReaderDiffers, Some("interface")));
    assert!(judged(&invalid(), &empty, &w).is_empty(), "an invalid module's reading is not judged");
    // The graph with its first node named otherwise and its operands drawn from nothing.
    let first = &g.nodes[0];
    let wrong = ReadGraph {
        id: Some(g.id),
        nodes: vec![ReadNode {
            id: Some(first.id),
            op: "NOT-".to_string() + &first.op,
            operands: first.operands.iter().map(|_| ReadOperand::default()).collect(),
            results: Vec::new(),
        }],
        ..ReadGraph::default()
    };
    let ds = judged(
        &Expectation::Valid,
        &Fixed(ReadOutcome::Read(Reading { graphs: vec![wrong], ..Reading::default() })),
        &w,
    );
    let aspects: Vec<&str> = ds.iter().filter_map(|d| d.discriminator.as_deref()).collect();
    for a in ["operator", "edge", "interface"] {
        assert!(aspects.contains(&a), "{a} not among {aspects:?}");
    }
    // Operands drawn from their sources: no edge difference for that node.
    let right = ReadNode {
        id: Some(first.id),
        op: first.op.clone(),
        operands: first
            .operands
            .iter()
            .map(|v| match *v {
                spvgraph_ir::info::ValueInfo::Node { id, member } => {
                    ReadOperand { source: Some(ReadSource { id: Some(id), output: member }), ..ReadOperand::default() }
                }
                other => ReadOperand {
                    source: Some(ReadSource { id: Some(other.id()), output: 0 }),
                    ..ReadOperand::default()
                },
            })
            .collect(),
        results: Vec::new(),
    };
    let graph = ReadGraph { id: Some(g.id), nodes: vec![right], ..ReadGraph::default() };
    let ds = judged(
        &Expectation::Valid,
        &Fixed(ReadOutcome::Read(Reading { graphs: vec![graph], ..Reading::default() })),
        &w,
    );
    assert!(
        !ds.iter().any(|d| d.discriminator.as_deref() == Some("edge") && d.detail.contains(&format!("%{} ", first.id))),
        "{ds:#?}"
    );
}
