//! Faults a learner can inject per attempt. From the client's side every fault but
//! `ProcessorError` looks the same: a timeout.

use super::trace::CrashPoint;

/// What goes wrong with one attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Fault {
    /// Nothing.
    #[default]
    None,
    /// The network drops the request: the server never sees it.
    RequestLost,
    /// The server processes the request; the network drops the reply.
    ResponseLost,
    /// The worker crashes before touching the balance.
    CrashBeforeCharge,
    /// The worker crashes after the charge, before the idempotency record is written.
    CrashAfterChargeBeforeRecord,
    /// The worker crashes after everything committed, before replying.
    CrashAfterCommitBeforeReply,
    /// The upstream processor fails transiently (503); nothing is charged.
    ProcessorError,
    /// The card processor charges at once but answers the server only after the world's slow
    /// latency (`Downstream::slow_ms`); with the processor off (`processor_ms` 0) nothing happens.
    ProcessorSlow,
    /// The key store cannot be reached for this attempt (its check and its write fail).
    StoreUnreachable,
    /// The database aborts the charge's transaction with a serialization failure (SQLSTATE
    /// 40001): nothing commits.
    SerializationFailure,
}

impl Fault {
    /// Every fault, in menu order.
    pub const ALL: [Fault; 7] = [
        Fault::None,
        Fault::RequestLost,
        Fault::ResponseLost,
        Fault::CrashBeforeCharge,
        Fault::CrashAfterChargeBeforeRecord,
        Fault::CrashAfterCommitBeforeReply,
        Fault::ProcessorError,
    ];

    /// Every fault: the article's ([`Fault::ALL`], which the property checks, the soak and the
    /// JSON records draw from, so their cases stay the same) and issue 13's, in menu order.
    pub const EVERY: [Fault; 10] = {
        const NEW: [Fault; 3] = [
            Fault::ProcessorSlow,
            Fault::StoreUnreachable,
            Fault::SerializationFailure,
        ];
        let mut every = [Fault::None; 10];
        let mut i = 0;
        while i < every.len() {
            every[i] = if i < Fault::ALL.len() {
                Fault::ALL[i]
            } else {
                NEW[i - Fault::ALL.len()]
            };
            i += 1;
        }
        every
    };

    /// The stable name used in scenario JSON.
    pub fn id(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::RequestLost => "request-lost",
            Self::ResponseLost => "response-lost",
            Self::CrashBeforeCharge => "crash-before-charge",
            Self::CrashAfterChargeBeforeRecord => "crash-after-charge-before-record",
            Self::CrashAfterCommitBeforeReply => "crash-after-commit-before-reply",
            Self::ProcessorError => "processor-error",
            Self::ProcessorSlow => "processor-slow",
            Self::StoreUnreachable => "store-unreachable",
            Self::SerializationFailure => "serialization-failure",
        }
    }

    /// Where the server crashes, for the crash faults.
    pub fn crash_point(self) -> Option<CrashPoint> {
        match self {
            Self::CrashBeforeCharge => Some(CrashPoint::BeforeCharge),
            Self::CrashAfterChargeBeforeRecord => Some(CrashPoint::AfterChargeBeforeRecord),
            Self::CrashAfterCommitBeforeReply => Some(CrashPoint::AfterCommitBeforeReply),
            _ => None,
        }
    }

    /// True if the client sees a timeout rather than an answer.
    pub fn looks_like_timeout(self) -> bool {
        !matches!(
            self,
            Self::None | Self::ProcessorError | Self::StoreUnreachable | Self::SerializationFailure
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crash_points() {
        assert_eq!(Fault::None.crash_point(), None);
        assert_eq!(
            Fault::CrashAfterChargeBeforeRecord.crash_point(),
            Some(CrashPoint::AfterChargeBeforeRecord)
        );
        assert_eq!(
            Fault::ALL
                .iter()
                .filter(|f| f.crash_point().is_some())
                .count(),
            3
        );
        assert!(Fault::RequestLost.looks_like_timeout());
        assert!(!Fault::ProcessorError.looks_like_timeout());
    }

    #[test]
    fn ids_are_stable_and_distinct() {
        assert_eq!(
            Fault::CrashAfterChargeBeforeRecord.id(),
            "crash-after-charge-before-record"
        );
        let mut ids = Fault::ALL.map(Fault::id).to_vec();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), Fault::ALL.len());
        let mut every = Fault::EVERY.map(Fault::id).to_vec();
        every.sort_unstable();
        every.dedup();
        assert_eq!(every.len(), Fault::EVERY.len());
        assert_eq!(Fault::EVERY[..Fault::ALL.len()], Fault::ALL);
    }
}
