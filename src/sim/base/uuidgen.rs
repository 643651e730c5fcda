//! Client-side key generation from the seeded RNG. `Uuid::new_v4()` would read the OS RNG and
//! `Uuid::now_v7()` the wall clock; both would make runs irreproducible.

use super::rng::Rng;
use uuid::{Builder, Uuid};

/// Which UUID version a client mints its keys as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum KeyFormat {
    /// Random (RFC 9562 version 4), what Stripe recommends.
    #[default]
    V4,
    /// Time-ordered (version 7): the simulated clock in the first 48 bits, so keys sort by time
    /// and index well.
    V7,
}

impl KeyFormat {
    /// Both formats.
    pub const ALL: [KeyFormat; 2] = [KeyFormat::V4, KeyFormat::V7];

    /// The stable name used in scenario JSON.
    pub fn id(self) -> &'static str {
        match self {
            Self::V4 => "v4",
            Self::V7 => "v7",
        }
    }
}

/// Mints a key of `format` from `rng`; v7 takes `now_ms` (simulated) as its timestamp.
pub fn mint(rng: &mut Rng, format: KeyFormat, now_ms: u64) -> Uuid {
    let bytes = rng.bytes16();
    match format {
        KeyFormat::V4 => Builder::from_random_bytes(bytes).into_uuid(),
        KeyFormat::V7 => {
            let mut tail = [0u8; 10];
            tail.copy_from_slice(&bytes[..10]);
            Builder::from_unix_timestamp_millis(now_ms, &tail).into_uuid()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_and_reproducibility() {
        let a = mint(&mut Rng::new(5), KeyFormat::V4, 0);
        let b = mint(&mut Rng::new(5), KeyFormat::V4, 0);
        assert_eq!(a, b);
        assert_eq!(a.get_version_num(), 4);
        let v7 = mint(&mut Rng::new(5), KeyFormat::V7, 1_700_000_000_000);
        assert_eq!(v7.get_version_num(), 7);
        let (secs, _) = v7.get_timestamp().expect("v7 has a timestamp").to_unix();
        assert_eq!(secs, 1_700_000_000);
    }

    #[test]
    fn v7_keys_sort_by_simulated_time() {
        let mut r = Rng::new(9);
        let early = mint(&mut r, KeyFormat::V7, 1_000);
        let late = mint(&mut r, KeyFormat::V7, 2_000);
        assert!(early < late);
    }
}
