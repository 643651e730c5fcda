//! The closing card's production recipes (issue 28): what this project verified, exactly as it
//! ran, computed from the core and its measured data, never typed in: the SQL of every variant
//! the PostgreSQL race found safe (`sim::postgres::program`, with the figures `make pg-race`
//! committed in data/pg-race.json), the Kafka producer's settings of the safe case
//! (`sim::kafka::Config::default`, run on the Kafka lessons' inputs), and the key the durable
//! step passes (`sim::durable::KeyMode::Derived`, as a run of the durable lesson formed it).
//!
//! Only the native words writer (`src/bin/lesson_words.rs`) and builds that carry their words
//! (tests, `trunk serve`) call this: a one-language release page reads the recipes from its
//! words file, as the markup the closing card shows ([`markup`], every word escaped by
//! `crate::ui::raw`), so none of this, nor the report, is in its wasm (`text::lessons::LAZY`).

use crate::sim::durable::{self, EffectKind, KeyMode};
use crate::sim::kafka::{self, Config, Invariant, KafkaScenario, Sim};
use crate::sim::postgres::{program, RaceRow, Report};
use crate::ui::i18n::{pair, tr, Lang, Pair};
use crate::ui::raw::Raw;

/// What `make pg-race` measured (the lab's "On a real database" shows the same file).
const REPORT_JSON: &str = include_str!("../../../data/pg-race.json");

/// The recipes' heading and introduction.
const HEADING: Pair = pair!(
    "Verified here, exactly as it ran",
    "ここで確かめたレシピ（実行したそのまま）"
);
const INTRO: Pair = pair!("The SQL of every variant that the race on PostgreSQL found safe, the Kafka producer settings and the durable step's key, each with what was measured and the page that shows it. In the SQL, $1 is the key and $2 the amount.", "PostgreSQL での競合が安全と確かめた方式の SQL、Kafka プロデューサーの設定、永続実行のステップのキー。それぞれに測った結果と、それを見せるページを添えた。SQL の $1 はキー、$2 は金額。");

const KAFKA_TITLE: Pair = pair!(
    "Kafka's idempotent producer: the settings",
    "Kafka の冪等プロデューサー：設定"
);
const KAFKA_SHOWN: Pair = pair!(
    "The Kafka page: an acknowledgement lost",
    "Kafka のページ：確認応答が失われる"
);
const DURABLE_TITLE: Pair = pair!(
    "The durable step's key: derived from the workflow, the run and the step",
    "永続実行のステップのキー：ワークフロー・実行・ステップから導く"
);
const DURABLE_SHOWN: Pair = pair!(
    "The durable-execution page: a crash after the charge",
    "永続実行のページ：課金の後のクラッシュ"
);

/// Every recipe in `l`, as (id, title, figures, code, href, shown): the safe SQL variants in the
/// lab's order, then Kafka, then the durable step.
pub fn records(l: Lang) -> Vec<[String; 6]> {
    let mut out = sql(l);
    out.push(kafka(l));
    out.push(durable(l));
    out
}

/// The recipes as the closing card shows them (handler-free markup, every word escaped): the
/// heading, the introduction, then one `<details>` per recipe (`data-recipe` its id) with its
/// name, its figures, its statements, settings or key in a `<pre>`, and the page that shows it.
pub fn markup(l: Lang) -> String {
    let mut r = Raw::default();
    r.el("h3", &[], HEADING.get(l))
        .el("p", &[("class", "muted")], INTRO.get(l))
        .open("div", &[("class", "recipes"), ("data-testid", "recipes")]);
    for [id, title, figures, code, href, shown] in records(l) {
        r.open("details", &[("class", "recipe"), ("data-recipe", &id)])
            .el("summary", &[], &title)
            .el("p", &[("class", "figures")], &figures)
            .open("pre", &[])
            .el("code", &[], &code)
            .close("pre")
            .open("p", &[("class", "verified")])
            .el("a", &[("href", &href)], &shown)
            .close("p")
            .close("details");
    }
    r.close("div");
    r.as_str().to_string()
}

/// The variants with no double charge and no lost or extra event in any race, their
/// statements as the driver ran them.
fn sql(l: Lang) -> Vec<[String; 6]> {
    let Ok(report) = Report::from_json(REPORT_JSON) else {
        return Vec::new();
    };
    let server = report
        .server
        .split(' ')
        .take(2)
        .collect::<Vec<_>>()
        .join(" ");
    let date = &report.date;
    let shown = tr!(
        l,
        "Measured on {server}, {date}: the lab's “On a real database”",
        "{server} で測定（{date}）：ラボの「本物のデータベースで」"
    );
    let safe = report
        .races
        .iter()
        .filter(|r| r.double_charged == 0 && r.outbox_mismatches == 0);
    safe.map(|r| {
        let code: Vec<String> = program(r.variant)
            .iter()
            .map(|s| format!("{};", s.sql))
            .collect();
        [
            r.variant.id().to_string(),
            super::postgres::variant_name(l, r.variant).to_string(),
            race_figures(l, r, report.connections),
            code.join("\n"),
            "lab/#/lab/postgres".to_string(),
            shown.clone(),
        ]
    })
    .collect()
}

/// A race row's figures: races, double charges, the most charges a key got, the transactions
/// begun again and the errors.
fn race_figures(l: Lang, r: &RaceRow, connections: u64) -> String {
    let (trials, double, max) = (r.trials, r.double_charged, r.max_charges);
    let mut out = tr!(
        l,
        "{trials} races of {connections} connections on one key · double charges: {double} · most charges per key: {max}",
        "1つのキーに {connections}接続 × {trials}回の競合・二重課金：{double}回・1つのキーへの課金回数（最多）：{max}回"
    );
    let retries = r.retries;
    if retries > 0 {
        out.push_str(&tr!(
            l,
            " · began again after 40001: {retries}",
            "・40001 の後の再試行：{retries}回"
        ));
    }
    for e in &r.errors {
        let (state, n) = (&e.sqlstate, e.count);
        out.push_str(&tr!(
            l,
            " · SQLSTATE {state}: ×{n}",
            "・SQLSTATE {state}：{n}回"
        ));
    }
    out
}

/// The producer's settings of the safe case (the model's defaults, which Kafka's own producer
/// accepts), and what the Kafka lessons' inputs did under them.
fn kafka(l: Lang) -> [String; 6] {
    let c = Config::default();
    debug_assert!(c.idempotence && c.refusal().is_none());
    // The model's broker answers as with acks=all (a request is refused NOT_ENOUGH_REPLICAS
    // when the in-sync replicas fall short), which idempotence requires: not a setting of its own.
    let code = format!(
        "enable.idempotence={}\nacks=all\nmax.in.flight.requests.per.connection={}\nretries={}",
        c.idempotence, c.max_in_flight, c.retries
    );
    let (mut runs, mut events, mut twice, mut reordered) = (0, 0, 0, 0);
    for id in kafka::LESSON_IDS {
        let Some(lesson) = kafka::lesson(id) else {
            continue;
        };
        let s = KafkaScenario {
            config: c,
            ..lesson.scenario
        };
        // A run where the broker forgets the producer promises nothing (Kafka's own limit).
        if !Invariant::NoDuplicateInSession.promised(&s) {
            continue;
        }
        let (_, end) = Sim::run_all(&s);
        let broke = |i| end.violations.broken_at(i).is_some();
        runs += 1;
        events += s.events_written();
        twice += usize::from(broke(Invariant::NoDuplicateInSession));
        reordered += usize::from(broke(Invariant::SendOrder));
    }
    let figures = tr!(
        l,
        "The inputs of {runs} Kafka lessons ({events} events; lost acknowledgements and requests, crashes and restarts) run with these settings. Runs that wrote a send twice within a producer session: {twice} · runs out of send order: {reordered}",
        "Kafka のレッスン {runs}つの入力（イベント {events}件、確認応答やリクエストの消失、クラッシュと再起動）をこの設定で実行した。1つのプロデューサーセッション内で同じ送信を2回書いた実行：{twice}件・送信順を崩した実行：{reordered}件"
    );
    [
        "kafka".to_string(),
        KAFKA_TITLE.get(l).to_string(),
        figures,
        code,
        "kafka/#/scenario/kafka-lost-ack".to_string(),
        KAFKA_SHOWN.get(l).to_string(),
    ]
}

/// The key the charge step passes with `KeyMode::Derived`, as the durable lesson's run formed
/// it, with how often the step ran and what the card saw.
fn durable(l: Lang) -> [String; 6] {
    let lesson = durable::lesson("durable-charge-key");
    let columns = lesson.map(|ls| ls.columns).unwrap_or_default();
    let derived: Vec<_> = columns
        .into_iter()
        .filter(|c| c.key == KeyMode::Derived)
        .take(1)
        .collect();
    let worlds = durable::DurableRun::new(derived, Vec::new()).final_worlds();
    let (mut keys, mut ran, mut charged, mut replayed) = (Vec::<String>::new(), 0, 0, 0);
    for w in &worlds {
        for e in w.effects() {
            match e.kind {
                EffectKind::Charged => charged += 1,
                EffectKind::ChargeReplayed => replayed += 1,
                _ => continue,
            }
            ran += 1;
            if let Some(k) = e.key.as_ref().filter(|k| !keys.contains(k)) {
                keys.push(k.clone());
            }
        }
    }
    let distinct = keys.len();
    let figures = tr!(
        l,
        "Formed from the workflow id, the run and the step's name, as Temporal suggests (the run id and the activity id), so every execution of the step passes the same key. The lesson crashes after the charge, before its journal entry. Executions of the step: {ran} · keys: {distinct} · charges: {charged} · replays: {replayed}",
        "ワークフローID・実行・ステップ名から作る。Temporal の勧め（実行IDとアクティビティID）のとおりで、ステップを何度実行しても同じキーになる。レッスンでは課金の後、ジャーナルに書く前にクラッシュする。ステップの実行：{ran}回・キー：{distinct}個・課金：{charged}回・リプレイ：{replayed}回"
    );
    let code: Vec<String> = keys
        .iter()
        .map(|k| format!("Idempotency-Key: {k}"))
        .collect();
    [
        "durable".to_string(),
        DURABLE_TITLE.get(l).to_string(),
        figures,
        code.join("\n"),
        "durable/#/scenario/durable-charge-key".to_string(),
        DURABLE_SHOWN.get(l).to_string(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The recipes are the measured data's and the core's: the safe variants are those with no
    /// double charge in data/pg-race.json, each with the statements `program` holds; the
    /// producer's settings keep Kafka's promise on every lesson they run; the durable key is one
    /// key across the step's executions, and the card is charged once.
    #[test]
    fn the_recipes_are_the_core_and_the_measured_data() {
        let report = Report::from_json(REPORT_JSON).expect("the committed report reads");
        let safe: Vec<&str> = report
            .races
            .iter()
            .filter(|r| r.double_charged == 0)
            .map(|r| r.variant.id())
            .collect();
        for l in [Lang::En, Lang::Ja] {
            let all = records(l);
            let ids: Vec<&str> = all.iter().map(|r| r[0].as_str()).collect();
            assert_eq!(ids[..ids.len() - 2], safe[..]);
            assert_eq!(ids[ids.len() - 2..], ["kafka", "durable"]);
            for r in &all[..safe.len()] {
                let v = crate::sim::postgres::Variant::from_id(&r[0]).unwrap();
                for s in program(v) {
                    assert!(r[3].contains(s.sql), "{} runs {}", r[0], s.sql);
                }
                assert!(
                    r[2].contains(if l == Lang::En {
                        "double charges: 0 "
                    } else {
                        "二重課金：0回"
                    }),
                    "{}",
                    r[2]
                );
            }
            let kafka = &all[safe.len()];
            assert!(kafka[3].starts_with("enable.idempotence=true\nacks=all\n"));
            assert!(kafka[3].contains("max.in.flight.requests.per.connection=5"));
            let durable = &all[safe.len() + 1];
            assert_eq!(durable[3], "Idempotency-Key: order-42/1/charge_card");
        }
        // The two non-safe neighbours the lab shows as failing are not recipes.
        assert!(!safe.contains(&"tx-check-insert") && !safe.contains(&"toctou"));
        let en = records(Lang::En);
        let kafka = &en[en.len() - 2][2];
        assert!(
            kafka.ends_with("producer session: 0 · runs out of send order: 0"),
            "{kafka}"
        );
        let durable = &en[en.len() - 1][2];
        assert!(
            durable.ends_with("keys: 1 · charges: 1 · replays: 1"),
            "{durable}"
        );
    }
}
