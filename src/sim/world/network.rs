//! The simulated network: one-way latency in simulated ms plus seeded jitter.

use crate::sim::base::rng::Rng;
use crate::sim::limits::{check_duration, DurationField, InputError, MAX_LATENCY_MS};

/// Latency settings of the link between clients and server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Network {
    /// Base one-way latency.
    pub latency_ms: u64,
    /// Extra random latency, uniformly 0..=jitter_ms per message.
    pub jitter_ms: u64,
}

impl Network {
    /// Checks both settings against `MAX_LATENCY_MS`.
    pub fn validate(&self) -> Result<(), InputError> {
        check_duration(DurationField::Latency, self.latency_ms, 0, MAX_LATENCY_MS)?;
        check_duration(DurationField::Jitter, self.jitter_ms, 0, MAX_LATENCY_MS)?;
        Ok(())
    }

    /// The one-way delay of the next message. Draws from the RNG only when there is jitter, so
    /// a jitter-free run does not depend on how many messages were sent.
    pub fn delay(&self, rng: &mut Rng) -> u64 {
        if self.jitter_ms == 0 {
            self.latency_ms
        } else {
            self.latency_ms
                .saturating_add(rng.below_inclusive(self.jitter_ms))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delay_within_bounds() {
        let n = Network {
            latency_ms: 10,
            jitter_ms: 5,
        };
        let mut r = Rng::new(1);
        for _ in 0..100 {
            let d = n.delay(&mut r);
            assert!((10..=15).contains(&d));
        }
        let fixed = Network {
            latency_ms: 7,
            jitter_ms: 0,
        };
        assert_eq!(fixed.delay(&mut r), 7);
        assert!(Network {
            latency_ms: MAX_LATENCY_MS + 1,
            jitter_ms: 0
        }
        .validate()
        .is_err());
    }
}
