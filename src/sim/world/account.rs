//! Who sends a request and what its body carries (issue 13, sections 2 and 4): callers with
//! accounts, a client that stamps every body, a request without a key; and the policies a
//! production service applies to them: how keys are scoped, which fields the fingerprint covers,
//! whether the parameters are checked on every path, what a missing key gets. Every default is
//! the behaviour the world had before these existed, so old scenarios run exactly as before.

use crate::sim::base::hash::fnv1a;
use crate::sim::limits::{InputError, MAX_ACCOUNT};

/// The client a request comes from. The default is the single client every request had before.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Caller {
    /// The caller's account, 0..=`MAX_ACCOUNT` (0: the default account).
    pub account: u32,
    /// The client adds the time it sends an attempt to the body (a `sent_at` field), so two
    /// attempts of one operation never have the same body.
    pub stamps_body: bool,
    /// The request carries an `Idempotency-Key` header; false sends none.
    pub sends_key: bool,
}

impl Default for Caller {
    fn default() -> Self {
        Caller {
            account: 0,
            stamps_body: false,
            sends_key: true,
        }
    }
}

impl Caller {
    /// Checks the account against `MAX_ACCOUNT`.
    pub fn validate(&self) -> Result<(), InputError> {
        if self.account > MAX_ACCOUNT {
            return Err(InputError::AccountOutOfRange {
                account: self.account,
                max: MAX_ACCOUNT,
            });
        }
        Ok(())
    }
}

/// What a production service looks a key up by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum KeyScope {
    /// By (account, key). The IETF draft's security considerations
    /// (<https://datatracker.ietf.org/doc/draft-ietf-httpapi-idempotency-key-header/>): with
    /// low-entropy keys "attackers MAY determine other keys and use them to fetch existing
    /// idempotent cache entries, belonging to other clients", so the resource should "implement a
    /// unique composite key", the client's key combined with client-specific attributes.
    /// rocket-rides-atomic (<https://github.com/brandur/rocket-rides-atomic>, `schema.sql`) has a
    /// unique index on `(user_id, idempotency_key)`.
    #[default]
    Account,
    /// By the key alone, whoever sends it: the article's services. Two customers who both send
    /// `order-1` share one record, and the second is answered with the first one's receipt.
    Global,
}

impl KeyScope {
    /// Both scopes.
    pub const ALL: [KeyScope; 2] = [KeyScope::Account, KeyScope::Global];

    /// The stable name used in scenario JSON.
    pub fn id(self) -> &'static str {
        match self {
            Self::Account => "account",
            Self::Global => "global",
        }
    }
}

/// Which fields of a request the production service's fingerprint covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum FingerprintFields {
    /// The fields that make the request what it is: amount and description. Stripe compares
    /// "incoming parameters to those of the original request"
    /// (<https://docs.stripe.com/api/idempotent_requests>); AWS Lambda Powertools lets the
    /// service name them with `payload_validation_jmespath`
    /// (<https://docs.powertools.aws.dev/lambda/python/latest/utilities/idempotency/>).
    #[default]
    Chosen,
    /// The whole body as sent, every field included: the IETF draft lists a "checksum of the entire
    /// request payload" among its fingerprints (beside selected elements). With a client that stamps each attempt's body, every retry differs: a false
    /// mismatch.
    WholeBody,
    /// The description only (a `payload_validation_jmespath` naming too few fields): a retry
    /// with another amount is replayed as if it were the same request.
    DescriptionOnly,
}

impl FingerprintFields {
    /// Every choice.
    pub const ALL: [FingerprintFields; 3] = [
        FingerprintFields::Chosen,
        FingerprintFields::WholeBody,
        FingerprintFields::DescriptionOnly,
    ];

    /// The stable name used in scenario JSON.
    pub fn id(self) -> &'static str {
        match self {
            Self::Chosen => "chosen",
            Self::WholeBody => "whole-body",
            Self::DescriptionOnly => "description-only",
        }
    }

    /// The fingerprint of a request: `chosen` is the amount-and-description fingerprint the
    /// service always had (unchanged, so old runs store the same rows), `description` that of the
    /// description alone, `sent_at` the time stamped into the body, if the client stamps it.
    pub fn of(self, chosen: u64, description: u64, sent_at: Option<u64>) -> u64 {
        match (self, sent_at) {
            (Self::Chosen, _) | (Self::WholeBody, None) => chosen,
            (Self::WholeBody, Some(t)) => fnv1a(fnv1a(chosen, &[0xfe]), &t.to_le_bytes()),
            (Self::DescriptionOnly, _) => description,
        }
    }
}

/// Where the production service compares a found record's parameters with the request's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum PayloadCheck {
    /// Wherever a record is found: AWS Lambda Powertools after its fixes.
    #[default]
    EveryPath,
    /// Only when the record is read, not when the conditional write that claims the key finds
    /// it: AWS Lambda Powertools' bug, where a completed record returned by the failed
    /// conditional put was replayed without payload validation (Python
    /// <https://github.com/aws-powertools/powertools-lambda-python/issues/3781>, TypeScript
    /// #2058, Java #2260). The service with an in-flight record claims keys that way.
    ReadPathOnly,
}

impl PayloadCheck {
    /// Both.
    pub const ALL: [PayloadCheck; 2] = [PayloadCheck::EveryPath, PayloadCheck::ReadPathOnly];

    /// The stable name used in scenario JSON.
    pub fn id(self) -> &'static str {
        match self {
            Self::EveryPath => "every-path",
            Self::ReadPathOnly => "read-path-only",
        }
    }
}

/// What the production service does with a request that carries no key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum MissingKey {
    /// Runs it without protection: AWS Lambda Powertools by default (it only warns; the flag
    /// came in <https://github.com/aws-powertools/powertools-lambda-python/pull/297>), and
    /// Stripe, whose key is an optional header (<https://docs.stripe.com/api/idempotent_requests>).
    #[default]
    RunUnprotected,
    /// Answers 400: the IETF draft ("If the `Idempotency-Key` request header is missing for a
    /// documented idempotent operation requiring this header, the resource SHOULD reply with an
    /// HTTP `400`"); AWS Lambda Powertools with `raise_on_no_idempotency_key=True` raises
    /// `IdempotencyKeyError`; rocket-rides-atomic asks for the header.
    Reject400,
}

impl MissingKey {
    /// Both.
    pub const ALL: [MissingKey; 2] = [MissingKey::RunUnprotected, MissingKey::Reject400];

    /// The stable name used in scenario JSON.
    pub fn id(self) -> &'static str {
        match self {
            Self::RunUnprotected => "run-unprotected",
            Self::Reject400 => "reject-400",
        }
    }
}

/// The production service's policies for who sends what. Kept apart from `Policies` (whose
/// fields are fixed by the saved-scenario format) and applied to a world with
/// [`super::World::with_requests`]; the other services ignore them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct RequestPolicies {
    /// What a key is looked up by.
    pub scope: KeyScope,
    /// Which fields the fingerprint covers.
    pub fingerprint: FingerprintFields,
    /// Where the parameters are compared.
    pub payload_check: PayloadCheck,
    /// What a request without a key gets.
    pub missing_key: MissingKey,
}

impl RequestPolicies {
    /// True when every policy is the default (the JSON leaves them out).
    pub fn is_default(&self) -> bool {
        *self == RequestPolicies::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_by_fields() {
        let (chosen, desc) = (11, 22);
        for f in FingerprintFields::ALL {
            assert_eq!(
                f.of(chosen, desc, None) == chosen,
                f != FingerprintFields::DescriptionOnly
            );
        }
        let w = FingerprintFields::WholeBody;
        assert_ne!(w.of(chosen, desc, Some(1)), w.of(chosen, desc, Some(2)));
        assert_eq!(FingerprintFields::Chosen.of(chosen, desc, Some(1)), chosen);
        assert!(Caller {
            account: MAX_ACCOUNT + 1,
            ..Caller::default()
        }
        .validate()
        .is_err());
    }
}
