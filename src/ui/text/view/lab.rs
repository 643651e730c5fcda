//! The lab views' words (see the parent module).

#[allow(unused_imports)]
use crate::ui::i18n::{pair, tr, Lang, Pair};
