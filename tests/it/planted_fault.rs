//! A planted fault: a test-only backend that runs the in-tree executor on
//! the module it is given, except that one chosen operator's result comes
//! out 0.5 too large wherever it is read (downstream operators and graph
//! outputs alike). The operator sits downstream of an EXP and a CONV2D, so
//! every graph output is computed from approximations: judging outputs
//! alone cannot see the fault, judging each operator on its own must.
//!
//! The planted backend exists only here (it is no oracle of the registry).
//! Shown: `spvgraph diff` names that operator (not EXP, not CONV2D); the
//! hunt's own path finds the same; and the hunt's reduction of the finding
//! cuts the case down to that one operator.

use spvgraph::diff::{diff_module, DiffInputs};
use spvgraph::hunt::case::{CaseOutcome, Hunter, Subject};
use spvgraph::hunt::oracles::{OracleSet, Sampled};
use spvgraph::hunt::reduce_finding::{judge_again, reduce, FindingReduction};
use spvgraph_ir::builder::ModuleBuilder;
use spvgraph_ir::decls;
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::inst::{Id, Inst};
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::Module;
use spvgraph_oracle::attribution::Owner;
use spvgraph_oracle::exec::Executor;
use spvgraph_oracle::external::tosa_reference::TosaReferenceModel;
use spvgraph_oracle::judge::{Disagreement, Kind};
use spvgraph_oracle::oracle::{self, ExecOutcome, ExecRequest, Instance, Oracle, OracleError};
use spvgraph_oracle::registry::InTree;
use spvgraph_reducer::{Candidate, InputKey};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

const PLANTED: &str = "planted-fault";

/// The in-tree executor with the result of the first `op` of the graph
/// increased by 0.5 (an ADD of a constant spliced in after it, which takes
/// over its result id, so every reader sees the faulty value).
struct PlantedFault {
    op: TosaOp,
}

impl PlantedFault {
    fn plant(&self, words: &[u32]) -> Result<Module, String> {
        let mut m = Module::decode_words(words).map_err(|e| e.to_string())?;
        let (at, ty, set, result) = m
            .insts
            .iter()
            .enumerate()
            .find_map(|(i, inst)| match inst {
                Inst::Tosa { ty, set, op, result, .. } if *op == self.op => Some((i, *ty, *set, *result)),
                _ => None,
            })
            .ok_or_else(|| format!("no {} to plant a fault in", self.op))?;
        let shape = vec![1u32; 4];
        let one = decls::reshaped_tensor_type(&mut m, ty, &shape).ok_or("not a tensor result")?;
        let half = decls::tensor_constant(&mut m, one, ElemType::Fp32, &shape, &[u64::from(0.5f32.to_bits())])
            .ok_or("no constant")?;
        let original = decls::fresh_id(&mut m);
        // Declarations went in before the graph: find the operator again.
        let at = m.insts.iter().position(|i| matches!(i, Inst::Tosa { result: r, .. } if *r == result)).unwrap_or(at);
        if let Some(Inst::Tosa { result: r, .. }) = m.insts.get_mut(at) {
            *r = original;
        }
        m.insts.insert(at + 1, Inst::Tosa { ty, result, set, op: TosaOp::Add, args: vec![original, half] });
        Ok(m)
    }
}

/// The stand-in's name.
static INSTANCE: Instance = Instance::release(PLANTED);

impl Oracle for PlantedFault {
    fn instance(&self) -> &Instance {
        &INSTANCE
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
    spvgraph_oracle::capabilities! { validator: no, executor: yes, producer: no, reader: no, referee: no }
}

impl oracle::Executor for PlantedFault {
    fn execute(&self, request: &ExecRequest<'_>) -> Result<ExecOutcome, OracleError> {
        let module =
            self.plant(request.module).map_err(|reason| OracleError::Failed { oracle: PLANTED.into(), reason })?;
        let words =
            module.encode_words().map_err(|e| OracleError::Failed { oracle: PLANTED.into(), reason: e.to_string() })?;
        Executor::default().execute(&ExecRequest { module: &words, ..*request })
    }
}

/// `x -> EXP`, `x -> CONV2D (1x1, constant weights)`, `ADD` of the two,
/// `TANH` of the sum: the graph's one output.
fn module() -> Module {
    let mut b = ModuleBuilder::new();
    let t = b.type_tensor(ElemType::Fp32, Some(&[1, 4, 4, 4]));
    let gty = b.type_graph(&[t], &[t]);
    let vars = vec![b.interface_variable(t, 0, 0), b.interface_variable(t, 0, 1)];
    let weights: Vec<u64> = (0..16).map(|i| u64::from((0.125 * f32::from(i as u8) - 1.0).to_bits())).collect();
    let weight = b.const_tensor(ElemType::Fp32, &[4, 1, 1, 4], &weights).expect("weights");
    let bias = b.const_tensor(ElemType::Fp32, &[1], &[u64::from(0.25f32.to_bits())]).expect("bias");
    let zp = b.const_tensor(ElemType::Fp32, &[1], &[0]).expect("zero point");
    let pad = b.const_i32_vector(&[0, 0, 0, 0]);
    let ones = b.const_i32_vector(&[1, 1]);
    let fp32_acc = b.const_u32(3);
    let no = b.const_bool(false);
    let g = b.begin_graph(gty);
    b.graph_entry_point(g, "main", vars);
    let x = b.graph_input(t, 0, None);
    let e = b.tosa(TosaOp::Exp, t, vec![x]);
    let c = b.tosa(TosaOp::Conv2d, t, vec![pad, ones, ones, fp32_acc, no, x, weight, bias, zp, zp]);
    let a = b.tosa(TosaOp::Add, t, vec![e, c]);
    let y = b.tosa(TosaOp::Tanh, t, vec![a]);
    b.graph_output(y, 0, None);
    b.end_graph();
    b.finish()
}

fn input() -> TensorData {
    let values: Vec<u64> = (0..64).map(|i| u64::from((f32::from(i as u8) / 64.0 - 0.5).to_bits())).collect();
    TensorData::from_bits(ElemType::Fp32, &[1, 4, 4, 4], &values).expect("input")
}

/// The TOSA reference model as the referee, where it is installed.
fn referee() -> Option<Arc<dyn Oracle>> {
    let r = spvgraph_testkit::oracle(TosaReferenceModel::discover())?;
    Some(Arc::new(r))
}

fn graph_ops(m: &Module) -> Vec<TosaOp> {
    m.insts
        .iter()
        .filter_map(|i| match i {
            Inst::Tosa { op, .. } => Some(*op),
            _ => None,
        })
        .collect()
}

fn wrong_outputs(ds: &[Disagreement]) -> Vec<&Disagreement> {
    ds.iter().filter(|d| d.kind == Kind::WrongOutput && d.oracles.iter().any(|o| o == PLANTED)).collect()
}

#[test]
fn diff_names_the_planted_operator_not_exp_or_conv2d() {
    let dir = spvgraph_testkit::scratch("planted");
    let spv = dir.join("planted.spv");
    let bytes: Vec<u8> = module().encode_words().expect("encodes").iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&spv, bytes).expect("write");
    let npy = dir.join("planted.in0.npy");
    input().write_npy(&npy).expect("write input");
    let mut oracles: Vec<Arc<dyn Oracle>> =
        vec![Arc::new(InTree::default()), Arc::new(PlantedFault { op: TosaOp::Add })];
    oracles.extend(referee());
    let given = DiffInputs { inputs: vec![npy], ..DiffInputs::default() };
    let report = diff_module(&spv, &oracles, &given).expect("diff runs");
    let wrong = wrong_outputs(&report.disagreements);
    assert_eq!(wrong.len(), 1, "{:#?}", report.disagreements);
    assert_eq!(wrong[0].operators, [TosaOp::Add], "{}", wrong[0].detail);
    assert!(wrong[0].detail.contains("judged on its own"), "{}", wrong[0].detail);
    assert!(wrong[0].documented.is_none());
    // Every operator was judged, on its own.
    let c = report.coverage.iter().find(|c| c.oracle == PLANTED).expect("coverage");
    assert_eq!((c.operators, c.judged), (4, 4), "{c}");
    assert!(c.complete(), "{c}");
    // Without the planted backend (the reference model as the backend
    // where it is installed), nothing is wrong.
    let clean: Vec<Arc<dyn Oracle>> = oracles.iter().filter(|o| o.name() != PLANTED).cloned().collect();
    let quiet = diff_module(&spv, &clean, &given).expect("diff runs");
    assert!(quiet.disagreements.iter().all(|d| d.kind != Kind::WrongOutput), "{:#?}", quiet.disagreements);
}

/// The case as the hunt holds it: a valid case with seed 0.
fn hunt_case(candidate: &Candidate) -> CaseOutcome {
    CaseOutcome {
        subject: Subject::Valid(spvgraph::reduce::candidate_to_case(candidate)),
        words: candidate.module.encode_words().ok(),
        ..CaseOutcome::empty(0, 0)
    }
}

#[test]
fn the_hunt_finds_the_planted_operator_and_reduces_the_case_to_it() {
    let m = module();
    let graph: Id = m
        .insts
        .iter()
        .find_map(|i| match i {
            Inst::Graph { result, .. } => Some(*result),
            _ => None,
        })
        .expect("graph");
    let candidate = Candidate {
        module: m,
        inputs: BTreeMap::from([(InputKey { graph, index: 0, element: None }, input())]),
        graph_constants: BTreeMap::new(),
    };
    let planted: Arc<dyn Oracle> = Arc::new(PlantedFault { op: TosaOp::Add });
    let oracles = OracleSet {
        validators: vec![Arc::new(InTree::default())],
        executors: vec![Sampled { oracle: planted, channels: Vec::new(), sample: 1.0, batch: 2, guided: false }],
        referee: referee(),
        ..OracleSet::default()
    };
    let config = spvgraph_generator::Config::default();
    let hunter = Hunter {
        config: &config,
        ratio: 0.0,
        rules: &[],
        oracles: &oracles,
        base_seed: 0,
        inject_panic: &[],
        observe: true,
        networks: None,
    };
    let case = hunt_case(&candidate);
    let found = judge_again(&hunter, &case, &candidate, &[PLANTED.to_string()], "");
    let wrong = wrong_outputs(&found);
    assert_eq!(wrong.len(), 1, "{found:#?}");
    assert_eq!(wrong[0].operators, [TosaOp::Add]);
    // Without the observed form, the hunt judges the graph's output only,
    // which is computed from approximations: the fault goes unseen.
    let blind = Hunter { observe: false, ..hunter };
    assert!(wrong_outputs(&judge_again(&blind, &case, &candidate, &[PLANTED.to_string()], "")).is_empty());
    let settings = FindingReduction {
        time_limit: Duration::from_secs(120),
        slow_time_limit: Duration::from_secs(120),
        jobs: 2,
        tail: Duration::from_secs(120),
    };
    let reduced = reduce(&hunter, &settings, &case, wrong[0], None, &|_| {}).expect("the finding reduces");
    assert_eq!(graph_ops(&reduced.reduced.module), [TosaOp::Add], "{:?}", reduced.info);
    let again = judge_again(&hunter, &case, &reduced.reduced, &[PLANTED.to_string()], "");
    assert!(again.iter().any(|d| d.signature() == wrong[0].signature()));
}
