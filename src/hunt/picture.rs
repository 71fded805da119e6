//! A picture of a finding's graph for the HTML report: inline SVG, one box
//! per graph input, TOSA operator, constant operand and output, laid out in
//! columns by depth, with the culprit operator marked.

use spvgraph_ir::analysis::Analysis;
use spvgraph_ir::tosa::TosaOp;
use spvgraph_ir::{Id, Inst, Module};
use std::collections::BTreeMap;
use std::fmt::Write as _;

const BOX_W: usize = 150;
const BOX_H: usize = 34;
const COL_GAP: usize = 60;
const ROW_GAP: usize = 16;
/// Graphs larger than this are not drawn (a reduced finding is small).
const MAX_NODES: usize = 80;

#[derive(Clone, Copy, PartialEq, Eq)]
enum NodeKind {
    Input,
    Constant,
    Operator(TosaOp),
    Output,
}

struct Node {
    kind: NodeKind,
    label: String,
    depth: usize,
    culprit: bool,
}

/// The SVG of the graph of entry point `entry` (the first graph when `None`
/// or not found); operators in `culprit` are drawn marked. `None` when the
/// module has no graph or the graph is too large to draw usefully.
pub fn graph_svg(module: &Module, entry: Option<&str>, culprit: &[TosaOp]) -> Option<String> {
    let a = Analysis::new(module);
    let wanted = entry.and_then(|e| {
        a.graph_entry_points.iter().find_map(|&i| match module.insts.get(i) {
            Some(Inst::GraphEntryPoint { graph, name, .. }) if name == e => Some(*graph),
            _ => None,
        })
    });
    let view = match wanted {
        Some(g) => a.graph(g)?,
        None => a.graphs.first()?,
    };
    let mut nodes: Vec<Node> = Vec::new();
    let mut at: BTreeMap<Id, usize> = BTreeMap::new();
    let mut edges: Vec<(usize, usize)> = Vec::new();
    for &i in &view.inputs {
        if let Some(Inst::GraphInput { result, input_index, .. }) = module.insts.get(i) {
            let index = a.const_uint(*input_index).map_or("?".into(), |v| v.to_string());
            at.insert(*result, nodes.len());
            nodes.push(Node { kind: NodeKind::Input, label: format!("input {index}"), depth: 0, culprit: false });
        }
    }
    for &i in &view.body {
        let (result, operands, kind, label) = match module.insts.get(i) {
            Some(Inst::Tosa { result, op, args, .. }) => {
                (*result, args.clone(), NodeKind::Operator(*op), op.name().to_string())
            }
            Some(Inst::CompositeExtract { result, composite, indices, .. }) => {
                // An extract is drawn as the edge from the operator it reads.
                if let Some(&from) = at.get(composite) {
                    at.insert(*result, from);
                }
                let _ = indices;
                continue;
            }
            _ => continue,
        };
        let mut depth = 1;
        let mut from = Vec::new();
        for arg in &operands {
            let src = match at.get(arg) {
                Some(&n) => n,
                None => match a.def(*arg) {
                    Some(Inst::Tosa { .. }) | None => continue,
                    Some(def) if def.result_type().and_then(|t| a.tensor_type(t)).is_some() => {
                        let label = match def {
                            Inst::GraphConstant { graph_constant_id, .. } => {
                                format!("graph constant {graph_constant_id}")
                            }
                            Inst::ConstantNull { .. } => "null constant".into(),
                            Inst::ConstantCompositeReplicate { .. } => "replicated constant".into(),
                            _ => "constant".into(),
                        };
                        at.insert(*arg, nodes.len());
                        nodes.push(Node { kind: NodeKind::Constant, label, depth: 0, culprit: false });
                        nodes.len() - 1
                    }
                    // Scalar attributes (axis, enums, bools) are not drawn.
                    Some(_) => continue,
                },
            };
            depth = depth.max(nodes[src].depth + 1);
            from.push(src);
        }
        let culprit = matches!(kind, NodeKind::Operator(op) if culprit.contains(&op));
        at.insert(result, nodes.len());
        for src in from {
            edges.push((src, nodes.len()));
        }
        nodes.push(Node { kind, label, depth, culprit });
        if nodes.len() > MAX_NODES {
            return None;
        }
    }
    let last = nodes.iter().map(|n| n.depth).max().unwrap_or(0) + 1;
    for &i in &view.outputs {
        if let Some(Inst::GraphSetOutput { value, output_index, .. }) = module.insts.get(i) {
            let index = a.const_uint(*output_index).map_or("?".into(), |v| v.to_string());
            let n = nodes.len();
            if let Some(&src) = at.get(value) {
                edges.push((src, n));
            }
            nodes.push(Node { kind: NodeKind::Output, label: format!("output {index}"), depth: last, culprit: false });
        }
    }
    Some(render(&nodes, &edges))
}

fn render(nodes: &[Node], edges: &[(usize, usize)]) -> String {
    let mut rows: BTreeMap<usize, usize> = BTreeMap::new();
    let pos: Vec<(usize, usize)> = nodes
        .iter()
        .map(|n| {
            let row = rows.entry(n.depth).or_insert(0);
            let p = (10 + n.depth * (BOX_W + COL_GAP), 10 + *row * (BOX_H + ROW_GAP));
            *row += 1;
            p
        })
        .collect();
    let width = 20 + (rows.keys().max().copied().unwrap_or(0) + 1) * (BOX_W + COL_GAP);
    let height = 20 + rows.values().max().copied().unwrap_or(1) * (BOX_H + ROW_GAP);
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" font-family=\"sans-serif\" \
         font-size=\"12\">\n<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"8\" \
         markerHeight=\"8\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#555\"/></marker></defs>\n"
    );
    for &(from, to) in edges {
        let ((x1, y1), (x2, y2)) = (pos[from], pos[to]);
        let _ = writeln!(
            out,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#555\" marker-end=\"url(#arrow)\"/>",
            x1 + BOX_W,
            y1 + BOX_H / 2,
            x2,
            y2 + BOX_H / 2
        );
    }
    for (n, &(x, y)) in nodes.iter().zip(&pos) {
        let (fill, stroke, width) = match (n.kind, n.culprit) {
            (_, true) => ("#fdd", "#c00", 3),
            (NodeKind::Operator(_), false) => ("#eef", "#446", 1),
            (NodeKind::Constant, false) => ("#f4f4f4", "#999", 1),
            (NodeKind::Input | NodeKind::Output, false) => ("#efe", "#464", 1),
        };
        let _ = writeln!(
            out,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{BOX_W}\" height=\"{BOX_H}\" rx=\"6\" fill=\"{fill}\" stroke=\"{stroke}\" \
             stroke-width=\"{width}\"/><text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}{}</text>",
            x + BOX_W / 2,
            y + BOX_H / 2 + 4,
            escape(&n.label),
            if n.culprit { " (culprit)" } else { "" }
        );
    }
    out.push_str("</svg>\n");
    out
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chain_is_drawn_with_its_culprit_marked() {
        let m = spvgraph_ir::samples::elementwise_chain(3);
        let svg = graph_svg(&m, None, &[TosaOp::Sub]).expect("drawn");
        assert!(svg.starts_with("<svg") && svg.contains("input 0") && svg.contains("output 0"), "{svg}");
        assert_eq!(svg.matches("(culprit)").count(), 1, "{svg}");
        assert!(svg.contains("SUB (culprit)"), "{svg}");
        assert!(svg.matches("<line").count() >= 3, "{svg}");
    }
}
