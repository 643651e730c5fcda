//! Japanese and English. Every string the page shows is written as a pair, so a missing
//! translation is visible in review: `lang.t("English", "日本語")` for fixed text, and `tr!` for
//! text with values formatted in, which formats only the language shown; words kept in tables
//! are [`Pair`]s, written `pair!("English", "日本語")`. The words for the simulation's data live
//! in `crate::ui::text`.
//!
//! A release page is built once per language (features `lang-en` / `lang-ja`, [`Lang::BUILT`]):
//! `t`, `tr!` and `Pair` then keep only that language's words, and the language button loads the
//! other build. Never `match lang { … }` for words: such a match keeps both languages in the
//! download.

/// The page language, switchable and remembered in localStorage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Lang {
    #[default]
    En,
    Ja,
}

impl Lang {
    /// The one language this build speaks, for a release page built per language (cargo feature
    /// `lang-en` or `lang-ja`, see `scripts/build.sh`): its text keeps only that language's
    /// strings, and the other language is the other build. `None` (no feature: tests, and
    /// `trunk serve`) keeps both and switches in place.
    pub const BUILT: Option<Lang> = if cfg!(feature = "lang-en") {
        Some(Lang::En)
    } else if cfg!(feature = "lang-ja") {
        Some(Lang::Ja)
    } else {
        None
    };

    /// Picks the string for this language. In a one-language build it is that language's string
    /// whatever `self` is (the page's `Lang` is always the built one there), so the other
    /// language's literal is dead code and not in the download.
    #[inline(always)]
    pub fn t(self, en: &'static str, ja: &'static str) -> &'static str {
        match Self::BUILT.unwrap_or(self) {
            Lang::En => en,
            Lang::Ja => ja,
        }
    }

    /// The BCP 47 code, for `<html lang>`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ja => "ja",
        }
    }

    /// Parses a stored or browser language code; anything starting with "ja" is Japanese.
    pub fn from_code(code: &str) -> Lang {
        if code.trim().to_ascii_lowercase().starts_with("ja") {
            Lang::Ja
        } else {
            Lang::En
        }
    }
}

#[cfg(all(feature = "lang-en", feature = "lang-ja"))]
compile_error!(
    "a page is built in one language: features `lang-en` and `lang-ja` exclude each other"
);

/// Formats text with values in the page's language, formatting only that language:
/// `tr!(lang, "Balance {balance}", "残高 {balance}")` is `format!` of the English string for
/// `Lang::En` and of the Japanese one for `Lang::Ja`. Values are named inline (`{name}`), so each
/// language may use any of them, in any order; bind an expression to a name first.
macro_rules! tr {
    ($lang:expr, $en:literal, $ja:literal $(,)?) => {
        match $crate::ui::i18n::Lang::BUILT.unwrap_or($lang) {
            $crate::ui::i18n::Lang::En => ::std::format!($en),
            $crate::ui::i18n::Lang::Ja => ::std::format!($ja),
        }
    };
    // With arguments: `tr!(lang, ["{} of {}", a, b], ["{1} 中 {0}", a, b])`.
    ($lang:expr, [$en:literal $(, $en_arg:expr)* $(,)?], [$ja:literal $(, $ja_arg:expr)* $(,)?] $(,)?) => {
        match $crate::ui::i18n::Lang::BUILT.unwrap_or($lang) {
            $crate::ui::i18n::Lang::En => ::std::format!($en $(, $en_arg)*),
            $crate::ui::i18n::Lang::Ja => ::std::format!($ja $(, $ja_arg)*),
        }
    };
}
pub(crate) use tr;

/// Words in both languages, kept in data (the lesson path's tables): `pair!("English", "日本語")`.
/// In a one-language build it holds only that language's words, so tables of pairs carry one
/// language too; `get` picks as [`Lang::t`] does.
#[derive(Clone, Copy, Debug)]
pub struct Pair {
    #[cfg(not(feature = "lang-ja"))]
    #[doc(hidden)]
    pub en: &'static str,
    #[cfg(not(feature = "lang-en"))]
    #[doc(hidden)]
    pub ja: &'static str,
}

impl Pair {
    /// The words in `lang` (in a one-language build, in the built language).
    #[inline(always)]
    pub fn get(self, lang: Lang) -> &'static str {
        #[cfg(feature = "lang-en")]
        let words = {
            let _ = lang;
            self.en
        };
        #[cfg(feature = "lang-ja")]
        let words = {
            let _ = lang;
            self.ja
        };
        #[cfg(not(any(feature = "lang-en", feature = "lang-ja")))]
        let words = lang.t(self.en, self.ja);
        words
    }
}

/// A [`Pair`]: `pair!("English", "日本語")`; a one-language build keeps one of the two.
impl Pair {
    /// The same string in every language this build keeps: words read at run time in the
    /// build's one language (`text::lessons::load_words`).
    pub const fn same(s: &'static str) -> Pair {
        Pair {
            #[cfg(not(feature = "lang-ja"))]
            en: s,
            #[cfg(not(feature = "lang-en"))]
            ja: s,
        }
    }
}

macro_rules! pair {
    ($en:literal, $ja:literal $(,)?) => {
        $crate::ui::i18n::Pair {
            #[cfg(not(feature = "lang-ja"))]
            en: $en,
            #[cfg(not(feature = "lang-en"))]
            ja: $ja,
        }
    };
}
pub(crate) use pair;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tr_formats_the_chosen_language() {
        let n = 3;
        assert_eq!(tr!(Lang::En, "{n} tries", "{n}回"), "3 tries");
        assert_eq!(tr!(Lang::Ja, "{n} tries", "{n}回"), "3回");
        let (a, b) = (1, 2);
        assert_eq!(
            tr!(Lang::En, ["{} of {}", a, b], ["{1} 中 {0}", a, b]),
            "1 of 2"
        );
        assert_eq!(
            tr!(Lang::Ja, ["{} of {}", a, b], ["{1} 中 {0}", a, b]),
            "2 中 1"
        );
    }

    #[test]
    fn pairs_pick_as_t_does_and_tests_keep_both_languages() {
        // The tests build without `lang-en`/`lang-ja`: both languages, switched in place.
        assert_eq!(Lang::BUILT, None);
        let p = pair!("Balance", "残高");
        assert_eq!(p.get(Lang::En), "Balance");
        assert_eq!(p.get(Lang::Ja), "残高");
        assert_eq!(Lang::Ja.t("Balance", "残高"), "残高");
    }
}
