//! Links to the glossary (issue 28), for every page: a term as a link to its entry, and a
//! lesson's words with the glossary's first uses in them linked. The glossary itself is drawn by
//! the first page (`playground::glossary`, `#/glossary/<id>`); its words are `text::glossary`'s.

use yew::Html;

use crate::ui::i18n::Lang;
use crate::ui::raw::Raw;
use crate::ui::text::{glossary, lessons};

pub use crate::ui::text::glossary::term_href;

/// `text` with the first use in it of each term the page in folder `dir` ("durable/",
/// "kafka/") introduces (`text::glossary::Term::page`: saga, compensation, fence) as a link to its
/// entry on the first page's glossary: how those pages link their own terms, handler-free
/// (`crate::ui::raw`).
pub fn page_linked(l: Lang, dir: &str, text: &str) -> Html {
    page_markup(l, dir, text).html()
}

/// [`page_linked`]'s markup.
fn page_markup(l: Lang, dir: &str, text: &str) -> Raw {
    let mut hits: Vec<(usize, usize, &str)> = glossary::GLOSSARY
        .iter()
        .filter(|t| t.page == dir)
        .filter_map(|t| glossary::find(text, t.forms.get(l)).map(|(s, e)| (s, e, t.id)))
        .collect();
    hits.sort_unstable();
    let mut r = Raw::default();
    let mut at = 0;
    for (start, end, id) in hits {
        if start < at {
            continue;
        }
        r.text(&text[at..start]);
        glossary::write_term(&mut r, dir, id, &text[start..end]);
        at = end;
    }
    r.text(&text[at..]);
    r
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

    #[test]
    fn the_durable_and_kafka_pages_link_their_own_terms_where_their_words_use_them() {
        let linked = |l, dir, text| page_markup(l, dir, text).as_str().to_string();
        for l in [Lang::En, Lang::Ja] {
            let saga = crate::ui::text::durable::lesson(l, "durable-saga").story;
            let m = linked(l, "durable/", saga);
            assert!(m.contains("href=\"../#/glossary/compensation\""), "{m}");
        }
        // A word that only starts like a form is not a use of it.
        assert!(!linked(Lang::En, "kafka/", "the fences are up").contains("<a"));
        assert!(
            linked(Lang::En, "kafka/", "the zombie is fenced.").contains(
                "<a href=\"../#/glossary/fence\" class=\"term\" data-term=\"fence\">fenced</a>."
            )
        );
    }
}
