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
//!
//! [`TemplateOracle`] makes a template an [`Oracle`], so that its answers go
//! through the same judgement as the registry's oracles.

use spvgraph_ir::rules::RuleId;
use spvgraph_ir::tensor::TensorData;
use spvgraph_ir::Module;
use spvgraph_oracle::attribution::Owner;
use spvgraph_oracle::exec;
use spvgraph_oracle::external::process::{self, Ended, Limits, ScratchDir};
use spvgraph_oracle::oracle::{Diagnostic, ExecOutcome, ExecRequest, Executor, Instance, Oracle, OracleError};
use spvgraph_oracle::oracle::{Producer, Reader, Referee, Refusal, RuleClaim, ValidateOptions, Validator, Verdict};
use std::path::{Path, PathBuf};
use std::process::Command;

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

/// A command template as an oracle: a validator (exit status 0 accepts) or
/// an executor (writes `out<j>.npy` for every output of the graph). It is
/// given a request's module and data as files in a scratch directory.
pub struct TemplateOracle {
    template: String,
    instance: Instance,
    executor: bool,
    limits: Limits,
}

impl TemplateOracle {
    /// A validator template.
    pub fn validator(template: &str, limits: Limits) -> TemplateOracle {
        TemplateOracle { template: template.to_string(), instance: named(template), executor: false, limits }
    }

    /// An executor template.
    pub fn executor(template: &str, limits: Limits) -> TemplateOracle {
        TemplateOracle { template: template.to_string(), instance: named(template), executor: true, limits }
    }

    fn failed(&self, reason: impl std::fmt::Display) -> OracleError {
        OracleError::Failed { oracle: self.template.clone(), reason: reason.to_string() }
    }

    /// Writes `words` as `module.spv` in `scratch`.
    fn write_module(&self, scratch: &ScratchDir, words: &[u32]) -> Result<PathBuf, OracleError> {
        let spv = scratch.join("module.spv");
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        std::fs::write(&spv, bytes).map_err(|e| self.failed(format!("{}: {e}", spv.display())))?;
        Ok(spv)
    }

    /// Expands and runs the template under `sh -c` in `scratch`; how it
    /// ended and the tail of what it printed.
    fn run(&self, vars: &Vars, scratch: &ScratchDir) -> Result<(Ended, String), OracleError> {
        let line = expand(&self.template, vars).map_err(|e| self.failed(e))?;
        let mut cmd = Command::new("sh");
        cmd.arg("-c").arg(&line);
        let run = process::run(cmd, scratch.path(), &self.limits).map_err(|e| self.failed(format!("{line}: {e}")))?;
        let tail = run.tail(5);
        Ok((run.ended, tail))
    }
}

/// A template's instance: named by the template itself.
fn named(template: &str) -> Instance {
    Instance::named(template.to_string())
}

impl Oracle for TemplateOracle {
    fn instance(&self) -> &Instance {
        &self.instance
    }

    fn available(&self) -> Result<(), OracleError> {
        check(&self.template)
            .map_err(|e| OracleError::Unavailable { oracle: self.template.clone(), reason: e.to_string() })
    }

    fn version(&self) -> Option<String> {
        None
    }

    /// A user's command: no project is known to answer through it.
    fn components(&self) -> &'static [Owner] {
        &[]
    }

    /// A validator template validates, an executor template runs.
    fn as_validator(&self) -> Option<&dyn Validator> {
        if self.executor {
            None
        } else {
            Some(self)
        }
    }

    fn as_executor(&self) -> Option<&dyn Executor> {
        if self.executor {
            Some(self)
        } else {
            None
        }
    }

    fn as_producer(&self) -> Option<&dyn Producer> {
        None
    }

    fn as_reader(&self) -> Option<&dyn Reader> {
        None
    }

    fn as_referee(&self) -> Option<&dyn Referee> {
        None
    }
}

impl Validator for TemplateOracle {
    /// A command says nothing rule by rule.
    fn rule_claim(&self, _: RuleId) -> RuleClaim {
        RuleClaim::Unknown
    }

    fn validate(&self, module: &[u32], options: &ValidateOptions) -> Result<Verdict, OracleError> {
        let scratch = ScratchDir::new("corpus-cmd").map_err(|e| self.failed(e))?;
        let spv = self.write_module(&scratch, module)?;
        let vars = Vars { spv, target_env: options.target_env.to_string(), ..Vars::default() };
        match self.run(&vars, &scratch)? {
            (Ended::Abnormal(a), tail) => Err(self.failed(format!("{a}: {tail}"))),
            (Ended::Exited(0), _) => Ok(Verdict::Valid),
            (Ended::Exited(c), tail) => Ok(Verdict::Invalid(vec![Diagnostic {
                rule: None,
                operator: None,
                message: format!("exit status {c}: {tail}"),
                word_offset: None,
                instruction: None,
            }])),
        }
    }
}

impl Executor for TemplateOracle {
    fn execute(&self, request: &ExecRequest<'_>) -> Result<ExecOutcome, OracleError> {
        let module = Module::decode_words(request.module)
            .map_err(|e| self.failed(format!("the module does not decode: {e}")))?;
        let interface = exec::interface(&module, request.entry_point).map_err(|e| self.failed(e))?;
        let scratch = ScratchDir::new("corpus-check").map_err(|e| self.failed(e))?;
        let spv = self.write_module(&scratch, request.module)?;
        let write = |name: String, t: &TensorData| -> Result<PathBuf, OracleError> {
            let path = scratch.join(name);
            t.write_npy(&path).map_err(|e| self.failed(format!("{}: {e}", path.display())))?;
            Ok(path)
        };
        let inputs = request
            .inputs
            .iter()
            .enumerate()
            .map(|(i, t)| write(format!("in{i}.npy"), t))
            .collect::<Result<Vec<_>, _>>()?;
        let graph_constants = request
            .graph_constants
            .iter()
            .map(|(id, t)| write(format!("gc{id}.npy"), t).map(|p| (*id, p)))
            .collect::<Result<Vec<_>, _>>()?;
        let out_dir = scratch.join("out");
        std::fs::create_dir_all(&out_dir).map_err(|e| self.failed(format!("{}: {e}", out_dir.display())))?;
        let vars = Vars {
            spv,
            // A request carries no environment: the default one.
            target_env: spvgraph_ir::env::TargetEnv::default().to_string(),
            entry_point: interface.entry_point.clone().unwrap_or_default(),
            inputs,
            graph_constants,
            out_dir: out_dir.clone(),
        };
        let (ended, tail) = self.run(&vars, &scratch)?;
        match ended {
            Ended::Abnormal(how) => return Ok(ExecOutcome::Abnormal { how, detail: tail }),
            Ended::Exited(0) => {}
            Ended::Exited(c) => {
                return Ok(ExecOutcome::Refused { kind: Refusal::Rejected, reason: format!("exit status {c}: {tail}") })
            }
        }
        let mut outputs = Vec::new();
        for (j, port) in interface.outputs.iter().enumerate() {
            let path = out_dir.join(format!("out{j}.npy"));
            match TensorData::read_npy(&path, port.elem) {
                Ok(t) => outputs.push(t),
                Err(e) => {
                    return Ok(ExecOutcome::Refused { kind: Refusal::Rejected, reason: format!("out{j}.npy: {e}") })
                }
            }
        }
        Ok(ExecOutcome::Outputs(outputs))
    }
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
