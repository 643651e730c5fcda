//! The lab outside the page: its settings and schedule as a small versioned JSON, kept in
//! localStorage and carried by share links (`#/lab?s=<base64url JSON>`).
//!
//! Nothing read back is trusted: the scenario is rebuilt by [`LabScenario::new`] and the schedule
//! replayed by [`Stepper::replay`], both of which check every limit. Anything else (damaged text,
//! an unknown version, a refused scenario) is a [`RestoreError`], never a panic.

use crate::sim::json::{self, Got, Json, JsonError, ObjectWriter};
use crate::sim::lab::{KeyMode, LabScenario, Model, Stepper};
use crate::sim::limits::MAX_URL_BYTES;
use crate::ui::route::Route;
use crate::ui::share::{b64url_decode, b64url_encode};
use crate::ui::web;

pub use crate::ui::share::{Origin, RestoreError};

/// The version of the saved format this page writes and reads.
pub const VERSION: u64 = 1;

/// The saved form, version 1. Field names are short: the JSON also travels in links.
#[derive(Debug, PartialEq)]
struct SavedLab {
    v: u64,
    model: String,
    k: usize,
    keys: String,
    amounts: Vec<i64>,
    balance: i64,
    seed: u64,
    schedule: Vec<usize>,
}

const FIELDS: [&str; 8] = [
    "v", "model", "k", "keys", "amounts", "balance", "seed", "schedule",
];

impl SavedLab {
    /// `{"v":1,"model":"toctou","k":3,...}`, fields in declaration order.
    fn to_json(&self) -> String {
        let mut out = String::new();
        let mut o = ObjectWriter::new(&mut out);
        o.u64("v", self.v);
        o.str("model", &self.model);
        o.u64("k", self.k as u64);
        o.str("keys", &self.keys);
        o.array("amounts", &self.amounts, |w, a| w.push_str(&a.to_string()));
        o.i64("balance", self.balance);
        o.u64("seed", self.seed);
        o.array("schedule", &self.schedule, |w, r| {
            w.push_str(&r.to_string())
        });
        o.end();
        out
    }

    /// Every field, each once, and no other.
    fn from_doc(doc: &Json) -> Result<SavedLab, JsonError> {
        let mut f = Got::new(doc, "the saved lab").fields("")?;
        f.deny_unknown(&FIELDS)?;
        let mut saved = SavedLab {
            v: f.req("v")?.u64()?,
            model: f.req("model")?.string()?,
            k: f.req("k")?.usize()?,
            keys: f.req("keys")?.string()?,
            amounts: Vec::new(),
            balance: 0,
            seed: 0,
            schedule: Vec::new(),
        };
        for g in f.req("amounts")?.items()? {
            saved.amounts.push(g.i64()?);
        }
        saved.balance = f.req("balance")?.i64()?;
        saved.seed = f.req("seed")?.u64()?;
        for g in f.req("schedule")?.items()? {
            saved.schedule.push(g.usize()?);
        }
        Ok(saved)
    }
}

/// Only the version, read first so that another version is told apart from damage: other fields
/// are ignored here.
fn version(doc: &Json) -> Result<u64, JsonError> {
    Got::new(doc, "the saved lab").fields("")?.req("v")?.u64()
}

/// The run and seed as the saved JSON. Equal amounts are written once.
pub fn to_json(run: &Stepper, seed: u64) -> String {
    let scenario = run.scenario();
    let amounts = scenario.amounts();
    let amounts = if amounts.windows(2).all(|w| w[0] == w[1]) {
        amounts.iter().take(1).copied().collect()
    } else {
        amounts.to_vec()
    };
    let saved = SavedLab {
        v: VERSION,
        model: scenario.model().id().to_string(),
        k: scenario.requests(),
        keys: scenario.keys().id().to_string(),
        amounts,
        balance: scenario.initial_balance(),
        seed,
        schedule: run.schedule().to_vec(),
    };
    saved.to_json()
}

/// Reads saved JSON back into a run and a seed, through the core's checks.
pub fn from_json(json: &str) -> Restored {
    let doc = json::parse(json).map_err(|_| RestoreError::Unreadable)?;
    let version = version(&doc).map_err(|_| RestoreError::Unreadable)?;
    if version != VERSION {
        return Err(RestoreError::UnknownVersion { version });
    }
    let saved = SavedLab::from_doc(&doc).map_err(|_| RestoreError::Unreadable)?;
    let model = Model::from_id(&saved.model).ok_or(RestoreError::Unreadable)?;
    let keys = KeyMode::from_id(&saved.keys).ok_or(RestoreError::Unreadable)?;
    let scenario = LabScenario::new(model, saved.k, keys, &saved.amounts, saved.balance)
        .map_err(RestoreError::Invalid)?;
    let run = Stepper::replay(scenario, &saved.schedule).map_err(RestoreError::Invalid)?;
    Ok((run, saved.seed))
}

/// The query of a share link for saved JSON: `s=<base64url>`.
pub fn share_query(json: &str) -> String {
    format!("s={}", b64url_encode(json.as_bytes()))
}

/// Reads a share link's query (what follows `?` in `#/lab?s=...`).
pub fn from_query(query: &str) -> Restored {
    if query.len() > MAX_URL_BYTES {
        return Err(RestoreError::TooLong { bytes: query.len() });
    }
    let payload = query
        .split('&')
        .find_map(|part| part.strip_prefix("s="))
        .ok_or(RestoreError::Unreadable)?;
    let bytes = b64url_decode(payload).map_err(|_| RestoreError::Unreadable)?;
    let json = String::from_utf8(bytes).map_err(|_| RestoreError::Unreadable)?;
    from_json(&json)
}

/// A lab read back: the run (settings and schedule, replayed by the core) and the seed, or why
/// it was not restored.
pub type Restored = Result<(Stepper, u64), RestoreError>;

/// How the page starts: the lab that was read, and what to do about where it came from.
pub struct Start {
    /// What was read and from where; `None` when there was nothing to read (the default lab).
    pub read: Option<(Origin, Restored)>,
    /// The lab came from a share link: the hash carries a query to take off the address bar.
    pub from_link: bool,
    /// Save the starting lab at once (a good link becomes this browser's saved lab). Otherwise
    /// the first save waits for a change, so a damaged link or unreadable storage does not
    /// overwrite what this browser saved.
    pub save_now: bool,
}

/// The share-link query of a `#/lab?...` hash, if it has one.
pub fn link_query(hash: &str) -> Option<&str> {
    if Route::parse(hash) != Route::Lab {
        return None;
    }
    Route::query(hash).filter(|q| !q.is_empty())
}

/// Reads the starting lab: a share link in the hash wins over this browser's saved lab.
pub fn start() -> Start {
    let hash = web::current_hash();
    if let Some(query) = link_query(&hash) {
        let result = from_query(query);
        return Start {
            save_now: result.is_ok(),
            read: Some((Origin::Link, result)),
            from_link: true,
        };
    }
    let read = web::load(web::LAB_KEY).map(|json| (Origin::Storage, from_json(&json)));
    Start {
        read,
        from_link: false,
        save_now: false,
    }
}

/// Takes a read share link's query off the address bar (without a `hashchange`), so that a reload
/// shows the lab as the learner left it (saved in this browser), not the link again.
pub fn drop_link_query() {
    let hash = web::current_hash();
    let Some((path, _)) = hash.split_once('?') else {
        return;
    };
    web::replace_history(path);
}

/// Saves the lab's JSON in this browser; a full or unavailable storage only means it is not kept.
pub fn save(json: &str) {
    web::save(web::LAB_KEY, json);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::lab::LabError;

    fn race() -> Stepper {
        Stepper::replay(LabScenario::default(), &[0, 0, 1, 1, 1, 0]).unwrap()
    }

    #[test]
    fn saved_json_round_trips_through_the_core() {
        let json = to_json(&race(), 7);
        assert_eq!(
            json,
            r#"{"v":1,"model":"toctou","k":3,"keys":"same","amounts":[100],"balance":1000,"seed":7,"schedule":[0,0,1,1,1,0]}"#
        );
        assert_eq!(from_json(&json), Ok((race(), 7)));
        let mixed = LabScenario::new(Model::Atomic, 2, KeyMode::Different, &[5, 9], 0).unwrap();
        let run = Stepper::replay(mixed, &[1, 1]).unwrap();
        assert_eq!(from_json(&to_json(&run, u64::MAX)), Ok((run, u64::MAX)));
    }

    #[test]
    fn share_query_round_trips() {
        let json = to_json(&race(), 1);
        assert_eq!(from_query(&share_query(&json)), Ok((race(), 1)));
        assert_eq!(
            from_query(&format!("x=1&{}", share_query(&json))),
            Ok((race(), 1))
        );
    }

    #[test]
    fn anything_else_is_an_error_not_a_panic() {
        let ok = to_json(&race(), 1);
        let cases = [
            ("", RestoreError::Unreadable),
            ("not json {", RestoreError::Unreadable),
            ("[1,2]", RestoreError::Unreadable),
            (r#"{"v":"1"}"#, RestoreError::Unreadable),
            (r#"{"v":1}"#, RestoreError::Unreadable),
            (
                r#"{"v":2,"anything":true}"#,
                RestoreError::UnknownVersion { version: 2 },
            ),
            (&ok.replace("toctou", "quantum"), RestoreError::Unreadable),
            (&ok.replace("same", "both"), RestoreError::Unreadable),
            (
                &ok.replace("\"seed\":1", "\"seed\":-1"),
                RestoreError::Unreadable,
            ),
            (&ok.replace("}", ",\"x\":0}"), RestoreError::Unreadable),
            (
                &ok.replace("\"k\":3", "\"k\":11"),
                RestoreError::Invalid(LabError::RequestCount { requests: 11 }),
            ),
            (
                &ok.replace("[100]", "[100,100]"),
                RestoreError::Invalid(LabError::AmountCount {
                    given: 2,
                    requests: 3,
                }),
            ),
            (
                &ok.replace("\"balance\":1000", "\"balance\":-5"),
                RestoreError::Invalid(LabError::Balance { balance: -5 }),
            ),
        ];
        for (json, want) in cases {
            assert_eq!(from_json(json).map(|_| ()), Err(want), "{json}");
        }
        // A schedule the core refuses: request 4 of 3, and a fourth step of request 1.
        for bad in [
            "[0,3]",
            "[0,0,0,0]",
            &format!("[{}]", vec!["0"; 40].join(",")),
        ] {
            let json = ok.replace("[0,0,1,1,1,0]", bad);
            assert!(
                matches!(from_json(&json), Err(RestoreError::Invalid(_))),
                "{json}"
            );
        }
        for query in ["s=%%%", "s=", "k=3", "s=_w", "s=e30"] {
            assert!(from_query(query).is_err(), "{query}");
        }
        let long = "s=".to_string() + &"A".repeat(MAX_URL_BYTES);
        assert!(matches!(
            from_query(&long),
            Err(RestoreError::TooLong { .. })
        ));
    }

    #[test]
    fn only_lab_hashes_carry_a_lab_link() {
        assert_eq!(link_query("#/lab?s=abc"), Some("s=abc"));
        assert_eq!(link_query("#/lab"), None);
        assert_eq!(link_query("#/lab?"), None);
        assert_eq!(link_query("#/sandbox?s=abc"), None);
    }

    /// The saved form's fields, with their values in the canonical document of [`lab_corpus`].
    #[cfg(not(target_arch = "wasm32"))]
    const CORPUS_FIELDS: [(&str, &str); 8] = [
        ("v", "1"),
        ("model", "\"toctou\""),
        ("k", "3"),
        ("keys", "\"same\""),
        ("amounts", "[100]"),
        ("balance", "1000"),
        ("seed", "7"),
        ("schedule", "[0,0,1,1,1,0]"),
    ];

    /// The values [`lab_corpus`] gives each field in turn.
    #[cfg(not(target_arch = "wasm32"))]
    const CORPUS_VALUES: [&str; 22] = [
        "null",
        "true",
        "0",
        "-1",
        "-0",
        "1.5",
        "1.0",
        "1e2",
        "4294967296",
        "9223372036854775808",
        "18446744073709551615",
        "18446744073709551616",
        "\"\"",
        "\"x\"",
        "\"same\"",
        "\"atomic\"",
        "[]",
        "[0]",
        "[1,1,1]",
        "[-1]",
        "[1.5]",
        "{}",
    ];

    /// Whole documents of [`lab_corpus`], written out.
    #[cfg(not(target_arch = "wasm32"))]
    const CORPUS_DOCUMENTS: [(&str, &str); 14] = [
        ("v2-dup-v", r#"{"v":2,"v":2}"#),
        ("v1-dup-v", r#"{"v":1,"v":1}"#),
        ("v2-escaped", r#"{"\u0076":2}"#),
        ("v-float", r#"{"v":1.0}"#),
        ("empty", ""),
        ("not-json", "not json {"),
        ("array", "[1,2]"),
        ("null", "null"),
        ("empty-object", "{}"),
        ("v-string", r#"{"v":"1"}"#),
        ("v-only", r#"{"v":1}"#),
        ("v2-anything", r#"{"v":2,"anything":true}"#),
        ("v2-bad-syntax", r#"{"v":2,"x":}"#),
        ("v2-trailing", r#"{"v":2} x"#),
    ];

    /// A JSON object of these members, in this order.
    #[cfg(not(target_arch = "wasm32"))]
    fn corpus_doc(members: &[(String, String)]) -> String {
        let body: Vec<String> = members
            .iter()
            .map(|(k, v)| format!("\"{k}\":{v}"))
            .collect();
        format!("{{{}}}", body.join(","))
    }

    /// The canonical document with each field removed, renamed, doubled, or set to each of
    /// [`CORPUS_VALUES`].
    #[cfg(not(target_arch = "wasm32"))]
    fn field_edits(base: &[(String, String)]) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for i in 0..base.len() {
            let name = &base[i].0;
            let mut m = base.to_vec();
            m.remove(i);
            out.push((format!("remove {name}"), corpus_doc(&m)));
            let mut m = base.to_vec();
            m[i].0.push('_');
            out.push((format!("rename {name}"), corpus_doc(&m)));
            let mut m = base.to_vec();
            m.insert(i, base[i].clone());
            out.push((format!("dup {name}"), corpus_doc(&m)));
            for r in CORPUS_VALUES {
                let mut m = base.to_vec();
                m[i].1 = r.to_string();
                out.push((format!("set {name} = {r}"), corpus_doc(&m)));
            }
        }
        out
    }

    /// The canonical document with a field added, its fields reversed, or another version's.
    #[cfg(not(target_arch = "wasm32"))]
    fn document_edits(base: &[(String, String)]) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let mut m = base.to_vec();
        m.push(("zz".into(), "1".into()));
        out.push(("extra-field".into(), corpus_doc(&m)));
        let mut m = base.to_vec();
        m.reverse();
        out.push(("reversed".into(), corpus_doc(&m)));
        let mut m = base.to_vec();
        m[0].1 = "2".into();
        m.push(("zz".into(), "{\"a\":[1,2,{}]}".into()));
        out.push(("v2-extra".into(), corpus_doc(&m)));
        out
    }

    /// The canonical document's text reformatted, followed by garbage, or with an escape.
    #[cfg(not(target_arch = "wasm32"))]
    fn text_edits(canonical: &str) -> Vec<(String, String)> {
        vec![
            (
                "pretty".into(),
                canonical.replace(',', ",\n  ").replace(':', ": "),
            ),
            ("trailing-garbage".into(), format!("{canonical}x")),
            (
                "escaped-model".into(),
                canonical.replace("toctou", "t\\u006fctou"),
            ),
        ]
    }

    /// Documents for `from_json`: the saved form with each field removed, renamed, doubled or
    /// replaced, and a few whole-document cases.
    #[cfg(not(target_arch = "wasm32"))]
    fn lab_corpus() -> Vec<(String, String)> {
        let base: Vec<(String, String)> = CORPUS_FIELDS
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let canonical = corpus_doc(&base);
        let mut out = vec![("canonical".to_string(), canonical.clone())];
        out.extend(field_edits(&base));
        out.extend(document_edits(&base));
        out.extend(
            CORPUS_DOCUMENTS
                .iter()
                .map(|(name, text)| (name.to_string(), text.to_string())),
        );
        out.extend(text_edits(&canonical));
        out
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn lab_outcome(json: &str) -> String {
        match from_json(json) {
            Ok((run, seed)) => format!("ok {}", to_json(&run, seed)),
            Err(e) => format!("err {e:?}"),
        }
    }

    /// What the serde_json build did with each document of [`lab_corpus`]
    /// (tests/fixtures/lab_corpus_serde.txt, written by that build): the same now. Natively
    /// only: the record was made with a 64-bit `usize`.
    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn reads_what_the_serde_json_build_read() {
        let record = include_str!("../../../tests/fixtures/lab_corpus_serde.txt");
        let corpus = lab_corpus();
        assert_eq!(record.lines().count(), corpus.len());
        for ((label, json), line) in corpus.iter().zip(record.lines()) {
            let (want_label, want) = line.split_once('\t').expect("label and outcome");
            assert_eq!(label, want_label);
            assert_eq!(lab_outcome(json), want, "{label}: {json}");
        }
    }
}
