//! Mutation fuzzing of every reader of outside text: scenario JSON (`Scenario::from_json`), share
//! links (the hash's route and query, `ui::share::decode_query`, then the scenario), the lab's
//! saved state and its `#/lab?s=` links, the playground's saved last run, the Kafka page's JSON
//! (Import: `kafka::from_json`) and links (`ui::kafka::persist::from_query`, which reads with
//! `kafka::from_json_versioned`), the durable page's saved state (`durable::read_state`) and links
//! (`ui::durable::persist::from_query`), and the property page's typed fields (cases, seed) and
//! `#/properties?…` links (`ui::properties::persist::from_query`). Each input is accepted or
//! refused with an error, never a panic; each accepted input also runs: a scenario every world to
//! idle or the page's `Session` to the link's step, a lab state to its end, a Kafka scenario as the
//! page opens it (`KafkaUi::open`: the whole run, then a replay to the link's step), a durable
//! state as the page opens it (`DurableRun` to its end, sought to the cursor, `DurUi::new`), and
//! property settings as the page starts them (`PropUi`'s reducer), then a slice of their run.
//!
//! Inputs are mutations of valid documents: every built-in scenario's `to_json()`, the sandbox
//! scenarios of `tests/fixtures/scenarios_serde.txt` (every input, wiring and policy), share
//! links made by `encode_query`, lab states of every model, saved runs, the Kafka lessons,
//! challenges and solutions with random scenarios of every input kind and setting (some written
//! as version 1), durable states of every lesson and challenge with random columns, faults and
//! actions, and property links and typed numbers. Mutations are edits of the parsed tree (values
//! replaced by extreme numbers, long or unicode strings, another document's value or the same
//! field's value in another document; members removed, doubled, renamed, reordered; values
//! buried ~128 deep) and of the bytes (bits flipped, bytes inserted, deleted, duplicated,
//! truncated, spliced from another document), stacked; links are also mutated after encoding,
//! and property links field by field.
//!
//! An accepted input must also come back as the page writes it: a Kafka run re-read from the
//! query the page saves equals the one opened, and a durable state re-read from what the page
//! saves (`write_state` of `DurUi::saved`) reads back equal; otherwise the case fails as
//! "ACCEPTED BUT".
//!
//! `cargo test` runs [`DEFAULT_CASES`] inputs (a few seconds in a debug build); `FUZZ_CASES=<n>`
//! runs more (`make fuzz`: a million in release), `FUZZ_SEED=<s>` another sequence,
//! `FUZZ_CASE=<i>` case `i` alone. It prints, per reader, the inputs tried, accepted, refused and
//! panicked, and saves each panicking input under the target directory's `tmp/fuzz-panics/`.
//!
//! Each reader is the page's own (`ui::lab::persist`, `ui::playground::saved_run::SavedRun`,
//! `ui::kafka::state::KafkaUi`, `ui::kafka::persist`, `ui::durable::persist`,
//! `ui::durable::state::DurUi`, `ui::properties::{persist, PropUi}`), called as the page calls it.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::rc::Rc;
use std::time::{Duration, Instant};

use common::{env_u64, excerpt, mutate_bytes, mutate_tree, text, words, Layout, Rng};
use idempotency_playground::json::{self, Json, ObjectWriter};
use idempotency_playground::lab::{KeyMode, LabScenario, Model, Policy, Stepper};
use idempotency_playground::limits::{
    MAX_AMOUNT, MAX_DURABLE_ACTIONS, MAX_DURABLE_COLUMNS, MAX_DURABLE_FAULTS, MAX_DURABLE_START_MS,
    MAX_PARALLEL_REQUESTS, MAX_PROPERTY_CASES, MAX_PROPERTY_SEED,
};
use idempotency_playground::properties::{Property, PropertyRun, Settings};
use idempotency_playground::ui::route::Route;
use idempotency_playground::ui::share::{b64url_encode, decode_query, encode_query};
use idempotency_playground::{
    builtin, builtin_ids, durable, kafka, InputError, Scenario, ServiceKind, Session,
};
use yew::Reducible;

/// Inputs in `cargo test`, 2,000 per reader: about 2 s in a debug build on the 2-core VM. Every
/// accepted input is run in full: the core bounds each run (at most `MAX_INPUTS` inputs of at
/// most `MAX_ATTEMPTS` attempts, `MAX_TRACE_EVENTS` events per world), and mutated documents of
/// at most `MAX_JSON_BYTES` stay far inside that, so no run needs cutting short.
const DEFAULT_CASES: u64 = 22_000;
const DEFAULT_SEED: u64 = 0x6675_7a7a_2d31_3400;
/// Seed of the corpus of valid documents: fixed, so a case replays from (run seed, case) alone.
const CORPUS_SEED: u64 = 14;

// ---- the readers, each behind one small adapter -----------------------------------------------

/// The lab's saved-state reader, `ui::lab::persist::from_json`.
fn lab_state(json: &str) -> Result<Stepper, String> {
    idempotency_playground::ui::lab::persist::from_json(json)
        .map(|(run, _seed)| run)
        .map_err(|e| restore_error(&e))
}

/// A lab restore error by kind: `Unreadable`, `UnknownVersion`, `Invalid(<the lab error>)`.
fn restore_error(e: &idempotency_playground::ui::lab::persist::RestoreError) -> String {
    use idempotency_playground::ui::lab::persist::RestoreError;
    match e {
        RestoreError::Invalid(lab) => format!("Invalid({})", variant(&format!("{lab:?}"))),
        other => variant(&format!("{other:?}")),
    }
}

/// The lab's link reader `ui::lab::persist::from_query`.
fn lab_link(query: &str) -> Result<Stepper, String> {
    idempotency_playground::ui::lab::persist::from_query(query)
        .map(|(run, _seed)| run)
        .map_err(|e| restore_error(&e))
}

/// The playground's reader of its saved last run, `SavedRun::from_json`, as the page uses it:
/// the scenario it holds read and opened at the saved step.
fn saved_run(text: &str) -> Result<Session, String> {
    use idempotency_playground::ui::playground::saved_run::SavedRun;
    let saved = SavedRun::from_json(text).ok_or("not a saved run")?;
    let mut session = Scenario::from_json(&saved.scenario)
        .and_then(Session::new)
        .map_err(|e| kind(&e))?;
    session.seek(saved.position);
    Ok(session)
}

/// A Kafka JSON error by kind: `TooLong`, `Json(<as `kind`>)`, `Limit(<the limit>)`.
fn kafka_error(e: &kafka::KafkaJsonError) -> String {
    match e {
        kafka::KafkaJsonError::Json(e) => format!("Json({})", kind(e)),
        kafka::KafkaJsonError::Limit(l) => format!("Limit({})", variant(&format!("{l:?}"))),
        other => variant(&format!("{other:?}")),
    }
}

/// The Kafka page's Import, `KafkaUi`'s reducer with `Action::Import` (it reads with
/// `kafka::from_json`, then opens the run as a link would, at step 0).
fn kafka_import(text: &str) -> Result<usize, String> {
    use idempotency_playground::ui::kafka::state::{Action, KafkaUi, Notice, Place};
    let page = Rc::new(KafkaUi::open(
        Place::Sandbox,
        kafka::KafkaScenario::empty(),
        0,
        None,
    ));
    let next = page.reduce(Action::Import(text.to_string()));
    match &next.notice {
        Some(Notice::Imported) => {}
        Some(Notice::ImportFailed(e)) => return Err(kafka_error(e)),
        other => return Err(format!("ACCEPTED BUT the notice is {other:?}")),
    }
    kafka_opened(&next)
}

/// What every accepted Kafka run must satisfy as the page holds it: its scenario within the
/// limits, and the query the page saves for it reads back as the same run at the same step.
fn kafka_opened(ui: &idempotency_playground::ui::kafka::state::KafkaUi) -> Result<usize, String> {
    use idempotency_playground::ui::kafka::persist;
    if let Err(e) = ui.scenario.check() {
        return Err(format!("ACCEPTED BUT check() refused it: {e:?}"));
    }
    let saved = persist::to_query(&ui.scenario, ui.cursor());
    match persist::from_query(&saved) {
        Ok((s, k, false)) if s == ui.scenario && k == ui.cursor() => Ok(ui.records.len()),
        other => Err(format!(
            "ACCEPTED BUT the saved query reads back as {other:?}"
        )),
    }
}

/// The Kafka page's link, as `ui::kafka::page` opens it: the place of the hash's route, its
/// query read by `ui::kafka::persist::from_query`, then `KafkaUi::open` at the link's step.
fn kafka_link(hash: &str) -> Result<usize, String> {
    use idempotency_playground::ui::kafka::persist::{self, LinkError};
    use idempotency_playground::ui::kafka::state::{KafkaUi, Notice, Place};
    let place = Place::of(&Route::parse(hash));
    let query = Route::query(hash).ok_or("no query")?;
    let (s, k, older) = persist::from_query(query).map_err(|e| match e {
        LinkError::Share(e) => variant(&format!("{e:?}")),
        LinkError::Json(e) => kafka_error(&e),
    })?;
    let ui = KafkaUi::open(place, s, k, older.then_some(Notice::OlderModel));
    kafka_opened(&ui)
}

/// A durable state as the page opens it (`ui::durable::page::opening`): its run built and sought
/// to the cursor, the page's state around it; what the page then saves must read back.
fn durable_open(route: &Route, s: durable::SavedState) -> Result<usize, String> {
    use idempotency_playground::ui::durable::state::{DurUi, Mode};
    let mut run = durable::DurableRun::new(s.columns, s.actions);
    run.seek(s.cursor);
    let end = run.end();
    let ui = DurUi::new(Mode::of(route), run, None);
    let saved = durable::write_state(&ui.saved());
    match durable::read_state(&saved) {
        Ok(back) if back == ui.saved() => Ok(end),
        other => Err(format!(
            "ACCEPTED BUT the saved state reads back as {other:?}"
        )),
    }
}

/// The durable page's saved run or import, `durable::read_state`.
fn durable_state(text: &str) -> Result<usize, String> {
    let s = durable::read_state(text).map_err(|e| kind(&e))?;
    durable_open(&Route::Durable, s)
}

/// The durable page's link, as `ui::durable::page::opening` reads it: a query with `s=`, read by
/// `ui::durable::persist::from_query`.
fn durable_link(hash: &str) -> Result<usize, String> {
    let route = Route::parse(hash);
    let query = Route::query(hash)
        .filter(|q| q.contains("s="))
        .ok_or("no s= query")?;
    let s =
        idempotency_playground::ui::durable::persist::from_query(query).map_err(|e| match e {
            // How the reader words a link whose `s=` is damaged (`NotBase64`, `NotText`, `Missing`).
            InputError::JsonInvalid { ref message, .. } if message.contains("base64url") => {
                "JsonInvalid(s= not base64url text)".to_string()
            }
            e => kind(&e),
        })?;
    durable_open(&route, s)
}

/// Trace events a property run may spend on one fuzz input: the page's first slice is
/// `SLICE_EVENTS` (6,000); a few hundred check the run starts and draws its cases.
const PROPERTY_SLICE_EVENTS: u64 = 300;

/// The property page's two typed fields, through its reducer: the text typed into the cases or
/// the seed field (`PropAction::Cases` / `Seed`), then Run. Input: `cases:<text>` or
/// `seed:<text>`; the other field keeps the page's default.
fn property_fields(input: &str) -> Result<usize, String> {
    use idempotency_playground::ui::properties::{default_settings, PropAction, PropUi};
    let (field, typed) = input.split_once(':').ok_or("no field")?;
    let page = Rc::new(PropUi::with(default_settings(), None));
    let page = page.reduce(match field {
        "cases" => PropAction::Cases(typed.to_string()),
        _ => PropAction::Seed(typed.to_string()),
    });
    let page = page.reduce(PropAction::Run(0.0));
    if let Some(e) = page.cases_error.as_ref().or(page.seed_error.as_ref()) {
        return Err(kind(e));
    }
    let settings = page
        .settings()
        .ok_or("ACCEPTED BUT settings() is None".to_string())?;
    let view = page
        .run
        .as_ref()
        .ok_or("ACCEPTED BUT no run started".to_string())?;
    property_slice(settings, &view.run)
}

/// The property page's link, as `ui::properties::page` reads it: a `#/properties` hash, its query
/// read over the default settings by `persist::from_query`, then opened (`PropAction::Open`).
fn property_link(hash: &str) -> Result<usize, String> {
    use idempotency_playground::ui::properties::persist::{self, LinkError};
    use idempotency_playground::ui::properties::{default_settings, PropAction, PropUi};
    if Route::parse(hash) != Route::Properties {
        return Err("not a #/properties hash".into());
    }
    let query = Route::query(hash).ok_or("no query")?;
    let settings = persist::from_query(query, default_settings()).map_err(|e| match e {
        LinkError::Value(e) => format!("Value({})", kind(&e)),
        other => variant(&format!("{other:?}")),
    })?;
    let page = Rc::new(PropUi::with(settings, None)).reduce(PropAction::Open(settings, 0.0));
    let view = page
        .run
        .as_ref()
        .ok_or(format!("ACCEPTED BUT no run started for {settings:?}"))?;
    property_slice(settings, &view.run)
}

/// A slice of an accepted property run: its settings are the ones read, and it checks cases.
fn property_slice(settings: Settings, run: &PropertyRun) -> Result<usize, String> {
    if run.settings() != settings || settings.validate().is_err() {
        return Err(format!("ACCEPTED BUT the run has {:?}", run.settings()));
    }
    let mut run = run.clone();
    run.run_slice(PROPERTY_SLICE_EVENTS);
    if run.checked() == 0 && run.failure().is_none() {
        return Err(format!("ACCEPTED BUT no case checked for {settings:?}"));
    }
    Ok(run.events() as usize)
}

/// The first word of a `Debug` form: an error's variant.
fn variant(debug: &str) -> String {
    debug
        .split(|c: char| !c.is_alphanumeric())
        .next()
        .unwrap_or("")
        .to_string()
}

/// An input error's variant; for `JsonInvalid`, whether the text was not JSON or not the format.
fn kind(e: &InputError) -> String {
    match e {
        InputError::JsonInvalid { message, .. } => {
            let what = [
                "unknown field",
                "missing field",
                "duplicate field",
                "must be",
                "unsupported",
            ]
            .into_iter()
            .find(|w| message.contains(w))
            .unwrap_or("syntax");
            format!("JsonInvalid({what})")
        }
        InputError::BadNumber { number, .. } => format!("BadNumber({:?})", number.problem),
        _ => variant(&format!("{e:?}")),
    }
}

// ---- the readers, fed and run ----------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Reader {
    Scenario,
    ShareLink,
    LabState,
    LabLink,
    SavedRun,
    KafkaJson,
    KafkaLink,
    DurableState,
    DurableLink,
    PropertyFields,
    PropertyLink,
    HeaderKey,
}

const READERS: [Reader; 12] = [
    Reader::Scenario,
    Reader::ShareLink,
    Reader::LabState,
    Reader::LabLink,
    Reader::SavedRun,
    Reader::KafkaJson,
    Reader::KafkaLink,
    Reader::DurableState,
    Reader::DurableLink,
    Reader::PropertyFields,
    Reader::PropertyLink,
    Reader::HeaderKey,
];

impl Reader {
    fn name(self) -> &'static str {
        match self {
            Reader::Scenario => "scenario JSON (Scenario::from_json, then run)",
            Reader::ShareLink => "share link #/…?s=&k= (decode_query, scenario, Session::seek)",
            Reader::LabState => "lab state (persist::from_json, then run to end)",
            Reader::LabLink => "lab link #/lab?s= (persist::from_query, then run to end)",
            Reader::SavedRun => "saved last run (SavedRun::from_json, then Session::seek)",
            Reader::KafkaJson => "Kafka import (kafka::from_json via KafkaUi, then run)",
            Reader::KafkaLink => "Kafka link ?s=&k= (persist::from_query, KafkaUi::open)",
            Reader::DurableState => "durable state (durable::read_state, then run, seek)",
            Reader::DurableLink => "durable link ?s=&k= (persist::from_query, then run)",
            Reader::PropertyFields => "property fields cases, seed (PropUi, Run, a slice)",
            Reader::PropertyLink => "property link #/properties?p=&svc=&n=&seed= (Open)",
            Reader::HeaderKey => "typed Idempotency-Key (validate_header_key, sf_string)",
        }
    }
}

/// What a reader made of an input: `Ok(steps run)` when accepted, `Err(why)` when refused.
fn feed(reader: Reader, input: &str) -> Result<usize, String> {
    match reader {
        Reader::Scenario => {
            let scenario = Scenario::from_json(input).map_err(|e| kind(&e))?;
            let mut worlds = scenario
                .worlds()
                .map_err(|e| format!("ACCEPTED BUT worlds() REFUSED: {e:?}"))?;
            Ok(worlds.iter_mut().map(|w| w.run_until_idle()).sum())
        }
        Reader::ShareLink => {
            // The page reads the query of any playground route's hash.
            let _ = Route::parse(input);
            let query = Route::query(input).ok_or("no query")?;
            let link = decode_query(query).map_err(|e| variant(&format!("{e:?}")))?;
            let mut session = Scenario::from_json(&link.json)
                .and_then(Session::new)
                .map_err(|e| kind(&e))?;
            session.seek(link.step);
            Ok(session.total())
        }
        Reader::LabState | Reader::LabLink => {
            let mut run = if reader == Reader::LabState {
                lab_state(input)?
            } else {
                // As persist::link_query: a non-empty query of a `#/lab` hash.
                if Route::parse(input) != Route::Lab {
                    return Err("not a #/lab hash".into());
                }
                let query = Route::query(input).filter(|q| !q.is_empty());
                lab_link(query.ok_or("no query")?)?
            };
            let done = run.schedule().len();
            let more = run
                .run_to_end(Policy::RoundRobin)
                .map_err(|e| format!("ACCEPTED BUT run_to_end FAILED: {e:?}"))?;
            Ok(done + more)
        }
        Reader::SavedRun => saved_run(input).map(|s| s.total()),
        Reader::KafkaJson => kafka_import(input),
        Reader::KafkaLink => kafka_link(input),
        Reader::DurableState => durable_state(input),
        Reader::DurableLink => durable_link(input),
        Reader::PropertyFields => property_fields(input),
        Reader::PropertyLink => property_link(input),
        Reader::HeaderKey => header_key(input),
    }
}

// ---- the corpus of valid documents -----------------------------------------------------------

struct Corpus {
    scenarios: Vec<String>,
    links: Vec<String>,
    labs: Vec<String>,
    lab_links: Vec<String>,
    saved: Vec<String>,
    /// Kafka scenarios (JSON) and links to them (whole hashes).
    kafka: Vec<String>,
    kafka_links: Vec<String>,
    /// Durable states (JSON) and links to them (whole hashes).
    durables: Vec<String>,
    durable_links: Vec<String>,
    /// Property page links (whole hashes) and numbers as typed into its fields.
    property_links: Vec<String>,
    property_texts: Vec<String>,
    /// Every JSON document above, parsed: donors of values and fields.
    trees: Vec<Json>,
    /// Every string and field name in them, and awkward strings.
    strings: Vec<String>,
}

fn lab_json(run: &Stepper, seed: u64) -> String {
    // The saved form written by src/ui/lab/persist.rs: equal amounts once, fields in this order.
    let s = run.scenario();
    let amounts = if s.amounts().windows(2).all(|w| w[0] == w[1]) {
        &s.amounts()[..1]
    } else {
        s.amounts()
    };
    let mut out = String::new();
    let mut o = ObjectWriter::new(&mut out);
    o.u64("v", 1);
    o.str("model", s.model().id());
    o.u64("k", s.requests() as u64);
    o.str(
        "keys",
        match s.keys() {
            KeyMode::Same => "same",
            KeyMode::Different => "different",
        },
    );
    o.array("amounts", amounts, |w, a| w.push_str(&a.to_string()));
    o.i64("balance", s.initial_balance());
    o.u64("seed", seed);
    o.array("schedule", run.schedule(), |w, r| {
        w.push_str(&r.to_string())
    });
    o.end();
    out
}

fn corpus() -> Corpus {
    let mut rng = Rng::new(CORPUS_SEED);
    let scenarios = scenario_corpus();
    let links = scenarios
        .iter()
        .map(|(route, doc)| format!("{route}?{}", encode_query(doc, rng.below(60))))
        .collect();
    let saved = scenarios
        .iter()
        .map(|(route, doc)| {
            let mut out = String::new();
            let mut o = ObjectWriter::new(&mut out);
            o.str("route", route);
            o.u64("position", rng.below(60) as u64);
            o.str("scenario", doc);
            o.end();
            out
        })
        .collect::<Vec<_>>();
    let labs = lab_corpus(&mut rng);
    let lab_links = labs
        .iter()
        .map(|doc| format!("#/lab?s={}", b64url_encode(doc.as_bytes())))
        .collect();
    let scenarios: Vec<String> = scenarios.into_iter().map(|(_, doc)| doc).collect();
    let (kafka, kafka_links) = kafka_corpus(&mut rng);
    let (durables, durable_links) = durable_corpus(&mut rng);
    let (property_links, property_texts) = property_corpus(&mut rng);
    let trees: Vec<Json> = scenarios
        .iter()
        .chain(&labs)
        .chain(&saved)
        .chain(&kafka)
        .chain(&durables)
        .map(|doc| json::parse(doc).expect("the corpus is valid JSON"))
        .collect();
    let mut strings = common::awkward_strings();
    for t in &trees {
        words(t, &mut strings);
    }
    strings.sort();
    strings.dedup();
    Corpus {
        scenarios,
        links,
        labs,
        lab_links,
        saved,
        kafka,
        kafka_links,
        durables,
        durable_links,
        property_links,
        property_texts,
        trees,
        strings,
    }
}

/// Every built-in scenario, and the sandbox scenarios of the fixture, with their routes.
fn scenario_corpus() -> Vec<(String, String)> {
    let mut scenarios: Vec<(String, String)> = builtin_ids()
        .iter()
        .map(|id| {
            (
                format!("#/scenario/{id}"),
                builtin(id).expect("built in").to_json(),
            )
        })
        .collect();
    for line in include_str!("fixtures/scenarios_serde.txt").lines() {
        let (name, doc) = line.split_once(' ').expect("name and JSON");
        if !builtin_ids().contains(&name) {
            assert!(Scenario::from_json(doc).is_ok(), "{name}");
            scenarios.push(("#/sandbox".into(), doc.to_string()));
        }
    }
    scenarios
}

/// Lab states of every model, key mode and size, stepped part of the way.
fn lab_corpus(rng: &mut Rng) -> Vec<String> {
    let mut labs = Vec::new();
    for model in Model::ALL {
        for keys in [KeyMode::Same, KeyMode::Different] {
            for k in [2, 3, 5, MAX_PARALLEL_REQUESTS] {
                let amounts: Vec<i64> = if rng.chance(50) {
                    vec![1 + rng.below(500) as i64]
                } else {
                    (0..k)
                        .map(|_| 1 + rng.below(MAX_AMOUNT as usize) as i64)
                        .collect()
                };
                let balance = rng.below(5_000) as i64;
                let scenario =
                    LabScenario::new(model, k, keys, &amounts, balance).expect("valid lab");
                let mut run = Stepper::new(scenario);
                let steps = rng.below(run.scenario().total_steps() + 1);
                for _ in 0..steps {
                    let movable = run.movable();
                    if movable.is_empty() {
                        break;
                    }
                    run.step(*rng.pick(&movable))
                        .expect("a movable request moves");
                }
                labs.push(lab_json(&run, rng.next_u64()));
            }
        }
    }
    labs
}

/// A Kafka scenario of every input kind and setting, within the page's limits.
fn kafka_random(rng: &mut Rng) -> kafka::KafkaScenario {
    use kafka::{Config, Input, KafkaScenario, RelayKind, TimedInput};
    let mut inputs = Vec::new();
    let mut t = 0;
    for _ in 0..rng.below(16) {
        t += rng.range(0, 80);
        let input = match rng.below(9) {
            0 | 1 => Input::Send {
                count: rng.range(1, 11) as u8,
            },
            2 => Input::LoseNextRequest,
            3 => Input::LoseNextAck,
            4 => Input::DelayNextRequest {
                ms: rng.range(1, 1_001) as u32,
            },
            5 => Input::RefuseNextRequest,
            6 => Input::ExpireProducers,
            7 => *rng.pick(&[Input::Crash, Input::Restart]),
            _ => Input::WakeZombie,
        };
        inputs.push(TimedInput { at_ms: t, input });
    }
    let s = KafkaScenario {
        config: Config {
            idempotence: rng.chance(70),
            max_in_flight: rng.range(1, 11) as u8,
            retries: rng.below(11) as u8,
            transactional_id: rng.chance(40),
            relay: *rng.pick(&RelayKind::ALL),
            inbox: rng.chance(50),
            jitter_ms: rng.below(21) as u32,
            delivery_timeout_ms: rng.chance(50).then(|| rng.range(1, 10_001) as u32),
        },
        seed: rng.next_u64(),
        inputs,
    };
    assert_eq!(s.check(), Ok(()), "{s:?}");
    s
}

/// The Kafka lessons, challenges and solutions, and random scenarios (a few written as version
/// 1, which the page still reads), with links to each from the page's routes.
fn kafka_corpus(rng: &mut Rng) -> (Vec<String>, Vec<String>) {
    use idempotency_playground::ui::kafka::persist::to_query;
    let mut runs: Vec<(String, kafka::KafkaScenario)> = Vec::new();
    for id in kafka::LESSON_IDS {
        let l = kafka::lesson(id).expect("lesson");
        runs.push((format!("#/scenario/{id}"), l.scenario));
    }
    for id in kafka::CHALLENGE_IDS {
        let c = kafka::challenge(id).expect("challenge");
        runs.push((format!("#/kafka/challenge/{id}"), c.scenario));
        runs.push((format!("#/kafka/challenge/{id}"), c.solution));
    }
    for _ in 0..24 {
        runs.push(("#/kafka".into(), kafka_random(rng)));
    }
    let mut docs = Vec::new();
    let mut links = Vec::new();
    for (route, s) in &runs {
        let doc = kafka::to_json(s);
        assert_eq!(kafka::from_json(&doc).as_ref(), Ok(s), "{doc}");
        links.push(format!("{route}?{}", to_query(s, rng.below(80))));
        if rng.chance(20) {
            let old = doc.replacen("\"version\":2", "\"version\":1", 1);
            links.push(format!("{route}?{}", encode_query(&old, rng.below(80))));
            docs.push(old);
        }
        docs.push(doc);
    }
    (docs, links)
}

/// A durable state of random columns (every setting, faults on any step) and actions.
fn durable_random(rng: &mut Rng) -> durable::SavedState {
    use durable::{
        Action, ClockMode, Config, ConflictPolicy, Engine, FaultKind, FlowKind, KeyMode,
        RestateTarget, ReusePolicy, StepName,
    };
    let columns = (0..rng.range(1, MAX_DURABLE_COLUMNS as u64 + 1))
        .map(|_| {
            let mut c = Config {
                flow: *rng.pick(&FlowKind::ALL),
                engine: *rng.pick(&Engine::ALL),
                key: *rng.pick(&KeyMode::ALL),
                clock: *rng.pick(&ClockMode::ALL),
                reuse: *rng.pick(&ReusePolicy::ALL),
                conflict: *rng.pick(&ConflictPolicy::ALL),
                restate: *rng.pick(&RestateTarget::ALL),
                faults: Vec::new(),
                start_again_at_ms: rng
                    .chance(40)
                    .then(|| rng.range(0, MAX_DURABLE_START_MS + 1)),
                auto_restart: rng.chance(80),
                seed: rng.range(0, MAX_PROPERTY_SEED + 1),
                ..Config::default()
            };
            for _ in 0..rng.below(MAX_DURABLE_FAULTS + 1) {
                c = c.with_fault(*rng.pick(&StepName::ALL), Some(*rng.pick(&FaultKind::ALL)));
            }
            c
        })
        .collect();
    let mut actions = Vec::new();
    let mut at = 0;
    for _ in 0..rng.below(MAX_DURABLE_ACTIONS.min(12)) {
        at += rng.range(1, 15) as usize;
        actions.push((at, *rng.pick(&Action::ALL)));
    }
    durable::SavedState {
        columns,
        actions,
        cursor: rng.below(120),
    }
}

/// The durable lessons and challenges (with their solutions) and random states, with links.
fn durable_corpus(rng: &mut Rng) -> (Vec<String>, Vec<String>) {
    use idempotency_playground::ui::durable::persist::to_query;
    let mut states: Vec<(String, durable::SavedState)> = Vec::new();
    for id in durable::LESSON_IDS {
        let l = durable::lesson(id).expect("lesson");
        let actions = if rng.chance(50) {
            vec![(rng.range(1, 10) as usize, durable::Action::Crash)]
        } else {
            Vec::new()
        };
        states.push((
            format!("#/scenario/{id}"),
            durable::SavedState {
                columns: l.columns,
                actions,
                cursor: rng.below(60),
            },
        ));
    }
    for id in durable::CHALLENGE_IDS {
        let c = durable::challenge(id).expect("challenge");
        states.push((
            format!("#/durable/challenge/{id}"),
            durable::SavedState {
                columns: vec![c.config.clone()],
                actions: c.solution().unwrap_or_default(),
                cursor: rng.below(60),
            },
        ));
    }
    for _ in 0..24 {
        states.push(("#/durable".into(), durable_random(rng)));
    }
    let mut docs = Vec::new();
    let mut links = Vec::new();
    for (route, s) in &states {
        let doc = durable::write_state(s);
        assert_eq!(durable::read_state(&doc).as_ref(), Ok(s), "{doc}");
        links.push(format!("{route}?{}", to_query(s)));
        docs.push(doc);
    }
    (docs, links)
}

/// Property page links for every property and service, and numbers as typed (the forms the
/// fields read: spaces, `_` and `,` separators, full-width digits, the edges).
fn property_corpus(rng: &mut Rng) -> (Vec<String>, Vec<String>) {
    use idempotency_playground::ui::properties::persist::to_query;
    let texts: Vec<String> = [
        "256",
        "1",
        "10000",
        "10,000",
        "1_000",
        " 42 ",
        "１２",
        "0",
        "42",
        "9007199254740991",
        "4294967296",
    ]
    .iter()
    .map(|t| t.to_string())
    .collect();
    let mut links = Vec::new();
    for property in Property::ALL {
        for service in ServiceKind::ALL {
            let s = Settings {
                property,
                service,
                cases: rng.range(1, u64::from(MAX_PROPERTY_CASES) + 1) as u32,
                seed: rng.range(0, MAX_PROPERTY_SEED + 1),
            };
            let q = to_query(&s);
            links.push(format!("#/properties?{q}"));
            // A link naming only some fields, in another order.
            let mut parts: Vec<&str> = q.split('&').collect();
            parts.retain(|_| rng.chance(60));
            parts.reverse();
            links.push(format!("#/properties?{}", parts.join("&")));
        }
    }
    (links, texts)
}

// ---- inputs ----------------------------------------------------------------------------------

/// A mutation of the JSON document `base`: tree edits, then byte edits (at least one edit). A
/// third of the mutations are gentle (tree edits a reader may accept, no byte edits), so that
/// accepted documents, and the runs they start, are not rare.
fn mutate_json(rng: &mut Rng, base: &str, c: &Corpus) -> Vec<u8> {
    let gentle = rng.chance(35);
    let mut edited = false;
    let mut bytes = if gentle || rng.chance(60) {
        let mut tree = json::parse(base).expect("the corpus is valid JSON");
        for _ in 0..rng.len(3) {
            mutate_tree(rng, &mut tree, &c.trees, &c.strings, gentle);
        }
        let layout = if rng.chance(85) {
            Layout::Compact
        } else {
            Layout::Random
        };
        let mut out = String::new();
        common::write(rng, &tree, layout, &mut out);
        edited = true;
        out.into_bytes()
    } else {
        base.as_bytes().to_vec()
    };
    if !edited || (!gentle && rng.chance(30)) {
        let donor = common::compact(rng.pick(&c.trees));
        for _ in 0..rng.len(3) {
            mutate_bytes(rng, &mut bytes, donor.as_bytes(), &c.strings);
        }
    }
    bytes
}

/// A step for a share link: a number, an edge, or not a number.
fn step_text(rng: &mut Rng) -> String {
    match rng.below(4) {
        0 | 1 => rng.below(200).to_string(),
        2 => rng
            .pick(&[
                "0",
                "18446744073709551615",
                "18446744073709551616",
                "4294967296",
            ])
            .to_string(),
        _ => rng
            .pick(&["", "-1", "1.5", "x", "0x10", " 1", "+3", "１"])
            .to_string(),
    }
}

/// A query string around a payload: sometimes other parameters, a second `s=` or `k=`, padding.
fn query(rng: &mut Rng, payload: &str, step: Option<String>) -> String {
    let mut parts = vec![format!("s={payload}")];
    if let Some(k) = step {
        parts.push(format!("k={k}"));
    }
    if rng.chance(20) {
        parts.insert(
            rng.below(parts.len() + 1),
            rng.pick(&["x=1", "s=", "k=2", "", "s=e30", "=", "&"])
                .to_string(),
        );
    }
    if rng.chance(10) {
        let pad = *rng.pick(&["=", "==", "+", "/", "%3D"]);
        parts[0].push_str(pad);
    }
    parts.join("&")
}

/// Case `case`'s input for `reader`.
fn input(rng: &mut Rng, reader: Reader, c: &Corpus) -> String {
    match reader {
        Reader::Scenario => {
            let base = rng.pick(&c.scenarios);
            text(&mutate_json(rng, base, c))
        }
        Reader::ShareLink | Reader::LabLink => share_or_lab_link_input(rng, reader, c),
        Reader::LabState => {
            let base = rng.pick(&c.labs);
            text(&mutate_json(rng, base, c))
        }
        Reader::SavedRun => saved_run_input(rng, c),
        Reader::KafkaJson => {
            let base = rng.pick(&c.kafka);
            text(&mutate_json(rng, base, c))
        }
        Reader::DurableState => {
            let base = rng.pick(&c.durables);
            text(&mutate_json(rng, base, c))
        }
        Reader::KafkaLink | Reader::DurableLink => kafka_or_durable_link_input(rng, reader, c),
        Reader::HeaderKey => header_key_input(rng, c),
        Reader::PropertyFields => {
            let field = if rng.chance(50) { "cases" } else { "seed" };
            let typed = typed_number(rng, c);
            format!("{field}:{typed}")
        }
        Reader::PropertyLink => property_link_input(rng, c),
    }
}

/// A share link or a lab link: a document mutated, then encoded on a route, or a good link
/// mutated as text.
fn share_or_lab_link_input(rng: &mut Rng, reader: Reader, c: &Corpus) -> String {
    let share = reader == Reader::ShareLink;
    if rng.chance(60) {
        // The document mutated, then encoded (its bytes need not be UTF-8).
        let base = rng.pick(if share { &c.scenarios } else { &c.labs });
        let bytes = mutate_json(rng, base, c);
        let k = share.then(|| step_text(rng));
        let route = if share {
            *rng.pick(&[
                "#/sandbox",
                "#/scenario/double-charge",
                "#/",
                "",
                "#/nope/x",
            ])
        } else {
            *rng.pick(&["#/lab", "#/lab", "#/lab", "#/lab/", "#lab", "#/sandbox"])
        };
        format!("{route}?{}", query(rng, &b64url_encode(&bytes), k))
    } else {
        // A good link, mutated as text.
        let links = if share { &c.links } else { &c.lab_links };
        let mut bytes = rng.pick(links).clone().into_bytes();
        let donor = rng.pick(links);
        for _ in 0..rng.len(4) {
            mutate_bytes(rng, &mut bytes, donor.as_bytes(), &c.strings);
        }
        text(&bytes)
    }
}

/// A saved run: the scenario inside mutated (and sometimes the whole then), or the whole.
fn saved_run_input(rng: &mut Rng, c: &Corpus) -> String {
    let base = rng.pick(&c.saved).clone();
    if rng.chance(70) {
        // The scenario inside mutated (a string in the saved run), the rest intact.
        let tree = json::parse(&base).expect("valid");
        let mut route = String::new();
        let mut position = 0;
        let mut scenario = String::new();
        if let json::Value::Object(members) = &tree.value {
            for m in members {
                match (&m.key[..], &m.value.value) {
                    ("route", json::Value::Str(s)) => route = s.clone(),
                    ("position", json::Value::Int(n)) => position = *n as u64,
                    ("scenario", json::Value::Str(s)) => scenario = s.clone(),
                    _ => {}
                }
            }
        }
        let inner = text(&mutate_json(rng, &scenario, c));
        let mut out = String::new();
        let mut o = ObjectWriter::new(&mut out);
        o.str("route", &route);
        o.u64("position", position);
        o.str("scenario", &inner);
        o.end();
        if rng.chance(30) {
            return text(&mutate_json(rng, &out, c));
        }
        out
    } else {
        text(&mutate_json(rng, &base, c))
    }
}

/// A Kafka or durable link: a document mutated, then encoded on a route, or a good link mutated
/// as text.
fn kafka_or_durable_link_input(rng: &mut Rng, reader: Reader, c: &Corpus) -> String {
    let on_kafka = reader == Reader::KafkaLink;
    let links = if on_kafka {
        &c.kafka_links
    } else {
        &c.durable_links
    };
    if rng.chance(60) {
        // The document mutated, then encoded, on one of the page's routes (or another).
        let base = rng.pick(if on_kafka { &c.kafka } else { &c.durables });
        let bytes = mutate_json(rng, base, c);
        let k = rng.chance(80).then(|| step_text(rng));
        let route = if on_kafka {
            *rng.pick(&[
                "#/kafka",
                "#/kafka",
                "#/scenario/kafka-lost-ack",
                "#/scenario/kafka-restart",
                "#/kafka/challenge/kafka-reorder",
                "#/kafka/challenge/nope",
                "#/",
                "",
            ])
        } else {
            *rng.pick(&[
                "#/durable",
                "#/durable",
                "#/scenario/durable-saga",
                "#/scenario/durable-clock",
                "#/durable/challenge/durable-random-once",
                "#/durable/challenge/nope",
                "#/",
                "",
            ])
        };
        format!("{route}?{}", query(rng, &b64url_encode(&bytes), k))
    } else {
        // A good link, mutated as text.
        let mut bytes = rng.pick(links).clone().into_bytes();
        let donor = rng.pick(links);
        for _ in 0..rng.len(4) {
            mutate_bytes(rng, &mut bytes, donor.as_bytes(), &c.strings);
        }
        text(&bytes)
    }
}

/// A string from the corpus (keys, names, awkward strings), bytes mutated.
fn header_key_input(rng: &mut Rng, c: &Corpus) -> String {
    let mut bytes = rng.pick(&c.strings).clone().into_bytes();
    let donor = rng.pick(&c.strings);
    for _ in 0..rng.len(3) {
        mutate_bytes(rng, &mut bytes, donor.as_bytes(), &c.strings);
    }
    text(&bytes)
}

/// A property link: field by field, or a good link mutated as text.
fn property_link_input(rng: &mut Rng, c: &Corpus) -> String {
    if rng.chance(50) {
        // Field by field: values typed as the fields take them, or anything.
        let mut parts = Vec::new();
        for _ in 0..rng.len(6) {
            let name = *rng.pick(&["p", "svc", "n", "seed", "x", "", "P", "n "]);
            let value = match name {
                "p" if rng.chance(70) => rng.pick(&Property::ALL).id().to_string(),
                "svc" if rng.chance(70) => rng.pick(&ServiceKind::ALL).id().to_string(),
                _ if rng.chance(60) => typed_number(rng, c),
                _ => rng.pick(&c.strings).clone(),
            };
            if rng.chance(5) {
                parts.push(name.to_string());
            } else {
                parts.push(format!("{name}={value}"));
            }
        }
        let route = if rng.chance(85) {
            "#/properties"
        } else {
            *rng.pick(&["#/properties/", "#properties", "#/sandbox", ""])
        };
        format!("{route}?{}", parts.join("&"))
    } else {
        // A good link, mutated as text.
        let mut bytes = rng.pick(&c.property_links).clone().into_bytes();
        let donor = rng.pick(&c.property_links);
        for _ in 0..rng.len(4) {
            mutate_bytes(rng, &mut bytes, donor.as_bytes(), &c.strings);
        }
        text(&bytes)
    }
}

/// A number as a learner might type it into a property field: a valid form, an edge, or one of
/// them edited byte by byte.
fn typed_number(rng: &mut Rng, c: &Corpus) -> String {
    let mut bytes = match rng.below(3) {
        0 => rng.pick(&c.property_texts).clone(),
        1 => rng.pick(&common::NUMBERS).to_string(),
        _ => rng.below(20_000).to_string(),
    }
    .into_bytes();
    if rng.chance(50) {
        let donor = rng.pick(&c.property_texts).clone();
        for _ in 0..rng.len(3) {
            mutate_bytes(rng, &mut bytes, donor.as_bytes(), &c.strings);
        }
    }
    text(&bytes)
}

// ---- the run ---------------------------------------------------------------------------------

#[derive(Default)]
struct Tally {
    tried: u64,
    accepted: u64,
    refused: u64,
    panics: u64,
    steps: u64,
    time: Duration,
    why: BTreeMap<String, u64>,
}

thread_local! {
    /// Where the last panic happened and what it said, noted by the hook set below.
    static LAST_PANIC: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

#[test]
fn every_reader_accepts_or_refuses_mutated_input_without_panicking() {
    // Panics are reported with their input at the end, not printed as they happen.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|info| {
        LAST_PANIC.with(|p| *p.borrow_mut() = info.to_string());
    }));
    // The harness needs unwinding (a panic = "abort" profile would end the run at the first).
    assert!(catch_unwind(|| panic!("caught")).is_err());
    assert!(LAST_PANIC.with(|p| p.borrow().contains("caught")));
    let seed = env_u64("FUZZ_SEED").unwrap_or(DEFAULT_SEED);
    let only = env_u64("FUZZ_CASE");
    let cases = env_u64("FUZZ_CASES").unwrap_or(DEFAULT_CASES);
    println!("fuzz: seed {seed} (FUZZ_SEED={seed} repeats this run), {cases} cases");
    let c = corpus();
    let started = Instant::now();
    let mut tallies: BTreeMap<Reader, Tally> = BTreeMap::new();
    let mut failures = Vec::new();
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz-panics");
    for case in only.map_or(0..cases, |i| i..i + 1) {
        let mut rng = Rng::for_case(seed, case);
        let reader = READERS[(case % READERS.len() as u64) as usize];
        let text = input(&mut rng, reader, &c);
        let t = Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(|| feed(reader, &text)));
        let tally = tallies.entry(reader).or_default();
        tally.time += t.elapsed();
        tally.tried += 1;
        match outcome {
            Ok(Ok(steps)) => {
                tally.accepted += 1;
                tally.steps += steps as u64;
            }
            Ok(Err(why)) => {
                if why.starts_with("ACCEPTED BUT") {
                    failures.push(format!(
                        "FUZZ_SEED={seed} FUZZ_CASE={case} {reader:?}: {why}\n  input: {}",
                        excerpt(&text, 2_000)
                    ));
                }
                tally.refused += 1;
                *tally.why.entry(why).or_default() += 1;
            }
            Err(_) => {
                tally.panics += 1;
                let _ = std::fs::create_dir_all(&dir);
                let file = dir.join(format!("{reader:?}-{seed}-{case}.txt"));
                let _ = std::fs::write(&file, &text);
                failures.push(format!(
                    "FUZZ_SEED={seed} FUZZ_CASE={case} {reader:?} {}\n  input (saved in {}): {}",
                    LAST_PANIC.with(|p| p.borrow().clone()),
                    file.display(),
                    excerpt(&text, 2_000)
                ));
            }
        }
    }
    let elapsed = started.elapsed();
    std::panic::set_hook(default_hook);
    print_tallies(&tallies, elapsed);
    common::assert_none("failures", &failures);
}

/// Per reader, the inputs tried, accepted, refused and panicked, the steps run, the time, and
/// the most common refusals; then the totals.
fn print_tallies(tallies: &BTreeMap<Reader, Tally>, elapsed: Duration) {
    let mut total = Tally::default();
    println!(
        "{:<62} {:>9} {:>9} {:>9} {:>6} {:>12} {:>8}",
        "reader", "tried", "accepted", "refused", "panics", "steps run", "time"
    );
    for (reader, t) in tallies {
        println!(
            "{:<62} {:>9} {:>9} {:>9} {:>6} {:>12} {:>7.2}s",
            reader.name(),
            t.tried,
            t.accepted,
            t.refused,
            t.panics,
            t.steps,
            t.time.as_secs_f64()
        );
        let mut why: Vec<(&String, &u64)> = t.why.iter().collect();
        why.sort_by(|a, b| b.1.cmp(a.1));
        let top: Vec<String> = why
            .iter()
            .take(6)
            .map(|(w, n)| format!("{w} {n}"))
            .collect();
        println!("    refused as: {}", top.join(", "));
        total.tried += t.tried;
        total.accepted += t.accepted;
        total.refused += t.refused;
        total.panics += t.panics;
        total.steps += t.steps;
    }
    println!(
        "{:<62} {:>9} {:>9} {:>9} {:>6} {:>12} {:>7.2}s",
        "all readers",
        total.tried,
        total.accepted,
        total.refused,
        total.panics,
        total.steps,
        elapsed.as_secs_f64()
    );
}

/// The sandbox's key field: the draft's rule (1-255 characters, printable ASCII); an accepted key
/// quotes as an sf-string that starts and ends with a quote and escapes `"` and `\\`.
fn header_key(input: &str) -> Result<usize, String> {
    idempotency_playground::validate_header_key(input).map_err(|e| variant(&format!("{e:?}")))?;
    let quoted = idempotency_playground::sf_string(input)
        .map_err(|e| format!("ACCEPTED BUT sf_string REFUSED: {e:?}"))?;
    if !(quoted.starts_with('"') && quoted.ends_with('"') && quoted.len() >= input.len() + 2) {
        return Err(format!("ACCEPTED BUT QUOTED WRONG: {quoted}"));
    }
    Ok(quoted.len())
}
