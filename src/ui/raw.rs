//! Markup without handlers written as one string and handed to Yew as raw HTML
//! (`Html::from_html_unchecked`). A part of the page with no buttons of its own (the lesson
//! list, a card's text, the caption) costs the wasm a fraction of what `html!` costs per
//! element. Safe by construction: every text and attribute value goes through [`esc`], and the
//! tags and attribute names are this crate's literals.

use yew::{AttrValue, Html};

/// Appends `s` with `& < > " '` escaped, safe in text and in a quoted attribute.
pub fn esc(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
}

/// A string of markup being written.
#[derive(Default)]
pub struct Raw(String);

impl Raw {
    /// Opens `<tag a="v" …>`; an attribute with an empty name is skipped (for optional ones).
    pub fn open(&mut self, tag: &str, attrs: &[(&str, &str)]) -> &mut Raw {
        self.0.push('<');
        self.0.push_str(tag);
        for (name, value) in attrs.iter().filter(|(n, _)| !n.is_empty()) {
            self.0.push(' ');
            self.0.push_str(name);
            self.0.push_str("=\"");
            esc(&mut self.0, value);
            self.0.push('"');
        }
        self.0.push('>');
        self
    }

    /// Closes `</tag>`.
    pub fn close(&mut self, tag: &str) -> &mut Raw {
        self.0.push_str("</");
        self.0.push_str(tag);
        self.0.push('>');
        self
    }

    /// Escaped text.
    pub fn text(&mut self, t: &str) -> &mut Raw {
        esc(&mut self.0, t);
        self
    }

    /// Markup a `Raw` wrote before, appended as it is: only what this crate wrote with the
    /// methods above (the first page's words file carries the glossary's, the recipes' and the
    /// lessons' linked words so written at build time, `text::lessons::extras_text`).
    pub fn trusted(&mut self, markup: &str) -> &mut Raw {
        self.0.push_str(markup);
        self
    }

    /// `<tag attrs>text</tag>`.
    pub fn el(&mut self, tag: &str, attrs: &[(&str, &str)], t: &str) -> &mut Raw {
        self.open(tag, attrs).text(t).close(tag)
    }

    /// The markup as a node.
    pub fn html(self) -> Html {
        Html::from_html_unchecked(AttrValue::from(self.0))
    }

    /// The markup written so far (tests).
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_attributes_are_escaped() {
        let mut r = Raw::default();
        r.el("a", &[("href", "#/x\"><script>"), ("", "skipped")], "<b>&'");
        assert_eq!(
            r.as_str(),
            "<a href=\"#/x&quot;&gt;&lt;script&gt;\">&lt;b&gt;&amp;&#39;</a>"
        );
    }
}
