//! Japanese and English. Every string the page shows is written as a pair, so a missing
//! translation is visible in review: `lang.t("English", "日本語")` for fixed text, and `tr!` for
//! text with values formatted in, which formats only the language shown. The words for the
//! simulation's data live in `crate::ui::text`.

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

/// Formats text with values in the page's language, formatting only that language:
/// `tr!(lang, "Balance {balance}", "残高 {balance}")` is `format!` of the English string for
/// `Lang::En` and of the Japanese one for `Lang::Ja`. Values are named inline (`{name}`), so each
/// language may use any of them, in any order; bind an expression to a name first.
macro_rules! tr {
    ($lang:expr, $en:literal, $ja:literal $(,)?) => {
        match $lang {
            $crate::ui::i18n::Lang::En => ::std::format!($en),
            $crate::ui::i18n::Lang::Ja => ::std::format!($ja),
        }
    };
    // With arguments: `tr!(lang, ["{} of {}", a, b], ["{1} 中 {0}", a, b])`.
    ($lang:expr, [$en:literal $(, $en_arg:expr)* $(,)?], [$ja:literal $(, $ja_arg:expr)* $(,)?] $(,)?) => {
        match $lang {
            $crate::ui::i18n::Lang::En => ::std::format!($en $(, $en_arg)*),
            $crate::ui::i18n::Lang::Ja => ::std::format!($ja $(, $ja_arg)*),
        }
    };
}
pub(crate) use tr;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tr_formats_the_chosen_language() {
        let n = 3;
        assert_eq!(tr!(Lang::En, "{n} tries", "{n} 回"), "3 tries");
        assert_eq!(tr!(Lang::Ja, "{n} tries", "{n} 回"), "3 回");
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
}
