//! The oracles a campaign runs, found by name in the registry and sorted by
//! what they answer: validators on every case, backends and producers on a
//! sample of cases, and the referee that settles output disagreements.

use spvgraph_oracle::judge::fnv1a;
use spvgraph_oracle::oracle::{Capability, Oracle};
use spvgraph_oracle::registry::{self, OracleConfig, RegistryError, IN_TREE};
use spvgraph_oracle::tools::Tools;
use std::collections::BTreeMap;
use std::sync::Arc;

/// An expensive oracle with the share of cases it runs on.
#[derive(Clone)]
pub struct Sampled {
    /// The oracle.
    pub oracle: Arc<dyn Oracle>,
    /// Other versions of the same tool (channel instances such as
    /// `emulation-layer@dev`): they run the same cases in the same batch, so
    /// that the judgement sees both versions' answers (the release differential).
    pub channels: Vec<Arc<dyn Oracle>>,
    /// Share of cases, from 0 to 1, when the backend runs a fixed sample
    /// (`--sample`); a guided backend's default share is unused.
    pub sample: f64,
    /// Requests per batch.
    pub batch: usize,
    /// Whether the backend's cases are chosen by its judged-coverage map
    /// ([`super::feed::Policy::Guided`]) rather than a fixed sample.
    pub guided: bool,
}

impl Sampled {
    /// Whether case `seed` is in this oracle's sample: decided by the seed
    /// and the oracle's tool alone (every version of a tool takes the same
    /// cases), so a finding reproduces at any `--jobs`.
    pub fn takes(&self, seed: u64) -> bool {
        if self.guided || self.sample >= 1.0 {
            return true;
        }
        let h = fnv1a(&[seed.to_le_bytes().as_slice(), self.oracle.tool().as_bytes()].concat());
        ((h >> 11) as f64) / ((1u64 << 53) as f64) < self.sample
    }

    /// The oracle and its other versions, in that order.
    pub fn versions(&self) -> impl Iterator<Item = &Arc<dyn Oracle>> {
        std::iter::once(&self.oracle).chain(&self.channels)
    }

    /// Whether `name` is one of its versions.
    pub fn has(&self, name: &str) -> bool {
        self.versions().any(|o| o.name() == name)
    }
}

/// How many equivalent forms of each valid case a hunt runs by default
/// (`spvgraph hunt --forms`).
pub const DEFAULT_FORMS: usize = 2;

/// Every oracle of a campaign.
#[derive(Clone, Default)]
pub struct OracleSet {
    /// Validators, the in-tree one first; they run on every case.
    pub validators: Vec<Arc<dyn Oracle>>,
    /// Readers (viewers: `model-explorer`); cheap, they run on every case
    /// in the first phase, as validators do, and on every module and
    /// container a producer makes.
    pub readers: Vec<Arc<dyn Oracle>>,
    /// Execution backends other than the in-tree executor (whose outputs are
    /// the reference), each on its sample.
    pub executors: Vec<Sampled>,
    /// Producers, each on its sample of valid cases.
    pub producers: Vec<Sampled>,
    /// The oracle whose precise run settles output disagreements.
    pub referee: Option<Arc<dyn Oracle>>,
    /// Oracles asked for (or by default) that cannot run here, and why.
    pub unavailable: Vec<(String, String)>,
    /// Whether near-valid cases go to consumers (backends that read SPIR-V)
    /// and what they do with them counts as a finding (`--strict-consumers`).
    /// By default it does not: a Vulkan consumer's behaviour on an invalid
    /// module is undefined, so the sample is spent on valid cases.
    pub strict_consumers: bool,
    /// Equivalent forms ([`spvgraph_oracle::forms`]) each backend runs of
    /// each valid case, besides the case as given (`--forms`; 0: none).
    pub forms: usize,
    /// Whether a valid case a backend refuses or dies on runs again in a
    /// form without the constructs backends are known to refuse (`--no-rescue` turns it off).
    pub rescue: bool,
}

/// Why a campaign cannot start with the oracles asked for.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    /// A name the registry does not know, or a bad path.
    #[error(transparent)]
    Registry(#[from] RegistryError),
    /// An oracle named on the command line cannot run.
    #[error("{0}")]
    Unavailable(String),
    /// A `--sample` for an oracle not in the campaign, or out of range.
    #[error("--sample {0}")]
    Sample(String),
}

impl OracleSet {
    /// The oracles called `names` (`None`: every oracle of the registry;
    /// `["all"]`: every oracle of the registry, each one mandatory),
    /// with `samples` overriding their default shares. An oracle named
    /// explicitly must be available; of the default list, unavailable ones
    /// are left out and listed, unless `CI=true` makes that an error.
    pub fn build(
        names: Option<&[String]>,
        config: &OracleConfig,
        samples: &BTreeMap<String, f64>,
    ) -> Result<OracleSet, SetupError> {
        OracleSet::build_with(names, config, samples, true)
    }

    /// [`OracleSet::build`], choosing whether backends without a `--sample`
    /// are guided by their judged-coverage maps (`guide`) or run their
    /// default fixed samples (`--no-guide`: every backend as before
    /// guidance, for side-by-side measurements).
    pub fn build_with(
        names: Option<&[String]>,
        config: &OracleConfig,
        samples: &BTreeMap<String, f64>,
        guide: bool,
    ) -> Result<OracleSet, SetupError> {
        let explicit = names.is_some();
        // `all` (and `all@CHANNEL`) names every oracle explicitly: each must be available.
        let list: Vec<String> = match names {
            Some(n) => registry::expand(n, config)?,
            None => registry::NAMES.iter().chain(registry::PINNED_INSTANCES).map(|s| s.to_string()).collect(),
        };
        let mut set = OracleSet::default();
        for name in &list {
            let oracle: Arc<dyn Oracle> = match registry::build(name, config) {
                Ok(o) => Arc::from(o),
                // Of the default list, a pinned instance whose channel is not
                // installed is left out like any unavailable oracle.
                Err(RegistryError::Channel(e)) if !explicit && !Tools::required() => {
                    set.unavailable.push((name.clone(), e.to_string()));
                    continue;
                }
                Err(e) => return Err(e.into()),
            };
            if let Err(e) = oracle.available() {
                if explicit || Tools::required() {
                    return Err(SetupError::Unavailable(format!(
                        "{e}{}",
                        if explicit { "" } else { " (CI=true makes every oracle mandatory)" }
                    )));
                }
                set.unavailable.push((name.clone(), e.to_string()));
                continue;
            }
            let caps = oracle.capabilities();
            // A version of a tool already in the campaign joins its member.
            let mut members = set.executors.iter_mut().chain(set.producers.iter_mut());
            if let Some(m) = members.find(|m| m.oracle.tool() == oracle.tool()) {
                m.channels.push(oracle.clone());
                continue;
            }
            // A backend given a share runs that fixed sample; every other
            // one is guided by its judged-coverage map (unless `fixed`).
            let sampled = |o: &Arc<dyn Oracle>| Sampled {
                oracle: o.clone(),
                channels: Vec::new(),
                sample: samples.get(o.name()).copied().unwrap_or_else(|| o.default_sample()),
                batch: o.preferred_batch().max(1),
                guided: guide && !samples.contains_key(o.name()),
            };
            if caps.contains(&Capability::Validate) {
                set.validators.push(oracle.clone());
            }
            if caps.contains(&Capability::Describe) {
                set.readers.push(oracle.clone());
            }
            // The in-tree executor is the reference, not a candidate.
            if caps.contains(&Capability::Execute) && oracle.name() != IN_TREE {
                set.executors.push(sampled(&oracle));
            }
            if caps.contains(&Capability::Produce) {
                set.producers.push(sampled(&oracle));
            }
            if caps.contains(&Capability::Reference) && set.referee.is_none() {
                set.referee = Some(oracle.clone());
            }
        }
        for (name, f) in samples {
            if !(0.0..=1.0).contains(f) {
                return Err(SetupError::Sample(format!("{name}={f}: the share must be from 0 to 1")));
            }
            let known = set.executors.iter().chain(&set.producers).any(|s| s.oracle.name() == name);
            if !known && set.executors.iter().chain(&set.producers).any(|s| s.has(name)) {
                return Err(SetupError::Sample(format!(
                    "{name}={f}: every version of a tool runs the same cases; set the release's share"
                )));
            }
            if !known {
                return Err(SetupError::Sample(format!(
                    "{name}={f}: {name} is not a sampled oracle of this hunt (sampled: {})",
                    set.sampled_names().join(", ")
                )));
            }
        }
        Ok(set)
    }

    /// Whether the sampled backend `s` runs case `seed` (`valid`: a valid
    /// case). Near-valid cases go only to backends that read SPIR-V, and only
    /// with [`OracleSet::strict_consumers`]: a translating backend never sees
    /// the invalid module itself, and a consumer's answer on one is judged
    /// only when asked for.
    pub fn executor_takes(&self, s: &Sampled, seed: u64, valid: bool) -> bool {
        s.takes(seed) && (valid || (self.strict_consumers && s.oracle.reads_spirv()))
    }

    /// The names of the sampled oracles.
    pub fn sampled_names(&self) -> Vec<String> {
        self.executors.iter().chain(&self.producers).flat_map(|s| s.versions()).map(|o| o.name().to_string()).collect()
    }

    /// Every oracle in the campaign, once each, in registry order.
    pub fn all(&self) -> Vec<Arc<dyn Oracle>> {
        let mut out: Vec<Arc<dyn Oracle>> = Vec::new();
        let every = self
            .validators
            .iter()
            .cloned()
            .chain(self.readers.iter().cloned())
            .chain(self.executors.iter().flat_map(|s| s.versions().cloned()))
            .chain(self.producers.iter().flat_map(|s| s.versions().cloned()))
            .chain(self.referee.clone());
        for o in every {
            if !out.iter().any(|x| x.name() == o.name()) {
                out.push(o);
            }
        }
        out.sort_by_key(|o| {
            (registry::NAMES.iter().position(|n| *n == o.tool()).unwrap_or(usize::MAX), o.channel().is_some())
        });
        out
    }

    /// `name version` of every oracle in the campaign, as the tools report them.
    pub fn versions(&self) -> BTreeMap<String, String> {
        self.all().iter().map(|o| (o.name().to_string(), o.version().unwrap_or_else(|| "unknown".into()))).collect()
    }
}

/// Parses `NAME=FRACTION`.
pub fn parse_sample(spec: &str) -> Result<(String, f64), String> {
    let (name, f) = spec.split_once('=').ok_or_else(|| format!("{spec:?}: expected NAME=FRACTION"))?;
    let f: f64 = f.trim().parse().map_err(|_| format!("{spec:?}: {f:?} is not a number"))?;
    if !(0.0..=1.0).contains(&f) {
        return Err(format!("{spec:?}: the share must be from 0 to 1"));
    }
    Ok((name.trim().to_string(), f))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sampling_is_decided_by_seed_and_name_and_has_the_asked_share() {
        let o: Arc<dyn Oracle> = Arc::new(registry::InTree::default());
        let s = Sampled { oracle: o.clone(), channels: Vec::new(), sample: 0.1, batch: 1, guided: false };
        let taken = (0..100_000u64).filter(|&seed| s.takes(seed)).count();
        assert!((9_000..11_000).contains(&taken), "{taken}");
        assert_eq!(s.takes(42), s.takes(42));
        assert!(Sampled { oracle: o.clone(), channels: Vec::new(), sample: 1.0, batch: 1, guided: false }.takes(7));
        assert!(!Sampled { oracle: o, channels: Vec::new(), sample: 0.0, batch: 1, guided: false }.takes(7));
    }

    #[test]
    fn samples_are_parsed() {
        assert_eq!(parse_sample("emulation-layer=0.25"), Ok(("emulation-layer".into(), 0.25)));
        assert!(parse_sample("iree").is_err());
        assert!(parse_sample("iree=2").is_err());
        assert!(parse_sample("iree=x").is_err());
    }

    #[test]
    fn in_tree_is_a_validator_and_never_a_sampled_executor() {
        let names = vec!["in-tree".to_string()];
        let set = OracleSet::build(Some(&names), &OracleConfig::default(), &BTreeMap::new()).expect("in-tree runs");
        assert_eq!(set.validators.len(), 1);
        assert!(set.executors.is_empty() && set.producers.is_empty());
        let bad = BTreeMap::from([("in-tree".to_string(), 0.5)]);
        assert!(matches!(OracleSet::build(Some(&names), &OracleConfig::default(), &bad), Err(SetupError::Sample(_))));
    }

    #[test]
    fn all_means_every_registry_oracle_and_each_is_mandatory() {
        let all = vec!["all".to_string()];
        match OracleSet::build(Some(&all), &OracleConfig::default(), &BTreeMap::new()) {
            Ok(set) => {
                assert!(set.unavailable.is_empty());
                let mut names: Vec<String> = set.all().iter().map(|o| o.name().to_string()).collect();
                names.sort();
                names.dedup();
                let mut every: Vec<String> =
                    registry::NAMES.iter().chain(registry::PINNED_INSTANCES).map(|s| s.to_string()).collect();
                every.sort();
                assert_eq!(names, every);
            }
            // Only when this machine lacks an oracle; CI installs them all.
            Err(e) => {
                assert!(matches!(e, SetupError::Unavailable(_)), "{e}");
                assert!(!spvgraph_oracle::tools::Tools::required(), "CI=true has every oracle: {e}");
            }
        }
    }
}
