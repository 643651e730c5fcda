//! The sandbox form's state: what the learner typed and picked, as one reducer, and the input each
//! button makes of it. Every field is checked against the core's limits when a button is pressed;
//! a bad value only gives a message. What the sandbox's fieldsets (and the service picker, the
//! lesson's restore button, the challenge's solution) ask of the page is a [`Change`].

use std::rc::Rc;

use yew::Reducible;

use crate::sim::limits::{read_field, InputError, TypedField};
use crate::sim::Scenario;
use crate::sim::{mint, validate_header_key, Caller, Fault, Input, KeyFormat, RequestSpec, Rng};
use crate::sim::{KeyStrategy, RetryKind, RetryPolicy};

/// What the sandbox asks the page to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// Append an input to the script.
    Push(Input),
    /// Replace the scenario (services or policies changed); the step is kept.
    Replace(Scenario),
}

/// One hour of simulated time, in ms.
pub const HOUR_MS: u64 = 3_600_000;

/// The value of `all` whose `id` is `value` (what a select's option carries).
pub fn by_id<T: Copy, const N: usize>(
    all: [T; N],
    id: fn(T) -> &'static str,
    value: &str,
) -> Option<T> {
    all.into_iter().find(|t| id(*t) == value)
}

/// The sandbox's retry policy of each kind: the delays are the sandbox's choice.
pub fn retry_policy(kind: RetryKind) -> RetryPolicy {
    match kind {
        RetryKind::None => RetryPolicy::None,
        RetryKind::Immediate => RetryPolicy::Immediate,
        RetryKind::Fixed => RetryPolicy::Fixed { delay_ms: 500 },
        RetryKind::ExponentialJitter => RetryPolicy::ExponentialJitter {
            base_ms: 200,
            cap_ms: 5_000,
        },
    }
}

/// A typed amount or deposit, within the amounts' range (so it fits an `i64`).
fn parse_amount(field: TypedField, text: &str) -> Result<i64, InputError> {
    read_field(field, text).map(|n| n as i64)
}

/// The form as the learner left it.
#[derive(Clone, Debug, PartialEq)]
pub struct SandboxForm {
    /// The idempotency key; empty lets the client mint a UUID.
    pub key: String,
    /// The amount of a charge or an operation.
    pub amount: String,
    /// The fault for the next attempt (the first of an operation).
    pub fault: Fault,
    /// Keys generated so far (each generation is seeded by this count).
    pub minted: u64,
    /// How many concurrent duplicates.
    pub parallel: String,
    /// The retrying client's policy.
    pub retry: RetryKind,
    /// The retrying client's attempts.
    pub attempts: String,
    /// The retrying client mints a new key per retry (the common bug).
    pub new_key_per_retry: bool,
    /// The amount of a deposit.
    pub deposit: String,
    /// The relay crashes after publishing.
    pub crash_relay: bool,
    /// Why the last button did nothing, in the page language.
    pub error: Option<String>,
    /// The button whose move the challenge refused, and why (shown under that button).
    pub refused: Option<(Submit, String)>,
    /// Who sends the next charge or client (issue 13): account, stamped body, no key.
    pub caller: Caller,
}

impl Default for SandboxForm {
    fn default() -> Self {
        SandboxForm {
            key: String::new(),
            amount: "100".into(),
            fault: Fault::None,
            minted: 0,
            parallel: "2".into(),
            retry: RetryKind::Fixed,
            attempts: "3".into(),
            new_key_per_retry: false,
            deposit: "500".into(),
            crash_relay: false,
            error: None,
            refused: None,
            caller: Caller::default(),
        }
    }
}

/// An edit of the form.
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    /// The key field.
    Key(String),
    /// The amount field.
    Amount(String),
    /// The fault select.
    Fault(Fault),
    /// A generated key of this format; `seed` is the scenario's, so the same clicks give the
    /// same keys.
    Mint(KeyFormat, u64),
    /// The number of concurrent duplicates.
    Parallel(String),
    /// The retry policy select.
    Retry(RetryKind),
    /// The attempts field.
    Attempts(String),
    /// The new-key-per-retry box.
    ToggleNewKeyPerRetry,
    /// The deposit field.
    Deposit(String),
    /// The relay-crashes box.
    ToggleCrashRelay,
    /// The outcome of the last button: a message, or none.
    Said(Option<String>),
    /// The challenge refused the move of this button, for this reason.
    Refused(Submit, String),
    /// The account select (an account number as typed in the option's value).
    Account(u32),
    /// The stamped-body box.
    ToggleStamp,
    /// The no-key box.
    ToggleNoKey,
}

impl Reducible for SandboxForm {
    type Action = Edit;

    fn reduce(self: Rc<Self>, edit: Edit) -> Rc<Self> {
        let mut f = (*self).clone();
        match edit {
            Edit::Key(v) => f.key = v,
            Edit::Amount(v) => f.amount = v,
            Edit::Fault(v) => f.fault = v,
            Edit::Mint(format, seed) => {
                // Seeded like the simulation.
                let mut rng = Rng::new(seed ^ 0x5eed_0000_0000_0000 ^ f.minted);
                let now = (f.minted + 1) * 1000;
                f.key = mint(&mut rng, format, now).to_string();
                f.minted += 1;
            }
            Edit::Parallel(v) => f.parallel = v,
            Edit::Retry(v) => f.retry = v,
            Edit::Attempts(v) => f.attempts = v,
            Edit::ToggleNewKeyPerRetry => f.new_key_per_retry = !f.new_key_per_retry,
            Edit::Deposit(v) => f.deposit = v,
            Edit::ToggleCrashRelay => f.crash_relay = !f.crash_relay,
            Edit::Said(v) => {
                f.error = v;
                f.refused = None;
            }
            Edit::Refused(s, why) => {
                f.error = None;
                f.refused = Some((s, why));
            }
            Edit::Account(a) => f.caller.account = a,
            Edit::ToggleStamp => f.caller.stamps_body = !f.caller.stamps_body,
            Edit::ToggleNoKey => f.caller.sends_key = !f.caller.sends_key,
        }
        Rc::new(f)
    }
}

/// What a button asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Submit {
    /// One charge with the typed key (or a minted one).
    Charge,
    /// The last operation again, with the same key or a new one.
    Retry {
        /// Mint a fresh key for it.
        new_key: bool,
    },
    /// Concurrent duplicates with one key.
    Parallel,
    /// A retrying client.
    Operation,
    /// Move simulated time.
    Advance(u64),
    /// A deposit.
    Deposit,
    /// One relay tick.
    Relay,
}

impl SandboxForm {
    /// Why the challenge refused the move of button `s`, if it did.
    pub fn refused_at(&self, s: Submit) -> Option<&str> {
        self.refused
            .as_ref()
            .filter(|r| r.0 == s)
            .map(|r| r.1.as_str())
    }

    fn typed_key(&self) -> Result<Option<String>, InputError> {
        let k = self.key.trim().to_string();
        if k.is_empty() {
            Ok(None)
        } else {
            // As the IETF draft's header carries it: an sf-string of printable ASCII.
            validate_header_key(&k)?;
            Ok(Some(k))
        }
    }

    /// Concurrent duplicates with one key: the typed one, else `last_key` (the last client
    /// operation's), else a fixed one.
    fn parallel(&self, last_key: Option<&str>) -> Result<Input, InputError> {
        // Within 2..=10, so it fits.
        let n = read_field(TypedField::ConcurrentRequests, &self.parallel)? as usize;
        let key = self.typed_key()?;
        let spec = RequestSpec {
            amount: parse_amount(TypedField::Amount, &self.amount)?,
            key: Some(
                key.or_else(|| last_key.map(str::to_string))
                    .unwrap_or_else(|| "same-key".to_string()),
            ),
            key_format: KeyFormat::V4,
            description: "order".into(),
            fault: Fault::None,
        };
        Ok(Input::Parallel {
            requests: vec![spec; n],
            same_key: true,
        })
    }

    /// A retrying client: the fault picked applies to its first try only.
    fn operation(&self) -> Result<Input, InputError> {
        Ok(Input::Operation {
            amount: parse_amount(TypedField::Amount, &self.amount)?,
            description: "order".into(),
            key_format: KeyFormat::V4,
            key_strategy: if self.new_key_per_retry {
                KeyStrategy::NewPerRetry
            } else {
                KeyStrategy::Reuse
            },
            retry: retry_policy(self.retry),
            // Within 1..=20, so it fits.
            max_attempts: read_field(TypedField::MaxAttempts, &self.attempts)? as u32,
            faults: if self.fault == Fault::None {
                vec![]
            } else {
                vec![self.fault]
            },
        })
    }

    /// The input a button makes of the form, checked against the core's limits. `last_key` is
    /// the key of the last client operation (concurrent duplicates reuse it when none is typed).
    pub fn input(&self, submit: Submit, last_key: Option<&str>) -> Result<Input, InputError> {
        let input = match submit {
            Submit::Charge => {
                let key = self.typed_key()?;
                Input::Request {
                    key,
                    key_format: KeyFormat::V4,
                    amount: parse_amount(TypedField::Amount, &self.amount)?,
                    description: "order".into(),
                    fault: self.fault,
                }
            }
            // A retry is the last operation again (same amount and description), judged as a retry.
            Submit::Retry { new_key } => Input::Retry {
                new_key,
                fault: self.fault,
            },
            Submit::Parallel => self.parallel(last_key)?,
            Submit::Operation => self.operation()?,
            Submit::Advance(ms) => Input::AdvanceTime { ms },
            Submit::Deposit => Input::Deposit {
                amount: parse_amount(TypedField::Deposit, &self.deposit)?,
            },
            Submit::Relay => Input::RelayTick {
                crash_after_publish: self.crash_relay,
            },
        };
        // The caller's choices apply to a charge and a retrying client; the others as before.
        let wrap = matches!(submit, Submit::Charge | Submit::Operation)
            && self.caller != Caller::default();
        let input = if wrap {
            Input::As {
                caller: self.caller,
                input: Box::new(input),
            }
        } else {
            input
        };
        input.validate()?;
        Ok(input)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edited(edits: impl IntoIterator<Item = Edit>) -> Rc<SandboxForm> {
        edits
            .into_iter()
            .fold(Rc::new(SandboxForm::default()), |f, e| f.reduce(e))
    }

    /// The form with key "order-1" typed (with spaces around it) and a lost response picked.
    fn order_1() -> Rc<SandboxForm> {
        edited([
            Edit::Key(" order-1 ".into()),
            Edit::Fault(Fault::ResponseLost),
        ])
    }

    #[test]
    fn a_refused_move_belongs_to_the_button_used_until_the_next_outcome() {
        let day = Submit::Advance(25 * HOUR_MS);
        let f = edited([
            Edit::Said(Some("bad".into())),
            Edit::Refused(day, "no".into()),
        ]);
        assert_eq!((f.error.as_deref(), f.refused_at(day)), (None, Some("no")));
        assert_eq!(f.refused_at(Submit::Advance(HOUR_MS)), None);
        assert_eq!(f.refused_at(Submit::Charge), None);
        let f = f.reduce(Edit::Said(None));
        assert_eq!(f.refused_at(day), None);
    }

    #[test]
    fn buttons_make_inputs_of_the_form_and_bad_fields_only_an_error() {
        let f = order_1();
        assert_eq!(
            f.input(Submit::Charge, None),
            Ok(Input::Request {
                key: Some("order-1".into()),
                key_format: KeyFormat::V4,
                amount: 100,
                description: "order".into(),
                fault: Fault::ResponseLost,
            })
        );
        assert!(f
            .clone()
            .reduce(Edit::Amount("abc".into()))
            .input(Submit::Charge, None)
            .is_err());
        assert!(f
            .clone()
            .reduce(Edit::Key("k".repeat(256)))
            .input(Submit::Charge, None)
            .is_err());
        // Quote and backslash are printable ASCII: allowed (the header escapes them).
        assert!(f
            .clone()
            .reduce(Edit::Key(r#"say "hi" \ bye"#.into()))
            .input(Submit::Charge, None)
            .is_ok());
    }

    /// A typed key is the draft's sf-string: printable ASCII, and the message names the rule.
    #[test]
    fn a_typed_key_is_an_sf_string_and_the_message_names_the_rule() {
        let typed = order_1().reduce(Edit::Key("注文-1".into()));
        assert_eq!(
            typed.input(Submit::Charge, None),
            Err(InputError::KeyNotSfString {
                at: 1,
                code: 0x6CE8
            })
        );
        assert_eq!(
            typed.input(Submit::Parallel, None),
            Err(InputError::KeyNotSfString {
                at: 1,
                code: 0x6CE8
            })
        );
        let said = crate::ui::text::input_error(
            crate::ui::i18n::Lang::En,
            &InputError::KeyNotSfString {
                at: 1,
                code: 0x6CE8,
            },
        );
        assert!(
            said.starts_with("Character 1 of the key is “注” (U+6CE8):"),
            "{said}"
        );
        assert!(
            said.contains("an RFC 8941 sf-string, printable ASCII only (0x20–0x7E"),
            "{said}"
        );
        let said = crate::ui::text::input_error(
            crate::ui::i18n::Lang::Ja,
            &InputError::KeyNotSfString { at: 3, code: 9 },
        );
        assert!(said.starts_with("キーの 3文字目が U+0009。"), "{said}");
        assert!(
            said.contains("RFC 8941 の sf-string で、表示できる ASCII"),
            "{said}"
        );
    }

    /// Concurrent duplicates: the typed key, else the last operation's, else a fixed one.
    #[test]
    fn concurrent_duplicates_take_the_typed_key_else_the_last_one_else_a_fixed_one() {
        let f = order_1();
        let key_of = |f: &SandboxForm, last: Option<&str>| match f.input(Submit::Parallel, last) {
            Ok(Input::Parallel { requests, .. }) => (requests.len(), requests[0].key.clone()),
            other => panic!("{other:?}"),
        };
        assert_eq!(key_of(&f, Some("last")), (2, Some("order-1".into())));
        let blank = edited([Edit::Parallel("3".into())]);
        assert_eq!(key_of(&blank, Some("last")), (3, Some("last".into())));
        assert_eq!(key_of(&blank, None), (3, Some("same-key".into())));
        assert!(edited([Edit::Parallel("1".into())])
            .input(Submit::Parallel, None)
            .is_err());
    }

    /// The retrying client: its policy by kind, the fault on its first try only; the relay.
    #[test]
    fn the_retrying_client_and_the_relay_take_their_choices() {
        let op = order_1()
            .reduce(Edit::Retry(RetryKind::ExponentialJitter))
            .reduce(Edit::ToggleNewKeyPerRetry);
        match op.input(Submit::Operation, None) {
            Ok(Input::Operation {
                retry,
                key_strategy,
                faults,
                max_attempts,
                ..
            }) => {
                assert_eq!(retry.kind(), RetryKind::ExponentialJitter);
                assert_eq!(
                    (key_strategy, faults, max_attempts),
                    (KeyStrategy::NewPerRetry, vec![Fault::ResponseLost], 3)
                );
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            edited([Edit::ToggleCrashRelay]).input(Submit::Relay, None),
            Ok(Input::RelayTick {
                crash_after_publish: true
            })
        );
    }

    #[test]
    fn the_caller_wraps_a_charge_and_a_client_and_a_keyless_caller_refuses_a_key() {
        let f = edited([Edit::Account(2), Edit::ToggleStamp]);
        for submit in [Submit::Charge, Submit::Operation] {
            match f.input(submit, None) {
                Ok(Input::As { caller, .. }) => {
                    assert_eq!(
                        (caller.account, caller.stamps_body, caller.sends_key),
                        (2, true, true)
                    )
                }
                other => panic!("{other:?}"),
            }
        }
        assert!(matches!(
            f.input(Submit::Parallel, None),
            Ok(Input::Parallel { .. })
        ));
        assert!(matches!(
            edited([]).input(Submit::Charge, None),
            Ok(Input::Request { .. })
        ));
        let keyless = edited([Edit::ToggleNoKey]);
        assert!(matches!(
            keyless.input(Submit::Charge, None),
            Ok(Input::As { .. })
        ));
        assert_eq!(
            keyless
                .reduce(Edit::Key("k".into()))
                .input(Submit::Charge, None),
            Err(InputError::KeyWithoutKeyHeader)
        );
    }

    #[test]
    fn generated_keys_follow_the_seed_and_selects_parse_by_id() {
        // The same clicks on the same scenario give the same keys; each click a new one.
        let once = edited([Edit::Mint(KeyFormat::V7, 42)]);
        let twice = once.clone().reduce(Edit::Mint(KeyFormat::V7, 42));
        assert_eq!(edited([Edit::Mint(KeyFormat::V7, 42)]).key, once.key);
        assert_ne!(edited([Edit::Mint(KeyFormat::V7, 43)]).key, once.key);
        assert_ne!(twice.key, once.key);
        assert_eq!(twice.minted, 2);
        assert_eq!(once.key.as_bytes()[14], b'7', "{}", once.key);
        for kind in RetryKind::ALL {
            assert_eq!(by_id(RetryKind::ALL, RetryKind::id, kind.id()), Some(kind));
            assert_eq!(retry_policy(kind).kind(), kind);
        }
        assert_eq!(
            by_id(Fault::ALL, Fault::id, "response-lost"),
            Some(Fault::ResponseLost)
        );
        assert_eq!(by_id(Fault::ALL, Fault::id, "2"), None);
    }
}
