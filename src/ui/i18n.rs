//! Japanese and English. Every string the page shows is written at its use site as a pair,
//! `lang.t("English", "日本語")`, so a missing translation is visible in review.

/// The page language, switchable and remembered in localStorage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Lang {
    #[default]
    En,
    Ja,
}

impl Lang {
    /// Picks the string for this language.
    pub fn t(self, en: &'static str, ja: &'static str) -> &'static str {
        match self {
            Lang::En => en,
            Lang::Ja => ja,
        }
    }

    /// Picks between two owned strings (for text with values formatted in).
    pub fn f(self, en: String, ja: String) -> String {
        match self {
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
