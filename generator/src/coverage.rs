//! The operator × type-row tally over many cases, and its report; the
//! consumer-breaking constructs every default run must reach
//! ([`CONSTRUCTS`]) and their report.

use crate::case::{CaseMeta, RowUse};
use crate::config::Config;
use serde::Serialize;
use spvgraph_ir::elem::Profile;
use spvgraph_ir::tosa::{ResultKind, TosaOp};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;
use std::sync::LazyLock;

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

/// A construct that breaks consumers (issue 9, section 7): a feature name of
/// [`CaseMeta::features`], the item it belongs to, and when a
/// configuration can reach it.
#[derive(Clone, Copy, Debug)]
pub struct Construct {
    /// The feature name (`unused:result`).
    pub feature: &'static str,
    /// The item of the issue it belongs to ("results left unused").
    pub group: &'static str,
    /// What it is, in a few words.
    pub what: &'static str,
    /// Whether the configuration can produce it (its probabilities are not
    /// zero and an operator it needs is usable).
    applies: fn(&Config) -> bool,
}

impl Construct {
    /// Whether `config` can produce the construct; a report marks the others n/a.
    pub fn applies(&self, config: &Config) -> bool {
        (self.applies)(config)
    }
}

/// Some operator of `ops` is usable under `c`.
fn any_op(c: &Config, ops: &[TosaOp]) -> bool {
    let usable = c.usable_ops();
    ops.iter().any(|op| usable.contains(op))
}

/// Some usable operator has an available row with a floating-point type.
fn float_rows(c: &Config) -> bool {
    c.usable_ops()
        .iter()
        .any(|op| op.spec().type_rows.iter().any(|r| r.available(&c.profiles) && r.types.iter().any(|t| t.is_float())))
}

fn wide(c: &Config, ops: &[TosaOp]) -> bool {
    c.probs.wide_attributes > 0.0 && any_op(c, ops)
}

fn specials(c: &Config) -> bool {
    (c.probs.special_leaf > 0.0 || c.probs.special_values > 0.0) && float_rows(c)
}

// The operator groups below are read from the catalogue, so that an
// operator added there with the same attributes is covered here too.

/// The operators that have an operand called `name` in the catalogue.
fn with_operand(name: &str) -> Vec<TosaOp> {
    TosaOp::ALL.into_iter().filter(|op| op.spec().operand_named(name).is_some()).collect()
}

/// The operators with two results (the real and imaginary planes).
static FFT: LazyLock<Vec<TosaOp>> = LazyLock::new(|| {
    TosaOp::ALL.into_iter().filter(|op| op.spec().result.kind == ResultKind::RealImagStruct).collect()
});
/// The pooling operators: a `kernel` attribute.
static POOL: LazyLock<Vec<TosaOp>> = LazyLock::new(|| with_operand("kernel"));
/// The convolutions with a `dilation` attribute (not TRANSPOSE_CONV2D, whose
/// attributes are covered on their own).
static CONV: LazyLock<Vec<TosaOp>> = LazyLock::new(|| with_operand("dilation"));
/// The operators with a `nan_mode` attribute.
static NAN_MODE: LazyLock<Vec<TosaOp>> = LazyLock::new(|| with_operand("nan_mode"));

macro_rules! construct {
    ($group:expr, $feature:expr, $what:expr, $applies:expr) => {
        Construct { feature: $feature, group: $group, what: $what, applies: $applies }
    };
}

const UNUSED: &str = "results left unused";
const WIRED: &str = "outputs wired straight to an input or a constant";
const SAME: &str = "the same value as several outputs";
const ENTRY: &str = "several entry points sharing one graph";
const ARRAYS: &str = "tensor arrays at the interface";
const CONSTS: &str = "every constant form";
const LEVEL: &str = "dimensions near the level limits";
const ATTRS: &str = "attribute values across their whole legal range";
const SPECIAL: &str = "special floating-point values in inputs and constants";

/// The consumer-breaking constructs, grouped by the items of issue 9 §7.
/// `spvgraph generate --coverage` reports each and fails when one that the
/// configuration can produce was never reached.
pub static CONSTRUCTS: &[Construct] = &[
    construct!(UNUSED, "unused:result", "an operation result nothing reads and no output writes", |c| {
        c.probs.unused_result > 0.0
    }),
    construct!(UNUSED, "fft:one-result", "FFT2D/RFFT2D with one of its two results never extracted", |c| {
        c.probs.fft_both_results < 1.0 && any_op(c, &FFT)
    }),
    construct!(UNUSED, "unused:fft-extracted-member", "both FFT results extracted, one of them never read", |c| {
        c.probs.fft_both_results > 0.0 && c.probs.unused_extracted_member > 0.0 && any_op(c, &FFT)
    }),
    construct!(WIRED, "output:from-input", "a graph input written straight to an output", |_| true),
    construct!(WIRED, "output:from-constant", "a constant written straight to an output", |c| {
        c.probs.output_from_constant > 0.0 || c.probs.pass_through_graph > 0.0
    }),
    construct!(WIRED, "graph:no-operations", "a graph without any operation", |c| c.probs.pass_through_graph > 0.0),
    construct!(SAME, "output:same-value-twice", "one value written to two outputs", |c| {
        c.probs.duplicate_output > 0.0 && c.max_graph_outputs > 1
    }),
    construct!(ENTRY, "entry:alias", "a graph exported under a second name", |c| c.probs.alias_entry_point > 0.0),
    construct!(ENTRY, "entry:shared-interface", "two entry points sharing the interface variables", |c| {
        c.probs.alias_entry_point > 0.0 && c.probs.shared_interface > 0.0
    }),
    construct!(ENTRY, "entry:three-or-more", "a graph exported three or more times", |c| {
        c.probs.alias_entry_point > 0.0 && c.probs.more_entry_points > 0.0
    }),
    construct!(ARRAYS, "iface:array-input", "a tensor-array graph input (ElementIndex)", |c| {
        c.probs.tensor_array_input > 0.0
    }),
    construct!(ARRAYS, "iface:array-output", "a tensor-array graph output", |c| c.probs.tensor_array_output > 0.0),
    construct!(ARRAYS, "iface:array-unread-element", "a tensor-array input element the graph never reads", |c| {
        c.probs.tensor_array_input > 0.0 && c.probs.unread_array_element > 0.0
    }),
    construct!(CONSTS, "const:composite", "OpConstantComposite of a rank-1 tensor", |_| true),
    construct!(CONSTS, "const:composite-nested", "OpConstantComposite of tensor constituents (rank > 1)", |c| {
        c.max_rank > 1 && (c.probs.constant_leaf > 0.0 || c.probs.weight_constant > 0.0)
    }),
    construct!(CONSTS, "const:composite-mixed-rows", "a nested composite with null or replicated rows", |c| {
        c.max_rank > 1 && (c.probs.constant_leaf > 0.0 || c.probs.weight_constant > 0.0)
    }),
    construct!(CONSTS, "const:null", "OpConstantNull of a tensor", |_| true),
    construct!(CONSTS, "const:null-scalar", "OpConstantNull of a scalar (element or attribute)", |c| {
        c.probs.null_scalar > 0.0
    }),
    construct!(CONSTS, "const:replicate", "OpConstantCompositeReplicateEXT of a rank-1 tensor", |_| true),
    construct!(CONSTS, "const:replicate-rank>1", "OpConstantCompositeReplicateEXT of a rank > 1 tensor", |c| {
        c.max_rank > 1 && (c.probs.constant_leaf > 0.0 || c.probs.weight_constant > 0.0)
    }),
    construct!(CONSTS, "const:graph-constant", "OpGraphConstantARM", |c| c.probs.graph_constant > 0.0),
    construct!(LEVEL, "level:rank=6", "a tensor of rank 6 (MAX_RANK)", |c| c.max_rank >= 6),
    construct!(LEVEL, "level:dim>=4096", "a tensor dimension of 4096..=8192", |c| c.probs.level_shape > 0.0),
    construct!(LEVEL, "level:fft-size>=4096", "FFT H or W of 4096 or 8192 (MAX_KERNEL)", |c| wide(c, &FFT)),
    construct!(LEVEL, "level:resize-dim>=8192", "a RESIZE extent of 8192..16384", |c| wide(c, &[TosaOp::Resize])),
    construct!(LEVEL, "level:concat-inputs>=32", "CONCAT of 32..=64 inputs (MAX_TENSOR_LIST_SIZE)", |c| {
        wide(c, &[TosaOp::Concat])
    }),
    construct!(ATTRS, "attr:pool-kernel>=4096", "a pooling kernel of 4096..=8192", |c| wide(c, &POOL)),
    construct!(ATTRS, "attr:pool-stride>=4096", "a pooling stride of 4096..=8192", |c| wide(c, &POOL)),
    construct!(ATTRS, "attr:pool-pad>=4096", "a pooling pad of 4096 or more", |c| wide(c, &POOL)),
    construct!(ATTRS, "attr:conv-kernel>=4096", "a dilated convolution kernel (dilation x K) of 4096..=8192", |c| {
        wide(c, &CONV)
    }),
    construct!(ATTRS, "attr:conv-stride>=4096", "a convolution stride of 4096..=8192", |c| wide(c, &CONV)),
    construct!(ATTRS, "attr:conv-pad>=4096", "a convolution pad of 4096..=8192", |c| wide(c, &CONV)),
    construct!(ATTRS, "attr:transpose_conv2d-kernel>=4096", "a TRANSPOSE_CONV2D kernel of 4096..=8192", |c| {
        wide(c, &[TosaOp::TransposeConv2d])
    }),
    construct!(ATTRS, "attr:transpose_conv2d-stride>=4096", "a TRANSPOSE_CONV2D stride of 4096..=8192", |c| {
        wide(c, &[TosaOp::TransposeConv2d])
    }),
    construct!(ATTRS, "attr:transpose_conv2d-out_pad>=4096", "a TRANSPOSE_CONV2D out_pad of 4096..=8192", |c| {
        wide(c, &[TosaOp::TransposeConv2d])
    }),
    construct!(ATTRS, "transpose_conv2d:negative-out_pad", "a negative TRANSPOSE_CONV2D out_pad", |c| {
        any_op(c, &[TosaOp::TransposeConv2d])
    }),
    construct!(ATTRS, "attr:resize-scale_n>=1024", "a RESIZE scale_n of 1024..=2048", |c| wide(c, &[TosaOp::Resize])),
    construct!(ATTRS, "attr:resize-upscale>=128", "a RESIZE upscale of 128..=256 (MAX_SCALE)", |c| {
        wide(c, &[TosaOp::Resize])
    }),
    construct!(ATTRS, "attr:resize-downscale>=8", "a RESIZE downscale of 8..16", |c| wide(c, &[TosaOp::Resize])),
    construct!(ATTRS, "resize:mode=NEAREST_NEIGHBOR", "RESIZE mode NEAREST_NEIGHBOR", |c| {
        any_op(c, &[TosaOp::Resize])
    }),
    construct!(ATTRS, "resize:mode=BILINEAR", "RESIZE mode BILINEAR", |c| any_op(c, &[TosaOp::Resize])),
    construct!(ATTRS, "attr:pad-padding>=4096", "a PAD padding of 4096..=8192", |c| wide(c, &[TosaOp::Pad])),
    construct!(ATTRS, "attr:tile-multiples>=4096", "a TILE multiple of 4096..=8192", |c| wide(c, &[TosaOp::Tile])),
    construct!(ATTRS, "attr:mul-shift>=32", "an i32 MUL shift of 32..=63", |c| {
        wide(c, &[TosaOp::Mul]) && c.profiles.contains(&Profile::ProInt)
    }),
    construct!(ATTRS, "attr:rescale-shift>=48", "a RESCALE shift of 48..=62", |c| wide(c, &[TosaOp::Rescale])),
    construct!(ATTRS, "rescale:rounding=SINGLE_ROUND", "RESCALE rounding SINGLE_ROUND", |c| {
        any_op(c, &[TosaOp::Rescale])
    }),
    construct!(ATTRS, "rescale:rounding=INEXACT_ROUND", "RESCALE rounding INEXACT_ROUND", |c| {
        any_op(c, &[TosaOp::Rescale]) && c.profiles.contains(&Profile::ExtInexactRound)
    }),
    construct!(ATTRS, "rescale:rounding=DOUBLE_ROUND", "RESCALE rounding DOUBLE_ROUND", |c| {
        any_op(c, &[TosaOp::Rescale]) && c.profiles.contains(&Profile::ExtDoubleRound)
    }),
    construct!(ATTRS, "attr:clamp-min=max", "CLAMP with min_val = max_val", |c| wide(c, &[TosaOp::Clamp])),
    construct!(ATTRS, "attr:clamp-extreme-bounds", "CLAMP bounds at the type's extremes (±inf)", |c| {
        wide(c, &[TosaOp::Clamp])
    }),
    construct!(ATTRS, "attr:nan_mode=PROPAGATE", "nan_mode PROPAGATE", |c| any_op(c, &NAN_MODE)),
    construct!(ATTRS, "attr:nan_mode=IGNORE", "nan_mode IGNORE", |c| any_op(c, &NAN_MODE)),
    construct!(SPECIAL, "special:nan-input", "NaN in a graph input", specials),
    construct!(SPECIAL, "special:nan-constant", "NaN in a constant", specials),
    construct!(SPECIAL, "special:inf-input", "an infinity in a graph input", specials),
    construct!(SPECIAL, "special:inf-constant", "an infinity in a constant", specials),
    construct!(SPECIAL, "special:subnormal-input", "a subnormal in a graph input", specials),
    construct!(SPECIAL, "special:subnormal-constant", "a subnormal in a constant", specials),
    construct!(SPECIAL, "special:cast-out-of-range", "CAST of values beyond the output type's range", |c| {
        c.probs.cast_out_of_range > 0.0 && any_op(c, &[TosaOp::Cast]) && float_rows(c)
    }),
];

impl Coverage {
    /// The constructs `config` can produce that no case reached.
    pub fn missing_constructs(&self, config: &Config) -> Vec<&'static Construct> {
        CONSTRUCTS.iter().filter(|k| k.applies(config) && self.feature_count(k.feature) == 0).collect()
    }

    /// Cases that reached feature `f`.
    pub fn feature_count(&self, f: &str) -> u64 {
        self.features.get(f).copied().unwrap_or(0)
    }

    /// The "consumer-breaking constructs" section: per item of the issue,
    /// each construct with the number of cases reaching it (`n/a` where the
    /// configuration rules it out), then the missing ones.
    pub fn constructs_report(&self, config: &Config) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "consumer-breaking constructs (cases reaching each):");
        let mut group = "";
        let (mut reached, mut applicable) = (0usize, 0usize);
        for k in CONSTRUCTS {
            if k.group != group {
                group = k.group;
                let _ = writeln!(out, "  {group}");
            }
            let n = self.feature_count(k.feature);
            let count = if k.applies(config) {
                applicable += 1;
                reached += usize::from(n > 0);
                n.to_string()
            } else {
                "n/a".to_string()
            };
            let _ = writeln!(out, "    {:<40} {count:>7}  {}", k.feature, k.what);
        }
        let missing: Vec<&str> = self.missing_constructs(config).iter().map(|k| k.feature).collect();
        let _ = writeln!(
            out,
            "constructs: {reached}/{applicable} reached ({} n/a under this configuration){}",
            CONSTRUCTS.len() - applicable,
            if missing.is_empty() { String::new() } else { format!("; missing: {}", missing.join(", ")) }
        );
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

    /// The operator groups read from the catalogue are the lists that were
    /// written by hand.
    #[test]
    fn operator_groups_are_the_hand_written_lists() {
        assert_eq!(*FFT, [TosaOp::Fft2d, TosaOp::Rfft2d]);
        assert_eq!(*POOL, [TosaOp::AvgPool2d, TosaOp::MaxPool2d]);
        assert_eq!(*CONV, [TosaOp::Conv2d, TosaOp::Conv3d, TosaOp::DepthwiseConv2d]);
        assert_eq!(
            *NAN_MODE,
            [
                TosaOp::Argmax,
                TosaOp::MaxPool2d,
                TosaOp::Clamp,
                TosaOp::Maximum,
                TosaOp::Minimum,
                TosaOp::ReduceMax,
                TosaOp::ReduceMin,
            ]
        );
    }

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
        let config = Config::default();
        assert!(c.missing_constructs(&config).iter().any(|k| k.feature == "unused:result"));
        assert!(!c.missing_constructs(&config).iter().any(|k| k.feature == "const:null"));
        let text = c.constructs_report(&config);
        assert!(text.contains("const:null") && text.contains("missing: "), "{text}");
    }

    #[test]
    fn constructs_are_unique_and_apply_by_default() {
        let config = Config::default();
        let mut names: Vec<&str> = CONSTRUCTS.iter().map(|k| k.feature).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), CONSTRUCTS.len());
        assert!(CONSTRUCTS.iter().all(|k| k.applies(&config)), "every construct is reachable by default");
        let mut off = config.clone();
        off.probs.wide_attributes = 0.0;
        off.allow_ops = vec![TosaOp::Add];
        assert!(!CONSTRUCTS.iter().any(|k| k.feature == "attr:pool-kernel>=4096" && k.applies(&off)));
        assert!(!CONSTRUCTS.iter().any(|k| k.feature == "fft:one-result" && k.applies(&off)));
    }
}
