//! Real networks as the hunt's seeds (`spvgraph hunt --profile networks`):
//! every case is a neighbour of a network of `corpus/networks/`
//! (`spvgraph_generator::mutate::network`): its data (inputs drawn from a
//! data class, weights at extremes or their zero point), a quantization
//! parameter, one structure-aware mutation of its module (shapes carried
//! through the graph where the mutator can), or the graph cut at an
//! operator, and one case in twenty the network as it is.
//!
//! The networks are loaded once, before the hunt, the way `spvgraph diff`
//! reads them: the flatbuffer read back by `tosa-opt`, converted by
//! model-converter, with the producer's graph constants and the network's
//! fixed inputs ([`crate::networks::load`]). Case `i` takes the network and
//! the change from its seed alone, so a finding is made again by the same
//! seed over the same networks. A case is then a valid case like any other:
//! validators, the in-tree executor, every sampled backend on it and its
//! observed form (every operator judged on its own), producers on its MLIR,
//! one judgement.

use super::case::{panic_disagreement, CaseOutcome, Hunter, Subject};
use super::guard::guard;
use crate::networks::LoadedNetwork;
use anyhow::{anyhow, bail};
use serde_json::{json, Value};
use spvgraph_generator::mutate::network::{self, Neighbour, NetworkData};
use spvgraph_generator::prng::SplitMix64;
use spvgraph_generator::Case;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::Module;
use spvgraph_oracle::exec;
use spvgraph_oracle::oracle::{Oracle, ValidateOptions};
use spvgraph_oracle::validate::Validator;
use spvgraph_reducer::{Candidate, InputKey};
use std::path::{Path, PathBuf};

/// One network the hunt seeds from.
#[derive(Clone, Debug)]
pub struct NetworkSeed {
    /// The manifest's name (`mobilenet_v2-int8`).
    pub name: String,
    /// The producer's module.
    pub module: Module,
    /// The entry point its graph is run through.
    pub entry: String,
    /// Its fixed inputs (in the module's input order) and graph constants.
    pub data: NetworkData,
}

/// The networks a `--profile networks` hunt seeds from.
#[derive(Clone, Debug)]
pub struct NetworkSeeds {
    /// The corpus root they came from.
    pub corpus: PathBuf,
    /// The `--networks` filter (`networks/*-int8`), if any.
    pub filter: Option<String>,
    /// The networks that loaded, sorted by name.
    pub seeds: Vec<NetworkSeed>,
    /// Those that did not, with why.
    pub failed: Vec<(String, String)>,
}

impl NetworkSeeds {
    /// Loads every network of the corpus at `corpus` matching `filter` with
    /// `producer` (and `tosa-opt` for flatbuffers); an error when none
    /// loads.
    pub fn load(
        corpus: &Path,
        filter: Option<&str>,
        producer: &dyn Oracle,
        tosa_opt: Option<&Path>,
    ) -> anyhow::Result<NetworkSeeds> {
        let mut seeds = Vec::new();
        let mut failed = Vec::new();
        for (name, loaded) in crate::networks::load(corpus, filter, producer, tosa_opt)? {
            match loaded.and_then(NetworkSeed::of) {
                Ok(s) => seeds.push(s),
                Err(e) => failed.push((name, format!("{e:#}"))),
            }
        }
        if seeds.is_empty() {
            let why: Vec<String> = failed.iter().map(|(n, e)| format!("{n}: {e}")).collect();
            bail!(
                "no network of {} matching {} loads{}",
                corpus.join(crate::networks::FOLDER).display(),
                filter.unwrap_or("*"),
                if why.is_empty() { String::new() } else { format!(": {}", why.join("; ")) }
            );
        }
        Ok(NetworkSeeds { corpus: corpus.to_path_buf(), filter: filter.map(str::to_string), seeds, failed })
    }

    /// The `hunt` arguments that select these networks again.
    pub fn args(&self) -> Vec<String> {
        let mut out = vec!["--profile".to_string(), "networks".to_string()];
        out.extend(["--corpus".to_string(), self.corpus.display().to_string()]);
        if let Some(f) = &self.filter {
            out.extend(["--networks".to_string(), f.clone()]);
        }
        out
    }

    /// The network case `seed` starts from.
    pub fn pick(&self, seed: u64) -> Option<&NetworkSeed> {
        let mut rng = SplitMix64::new(seed ^ 0x7365_6564_6e65_7473);
        self.seeds.get(rng.below(self.seeds.len() as u64) as usize)
    }
}

impl NetworkSeed {
    /// A loaded network as a seed.
    pub fn of(net: LoadedNetwork) -> anyhow::Result<NetworkSeed> {
        let entry = net.request.entry_point.clone().ok_or_else(|| anyhow!("{}: no entry point", net.name))?;
        Ok(NetworkSeed {
            name: net.name,
            module: net.module,
            entry,
            data: NetworkData { inputs: net.request.inputs, graph_constants: net.request.graph_constants },
        })
    }
}

/// Where a network case comes from, as its finding records it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetworkOrigin {
    /// The network (`mobilenet_v2-int8`).
    pub network: String,
    /// The change (`weights/extremes`, `cut`; see
    /// [`network::NetworkMutation::name`]).
    pub mutation: String,
    /// Where and how.
    pub detail: String,
}

impl NetworkOrigin {
    /// As a finding records it.
    pub fn to_json(&self) -> Value {
        json!({
            "network": self.network,
            "mutation": self.mutation,
            "detail": self.detail,
            "provenance": format!("{} of corpus network {}: {}", self.mutation, self.network, self.detail),
        })
    }

    /// The kind of change alone (`weights`, `module`, `cut`), for the summary.
    pub fn kind(&self) -> &str {
        self.mutation.split('/').next().unwrap_or(&self.mutation)
    }
}

/// The neighbour's module with its data as a generated case: inputs and
/// graph constants the change left fitting are the neighbour's, any other
/// (a shape or type the module change made) drawn for its port from `seed`.
fn case_of(n: &Neighbour, entry: &str, seed: u64) -> anyhow::Result<Case> {
    let iface = exec::interface(&n.module, Some(entry)).map_err(|e| anyhow!("{e}"))?;
    let mut rng = SplitMix64::new(seed ^ 0x6669_745f_6461_7461);
    let mut fitted = |old: Option<&TensorData>, port: &exec::Port| -> anyhow::Result<TensorData> {
        match old {
            Some(t) if t.elem() == port.elem && t.shape() == port.shape.as_slice() => Ok(t.clone()),
            _ => network::fit(&mut rng, port.elem, &port.shape)
                .ok_or_else(|| anyhow!("{} is too large to draw data for", port.describe("port"))),
        }
    };
    let mut c = Candidate::new(n.module.clone());
    for (k, port) in iface.inputs.iter().enumerate() {
        let data = fitted(n.data.inputs.get(k), port)?;
        c.inputs.insert(InputKey { graph: iface.graph, index: port.index, element: port.element }, data);
    }
    for port in &iface.graph_constants {
        let data = fitted(n.data.graph_constants.get(&port.index), port)?;
        c.graph_constants.insert(port.index, data);
    }
    let mut case = crate::reduce::candidate_to_case(&c);
    case.meta.seed = Some(seed);
    // The case's one entry point is the network's: a module change never
    // adds one, and the hunt runs entry point `seed % count`.
    case.entry_points.retain(|e| e.name == entry);
    Ok(case)
}

impl Hunter<'_> {
    /// Makes case `out.seed` of a `--profile networks` hunt: a neighbour of
    /// the network its seed picks, as a valid case (or, when none can be
    /// made, why in `out.unavailable`).
    pub(crate) fn network_case(&self, seeds: &NetworkSeeds, out: &mut CaseOutcome) {
        let Some(net) = seeds.pick(out.seed) else {
            out.unavailable = Some("no network to seed from".to_string());
            return;
        };
        let validator = Validator::new(ValidateOptions::for_case(out.target_env, None));
        let valid = |m: &Module| validator.rule(m).is_valid();
        let seed = out.seed;
        let made = guard("network mutator", || {
            let n = network::neighbour(&net.module, &net.data, seed, &valid);
            case_of(&n, &net.entry, seed).map(|case| (n.mutation.name(), n.detail, case))
        });
        let (mutation, detail, case) = match made {
            Ok(Ok(m)) => m,
            Ok(Err(e)) => {
                out.unavailable = Some(format!("{}: {e:#}", net.name));
                return;
            }
            Err(c) => {
                out.disagreements.push(panic_disagreement(c));
                return;
            }
        };
        match case.module.encode_words() {
            Ok(w) => out.words = Some(w),
            Err(e) => {
                out.unavailable = Some(format!("{}: the neighbour does not encode: {e}", net.name));
                return;
            }
        }
        out.network = Some(NetworkOrigin { network: net.name.clone(), mutation, detail });
        out.subject = Subject::Valid(case);
    }
}
