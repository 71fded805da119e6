//! The dot-product rule of §5.4: each element's error normalised by its
//! bound, then the tensor's error variance (and, for test sets 3–5, bias).

use super::check::{element, Tracker};
use super::format::{pow2, FpFormat};
use super::mode::{DotProductParams, Mode};
use super::{ComplianceResult, DotStats, Exemption, Unjudged};

/// The normalised error of one element, or why it has none.
enum Element {
    /// Checked: `err = (imp − ref) / max(bnd·2^(−1−frac), normal_min)`.
    Checked(f64),
    /// No accuracy requirement (NaN bound, or a bound that overflows the type).
    Exempt(Exemption),
    /// Must be exactly zero (a zero bound), or NaN (a NaN reference), and is not.
    Mismatch(&'static str),
}

fn classify(p: &DotProductParams, f: &FpFormat, reference: f64, bound: f64, imp: f64) -> Element {
    let half_ulp_scale = pow2(-1 - f.normal_frac);
    if reference.is_nan() {
        return if imp.is_nan() {
            Element::Checked(0.0)
        } else {
            Element::Mismatch("the reference is NaN, the result not")
        };
    }
    if bound.is_nan() {
        return Element::Exempt(Exemption::NanBound);
    }
    if f.overflows(bound * (1.0 + p.abs_bound * half_ulp_scale)) {
        return Element::Exempt(Exemption::BoundOverflows);
    }
    if p.accumulator_limit.is_some_and(|limit| bound > limit) {
        return Element::Exempt(Exemption::AccumulatorOverflows);
    }
    if bound == 0.0 {
        return if reference == 0.0 && imp == 0.0 {
            Element::Checked(0.0)
        } else {
            Element::Mismatch("every product is zero, so the result must be zero")
        };
    }
    let scale = (bound * half_ulp_scale).max(f.normal_min());
    Element::Checked((imp - reference) / scale)
}

pub(super) fn check(
    p: &DotProductParams,
    f: &FpFormat,
    refs: &[f64],
    bnds: &[f64],
    imps: &[f64],
    shape: &[usize],
    unjudged: &Unjudged,
) -> ComplianceResult {
    let mut t = Tracker::new(refs.len());
    let (mut sum, mut sum_sq) = (0.0f64, 0.0f64);
    for (i, (&r, &c)) in refs.iter().zip(imps).enumerate() {
        let b = bnds.get(i).copied().unwrap_or(f64::NAN);
        // An unjudged element counts as the verifier counts an exempt one: error 0.
        let class = match unjudged.get_for(i, c) {
            Some(why) => Element::Exempt(why),
            None => classify(p, f, r, b, c),
        };
        match class {
            Element::Exempt(why) => {
                t.exempt(why);
                t.record(false, shape, element(i, r, c, 0.0, p.abs_bound));
            }
            Element::Mismatch(why) => {
                let error = if r.is_nan() != c.is_nan() { f64::NAN } else { (c - r).abs() };
                t.record(true, shape, element(i, r, c, error, 0.0));
                t.note(why);
            }
            Element::Checked(err) => {
                sum += err;
                sum_sq += err * err;
                let failed = err.is_nan() || err.abs() > p.abs_bound;
                t.record(failed, shape, element(i, r, c, err.abs(), p.abs_bound));
                if failed {
                    t.note("normalised error above ABS_BOUND");
                }
            }
        }
    }
    let count = refs.len() as f64;
    let variance_limit = p.variance_error_bound * count;
    let bias_limit = (3..=5).contains(&p.test_set).then(|| (10.0 * p.variance_error_bound * count).sqrt());
    t.stats.dot = Some(DotStats { error_sum: sum, error_sum_sq: sum_sq, variance_limit, bias_limit });
    let mut reason = None;
    t.stats.statistics_exempt = unjudged.statistics_exempt();
    if t.stats.failures == 0 && t.stats.statistics_exempt.is_none() {
        if sum_sq > variance_limit {
            reason = Some(format!("error variance Σerr² = {sum_sq:e} exceeds {variance_limit:e}"));
        } else if let Some(limit) = bias_limit.filter(|l| sum.abs() > *l) {
            reason = Some(format!("error bias |Σerr| = {:e} exceeds {limit:e}", sum.abs()));
        }
    }
    t.finish(Mode::DotProduct(*p), reason)
}
