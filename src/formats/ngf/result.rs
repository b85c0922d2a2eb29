//! NGF result text: a free-form, multilingual line (English, Korean, Japanese, Chinese, Thai)
//! parsed into an SGF result, and the English text the writer produces.

use crate::model::{Color, GameResult, WinKind};

/// What a result line says.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum ParsedResult {
    /// The line is empty.
    Empty,
    /// The game was still in progress (`Progressing!`): no result.
    InProgress,
    /// A result.
    Result(GameResult),
    /// The text was not understood.
    Unknown,
}

const BLACK: &[&str] = &["black", "흑", "黒", "黑", "ดำ"];
const WHITE: &[&str] = &["white", "백", "白", "ขาว"];
const WIN: &[&str] = &["win", "승", "勝", "胜", "ชนะ"];
const LOSE: &[&str] = &["lose", "loses", "lost", "패", "負", "负", "แพ้"];
const RESIGN: &[&str] = &["resign", "resi", "불계", "中押", "中盘", "中盤", "投了", "认输"];
const TIME: &[&str] = &["time", "시간", "時間", "超时", "超時", "초읽기"];
// "disconnection": Tygem's word for a game lost by leaving it, which kifu's GIB writer gives a
// forfeit (GRLT 5 and 6).
const FORFEIT: &[&str] = &["forfeit", "disconnection", "반칙", "反則", "犯规", "判負"];
const DRAW: &[&str] = &["draw", "jigo", "무승부", "持碁", "ジゴ", "和棋"];
const PROGRESS: &[&str] = &["progress", "진행", "対局中", "打ち掛け", "进行中"];

/// The position of the first of `words` in `text`, if any.
fn find_any(text: &str, words: &[&str]) -> Option<usize> {
    words.iter().filter_map(|w| text.find(w)).min()
}

/// Parses an NGF result line (see [`formats/ngf.md`](crate::spec::ngf), "Result"). The part after `>>` (a score
/// breakdown such as `White(66):Black(89)`) is ignored.
pub(crate) fn parse_result(text: &str) -> ParsedResult {
    let text = text.trim();
    if text.is_empty() {
        return ParsedResult::Empty;
    }
    if let Some(r) = GameResult::from_sgf(text) {
        return ParsedResult::Result(r);
    }
    let main = text.split(">>").next().unwrap_or(text);
    let lower = main.to_lowercase();
    if find_any(&lower, PROGRESS).is_some() {
        return ParsedResult::InProgress;
    }
    let black = find_any(&lower, BLACK);
    let white = find_any(&lower, WHITE);
    let colour = match (black, white) {
        (Some(b), Some(w)) => Some(if b < w { Color::Black } else { Color::White }),
        (Some(_), None) => Some(Color::Black),
        (None, Some(_)) => Some(Color::White),
        (None, None) => None,
    };
    let trimmed = lower.trim_matches(|c: char| c.is_ascii_punctuation() || c.is_whitespace());
    if find_any(&lower, DRAW).is_some() && colour.is_none() {
        return ParsedResult::Result(GameResult::Draw);
    }
    if matches!(trimmed, "void" | "no result") {
        return ParsedResult::Result(GameResult::Void);
    }
    if matches!(trimmed, "unknown" | "") {
        return ParsedResult::Result(GameResult::Unknown);
    }
    let Some(colour) = colour else { return ParsedResult::Unknown };
    let win = find_any(&lower, WIN);
    let lose = find_any(&lower, LOSE);
    let winner = match (win, lose) {
        (Some(_), None) => colour,
        (None, Some(_)) => colour.opponent(),
        // "wins" and "loses" both: the earlier word decides.
        (Some(w), Some(l)) => {
            if w < l {
                colour
            } else {
                colour.opponent()
            }
        }
        (None, None) => return ParsedResult::Unknown,
    };
    let how = if find_any(&lower, RESIGN).is_some() {
        WinKind::Resign
    } else if find_any(&lower, TIME).is_some() {
        WinKind::Time
    } else if find_any(&lower, FORFEIT).is_some() {
        WinKind::Forfeit
    } else {
        match margin(&lower) {
            Some(m) => WinKind::Score(m),
            None => WinKind::Points,
        }
    };
    ParsedResult::Result(GameResult::Win { winner, how })
}

/// The winning margin in points: a margin in stones (`子`, Chinese counting: see
/// [`stones_margin`]) doubled; else the first number that is not a move count (`250수`,
/// `232手`), plus ½ for `半`/`반` after it; `半目`/`반집` alone is ½.
fn margin(text: &str) -> Option<f64> {
    if let Some(stones) = stones_margin(text) {
        return Some(stones * 2.0);
    }
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
            i += 1;
        }
        let num: String = chars[start..i].iter().collect();
        let num = num.trim_end_matches('.');
        let rest: String = chars[i..].iter().take(4).collect();
        let rest = rest.trim_start();
        if rest.starts_with('수') || rest.starts_with('手') {
            continue;
        }
        let Ok(mut value) = num.parse::<f64>() else { continue };
        if !value.is_finite() {
            continue;
        }
        let after_unit = rest.trim_start_matches(['目', '집', '点', '點']);
        if after_unit.starts_with('半') || after_unit.starts_with('반') {
            value += 0.5;
        }
        return Some(value);
    }
    if text.contains("半目") || text.contains("반집") {
        return Some(0.5);
    }
    None
}

/// A margin in stones (Chinese counting), in stones: the text before a `子` read as
/// `N`, `N.M`, `N又a/b`, `a/b`, `半`, `N又四分之一` (`一二三四` around `分之`), blanks allowed
/// around its parts, and a `半` right after the `子` adding ½ (`3子半`). Full-width digits and
/// `／` count as ASCII. `None` when no `子` follows such a number.
pub(crate) fn stones_margin(text: &str) -> Option<f64> {
    let chars: Vec<char> = text
        .chars()
        .map(|c| match c {
            '０'..='９' => char::from(b'0' + (c as u32 - '０' as u32) as u8),
            '／' => '/',
            c => c,
        })
        .filter(|c| !c.is_whitespace())
        .collect();
    let part =
        |c: char| c.is_ascii_digit() || matches!(c, '.' | '/' | '又' | '半' | '分' | '之' | '一' | '二' | '三' | '四');
    for (at, _) in chars.iter().enumerate().filter(|(_, c)| **c == '子') {
        let start = chars[..at].iter().rposition(|c| !part(*c)).map_or(0, |p| p + 1);
        let token: String = chars[start..at].iter().collect();
        if let Some(mut v) = stones_token(&token) {
            if chars.get(at + 1) == Some(&'半') && v.fract() == 0.0 {
                v += 0.5;
            }
            return Some(v);
        }
    }
    None
}

/// `N`, `N.M`, `N又F`, `F` or `半`, with `F` a fraction below one: `a/b` or `b分之a` (`一`–`四`).
fn stones_token(t: &str) -> Option<f64> {
    if t == "半" {
        return Some(0.5);
    }
    let (whole, frac) = match t.split_once('又') {
        Some((w, f)) => (Some(w), Some(f)),
        None if t.contains('/') || t.contains("分之") => (None, Some(t)),
        None => (Some(t), None),
    };
    let whole = match whole {
        Some(w) => {
            if w.is_empty() || !w.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
                return None;
            }
            w.parse::<f64>().ok().filter(|v| v.is_finite())?
        }
        None => 0.0,
    };
    let frac = match frac {
        None => 0.0,
        Some(f) => {
            let cn = |s: &str| ["一", "二", "三", "四"].iter().position(|d| *d == s).map(|i| i as f64 + 1.0);
            let (num, den) = match f.split_once('/') {
                Some((a, b)) => (a.parse::<f64>().ok()?, b.parse::<f64>().ok()?),
                None => {
                    let (b, a) = f.split_once("分之")?;
                    (cn(a)?, cn(b)?)
                }
            };
            if !(den > 0.0 && num > 0.0 && num < den && num.fract() == 0.0 && den.fract() == 0.0) {
                return None;
            }
            num / den
        }
    };
    Some(whole + frac)
}

/// The English result line the writer produces for `result` (which [`parse_result`] reads back
/// to the same result): `Black wins by 2.5 points!`, `White wins by resignation!`,
/// `White loses on time!` (= B+T), `Draw!`, `No result!`, `Unknown!`.
pub(crate) fn english_result(result: &GameResult) -> String {
    let name = |c: Color| if c == Color::Black { "Black" } else { "White" };
    match result {
        GameResult::Draw => "Draw!".into(),
        GameResult::Void => "No result!".into(),
        GameResult::Unknown => "Unknown!".into(),
        GameResult::Win { winner, how } => match how {
            WinKind::Score(s) => format!("{} wins by {} points!", name(*winner), crate::model::info::format_real(*s)),
            WinKind::Points => format!("{} wins!", name(*winner)),
            WinKind::Resign => format!("{} wins by resignation!", name(*winner)),
            WinKind::Time => format!("{} loses on time!", name(winner.opponent())),
            WinKind::Forfeit => format!("{} wins by forfeit!", name(*winner)),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn re(text: &str) -> Option<String> {
        match parse_result(text) {
            ParsedResult::Result(r) => Some(r.to_sgf()),
            _ => None,
        }
    }

    #[test]
    fn english_forms() {
        for (text, want) in [
            ("Black wins by 0.5!", "B+0.5"),
            ("White wins by  resign!", "W+R"),
            ("White wins by resign!", "W+R"),
            ("White Win by Resign!", "W+R"),
            ("Black wins by resignation!", "B+R"),
            ("White wins by resi!", "W+R"),
            ("White loses on time", "B+T"),
            ("Black wins by 16.5 points! >> White(66):Black(89)", "B+16.5"),
            ("Black Win 6.5 >> White(50):Black(63)", "B+6.5"),
            ("White 19Win  >> White(83):Black(64)", "W+19"),
            ("B+R", "B+R"),
            ("W+3.5", "W+3.5"),
        ] {
            assert_eq!(re(text).as_deref(), Some(want), "{text}");
        }
        assert_eq!(parse_result("Progressing!"), ParsedResult::InProgress);
        assert_eq!(parse_result("   "), ParsedResult::Empty);
    }

    #[test]
    fn korean_japanese_chinese_thai_forms() {
        for (text, want) in [
            ("흑 1.5집 승", "B+1.5"),
            ("250수 흑7집승", "B+7"),
            ("백 불계승", "W+R"),
            ("흑 불계패", "W+R"),
            ("흑 6집반 승", "B+6.5"),
            ("백 반집승", "W+0.5"),
            ("백 시간승", "W+T"),
            ("白5.5目勝ち!", "W+5.5"),
            ("黒中押し勝ち!", "B+R"),
            ("197手完、黒中押し勝ち", "B+R"),
            ("232手完、黒2目半勝ち", "B+2.5"),
            ("黒5.5目勝！ >> 白(64):黒(76)", "B+5.5"),
            ("白時間切れ勝ち！", "W+T"),
            ("黒半目勝ち", "B+0.5"),
            ("黑中盘胜(现场消息)", "B+R"),
            ("白胜3又3/4子", "W+7.5"),
            ("黑胜2.5子", "B+5"),
            ("白胜2又1/4子", "W+4.5"),
            ("白胜1又3/4子", "W+3.5"),
            ("黑胜1/4子", "B+0.5"),
            ("白胜半子", "W+1"),
            (" 白胜2又1/4子", "W+4.5"),
            ("黑胜 2 又 1/4 子", "B+4.5"),
            ("黑胜３又３／４子", "B+7.5"),
            ("白胜四分之一子", "W+0.5"),
            ("白胜1又四分之三子", "W+3.5"),
            ("黑胜3子半", "B+7"),
            ("黑胜7子", "B+14"),
            ("ดำชนะด้วยแต้ม!7.5 >> ขาว(63):ดำ(77)", "B+7.5"),
            ("Draw!", "0"),
            ("持碁", "0"),
            ("No result!", "Void"),
            ("Unknown!", "?"),
        ] {
            assert_eq!(re(text).as_deref(), Some(want), "{text}");
        }
    }

    #[test]
    fn text_not_understood() {
        for text in ["불계승", "白棋12子 >> 白方(94):黑方(82)", "Game over", "Black"] {
            assert_eq!(parse_result(text), ParsedResult::Unknown, "{text}");
        }
    }

    #[test]
    fn english_text_reads_back() {
        for re_text in ["B+R", "W+R", "B+T", "W+T", "B+F", "W+2.5", "B+0.5", "B+", "0", "Void", "?", "W+12"] {
            let r = GameResult::from_sgf(re_text).unwrap();
            assert_eq!(parse_result(&english_result(&r)), ParsedResult::Result(r.clone()), "{re_text}");
        }
        assert_eq!(english_result(&GameResult::from_sgf("B+T").unwrap()), "White loses on time!");
    }
}
