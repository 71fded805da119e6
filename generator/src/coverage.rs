//! The operator × type-row tally over many cases, and its report.

use crate::case::{CaseMeta, RowUse};
use serde::Serialize;
use spvgraph_ir::elem::Profile;
use spvgraph_ir::tosa::TosaOp;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// How often each type row (and feature) was reached.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Coverage {
    /// Cases tallied.
    pub cases: u64,
    /// Uses per (operator, row index); a case counts once per row.
    rows: BTreeMap<(TosaOp, usize), u64>,
    /// Cases reaching each feature.
    pub features: BTreeMap<String, u64>,
    /// Cases with internal errors.
    pub cases_with_internal_errors: u64,
    /// Sum of the cases' longest operation chains (for the mean).
    pub depth_sum: u64,
    /// Sum of the cases' TOSA instruction counts.
    pub node_sum: u64,
}

impl Coverage {
    /// An empty tally.
    pub fn new() -> Coverage {
        Coverage::default()
    }

    /// Adds one case.
    pub fn add(&mut self, meta: &CaseMeta) {
        self.cases += 1;
        for r in &meta.type_rows {
            *self.rows.entry((r.op, r.row)).or_insert(0) += 1;
        }
        for f in &meta.features {
            *self.features.entry(f.clone()).or_insert(0) += 1;
        }
        if !meta.internal_errors.is_empty() {
            self.cases_with_internal_errors += 1;
        }
        self.depth_sum += meta.max_depth as u64;
        self.node_sum += meta.nodes as u64;
    }

    /// Adds another tally (for parallel runs).
    pub fn merge(&mut self, other: &Coverage) {
        self.cases += other.cases;
        self.cases_with_internal_errors += other.cases_with_internal_errors;
        self.depth_sum += other.depth_sum;
        self.node_sum += other.node_sum;
        for (k, v) in &other.rows {
            *self.rows.entry(*k).or_insert(0) += v;
        }
        for (k, v) in &other.features {
            *self.features.entry(k.clone()).or_insert(0) += v;
        }
    }

    /// Cases that reached row `row` of `op`.
    pub fn count(&self, op: TosaOp, row: usize) -> u64 {
        self.rows.get(&(op, row)).copied().unwrap_or(0)
    }

    /// The operators reached.
    pub fn ops_reached(&self) -> BTreeSet<TosaOp> {
        self.rows.keys().map(|(op, _)| *op).collect()
    }

    /// Every row of `ops` available under `profiles`, as (op, row index).
    pub fn catalogue_rows(ops: &[TosaOp], profiles: &[Profile]) -> Vec<(TosaOp, usize)> {
        ops.iter()
            .flat_map(|&op| {
                op.spec().type_rows.iter().enumerate().filter(|(_, r)| r.available(profiles)).map(move |(i, _)| (op, i))
            })
            .collect()
    }

    /// The available rows of `ops` never reached.
    pub fn missing(&self, ops: &[TosaOp], profiles: &[Profile]) -> Vec<RowUse> {
        Coverage::catalogue_rows(ops, profiles)
            .into_iter()
            .filter(|&(op, i)| self.count(op, i) == 0)
            .map(|(op, i)| RowUse::new(op, i))
            .collect()
    }

    /// A table: per operator, rows reached / available, then the missing rows.
    pub fn report(&self, ops: &[TosaOp], profiles: &[Profile]) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "{:<24} {:>9}  missing rows", "operator", "reached");
        let (mut reached, mut total) = (0usize, 0usize);
        for &op in ops {
            let rows = Coverage::catalogue_rows(&[op], profiles);
            let hit = rows.iter().filter(|&&(o, i)| self.count(o, i) > 0).count();
            reached += hit;
            total += rows.len();
            let missing: Vec<String> = rows
                .iter()
                .filter(|&&(o, i)| self.count(o, i) == 0)
                .map(|&(o, i)| describe(&RowUse::new(o, i)))
                .collect();
            let _ = writeln!(out, "{:<24} {:>4}/{:<4}  {}", op.name(), hit, rows.len(), missing.join(", "));
        }
        let pct = if total == 0 { 100.0 } else { 100.0 * reached as f64 / total as f64 };
        let ops_hit = ops.iter().filter(|op| self.ops_reached().contains(op)).count();
        let _ = writeln!(
            out,
            "total: {reached}/{total} type rows ({pct:.1}%), {ops_hit}/{} operators, {} cases ({} with internal errors)",
            ops.len(),
            self.cases,
            self.cases_with_internal_errors
        );
        let per_case = |v: u64| if self.cases == 0 { 0.0 } else { v as f64 / self.cases as f64 };
        let _ = writeln!(
            out,
            "per case: {:.1} TOSA instructions, longest dependence chain {:.1} on average",
            per_case(self.node_sum),
            per_case(self.depth_sum)
        );
        let _ = writeln!(out, "features (cases reaching each):");
        for (f, n) in &self.features {
            let _ = writeln!(out, "  {f:<44} {n}");
        }
        out
    }
}

/// `i8,i8,i32 [PRO-INT] acc_type=INT32`.
fn describe(r: &RowUse) -> String {
    let mut s = format!("{}#{} ({}) [{}", r.op.name(), r.row, r.types.join(","), r.profiles.join("|"));
    if !r.also.is_empty() {
        s.push('+');
        s.push_str(&r.also.join("+"));
    }
    s.push(']');
    if let Some(q) = &r.qualifier {
        s.push(' ');
        s.push_str(q);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tally_and_report() {
        let mut meta = CaseMeta::default();
        meta.type_rows.insert(RowUse::new(TosaOp::Add, 0));
        meta.features.insert("const:null".into());
        let mut c = Coverage::new();
        c.add(&meta);
        c.merge(&c.clone());
        assert_eq!(c.count(TosaOp::Add, 0), 2);
        assert_eq!(c.cases, 2);
        let missing = c.missing(&[TosaOp::Add], &Profile::ALL);
        assert_eq!(missing.len(), TosaOp::Add.spec().type_rows.len() - 1);
        let report = c.report(&[TosaOp::Add], &Profile::ALL);
        assert!(report.contains("ADD"), "{report}");
        assert!(report.contains("const:null"), "{report}");
        assert!(report.contains(&format!("1/{}", TosaOp::Add.spec().type_rows.len())), "{report}");
    }
}
