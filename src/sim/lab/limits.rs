//! Every limit of the lab, named once. The values match the simulation's own limits where they
//! overlap (amounts, balances, 2..=10 parallel requests) so a lab scenario is also a valid one there.

/// Fewest concurrent requests: one request is not concurrency.
pub const REQUESTS_MIN: usize = 2;
/// Most concurrent requests; also the size of the fixed arrays in [`super::LabState`].
pub const REQUESTS_MAX: usize = 10;
/// Smallest chargeable amount (minor units).
pub const AMOUNT_MIN: i64 = 1;
/// Largest chargeable amount: Stripe caps amounts at 8 digits.
pub const AMOUNT_MAX: i64 = 99_999_999;
/// Smallest initial balance: an empty account still answers (with InsufficientFunds).
pub const BALANCE_MIN: i64 = 0;
/// Largest initial balance (10^12 minor units).
pub const BALANCE_MAX: i64 = 1_000_000_000_000;
/// Steps every request takes in every model: check | charge | store. A request that returned early
/// spends the rest of its steps returned, so every schedule has the same length.
pub const STEPS_PER_REQUEST: usize = 3;
/// Longest schedule: every step of the largest scenario.
pub const SCHEDULE_MAX: usize = REQUESTS_MAX * STEPS_PER_REQUEST;
/// Most complete schedules an exhaustive search without state caching may enumerate. 5 million
/// schedules of up to 15 steps is a few seconds of page time; 4 requests of 3 steps (369,600) fit.
pub const RAW_SCHEDULES_BUDGET: u128 = 5_000_000;
/// Most requests an exhaustive search with state caching accepts. The distinct states grow about
/// twentyfold per request (same-key TOCTOU: 28, 341, 5,876, 124,877 for 2..=5 requests); 6 requests
/// pass 2 million states, too many for a page, while 5 stay far under [`STATE_BUDGET`].
pub const CACHED_REQUESTS_MAX: usize = 5;
/// Most distinct states a cached search may store before it stops: about 200 bytes each plus the
/// summary, so this bounds the page's memory to a few hundred MB even if a model grows more states.
pub const STATE_BUDGET: usize = 1_000_000;
/// Most random schedules one sample may try.
pub const SAMPLES_MAX: u64 = 1_000_000;
