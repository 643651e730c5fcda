//! Writes the lesson path's words in one language (`en` or `ja`, the first argument) as the
//! words file a one-language release page fetches when it opens (`words-<lang>.txt`; see
//! `text::lessons::LAZY`). `scripts/build.sh` runs it; the page's wasm then carries no lesson text
//! but the titles.

use idempotency_playground::ui::i18n::Lang;
use idempotency_playground::ui::text::lessons::words_text;

fn main() {
    let code = std::env::args().nth(1).unwrap_or_default();
    print!("{}", words_text(Lang::from_code(&code)));
}
