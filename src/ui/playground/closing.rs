//! The closing card, after the last lesson (issue 28): the rules the path taught (every lesson's
//! takeaway, numbered and linked), the production recipes this project verified, exactly as they
//! ran (`text::recipes`: the safe SQL variants measured on PostgreSQL, the Kafka producer's
//! settings, the durable step's key, each linked to the page that shows it), and where to go on.
//! It prints on one page (`@media print` in app.css), the recipes open. Its markup is written at
//! build time (`text::lessons::closing_markup`) and read from the words file.

use yew::prelude::*;

use crate::ui::i18n::Lang;
use crate::ui::raw::Raw;
use crate::ui::text::lessons;
use crate::ui::text::view;

/// The closing card: the markup the words file carries (`text::lessons`, key `closing`), and
/// its print button.
pub fn closing_card(l: Lang) -> Html {
    let mut r = Raw::default();
    r.trusted(lessons::text(l, "closing"));
    let print = Callback::from(|_: MouseEvent| crate::ui::web::print());
    html! {
        <div class="closing" data-testid="closing">
            { r.html() }
            <button class="print" data-testid="print-closing" onclick={print}>{ view::playground::CLOSING_PRINT.get(l) }</button>
        </div>
    }
}
