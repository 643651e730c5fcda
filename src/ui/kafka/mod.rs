//! The Kafka page (`kafka/`, its own wasm): Kafka's idempotent producer, the broker's window of
//! 5 batches per producer id, fencing by epoch, the outbox and log-based relays and the
//! consumer's inbox. Lessons at `#/scenario/<kafka lesson id>`, challenges at
//! `#/kafka/challenge/<id>`, the sandbox at `#/kafka`. Every rule lives in `crate::sim::kafka`;
//! the page draws its state, keeps the run in the address and in this browser, and speaks both
//! languages.

mod page;
pub mod persist;
pub mod state;
mod view;

pub use page::{KafkaPage, KafkaPageProps};

use crate::sim::kafka::LESSON_IDS;
use crate::ui::app::Site;
use crate::ui::i18n::Lang;
use crate::ui::route::Route;
use yew::{html, Html};

/// The Kafka page: draws its lessons, challenges and sandbox, hands every other route on.
pub struct KafkaSite;

impl Site for KafkaSite {
    const DIR: &'static str = "kafka/";

    fn render(route: &Route, lang: Lang) -> Html {
        let key = route.to_hash();
        html! { <KafkaPage lang={lang} route={route.clone()} key={key} /> }
    }

    fn home() -> Route {
        Route::Scenario(LESSON_IDS[0].into())
    }
}
