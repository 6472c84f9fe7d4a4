//! Numeric helpers shared by every metric family (spec README Sec 9).

/// The largest of `xs`, or `start` when it is larger (NaN values are passed over, as
/// `f64::max` does): by comparison, because `f64::max` is a library call in wasm (measured at
/// 3 % of a browser audit with two sensitive columns).
pub fn max_of(xs: impl IntoIterator<Item = f64>, start: f64) -> f64 {
    xs.into_iter().fold(start, |m, x| if x > m { x } else { m })
}

/// `x`, or 0 when it is below 0 (or NaN), as `x.max(0.0)`, by comparison ([`max_of`]).
#[inline]
pub fn at_least_zero(x: f64) -> f64 {
    if x > 0.0 { x } else { 0.0 }
}

/// Keeps the first `n` items of `items` in `order`, sorted (a selection, then a sort of those
/// `n`: not a sort of every item).
pub fn first_in_order<T>(items: &mut Vec<T>, n: usize, mut order: impl FnMut(&T, &T) -> std::cmp::Ordering) {
    if items.len() > n {
        items.select_nth_unstable_by(n, &mut order);
        items.truncate(n);
    }
    items.sort_by(order);
}

/// The first `n` items in an order of those offered one at a time, and how many were offered:
/// the first `n` of a stable sort of every item offered, without holding every item, only a
/// sorted list of at most `n` (items equal in the order keep the order they were offered in).
pub struct FirstInOrder<T, F> {
    n: usize,
    order: F,
    items: Vec<T>,
    offered: usize,
}

impl<T, F: Fn(&T, &T) -> std::cmp::Ordering> FirstInOrder<T, F> {
    pub fn new(n: usize, order: F) -> Self {
        Self { n, order, items: Vec::with_capacity(n), offered: 0 }
    }

    /// Offers `item`.
    pub fn offer(&mut self, item: T) {
        self.offered += 1;
        if self.items.len() == self.n {
            match self.items.last() {
                Some(last) if (self.order)(&item, last).is_lt() => {
                    self.items.pop();
                }
                _ => return,
            }
        }
        let at = self.items.partition_point(|x| (self.order)(x, &item).is_le());
        self.items.insert(at, item);
    }

    /// How many items were offered.
    pub fn offered(&self) -> usize {
        self.offered
    }

    /// The first `n` of them, in order.
    pub fn items(&self) -> &[T] {
        &self.items
    }
}

/// The smallest of `xs`, or `start` when it is smaller ([`max_of`]'s mirror).
pub fn min_of(xs: impl IntoIterator<Item = f64>, start: f64) -> f64 {
    xs.into_iter().fold(start, |m, x| if x < m { x } else { m })
}

/// Whether two values are equal up to rounding (relative `1e-12`, absolute below 1): the same
/// figure summed in another order must not decide a choice or a worst case.
/// (The scale by comparison, [`max_of`]: it runs for every class of an audit, 9 times in the
/// attribute family, where `f64::max`'s library calls in wasm took 16 ms of a 1M-row audit.)
pub fn ties(x: f64, y: f64) -> bool {
    (x - y).abs() <= 1e-12 * max_of([x.abs(), y.abs()], 1.0)
}

/// Neumaier compensated sum (spec README Sec 9).
pub fn neumaier(values: impl IntoIterator<Item = f64>) -> f64 {
    let (mut sum, mut comp) = (0.0f64, 0.0f64);
    for v in values {
        let t = sum + v;
        comp += if sum.abs() >= v.abs() { (sum - t) + v } else { (v - t) + sum };
        sum = t;
    }
    sum + comp
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extremes_pass_over_nan_like_f64_max_and_min() {
        let xs = [3.0, f64::NAN, -1.0, 7.5, 2.0];
        assert_eq!(max_of(xs, f64::NEG_INFINITY), 7.5);
        assert_eq!(min_of(xs, f64::INFINITY), -1.0);
        assert_eq!(max_of(xs, 10.0), 10.0);
        assert_eq!(min_of([], 4.0), 4.0);
        assert_eq!(max_of(xs, 0.0), xs.iter().copied().fold(0.0, f64::max));
        assert_eq!(min_of(xs, f64::INFINITY), xs.iter().copied().fold(f64::INFINITY, f64::min));
        for x in [-2.0, -0.0, 0.0, 1e-300, 3.5] {
            assert_eq!(at_least_zero(x), x.max(0.0), "{x}");
        }
        assert_eq!(at_least_zero(f64::NAN), 0.0);
    }

    #[test]
    fn ties_scale_like_f64_max() {
        let xs = [0.0, -0.0, 1.0, -1.0, 0.5, 1.0 + 1e-13, 1e12, 1e12 + 0.5, 1e12 + 2.0, -3e15, f64::NAN, f64::INFINITY];
        for x in xs {
            for y in xs {
                let with_max = (x - y).abs() <= 1e-12 * x.abs().max(y.abs()).max(1.0);
                assert_eq!(ties(x, y), with_max, "{x} {y}");
            }
        }
        assert!(ties(1.0, 1.0 + 1e-13) && ties(1e12, 1e12 + 0.5) && !ties(1e12, 1e12 + 2.0) && !ties(f64::NAN, f64::NAN));
    }

    proptest::proptest! {
        /// Offered one at a time, the first `n` are those of a stable sort of all, ties
        /// included (the order looks at the key only; the tag tells equal keys apart).
        #[test]
        fn first_in_order_streamed_is_a_stable_sort_cut(keys in proptest::collection::vec(0u8..6, 0..80), n in 0usize..25) {
            let items: Vec<(u8, usize)> = keys.iter().copied().zip(0..).collect();
            let order = |a: &(u8, usize), b: &(u8, usize)| a.0.cmp(&b.0);
            let mut first = FirstInOrder::new(n, order);
            for &item in &items {
                first.offer(item);
            }
            let mut sorted = items.clone();
            sorted.sort_by(order);
            sorted.truncate(n);
            proptest::prop_assert_eq!(first.items(), &sorted[..]);
            proptest::prop_assert_eq!(first.offered(), items.len());
        }
    }
}
