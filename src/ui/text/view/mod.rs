//! The words of each page's own views: headings, buttons, hints, labels and the sentences around
//! the data, one file per page (`common` for the parts every page shares: the app's header and
//! footer, the run controls, the question card). A view writes no English/Japanese pair itself;
//! it names a word here (`page::HEADING.get(l)` for fixed words, a function for words with
//! values in them), so every word the learner reads is in `ui/text`, and the check in
//! `scripts/check-words.sh` keeps it so.

pub mod common;
pub mod durable;
pub mod kafka;
pub mod lab;
pub mod playground;
pub mod properties;
