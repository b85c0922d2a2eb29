//! GIB results: the `GRLT` code with the `ZIPSU` margin, and the localised `GAMERESULT` text
//! (English, Korean, Chinese, Taiwanese) used only when the codes are missing.

use crate::model::{Color, GameResult, WinKind};

/// What a `GRLT` code means: `Some(None)` for 255 (unfinished, no `RE`), `None` for a code
/// kifu does not know. `zipsu` is the margin ×10.
pub(crate) fn from_code(code: i64, zipsu: Option<i64>) -> Option<Option<GameResult>> {
    let win = |winner, how| Some(Some(GameResult::Win { winner, how }));
    let score = |z: Option<i64>| match z {
        Some(z) if z > 0 => WinKind::Score(z as f64 / 10.0),
        _ => WinKind::Points,
    };
    match code {
        0 => win(Color::Black, score(zipsu)),
        1 => win(Color::White, score(zipsu)),
        3 => win(Color::Black, WinKind::Resign),
        4 => win(Color::White, WinKind::Resign),
        5 => win(Color::Black, WinKind::Forfeit),
        6 => win(Color::White, WinKind::Forfeit),
        7 => win(Color::Black, WinKind::Time),
        8 => win(Color::White, WinKind::Time),
        255 => Some(None),
        _ => None,
    }
}

/// The `GRLT` code and `ZIPSU` (margin ×10) for a result; `None` when GIB has no code for it
/// (draw, void, unknown). The margin is rounded to tenths; the flag says whether that lost
/// precision.
pub(crate) fn to_code(result: &GameResult) -> Option<(i64, i64, bool)> {
    let GameResult::Win { winner, how } = result else {
        return None;
    };
    let black = *winner == Color::Black;
    let pick = |b: i64, w: i64| if black { b } else { w };
    Some(match how {
        WinKind::Score(s) => {
            let z = (s * 10.0).round();
            (pick(0, 1), z as i64, (z - s * 10.0).abs() > 1e-6)
        }
        WinKind::Points => (pick(0, 1), 0, false),
        WinKind::Resign => (pick(3, 4), 0, false),
        WinKind::Forfeit => (pick(5, 6), 0, false),
        WinKind::Time => (pick(7, 8), 0, false),
    })
}

/// The English `GAMERESULT` text Tygem's Global client writes.
pub(crate) fn english(result: &GameResult) -> String {
    let GameResult::Win { winner, how } = result else {
        return String::new();
    };
    let who = if *winner == Color::Black { "black" } else { "white" };
    match how {
        WinKind::Score(s) => format!("{who} {} win", crate::model::info::format_real(*s)),
        WinKind::Points => format!("{who} win"),
        WinKind::Resign => format!("{who} wins by resignation"),
        WinKind::Time => format!("{who} wins by time"),
        WinKind::Forfeit => format!("{who} wins by disconnection"),
    }
}

/// Parses a localised `GAMERESULT` text: `white 24.5 win`, `black 4 points win`,
/// `white wins by resignation`, `흑 시간승`, `백 3집반 승`, `黑1目半胜`, `白中盘胜`, `黑時間勝`.
pub(crate) fn from_text(text: &str) -> Option<GameResult> {
    let t = text.trim();
    let lower = t.to_lowercase();
    let winner = if lower.starts_with("black") || t.starts_with('흑') || t.starts_with('黑') {
        Color::Black
    } else if lower.starts_with("white") || t.starts_with('백') || t.starts_with('白') {
        Color::White
    } else {
        return None;
    };
    let has = |words: &[&str]| words.iter().any(|w| lower.contains(w));
    let how = if has(&["resign", "불계", "中盘", "中盤"]) {
        WinKind::Resign
    } else if has(&["time", "시간", "时间", "時間", "超时", "超時"]) {
        WinKind::Time
    } else if has(&["disconnect", "접속", "断线", "斷線"]) {
        WinKind::Forfeit
    } else {
        let digits: String =
            t.chars().skip_while(|c| !c.is_ascii_digit()).take_while(|c| c.is_ascii_digit() || *c == '.').collect();
        match digits.parse::<f64>() {
            Ok(n) if n.is_finite() => {
                let half = has(&["目半", "집반", "子半"]);
                WinKind::Score(if half { n + 0.5 } else { n })
            }
            _ => WinKind::Points,
        }
    };
    Some(GameResult::Win { winner, how })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn re(r: Option<GameResult>) -> String {
        r.map(|r| r.to_sgf()).unwrap_or_default()
    }

    #[test]
    fn every_code() {
        let cases = [
            (0, 40, "B+4"),
            (0, 0, "B+"),
            (1, 245, "W+24.5"),
            (3, 0, "B+R"),
            (4, 0, "W+R"),
            (5, 0, "B+F"),
            (6, 0, "W+F"),
            (7, 0, "B+T"),
            (8, 0, "W+T"),
        ];
        for (code, z, want) in cases {
            let r = from_code(code, Some(z)).unwrap();
            assert_eq!(re(r.clone()), want);
            let (c, zz, lossy) = to_code(&r.unwrap()).unwrap();
            assert_eq!((c, lossy), (code, false));
            if code <= 1 {
                assert_eq!(zz, z);
            }
        }
        assert_eq!(from_code(255, None), Some(None));
        assert_eq!(from_code(2, None), None);
        assert_eq!(to_code(&GameResult::Draw), None);
    }

    #[test]
    fn localised_texts() {
        for (text, want) in [
            ("white 24.5 win", "W+24.5"),
            ("black 4 points win", "B+4"),
            ("white wins by resignation", "W+R"),
            ("black wins by time", "B+T"),
            ("white wins by disconnection", "W+F"),
            ("흑 시간승", "B+T"),
            ("백 불계승", "W+R"),
            ("백 3집반 승", "W+3.5"),
            ("黑1目半胜", "B+1.5"),
            ("白11目胜", "W+11"),
            ("白中盘胜", "W+R"),
            ("黑時間勝", "B+T"),
        ] {
            assert_eq!(re(from_text(text)), want, "{text}");
        }
        assert_eq!(from_text(""), None);
        assert_eq!(english(&from_text("white 24.5 win").unwrap()), "white 24.5 win");
    }
}
