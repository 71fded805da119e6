//! `spvgraph info FILE [--json]`.

use super::{input, Outcome};
use spvgraph_ir::info::{module_info, ModuleInfo};
use std::fmt::Write as _;
use std::path::PathBuf;

/// Arguments of `info`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// SPIR-V module file.
    file: PathBuf,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// Prints the module summary.
pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let bytes = input::read_bytes(&args.file)?;
    let module = match input::decode(&args.file, &bytes) {
        Ok(m) => m,
        Err(msg) => {
            eprintln!("{msg}");
            return Ok(Outcome::CheckFailed);
        }
    };
    let info = module_info(&module);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&info)?);
    } else {
        print!("{}", render(&info));
    }
    Ok(Outcome::Success)
}

fn render(i: &ModuleInfo) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "SPIR-V {}, bound {}, {} instructions", i.version, i.bound, i.instructions);
    let _ = writeln!(s, "capabilities: {}", i.capabilities.join(", "));
    let _ = writeln!(s, "extensions: {}", i.extensions.join(", "));
    let _ = writeln!(s, "instruction sets: {}", i.ext_inst_imports.join(", "));
    let _ = writeln!(s, "graph entry points: {}", i.entry_points.len());
    for ep in &i.entry_points {
        let _ = writeln!(s, "  \"{}\" -> {}", ep.name, ep.graph);
        for v in &ep.interface {
            let bind = match (v.descriptor_set, v.binding) {
                (Some(set), Some(b)) => format!("set {set} binding {b}"),
                (set, b) => format!("set {set:?} binding {b:?}"),
            };
            let _ = writeln!(s, "    {} {}: {} {} ({bind})", v.role, v.index, v.variable, v.ty);
        }
    }
    let _ = writeln!(s, "graphs: {}", i.graphs.len());
    for g in &i.graphs {
        let _ = writeln!(
            s,
            "  {}: ({}) -> ({}), {} operations{}",
            g.name,
            g.inputs.join(", "),
            g.outputs.join(", "),
            g.operations,
            if g.closed { "" } else { ", not closed by OpGraphEndARM" }
        );
    }
    let _ = writeln!(s, "graph constants: {}", i.graph_constants.len());
    for c in &i.graph_constants {
        let _ = writeln!(s, "  id {}: {} {}", c.graph_constant_id, c.name, c.ty);
    }
    let _ = writeln!(s, "operators:");
    for (op, n) in &i.operator_histogram {
        let _ = writeln!(s, "  {op:<24} {n}");
    }
    if i.debug_info_instructions > 0 {
        let _ = writeln!(s, "NonSemantic.Graph.DebugInfo instructions: {}", i.debug_info_instructions);
    }
    if i.has_functions {
        let _ = writeln!(s, "also contains shader functions");
    }
    s
}
