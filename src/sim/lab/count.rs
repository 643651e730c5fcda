//! The textbook schedule count: k requests of n atomic steps interleave in (kn)!/(n!)^k ways.

/// (kn)!/(n!)^k with checked arithmetic; `None` when it does not fit in `u128`.
///
/// Computed as the product of binomials C(n,n)·C(2n,n)·…·C(kn,n): placing the i-th request's n
/// steps among the first i·n slots. Each binomial is built as C(m,j+1) = C(m,j)·(m-j)/(j+1), which
/// stays an exact integer at every step, so no factorial is ever formed.
pub fn raw_schedule_count(requests: usize, steps: usize) -> Option<u128> {
    let mut total: u128 = 1;
    for i in 1..=requests {
        let m = u128::try_from(i.checked_mul(steps)?).ok()?;
        let mut binomial: u128 = 1;
        for j in 0..u128::try_from(steps).ok()? {
            binomial = binomial.checked_mul(m - j)? / (j + 1);
        }
        total = total.checked_mul(binomial)?;
    }
    Some(total)
}
