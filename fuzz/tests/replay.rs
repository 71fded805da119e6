//! Replays every seed (`seeds/<target>/`) and every saved crash artifact
//! (`artifacts/<target>/`) through its target's property with the ordinary
//! test harness, so the corpora stay meaningful and a reported crash can be
//! reproduced on stable without libFuzzer: `cd fuzz && cargo test`.

use spvgraph_fuzz::{check, corpus_files, TARGETS};
use std::path::Path;

#[test]
fn seeds_pass_their_targets() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for target in TARGETS {
        let files = corpus_files(&root.join("seeds").join(target));
        assert!(!files.is_empty(), "seeds/{target}/ is empty: every target needs a seed corpus");
        for f in files {
            let data = std::fs::read(&f).expect("read seed");
            eprintln!("replaying {}", f.display());
            assert!(check(target, &data), "unknown target {target}");
        }
    }
}

#[test]
fn roundtrip_seeds_are_valid_modules() {
    // A seed that does not even decode would only exercise the error path;
    // the fuzzer gets much further starting from modules that decode.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for f in corpus_files(&root.join("seeds/roundtrip")) {
        let data = std::fs::read(&f).expect("read seed");
        assert!(spvgraph_ir::Module::decode_bytes(&data).is_ok(), "{} does not decode", f.display());
    }
}

#[test]
fn artifacts_pass_their_targets() {
    // Crash artifacts are git-ignored; this replays whatever a local fuzzing
    // run left behind (libFuzzer names them crash-*, oom-*, timeout-*, ...).
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for target in TARGETS {
        for f in corpus_files(&root.join("artifacts").join(target)) {
            let data = std::fs::read(&f).expect("read artifact");
            eprintln!("replaying {}", f.display());
            check(target, &data);
        }
    }
}
