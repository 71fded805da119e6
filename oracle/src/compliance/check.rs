//! The element loops behind [`super::compare_with_mode`].

use super::bound::{abs_error_bound, check_float_bound, reduce_product_bound, relative_bound, BoundCheck};
use super::dot;
use super::format::FpFormat;
use super::mode::Mode;
use super::{position, CompareError, ComplianceResult, Exemption, ReferenceTensor, Stats, Unjudged, WorstElement};
use spvgraph_ir::elem::ElemType;
use spvgraph_ir::tensor::TensorData;

/// Keeps the element that decides the verdict: failures outrank passes, and
/// within each group the largest `error / allowed` wins.
#[derive(Default)]
pub(super) struct Tracker {
    worst: Option<(bool, f64, WorstElement)>,
    // Why the current worst element failed, when the check says.
    why: Option<&'static str>,
    worst_changed: bool,
    pub(super) stats: Stats,
}

impl Tracker {
    pub(super) fn new(elements: usize) -> Tracker {
        Tracker { worst: None, why: None, worst_changed: false, stats: Stats { elements, ..Stats::default() } }
    }

    /// Records one checked element.
    pub(super) fn record(&mut self, failed: bool, shape: &[usize], w: WorstElement) {
        if failed {
            self.stats.failures += 1;
            self.stats.failing.push(w.index);
        }
        let mut ratio = ratio(w.error, w.allowed);
        // A passing element with an infinite ratio passed by an exemption
        // (overflow to infinity, flush to zero): it says nothing about how
        // close the candidate came to a finite bound.
        if !failed && !ratio.is_finite() {
            ratio = 0.0;
        }
        if !ratio.is_nan() && ratio > self.stats.worst_ratio {
            self.stats.worst_ratio = ratio;
        }
        let better = match &self.worst {
            None => true,
            Some((was_failed, was_ratio, _)) => {
                (failed && !was_failed) || (failed == *was_failed && rank(ratio) > rank(*was_ratio))
            }
        };
        self.worst_changed = better;
        if better {
            let w = WorstElement { position: position(w.index, shape), ..w };
            self.worst = Some((failed, ratio, w));
        }
    }

    /// Counts one element with no accuracy requirement.
    pub(super) fn exempt(&mut self, why: Exemption) {
        self.stats.exempt += 1;
        *self.stats.exempt_by.entry(why).or_default() += 1;
    }

    /// Attaches an explanation to the element just recorded, if it became the worst.
    pub(super) fn note(&mut self, why: &'static str) {
        if self.worst_changed {
            self.why = Some(why);
        }
    }

    pub(super) fn finish(self, mode: Mode, reason: Option<String>) -> ComplianceResult {
        let pass = self.stats.failures == 0 && reason.is_none();
        let why = self.why.map(|w| format!(" (worst: {w})")).unwrap_or_default();
        let reason = reason.or_else(|| {
            (self.stats.failures > 0)
                .then(|| format!("{} of {} elements fail{why}", self.stats.failures, self.stats.elements))
        });
        ComplianceResult { pass, mode, worst: self.worst.map(|(_, _, w)| w), stats: self.stats, reason }
    }
}

fn ratio(error: f64, allowed: f64) -> f64 {
    if error.is_nan() {
        f64::INFINITY
    } else if error == 0.0 {
        0.0
    } else {
        error / allowed
    }
}

// NaN ratios never win; infinite ones always do.
fn rank(r: f64) -> f64 {
    if r.is_nan() {
        f64::NEG_INFINITY
    } else {
        r
    }
}

pub(super) fn element(index: usize, reference: f64, candidate: f64, error: f64, allowed: f64) -> WorstElement {
    WorstElement { index, position: Vec::new(), reference, candidate, error, allowed }
}

pub(super) fn run(
    mode: &Mode,
    reference: &ReferenceTensor,
    candidate: &TensorData,
    bounds: Option<&ReferenceTensor>,
    unjudged: &Unjudged,
) -> Result<ComplianceResult, CompareError> {
    let shape = reference.shape().to_vec();
    if mode.needs_bounds() && bounds.is_none() {
        return Err(CompareError::MissingBounds { mode: mode.name() });
    }
    if let Some(b) = bounds.filter(|_| mode.needs_bounds()) {
        if b.shape() != shape.as_slice() {
            return Err(CompareError::BoundsShape { expected: shape, got: b.shape().to_vec() });
        }
    }
    if candidate.shape() != shape.as_slice() {
        let reason = format!("candidate shape {:?} differs from the reference shape {shape:?}", candidate.shape());
        return Ok(Tracker::new(0).finish(*mode, Some(reason)));
    }
    let elem = candidate.elem();
    let format = FpFormat::of(elem);
    let float_format = || format.ok_or(CompareError::NotFloat { mode: mode.name(), elem });
    match *mode {
        Mode::Exact if format.is_none() => Ok(exact_integers(mode, reference, candidate, &shape)),
        Mode::RescaleInexact { unsigned } => {
            let hi = bounds.map(|b| int_values(b, unsigned)).unwrap_or_default();
            Ok(rescale_interval(
                mode,
                &int_values(reference, unsigned),
                &hi,
                &unsigned_view(candidate, unsigned),
                &shape,
            ))
        }
        Mode::DotProduct(p) => {
            let f = float_format()?;
            let bnd = bounds.map(ReferenceTensor::values).unwrap_or_default();
            Ok(dot::check(&p, &f, &reference.values(), &bnd, &candidate.to_f64(), &shape, unjudged))
        }
        Mode::FpSpecial { accumulator_limit } => {
            let f = float_format()?;
            let bnd = bounds.map(ReferenceTensor::values).unwrap_or_default();
            Ok(fp_special(&f, &reference.values(), &bnd, &candidate.to_f64(), &shape, unjudged, accumulator_limit))
        }
        _ => {
            let f = float_format()?;
            let bnd = bounds.map(ReferenceTensor::values);
            let refs = reference.values();
            let cands = candidate.to_f64();
            let mut t = Tracker::new(refs.len());
            for (i, (&r, &c)) in refs.iter().zip(&cands).enumerate() {
                if let Some(why) = unjudged.get_for(i, c) {
                    t.exempt(why);
                    t.record(false, &shape, element(i, r, c, 0.0, 0.0));
                    continue;
                }
                let b = bnd.as_ref().and_then(|b| b.get(i).copied()).unwrap_or(0.0);
                let (low, high) = allowance(mode, &f, r, b);
                let check = check_float_bound(&f, c, r, low, high);
                if low.is_infinite() && high.is_infinite() {
                    t.exempt(Exemption::UnboundedError);
                }
                let d = check.difference();
                // The side of the interval the candidate lies on decides the allowance.
                let allowed = if (d >= 0.0) == (r >= 0.0) { high } else { low };
                let failed = !check.passed();
                let error = if failed || !d.is_nan() { d.abs() } else { 0.0 };
                t.record(failed, &shape, element(i, r, c, error, allowed));
                if let BoundCheck::Fail { why, .. } = check {
                    t.note(why);
                }
            }
            Ok(t.finish(*mode, None))
        }
    }
}

/// `(low, high)` allowances around one reference value.
fn allowance(mode: &Mode, f: &FpFormat, reference: f64, bound: f64) -> (f64, f64) {
    // An infinite fp64 reference comes from a special value the operator's
    // table defines (LOG(±0) = −∞, EXP(+∞) = +∞, ...) or from an fp64
    // overflow: the result must be that infinity (or fp8e4m3's NaN).
    // `calcAbsErrorBound` of an infinite magnitude is infinite, which
    // `check_fp_bnd` would read as "anything goes".
    if reference.is_infinite() {
        return (0.0, 0.0);
    }
    match *mode {
        Mode::Ulp { ulp, ulp_lower } => {
            let u = f.ulp(reference);
            (u * ulp_lower, u * ulp)
        }
        Mode::AbsError(p) => {
            let b = abs_error_bound(f, reference, bound, &p);
            (b, b)
        }
        Mode::Precomputed => (bound, bound),
        Mode::ReduceProduct { n } => {
            let b = reduce_product_bound(f, reference, n);
            (b, b)
        }
        Mode::Relative { max, scale, ulp_bound } => {
            let b = relative_bound(f, max, scale, ulp_bound);
            (b, b)
        }
        Mode::Exact | Mode::DotProduct(_) | Mode::FpSpecial { .. } | Mode::RescaleInexact { .. } => (0.0, 0.0),
    }
}

fn exact_integers(
    mode: &Mode,
    reference: &ReferenceTensor,
    candidate: &TensorData,
    shape: &[usize],
) -> ComplianceResult {
    if let ReferenceTensor::Typed(r) = reference {
        if r.elem() != candidate.elem() {
            let reason = format!("candidate is {}, the reference {}", candidate.elem(), r.elem());
            return Tracker::new(0).finish(*mode, Some(reason));
        }
    }
    let refs = reference.values();
    let cands = candidate.to_f64();
    let mut t = Tracker::new(refs.len());
    for (i, (&r, &c)) in refs.iter().zip(&cands).enumerate() {
        let failed = r != c;
        t.record(failed, shape, element(i, r, c, (c - r).abs(), 0.0));
    }
    t.finish(*mode, None)
}

/// FP_SPECIAL: zeros of either sign match; a NaN result is fine where the
/// reference or the bound is NaN; an element whose finite bound overflows the
/// output with terms of both signs is exempt; otherwise NaN-ness, finiteness
/// and sign agree,
/// the reference taken in the output format (a finite fp64 reference beyond
/// the format's largest value is its infinity there, or NaN for fp8e4m3).
fn fp_special(
    format: &FpFormat,
    refs: &[f64],
    bnds: &[f64],
    cands: &[f64],
    shape: &[usize],
    unjudged: &Unjudged,
    accumulator_limit: Option<f64>,
) -> ComplianceResult {
    let mut t = Tracker::new(refs.len());
    for (i, (&r, &c)) in refs.iter().zip(cands).enumerate() {
        if let Some(why) = unjudged.get_for(i, c) {
            t.exempt(why);
            t.record(false, shape, element(i, r, c, 0.0, 0.0));
            continue;
        }
        let b = bnds.get(i).copied().unwrap_or(0.0);
        // The pseudocode's sum overflows the accumulator (an fp16 AVG_POOL2D
        // window summing past 65504): the operator itself gives inf there.
        if accumulator_limit.is_some_and(|limit| b > limit) {
            t.exempt(Exemption::AccumulatorOverflows);
            t.record(false, shape, element(i, r, c, 0.0, 0.0));
            continue;
        }
        // Terms of both signs (a bound above |reference|) whose bound
        // overflows the output: as DOT_PRODUCT exempts such elements, the
        // accumulation may overflow on the way in an order the operator does
        // not fix (an fp8 product past fp16's range before a bias of the
        // other sign), to either infinity or, both ways, NaN.
        if b.is_finite() && format.overflows(b) && b > r.abs() * (1.0 + 1e-9) {
            t.exempt(Exemption::BoundOverflows);
            t.record(false, shape, element(i, r, c, 0.0, 0.0));
            continue;
        }
        // Between the largest value and the overflow threshold the result
        // rounds to either; both are the reference in the output format.
        let overflows = r.is_finite() && r.abs() > format.normal_max;
        let r = match (overflows, format.has_inf) {
            (true, true) if c.is_infinite() => f64::INFINITY.copysign(r),
            (true, false) if c.is_nan() => f64::NAN,
            _ => r,
        };
        let ok = (r == 0.0 && c == 0.0)
            || (c.is_nan() && (r.is_nan() || b.is_nan()))
            || (r.is_nan() == c.is_nan()
                && r.is_finite() == c.is_finite()
                && r.is_sign_negative() == c.is_sign_negative());
        let error = if ok {
            0.0
        } else if r.is_nan() != c.is_nan() {
            f64::NAN
        } else {
            (c - r).abs()
        };
        t.record(!ok, shape, element(i, r, c, error, 0.0));
    }
    t.finish(Mode::FpSpecial { accumulator_limit }, None)
}

fn rescale_interval(mode: &Mode, lo: &[f64], hi: &[f64], cands: &[f64], shape: &[usize]) -> ComplianceResult {
    let mut t = Tracker::new(lo.len());
    for (i, (&l, &c)) in lo.iter().zip(cands).enumerate() {
        let h = hi.get(i).copied().unwrap_or(l);
        if l > h {
            return t.finish(*mode, Some(format!("bounds at {:?} are inverted: {l} > {h}", position(i, shape))));
        }
        let failed = c < l || c > h;
        let error = if c < l {
            l - c
        } else if c > h {
            c - h
        } else {
            0.0
        };
        // Report against the interval's midpoint so the ratio reads as "how far out".
        t.record(failed, shape, element(i, (l + h) / 2.0, c, error, 0.0));
    }
    t.finish(*mode, None)
}

/// Integer values, reading 8- and 16-bit data as unsigned when asked.
fn int_values(t: &ReferenceTensor, unsigned: bool) -> Vec<f64> {
    match t {
        ReferenceTensor::Typed(d) => unsigned_view(d, unsigned),
        ReferenceTensor::Precise { values, .. } => values.clone(),
    }
}

fn unsigned_view(t: &TensorData, unsigned: bool) -> Vec<f64> {
    match (t.elem(), unsigned) {
        (ElemType::I8, true) => t.to_bits().into_iter().map(|b| f64::from(b as u8)).collect(),
        (ElemType::I16, true) => t.to_bits().into_iter().map(|b| f64::from(b as u16)).collect(),
        _ => t.to_f64(),
    }
}
