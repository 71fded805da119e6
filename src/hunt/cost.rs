//! What a backend's case costs, learnt from its own batches, so that a
//! guided feed can rank its candidates by new cells per second rather than
//! by new cells alone.
//!
//! Without the cost, a guided feed prefers the largest graphs (they carry
//! the most cells), and a backend whose time grows with the graph judges
//! few cases. Like a fuzzer that favours the fastest input for each edge,
//! the feed divides what a candidate brings by what it would cost.
//!
//! The model is linear: a batch of `n` cases with `o` operators in all
//! takes `a·n + b·o` seconds, `a` the backend's fixed cost per case (a
//! process, a pipeline, a compile invocation) and `b` its cost per
//! operator. `a` and `b` are fitted by least squares over every batch so
//! far; until the batches tell them apart, they count alike.

/// The fitted cost of a backend's cases (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CostModel {
    // Sums over batches of n², n·o, o², n·t, o·t: the normal equations.
    nn: f64,
    no: f64,
    oo: f64,
    nt: f64,
    ot: f64,
    batches: u32,
}

/// Batches before the fit is trusted over the prior.
const MIN_BATCHES: u32 = 3;

impl CostModel {
    /// A model that has seen nothing: every case costs one plus its operators.
    pub fn new() -> CostModel {
        CostModel::default()
    }

    /// Learns that a batch of `cases` cases with `operators` operators in
    /// all took `seconds`. Empty or unmeasurable batches teach nothing.
    pub fn learn(&mut self, cases: usize, operators: usize, seconds: f64) {
        if cases == 0 || !seconds.is_finite() || seconds < 0.0 {
            return;
        }
        let (n, o) = (cases as f64, operators as f64);
        self.nn += n * n;
        self.no += n * o;
        self.oo += o * o;
        self.nt += n * seconds;
        self.ot += o * seconds;
        self.batches = self.batches.saturating_add(1);
    }

    /// The fixed cost per case and the cost per operator, in seconds, or
    /// `None` while the batches cannot tell them apart (too few, or every
    /// batch with the same operators per case).
    pub fn fitted(&self) -> Option<(f64, f64)> {
        if self.batches < MIN_BATCHES {
            return None;
        }
        let det = self.nn * self.oo - self.no * self.no;
        // Relative to the terms it is the difference of: near zero, the
        // batches are (nearly) proportional and the system is singular.
        if det <= 1e-9 * self.nn * self.oo {
            return None;
        }
        let a = (self.nt * self.oo - self.ot * self.no) / det;
        let b = (self.nn * self.ot - self.no * self.nt) / det;
        // Costs are not negative: a negative term is noise around zero, so
        // the other carries the whole cost (refitted alone).
        match (a > 0.0, b > 0.0) {
            (true, true) => Some((a, b)),
            (true, false) => Some((self.nt / self.nn, 0.0)),
            (false, true) => Some((0.0, self.ot / self.oo)),
            (false, false) => None,
        }
    }

    /// What a case of `operators` operators is expected to cost, in the
    /// model's units: seconds once fitted, else one per case and one per
    /// operator. Always positive, so that it can divide.
    pub fn cost(&self, operators: usize) -> f64 {
        let o = operators as f64;
        let c = match self.fitted() {
            Some((a, b)) => a + b * o,
            None => 1.0 + o,
        };
        c.max(f64::MIN_POSITIVE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prior_counts_a_case_and_each_operator_alike() {
        let m = CostModel::new();
        assert_eq!(m.fitted(), None);
        assert_eq!(m.cost(0), 1.0);
        assert_eq!(m.cost(4), 5.0);
    }

    #[test]
    fn batches_of_mixed_sizes_recover_the_fixed_and_per_operator_costs() {
        let mut m = CostModel::new();
        // 0.3 s per case and 0.05 s per operator.
        for (n, o) in [(1, 2), (4, 9), (2, 14), (8, 20), (3, 3)] {
            m.learn(n, o, 0.3 * n as f64 + 0.05 * o as f64);
        }
        let (a, b) = m.fitted().unwrap();
        assert!((a - 0.3).abs() < 1e-9 && (b - 0.05).abs() < 1e-9, "{a} {b}");
        assert!((m.cost(10) - 0.8).abs() < 1e-9);
    }

    #[test]
    fn proportional_batches_leave_the_prior() {
        let mut m = CostModel::new();
        // Every batch has 3 operators per case: a and b cannot be told apart.
        for n in 1..6 {
            m.learn(n, 3 * n, n as f64);
        }
        assert_eq!(m.fitted(), None);
        assert_eq!(m.cost(3), 4.0);
    }

    #[test]
    fn a_backend_with_a_fixed_cost_per_case_costs_the_same_at_every_size() {
        let mut m = CostModel::new();
        // 2 s per case whatever its size, with a little noise that would fit
        // a slightly negative cost per operator.
        for (n, o, t) in [(1, 2, 2.01), (2, 30, 3.98), (4, 9, 8.0), (3, 40, 5.99)] {
            m.learn(n, o, t);
        }
        let (a, b) = m.fitted().unwrap();
        assert_eq!(b, 0.0);
        assert!((a - 2.0).abs() < 0.01, "{a}");
        assert_eq!(m.cost(1), m.cost(50));
    }

    #[test]
    fn empty_or_unmeasurable_batches_teach_nothing() {
        let mut m = CostModel::new();
        m.learn(0, 5, 1.0);
        m.learn(2, 5, f64::NAN);
        m.learn(2, 5, -1.0);
        assert_eq!(m, CostModel::new());
    }
}
