//! Command templates: how `spvgraph corpus check` runs another
//! implementation. A template is a shell command line with placeholders:
//!
//! | placeholder | expands to |
//! |---|---|
//! | `{spv}` | the module file |
//! | `{target_env}` | the target environment (`vulkan1.3`) |
//! | `{entry_point}` | the graph entry point to run (executors) |
//! | `{inputs}` | the entry point's input `.npy` files, space-separated, in InputIndex order (tensor arrays in ElementIndex order) |
//! | `{graph_constants}` | `ID=FILE.npy` per graph constant (GraphConstantID), space-separated |
//! | `{out_dir}` | a fresh empty directory where the command writes `out0.npy`, `out1.npy`, ... |
//!
//! `{inputs:FLAG}` and `{graph_constants:FLAG}` put `FLAG` before each item
//! (`{inputs:--input}` gives `--input a.npy --input b.npy`). Every path is
//! quoted for the shell; the line runs under `sh -c`.

use std::path::{Path, PathBuf};

/// The placeholders a template may use.
pub const PLACEHOLDERS: &[&str] = &["spv", "target_env", "entry_point", "inputs", "graph_constants", "out_dir"];

/// The values of one run's placeholders.
#[derive(Clone, Debug, Default)]
pub struct Vars {
    /// `{spv}`.
    pub spv: PathBuf,
    /// `{target_env}`.
    pub target_env: String,
    /// `{entry_point}`.
    pub entry_point: String,
    /// `{inputs}`.
    pub inputs: Vec<PathBuf>,
    /// `{graph_constants}`: GraphConstantID and file.
    pub graph_constants: Vec<(u32, PathBuf)>,
    /// `{out_dir}`.
    pub out_dir: PathBuf,
}

/// A template that does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("command template {template:?}: {reason}")]
pub struct TemplateError {
    /// The template.
    pub template: String,
    /// What is wrong.
    pub reason: String,
}

/// Quotes `s` for `sh`.
pub fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

fn path_arg(p: &Path) -> String {
    shell_quote(&p.to_string_lossy())
}

/// Checks that every placeholder of `template` is known and its braces
/// close, without expanding it.
pub fn check(template: &str) -> Result<(), TemplateError> {
    expand(template, &Vars::default()).map(|_| ())
}

/// The names of the placeholders `template` uses.
pub fn uses(template: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else { break };
        let inner = &after[..close];
        out.push(inner.split(':').next().unwrap_or("").to_string());
        rest = &after[close + 1..];
    }
    out
}

/// `template` with its placeholders replaced by `vars`.
pub fn expand(template: &str, vars: &Vars) -> Result<String, TemplateError> {
    let err = |reason: String| TemplateError { template: template.to_string(), reason };
    let mut out = String::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let close = after.find('}').ok_or_else(|| err(format!("unclosed {{ at byte {open}")))?;
        let inner = &after[..close];
        let (name, flag) = match inner.split_once(':') {
            Some((n, f)) => (n, Some(f)),
            None => (inner, None),
        };
        let items: Vec<String> = match name {
            "spv" => vec![path_arg(&vars.spv)],
            "target_env" => vec![shell_quote(&vars.target_env)],
            "entry_point" => vec![shell_quote(&vars.entry_point)],
            "out_dir" => vec![path_arg(&vars.out_dir)],
            "inputs" => vars.inputs.iter().map(|p| path_arg(p)).collect(),
            "graph_constants" => vars
                .graph_constants
                .iter()
                .map(|(id, p)| shell_quote(&format!("{id}={}", p.to_string_lossy())))
                .collect(),
            other => return Err(err(format!("unknown placeholder {{{other}}} (known: {})", PLACEHOLDERS.join(", ")))),
        };
        if flag.is_some() && !matches!(name, "inputs" | "graph_constants") {
            return Err(err(format!("{{{name}:...}}: only {{inputs:FLAG}} and {{graph_constants:FLAG}} take a flag")));
        }
        let words: Vec<String> = match flag {
            Some(f) => items.into_iter().flat_map(|i| [f.to_string(), i]).collect(),
            None => items,
        };
        out.push_str(&words.join(" "));
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_expand_quoted_and_flags_repeat() {
        let vars = Vars {
            spv: "a b.spv".into(),
            target_env: "vulkan1.3".into(),
            entry_point: "main".into(),
            inputs: vec!["x.npy".into(), "it's.npy".into()],
            graph_constants: vec![(3, "c.npy".into())],
            out_dir: "/tmp/o".into(),
        };
        let s = expand("run {spv} -e {entry_point} {inputs:--input} {graph_constants} -o {out_dir}", &vars).unwrap();
        assert_eq!(s, r"run 'a b.spv' -e 'main' --input 'x.npy' --input 'it'\''s.npy' '3=c.npy' -o '/tmp/o'");
        assert_eq!(expand("v {inputs}", &Vars::default()).unwrap(), "v ");
    }

    #[test]
    fn unknown_placeholders_and_open_braces_are_errors() {
        assert!(check("x {nope}").is_err());
        assert!(check("x {spv").is_err());
        assert!(check("x {spv:--f}").is_err());
        assert!(check("spirv-val --target-env {target_env} {spv}").is_ok());
        assert_eq!(uses("a {spv} {inputs:--i}"), vec!["spv", "inputs"]);
    }
}
