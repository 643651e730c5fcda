//! Links to the glossary (issue 28), for every page: a term as a link to its entry, and a
//! lesson's words with the glossary's first uses in them linked. The glossary itself is drawn by
//! the first page (`playground::glossary`, `#/glossary/<id>`); its words are `text::glossary`'s.

use yew::Html;

use crate::ui::i18n::Lang;
use crate::ui::raw::Raw;
use crate::ui::text::{glossary, lessons};

pub use crate::ui::text::glossary::term_href;

/// `text` as a link to the glossary's entry `id` (`text::glossary::GLOSSARY`), for the page in
/// folder `dir` ("durable/", "kafka/"): how the durable and Kafka pages link the first use of
/// their own terms (saga, compensation, fence, inbox), handler-free (`crate::ui::raw`).
pub fn term_link(dir: &str, id: &str, text: &str) -> Html {
    let mut r = Raw::default();
    glossary::write_term(&mut r, dir, id, text);
    r.html()
}

/// Writes the lesson `id`'s `field` (0 the story, 2 why, 3 the takeaway), `text`: with the
/// glossary terms it is the first on the path to use as links (`lessons::linked`), else as it is.
pub fn write_linked(r: &mut Raw, l: Lang, id: &str, field: u8, text: &str) {
    match lessons::linked(l, id, field) {
        Some(markup) => r.trusted(markup),
        None => r.text(text),
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_term_links_to_its_entry_from_any_page() {
        assert_eq!(term_href("", "toctou"), "#/glossary/toctou");
        assert_eq!(term_href("kafka/", "fence"), "../#/glossary/fence");
        // Where the path first uses the term: the lesson that introduces it, in its story.
        let id = "concurrent-same-key";
        let story = lessons::words(id).unwrap().story.get(Lang::En);
        let mut r = Raw::default();
        write_linked(&mut r, Lang::En, id, 0, story);
        assert!(r.as_str().contains(
            " The <a href=\"#/glossary/toctou\" class=\"term\" data-term=\"toctou\">TOCTOU</a> service"
        ));
        // Elsewhere the text is as it is.
        let text = "Two requests; the TOCTOU service checks <again>";
        let mut r = Raw::default();
        write_linked(&mut r, Lang::En, "double-charge", 0, text);
        assert_eq!(
            r.as_str(),
            "Two requests; the TOCTOU service checks &lt;again&gt;"
        );
    }
}
