//! The real code each step executes, cut from the crate's own services (src/sim/article/mod.rs) at the
//! `// @lab <name>` marker comments, so the page shows the code that the tests run, not a copy.
//!
//! A section runs from the line after its marker to the next marker line (`// @lab end` or the
//! start of another section). Parsed at runtime from the included text, once.

use std::sync::OnceLock;

use super::error::LabError;

/// The service source the markers live in.
pub const ARTICLE_SOURCE: &str = include_str!("../article/mod.rs");

/// Every marker the lab's models use, in the order they appear in a request's program.
pub const MARKERS: [&str; 10] = [
    "toctou.check",
    "toctou.charge",
    "toctou.store",
    "atomic.lock",
    "atomic.check",
    "atomic.charge",
    "atomic.store",
    "unlocked.check",
    "unlocked.charge",
    "unlocked.store",
];

const MARKER_PREFIX: &str = "// @lab ";

/// One line of service source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SourceLine {
    /// 1-based line number in src/sim/article/mod.rs.
    pub number: usize,
    /// The line as written, indentation included.
    pub text: &'static str,
}

/// A named section of source between two markers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// The marker's name, e.g. `toctou.check`.
    pub name: &'static str,
    /// The lines of the section, marker lines excluded.
    pub lines: Vec<SourceLine>,
}

/// Splits `text` into its `// @lab` sections. `end` closes a section and is not one itself;
/// a section still open at the end of the text runs to the end.
pub fn parse_sections(text: &'static str) -> Vec<Section> {
    let mut sections: Vec<Section> = Vec::new();
    let mut open: Option<Section> = None;
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(name) = trimmed.strip_prefix(MARKER_PREFIX) {
            if let Some(done) = open.take() {
                sections.push(done);
            }
            let name = name.trim();
            if name != "end" {
                open = Some(Section {
                    name,
                    lines: Vec::new(),
                });
            }
        } else if let Some(section) = open.as_mut() {
            section.lines.push(SourceLine {
                number: index + 1,
                text: line,
            });
        }
    }
    if let Some(done) = open.take() {
        sections.push(done);
    }
    sections
}

fn sections() -> &'static [Section] {
    static PARSED: OnceLock<Vec<Section>> = OnceLock::new();
    PARSED.get_or_init(|| parse_sections(ARTICLE_SOURCE))
}

/// The lines of the section `marker` in src/sim/article/mod.rs, or which marker is missing.
/// A marker used twice contributes both sections, in source order.
pub fn section(marker: &'static str) -> Result<Vec<SourceLine>, LabError> {
    let mut found = false;
    let mut lines = Vec::new();
    for s in sections().iter().filter(|s| s.name == marker) {
        found = true;
        lines.extend_from_slice(&s.lines);
    }
    if found {
        Ok(lines)
    } else {
        Err(LabError::MissingMarker { marker })
    }
}

/// Bytes of leading ASCII spaces and tabs (the only indentation rustfmt writes).
fn indent_of(line: &str) -> usize {
    line.bytes()
        .take_while(|b| *b == b' ' || *b == b'\t')
        .count()
}

/// The common leading indentation of `lines` (blank lines ignored), so a listing can be shown
/// without the indentation of the surrounding `impl` block.
pub fn common_indent(lines: &[SourceLine]) -> usize {
    lines
        .iter()
        .filter(|l| !l.text.trim().is_empty())
        .map(|l| indent_of(l.text))
        .min()
        .unwrap_or(0)
}

/// `line` without up to `indent` bytes of leading indentation.
pub fn dedent(line: &str, indent: usize) -> &str {
    // Only ASCII spaces and tabs are cut, so the cut is always on a char boundary.
    line.get(indent_of(line).min(indent)..).unwrap_or(line)
}
