//! `ci/shard-oracles`, the mix of oracles each shard of the nightly hunt runs
//! (the GitHub matrix, the Kubernetes Indexed Job): whatever the number of
//! shards, every oracle of the registry and the dev channel take part, every
//! shard has the referee, and every name is one the registry knows.

use spvgraph_oracle::registry;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;

fn script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("ci/shard-oracles")
}

/// `ci/shard-oracles ARGS...`: exit status and standard output.
fn run(args: &[&str]) -> (i32, String) {
    let out = Command::new("bash").arg(script()).args(args).output().expect("bash runs");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn every_shard_count_runs_every_oracle_and_the_dev_channel() {
    let all: BTreeSet<String> = registry::NAMES.iter().map(|n| n.to_string()).collect();
    for n in 1..=9u64 {
        let (code, listing) = run(&["--all", &n.to_string()]);
        assert_eq!(code, 0, "{listing}");
        let lines: Vec<&str> = listing.lines().collect();
        assert_eq!(lines.len() as u64, n, "one line per shard: {listing}");
        let (mut covered, mut dev) = (BTreeSet::new(), false);
        for (k, line) in lines.iter().enumerate() {
            let (shard, list) = line.split_once(' ').expect("K/N LIST");
            assert_eq!(shard, format!("{k}/{n}"));
            let (single_code, single) = run(&[&k.to_string(), &n.to_string()]);
            assert_eq!((single_code, single.trim()), (0, list), "shard {k}/{n} alone");
            let names: Vec<&str> = list.split(',').collect();
            // tosa-ref is the referee: without it no output disagreement is settled.
            assert!(names.contains(&"tosa-ref") || names.contains(&"all"), "{k}/{n}: no referee in {list}");
            for name in names {
                match name {
                    "all" => covered.extend(all.iter().cloned()),
                    "all@dev" => dev = true,
                    other => {
                        assert!(all.contains(other), "{k}/{n}: {other} is no oracle of the registry");
                        covered.insert(other.to_string());
                    }
                }
            }
        }
        assert_eq!(covered, all, "{n} shards leave out {:?}", all.difference(&covered).collect::<Vec<_>>());
        assert!(dev, "{n} shards: no shard runs the dev channel");
    }
    for bad in [["8", "8"], ["x", "2"], ["0", "0"]] {
        assert_eq!(run(&bad).0, 2, "{bad:?} is refused");
    }
}
