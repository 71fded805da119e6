//! Channels of the external tools (`ci/setup-oracles --channel dev`: Arm's
//! 0.12 pre-releases beside the 0.11 release) as oracle instances of their
//! own, against the installed tools: `NAME@dev` runs the channel's tools and
//! reports their version, `all@dev` is exactly the oracles the channel has a
//! version of, an oracle the channel pins nothing for has no instance, and
//! `--oracle-path NAME=<site-packages>` finds the tools of both wheel layouts
//! (0.11: `emulation_layer/deploy/lib`; 0.12: `<package>/binaries/{bin,lib}`).
//!
//! Skipped (with a notice) when the dev channel is not installed; under
//! `CI=true`, which installs it, that is a failure.

use spvgraph_oracle::oracle::{Oracle, ProduceOutcome, ProduceRequest};
use spvgraph_oracle::registry::{self, OracleConfig, RegistryError};
use spvgraph_oracle::tools::{Tool, Tools};
use std::path::PathBuf;

/// The registry configuration, when the dev channel is installed.
fn with_dev() -> Option<OracleConfig> {
    let config = OracleConfig::default();
    match config.tools.channel("dev") {
        Ok(_) => Some(config),
        Err(e) if Tools::required() => panic!("CI=true and {e}"),
        Err(e) => {
            eprintln!("skipping: {e}");
            None
        }
    }
}

/// The `site-packages` directory a tool of `tools` was installed into.
fn site_packages(tools: &Tools, tool: Tool) -> PathBuf {
    let path = tools.get(tool).unwrap_or_else(|e| panic!("{e}"));
    path.ancestors().find(|a| a.file_name().is_some_and(|n| n == "site-packages")).expect("a wheel").to_path_buf()
}

fn version(o: &dyn Oracle) -> String {
    o.available().unwrap_or_else(|e| panic!("{e}"));
    o.version().unwrap_or_else(|| panic!("{} reports no version", o.name()))
}

const ABS: &str = "func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n  \
    %0 = \"tosa.abs\"(%a) : (tensor<2xf32>) -> tensor<2xf32>\n  return %0 : tensor<2xf32>\n}\n";

fn converts(o: &dyn Oracle) {
    match o.producer().and_then(|p| p.produce(&ProduceRequest { mlir: ABS, debug_info: false })) {
        Ok(ProduceOutcome::Module { words, .. }) => assert!(words.len() > 5, "{}", o.name()),
        other => panic!("{}: {other:?}", o.name()),
    }
}

#[test]
fn dev_instances_run_the_pre_releases_and_say_so() {
    let Some(config) = with_dev() else { return };
    for name in [registry::EMULATION_LAYER, registry::MODEL_CONVERTER] {
        let release = registry::build(name, &config).expect("release");
        let dev = registry::build(&format!("{name}@dev"), &config).expect("dev instance");
        assert_eq!(dev.name(), format!("{name}@dev"));
        assert_eq!((dev.tool(), dev.channel()), (name, Some("dev")));
        assert_eq!((release.tool(), release.channel()), (name, None));
        assert_eq!(dev.capabilities(), release.capabilities());
        let (r, d) = (version(release.as_ref()), version(dev.as_ref()));
        assert!(r.contains(" 0.11.0") && !r.contains("dev"), "{name}: {r}");
        assert!(d.contains(" 0.12.0.dev"), "{name}@dev: {d}");
    }
    let mc = registry::build("model-converter@dev", &config).expect("dev instance");
    converts(mc.as_ref());
}

#[test]
fn only_oracles_with_a_version_on_the_channel_get_an_instance() {
    let Some(config) = with_dev() else { return };
    for name in ["in-tree@dev", "spirv-val@dev", "tosa-ref@dev"] {
        match registry::build(name, &config) {
            Err(RegistryError::NoChannel { channel, .. }) => assert_eq!(channel, "dev"),
            Err(e) => panic!("{name}: {e}"),
            Ok(o) => panic!("{name} built as {:?}", o.version()),
        }
    }
    let all =
        registry::expand(&["all".into(), "all@dev".into(), "emulation-layer@dev".into()], &config).expect("expands");
    let dev: Vec<&String> = all.iter().filter(|n| n.ends_with("@dev")).collect();
    assert!(dev.contains(&&"emulation-layer@dev".to_string()) && dev.contains(&&"model-converter@dev".to_string()));
    assert!(!dev.iter().any(|n| ["in-tree@dev", "spirv-val@dev", "tosa-ref@dev"].contains(&n.as_str())), "{dev:?}");
    let pinned = registry::PINNED_INSTANCES.len();
    assert_eq!(all.len(), registry::NAMES.len() + pinned + dev.len(), "each once: {all:?}");
    assert!(matches!(registry::build("iree@nightly", &config), Err(RegistryError::Channel(_))));
    assert!(matches!(registry::build("nope@dev", &config), Err(RegistryError::Unknown(_))));
}

/// `--oracle-path NAME=<site-packages>` of either release finds the
/// executables and layers, and the version reported is that release's.
#[test]
fn oracle_paths_find_both_wheel_layouts() {
    let Some(base) = with_dev() else { return };
    let dev_tools = base.tools.channel("dev").expect("installed");
    let layouts: [(&str, &Tools, &str); 2] = [("release", &base.tools, "0.11.0"), ("dev", &dev_tools, "0.12.0.dev")];
    for (label, tools, want) in layouts {
        for (name, tool) in
            [(registry::MODEL_CONVERTER, Tool::ModelConverter), (registry::EMULATION_LAYER, Tool::ScenarioRunner)]
        {
            let site = site_packages(tools, tool);
            let mut config = OracleConfig::default();
            config.set_path(&format!("{name}={}", site.display())).expect("exists");
            let o = registry::build(name, &config).expect("builds");
            let v = version(o.as_ref());
            assert!(v.contains(want), "{name}={} ({label}): {v}", site.display());
            if name == registry::MODEL_CONVERTER {
                converts(o.as_ref());
            }
            // The same build as a channel instance of its own, beside the release.
            let mut config = OracleConfig::default();
            config.set_path(&format!("{name}@mine={}", site.display())).expect("exists");
            let mine = registry::build(&format!("{name}@mine"), &config).expect("a labelled user build");
            assert_eq!(mine.channel(), Some("mine"));
            assert!(version(mine.as_ref()).contains(want));
        }
    }
}
