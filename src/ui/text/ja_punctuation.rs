//! A test over the Japanese half of every pair in `src/ui/text` (issue 28): a Japanese sentence
//! takes full-width punctuation (「課金：1」, not 「課金: 1」). The words are read from the
//! sources themselves (`include_str!`), since a `Pair` or a `tr!` cannot be listed at run time:
//! the second text argument of each `pair!(…)`, `tr!(…)` and `.t(…)` is the Japanese one.
//!
//! A hit is ASCII `;`, `!` or `?` beside a Japanese character, `:` after one (before a space or
//! at the end), `,` after one, or `(` after one (with or without a space). Code, identifiers, SQL,
//! headers and numbers keep ASCII: they sit beside a space or a Latin character, so they are no
//! hits (`Idempotency-Key: order-42`, `send() から`, `(3·3)!`). What is left is in [`EXCEPTIONS`].

/// Every words file of `src/ui/text` (this test's own file aside), by its path in the folder.
const FILES: &[(&str, &str)] = &[
    ("challenges.rs", include_str!("challenges.rs")),
    ("downstream.rs", include_str!("downstream.rs")),
    ("durable.rs", include_str!("durable.rs")),
    ("errors.rs", include_str!("errors.rs")),
    ("events.rs", include_str!("events.rs")),
    ("glossary.rs", include_str!("glossary.rs")),
    ("http.rs", include_str!("http.rs")),
    ("kafka.rs", include_str!("kafka.rs")),
    ("lab.rs", include_str!("lab.rs")),
    ("lessons.rs", include_str!("lessons.rs")),
    ("mod.rs", include_str!("mod.rs")),
    ("policies.rs", include_str!("policies.rs")),
    ("postgres.rs", include_str!("postgres.rs")),
    ("properties.rs", include_str!("properties.rs")),
    ("recipes.rs", include_str!("recipes.rs")),
    ("results.rs", include_str!("results.rs")),
    ("teach.rs", include_str!("teach.rs")),
    ("view/common.rs", include_str!("view/common.rs")),
    ("view/durable.rs", include_str!("view/durable.rs")),
    ("view/kafka.rs", include_str!("view/kafka.rs")),
    ("view/lab.rs", include_str!("view/lab.rs")),
    ("view/mod.rs", include_str!("view/mod.rs")),
    ("view/playground.rs", include_str!("view/playground.rs")),
    ("view/properties.rs", include_str!("view/properties.rs")),
];

/// (file, the words around the hit, why they keep ASCII): a hit inside these words is allowed.
const EXCEPTIONS: &[(&str, &str, &str)] = &[
    (
        "glossary.rs",
        "冪等性キー: リトライで",
        "the article's own title, quoted as written",
    ),
    (
        "lessons.rs",
        "冪等性キー: リトライで",
        "the article's own title, quoted as written",
    ),
    (
        "view/lab.rs",
        "冪等性キー: リトライで",
        "the article's own title, quoted as written",
    ),
    (
        "view/properties.rs",
        "冪等性キー: リトライで",
        "the article's own title, quoted as written",
    ),
];

/// A Japanese character: kana, kanji, CJK and full-width punctuation (「」、。：（）).
fn is_japanese(c: char) -> bool {
    matches!(c,
        '\u{3000}'..='\u{303f}'
        | '\u{3040}'..='\u{30ff}'
        | '\u{3400}'..='\u{4dbf}'
        | '\u{4e00}'..='\u{9fff}'
        | '\u{f900}'..='\u{faff}'
        | '\u{ff00}'..='\u{ffef}')
}

/// A Japanese word's character: kana (with ー) or kanji, not punctuation.
fn is_japanese_letter(c: char) -> bool {
    is_japanese(c) && !matches!(c, '\u{3000}'..='\u{303f}' | '\u{ff00}'..='\u{ffef}')
}

/// The byte ranges of ASCII punctuation in `ja` that should be full-width, with the rule. A `(`
/// after a Japanese word opens a remark (（）); after 「：」 or 「、」 it may start a formula.
fn hits(ja: &str) -> Vec<(usize, usize, &'static str)> {
    let chars: Vec<(usize, char)> = ja.char_indices().collect();
    let at = |i: Option<usize>| i.and_then(|i| chars.get(i)).map(|&(_, c)| c);
    let japanese = |i: Option<usize>| at(i).is_some_and(is_japanese);
    let mut out = Vec::new();
    for (i, &(start, c)) in chars.iter().enumerate() {
        let before = japanese(i.checked_sub(1));
        let word_before = match at(i.checked_sub(1)) {
            Some(' ') => at(i.checked_sub(2)),
            other => other,
        };
        let rule = match c {
            ';' | '!' | '?' if before || japanese(Some(i + 1)) => "；！？ beside Japanese",
            ':' if before && matches!(at(Some(i + 1)), None | Some(' ')) => "：after Japanese",
            ',' if before => "、after Japanese",
            '(' if word_before.is_some_and(is_japanese_letter) => "（after Japanese",
            ' ' if number_ends(&ja[..start])
                && COUNTERS.iter().any(|c| ja[start + 1..].starts_with(c)) =>
            {
                "no space between a number and its counter (2回, 24時間)"
            }
            _ => continue,
        };
        out.push((start, start + c.len_utf8(), rule));
    }
    out
}

/// The words that count what a number before them counts: one number format, the number tied to
/// its counter (2回, 24時間, 3ステップ, 255文字), as the lessons write it.
const COUNTERS: &[&str] = &[
    "ミリ秒",
    "時間",
    "秒",
    "分",
    "日",
    "週",
    "か月",
    "ヶ月",
    "年",
    "回",
    "つ",
    "件",
    "個",
    "人",
    "円",
    "文字",
    "バイト",
    "ステップ",
    "接続",
    "種類",
    "ケース",
    "列",
    "行",
    "番目",
    "度",
    "倍",
    "通り",
    "桁",
    "手",
    "台",
    "本",
    "枚",
    "段",
    "歩",
];

/// Whether `before` ends in a number: ASCII digits (with `,` or `.` inside: 1,000, 24.0) that are
/// not the end of a name (`order-42`, `#3`), or a value `{n}` (not a label `#{n}`).
fn number_ends(before: &str) -> bool {
    let digits = before.trim_end_matches(|c: char| c.is_ascii_digit() || c == ',' || c == '.');
    let lead = if before.ends_with('}') {
        before.rfind('{').map(|i| &before[..i])
    } else if digits.len() < before.len() && before.ends_with(|c: char| c.is_ascii_digit()) {
        Some(digits)
    } else {
        None
    };
    lead.is_some_and(|lead| {
        !lead.ends_with(|c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '#'))
    })
}

/// Whether the hit at `range` of `ja` in `file` lies inside one of the [`EXCEPTIONS`].
fn excepted(file: &str, ja: &str, range: (usize, usize)) -> bool {
    EXCEPTIONS.iter().any(|&(f, words, _)| {
        f == file
            && ja
                .match_indices(words)
                .any(|(s, w)| s <= range.0 && range.1 <= s + w.len())
    })
}

/// The hits in one source file, as "file:line: rule in «words»".
fn violations(file: &str, src: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (line, ja) in japanese_strings(src) {
        for (start, end, rule) in hits(&ja) {
            if excepted(file, &ja, (start, end)) {
                continue;
            }
            let from = ja[..start]
                .char_indices()
                .rev()
                .nth(7)
                .map_or(0, |(i, _)| i);
            let to = ja[end..]
                .char_indices()
                .nth(8)
                .map_or(ja.len(), |(i, _)| end + i);
            out.push(format!("{file}:{line}: {rule} in «{}»", &ja[from..to]));
        }
    }
    out
}

/// A token of Rust source: a string literal's value (with its line), a name, or one character.
#[derive(Debug, PartialEq)]
enum Token {
    Str(String, usize),
    Name(String),
    Punct(char),
}

/// The Japanese words of a source: the second text argument of each `pair!(…)`, `tr!(…)` and
/// `.t(…)` (for `tr!(l, [en, …], [ja, …])`, the first string in the second bracket), with the
/// line it starts on. A file's tests (its `#[cfg(test)] mod tests`) are not read.
fn japanese_strings(src: &str) -> Vec<(usize, String)> {
    let src = src
        .split("\n#[cfg(test)]\nmod tests {")
        .next()
        .unwrap_or(src);
    let tokens = tokenize(src);
    let mut out = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        let call = match (t, tokens.get(i + 1), tokens.get(i + 2)) {
            (Token::Name(n), Some(Token::Punct('!')), Some(Token::Punct('(')))
                if n == "pair" || n == "tr" =>
            {
                i + 3
            }
            (Token::Punct('.'), Some(Token::Name(n)), Some(Token::Punct('('))) if n == "t" => i + 3,
            _ => continue,
        };
        if let Some(found) = second_text_argument(&tokens[call..]) {
            out.push(found);
        }
    }
    out
}

/// In the arguments after a call's `(`, the first string of the second argument that starts
/// with a string (or a `[` and a string).
fn second_text_argument(tokens: &[Token]) -> Option<(usize, String)> {
    let (mut depth, mut arg_start, mut texts) = (0usize, true, 0);
    for (i, t) in tokens.iter().enumerate() {
        if arg_start {
            arg_start = false;
            let first = match (t, tokens.get(i + 1)) {
                (Token::Punct('['), Some(Token::Str(s, line))) | (Token::Str(s, line), _) => {
                    Some((*line, s.clone()))
                }
                _ => None,
            };
            if let Some(found) = first {
                texts += 1;
                if texts == 2 {
                    return Some(found);
                }
            }
        }
        match t {
            Token::Punct('(' | '[' | '{') => depth += 1,
            Token::Punct(')' | ']' | '}') if depth == 0 => return None,
            Token::Punct(')' | ']' | '}') => depth -= 1,
            Token::Punct(',') if depth == 0 => arg_start = true,
            _ => {}
        }
    }
    None
}

/// Splits Rust source into strings, names and single characters, skipping comments.
fn tokenize(src: &str) -> Vec<Token> {
    let chars: Vec<(usize, char)> = src.char_indices().collect();
    let line_of = |i: usize| {
        1 + src[..chars.get(i).map_or(src.len(), |c| c.0)]
            .matches('\n')
            .count()
    };
    let mut tokens = Vec::new();
    let mut i = 0;
    while let Some(&(_, c)) = chars.get(i) {
        let next = chars.get(i + 1).map(|&(_, c)| c);
        if c.is_whitespace() {
            i += 1;
        } else if c == '/' && next == Some('/') {
            while chars.get(i).is_some_and(|&(_, c)| c != '\n') {
                i += 1;
            }
        } else if c == '"' {
            let (value, end) = string_literal(&chars, i + 1);
            tokens.push(Token::Str(value, line_of(i)));
            i = end;
        } else if c == 'r' && matches!(next, Some('"' | '#')) {
            let (value, end) = raw_string_literal(&chars, i + 1);
            tokens.push(Token::Str(value, line_of(i)));
            i = end;
        } else if c == '\'' {
            // A char literal ('"', '\n', '\u{a0}') is skipped whole; a lifetime ('static) is
            // a name after a quote.
            let quote_at = |k: usize| chars.get(k).is_some_and(|&(_, c)| c == '\'');
            i += if next == Some('\\') {
                2 + chars[i + 2..]
                    .iter()
                    .take_while(|&&(_, c)| c != '\'')
                    .count()
                    + 1
            } else if quote_at(i + 2) {
                3
            } else {
                1
            };
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while chars
                .get(i)
                .is_some_and(|&(_, c)| c.is_alphanumeric() || c == '_')
            {
                i += 1;
            }
            tokens.push(Token::Name(
                chars[start..i].iter().map(|&(_, c)| c).collect(),
            ));
        } else {
            tokens.push(Token::Punct(c));
            i += 1;
        }
    }
    tokens
}

/// A `"…"` literal's value from just after its opening quote, and the index after its close.
fn string_literal(chars: &[(usize, char)], mut i: usize) -> (String, usize) {
    let mut value = String::new();
    while let Some(&(_, c)) = chars.get(i) {
        i += 1;
        match c {
            '"' => break,
            '\\' => {
                let escaped = chars.get(i).map_or(' ', |&(_, c)| c);
                i += 1;
                match escaped {
                    'n' => value.push('\n'),
                    '\n' => {
                        while chars.get(i).is_some_and(|&(_, c)| c.is_whitespace()) {
                            i += 1;
                        }
                    }
                    'u' => {
                        let hex: String = chars[i..]
                            .iter()
                            .map(|&(_, c)| c)
                            .skip(1)
                            .take_while(|c| *c != '}')
                            .collect();
                        i += hex.chars().count() + 2;
                        let code = u32::from_str_radix(&hex, 16).ok();
                        value.push(code.and_then(char::from_u32).unwrap_or('\u{fffd}'));
                    }
                    other => value.push(other),
                }
            }
            _ => value.push(c),
        }
    }
    (value, i)
}

/// An `r#"…"#` literal's value from just after its `r`, and the index after its close.
fn raw_string_literal(chars: &[(usize, char)], mut i: usize) -> (String, usize) {
    let hashes = chars[i..].iter().take_while(|&&(_, c)| c == '#').count();
    i += hashes + 1;
    let mut value = String::new();
    while let Some(&(_, c)) = chars.get(i) {
        let closes =
            c == '"' && (1..=hashes).all(|k| chars.get(i + k).is_some_and(|&(_, c)| c == '#'));
        if closes {
            return (value, i + 1 + hashes);
        }
        value.push(c);
        i += 1;
    }
    (value, i)
}

/// Every Japanese sentence in `src/ui/text` takes full-width punctuation.
#[test]
fn japanese_words_use_full_width_punctuation() {
    let found: Vec<String> = FILES
        .iter()
        .flat_map(|(file, src)| violations(file, src))
        .collect();
    assert!(
        found.is_empty(),
        "ASCII punctuation in Japanese words (write ；！？：、（ instead, or add an exception \
         with its reason to EXCEPTIONS in src/ui/text/ja_punctuation.rs):\n{}",
        found.join("\n")
    );
}

/// The scan reads the words it should, so the test above would see a hit.
#[test]
fn the_scan_reads_every_kind_of_pair_and_finds_the_issues_examples() {
    let japanese =
        |src: &str| -> Vec<String> { japanese_strings(src).into_iter().map(|(_, s)| s).collect() };
    let src = "pub const A: Pair = pair!(\"Charges: 1\", \"課金: 1\");\n\
               fn b(l: Lang, n: u8) -> String {\n\
                   // pair!(\"a comment\", \"コメント; 読まない\")\n\
                   let q = '\"';\n\
                   tr!(l, [\"{} writes; P1\", n], [\"{}書く; P1\", n])\n\
               }\n\
               fn c(l: Lang) -> &'static str { l.t(\"Count (3·3)!\", \"数 (3·3)!\") }\n\
               fn d(l: Lang) -> String { tr!(l, \"it\\\n   is\", \"それは\\u{a0}ある!\") }\n\
               #[cfg(test)]\nmod tests {\n    const E: Pair = pair!(\"test\", \"テスト; 読まない\");\n}\n";
    assert_eq!(
        japanese(src),
        ["課金: 1", "{}書く; P1", "数 (3·3)!", "それは\u{a0}ある!"]
    );
    let found = violations("example.rs", src);
    assert_eq!(found.len(), 4, "{found:#?}");
    assert!(
        found[0].starts_with("example.rs:1: ：after Japanese"),
        "{found:#?}"
    );
    assert!(found[1].starts_with("example.rs:5: ；！？"), "{found:#?}");
    assert!(
        found[2].starts_with("example.rs:7: （after Japanese"),
        "{found:#?}"
    );
    assert!(found[3].starts_with("example.rs:9: ；！？"), "{found:#?}");
    // Code, headers, numbers and their units keep ASCII, and full-width is no hit.
    for fine in [
        "Idempotency-Key: order-42 付きで呼ぶ",
        "send() から数え、(3·3)! / (3!)^3、式：(3·3)!",
        "課金：1、書く；P1、数（3·3）！",
        "enable.idempotence=true で SELECT … FOR UPDATE",
        "{name}: {value}",
    ] {
        assert_eq!(hits(fine), [], "{fine}");
    }
}

/// Every words file of `src/ui/text` is in [`FILES`], so a new one is read too (native only:
/// the browser tests cannot list a folder).
#[cfg(not(target_arch = "wasm32"))]
/// A number and its counter are one word; a name ending in digits, a label and a particle are not
/// counters.
#[test]
fn a_number_is_tied_to_its_counter() {
    let rules = |ja: &str| hits(ja).into_iter().map(|h| h.2).collect::<Vec<_>>();
    assert_eq!(rules("25 時間後").len(), 1);
    assert_eq!(rules("最大 {max} ステップ").len(), 1);
    assert_eq!(rules("1,000 回と 0.5 秒").len(), 2);
    for fine in [
        "25時間後",
        "order-42 付き",
        "#{n} キー",
        "409 を返す",
        "{name} を",
        "250 ms",
    ] {
        assert!(rules(fine).is_empty(), "{fine}");
    }
}

#[test]
fn every_words_file_is_scanned() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ui/text");
    let mut on_disk = Vec::new();
    for dir in ["", "view/"] {
        for entry in std::fs::read_dir(root.join(dir)).expect("src/ui/text is readable") {
            let name = entry.expect("a folder entry").file_name();
            let name = name.to_string_lossy();
            if name.ends_with(".rs") && name != "ja_punctuation.rs" {
                on_disk.push(format!("{dir}{name}"));
            }
        }
    }
    on_disk.sort();
    let listed: Vec<&str> = FILES.iter().map(|(f, _)| *f).collect();
    assert_eq!(on_disk, listed, "add the new file to FILES");
}
