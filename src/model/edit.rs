//! Typed setters for the game information: players, ranks, komi, result, date, event, … and
//! [`GameTree::set_info`] to write a whole edited [`GameInfo`] back.

use super::info::{GameInfo, GameResult, format_real};
use super::point::{BoardSize, Color};
use super::tree::{GameTree, NodeId};

/// How many main-line nodes [`GameTree::info`] looks into for game information.
const INFO_DEPTH: usize = 3;

impl GameTree {
    /// The node holding `ident` where [`GameTree::info`] finds it, else the root.
    fn info_node(&self, ident: &str) -> NodeId {
        self.main_line().take(INFO_DEPTH).find(|n| n.get(ident).is_some()).map_or(NodeId::ROOT, |n| n.id())
    }

    /// Sets game-information property `ident` where [`GameTree::info`] reads it (the root when
    /// the game has none), or removes it with `None`.
    ///
    /// ```
    /// let mut game = kifu::GameTree::new();
    /// game.set_info_text("AN", Some("Go Seigen"));
    /// assert_eq!(game.root().value("AN"), Some("Go Seigen"));
    /// game.set_info_text("AN", None);
    /// assert!(game.root().get("AN").is_none());
    /// ```
    pub fn set_info_text(&mut self, ident: &str, value: Option<&str>) {
        let node = self.info_node(ident);
        match value {
            Some(v) => self.set_prop(node, ident, [v]),
            None => {
                self.remove_prop(node, ident);
            }
        }
    }

    /// Sets a player's name (`PB` / `PW`).
    ///
    /// ```
    /// use kifu::model::Color;
    /// let mut game = kifu::GameTree::new();
    /// game.set_player(Color::Black, "Honinbo Shusaku");
    /// game.set_rank(Color::Black, "7d");
    /// assert_eq!(game.info().black.as_deref(), Some("Honinbo Shusaku"));
    /// assert_eq!(game.root().value("BR"), Some("7d"));
    /// ```
    pub fn set_player(&mut self, color: Color, name: &str) {
        self.set_info_text(if color == Color::Black { "PB" } else { "PW" }, Some(name));
    }

    /// Sets a player's rank (`BR` / `WR`) as given (see [`normalize_rank`] for `4D` → `4d`).
    ///
    /// [`normalize_rank`]: super::info::normalize_rank
    pub fn set_rank(&mut self, color: Color, rank: &str) {
        self.set_info_text(if color == Color::Black { "BR" } else { "WR" }, Some(rank));
    }

    /// Sets a player's team (`BT` / `WT`).
    pub fn set_team(&mut self, color: Color, team: &str) {
        self.set_info_text(if color == Color::Black { "BT" } else { "WT" }, Some(team));
    }

    /// Sets the komi (`KM`), written as SGF reals are (`6.5`, `0`, `-2.75`).
    ///
    /// Panics if `komi` is not finite.
    ///
    /// ```
    /// let mut game = kifu::GameTree::new();
    /// game.set_komi(6.5);
    /// assert_eq!((game.root().value("KM"), game.info().komi), (Some("6.5"), Some(6.5)));
    /// ```
    pub fn set_komi(&mut self, komi: f64) {
        assert!(komi.is_finite(), "komi must be finite, not {komi}");
        self.set_info_text("KM", Some(&format_real(komi)));
    }

    /// Sets the number of handicap stones (`HA`); the stones themselves are `AB` setup.
    pub fn set_handicap(&mut self, stones: u32) {
        self.set_info_text("HA", Some(&stones.to_string()));
    }

    /// Sets the result (`RE`) in its FF\[4\] form.
    ///
    /// ```
    /// use kifu::model::{Color, GameResult, WinKind};
    /// let mut game = kifu::GameTree::new();
    /// game.set_result(&GameResult::Win { winner: Color::White, how: WinKind::Score(0.5) });
    /// assert_eq!(game.root().value("RE"), Some("W+0.5"));
    /// ```
    pub fn set_result(&mut self, result: &GameResult) {
        self.set_info_text("RE", Some(&result.to_sgf()));
    }

    /// Sets the date (`DT`), FF\[4\]'s `YYYY-MM-DD` form (or a list like `2024-05-01,02`).
    pub fn set_date(&mut self, date: &str) {
        self.set_info_text("DT", Some(date));
    }

    /// Sets the event (`EV`), e.g. a tournament's name.
    pub fn set_event(&mut self, event: &str) {
        self.set_info_text("EV", Some(event));
    }

    /// Sets the round (`RO`).
    pub fn set_round(&mut self, round: &str) {
        self.set_info_text("RO", Some(round));
    }

    /// Sets the place (`PC`).
    pub fn set_place(&mut self, place: &str) {
        self.set_info_text("PC", Some(place));
    }

    /// Sets the rules (`RU`: `Japanese`, `Chinese`, `AGA`, …).
    pub fn set_rules(&mut self, rules: &str) {
        self.set_info_text("RU", Some(rules));
    }

    /// Sets the game's name (`GN`).
    pub fn set_game_name(&mut self, name: &str) {
        self.set_info_text("GN", Some(name));
    }

    /// Sets the main time in seconds (`TM`). Panics if `seconds` is not finite.
    pub fn set_time_limit(&mut self, seconds: f64) {
        assert!(seconds.is_finite(), "time must be finite, not {seconds}");
        self.set_info_text("TM", Some(&format_real(seconds)));
    }

    /// Sets the board size (`SZ`, in the root).
    ///
    /// ```
    /// use kifu::model::BoardSize;
    /// let mut game = kifu::GameTree::new();
    /// game.set_board_size(BoardSize { width: 13, height: 9 });
    /// assert_eq!(game.root().value("SZ"), Some("13:9"));
    /// assert_eq!(game.board_size(), BoardSize { width: 13, height: 9 });
    /// ```
    pub fn set_board_size(&mut self, size: BoardSize) {
        self.set_prop(NodeId::ROOT, "SZ", [size.to_sgf()]);
    }

    /// Writes an edited [`GameInfo`] back: every field that differs from [`GameTree::info`] is
    /// set (or removed when `None`) where `info` reads it; unchanged fields keep their text as
    /// it is. For the result, [`GameInfo::result`] wins when it no longer matches
    /// [`GameInfo::result_text`]. Non-finite komi or time values remove the property.
    ///
    /// ```
    /// let mut game = kifu::read(&b"(;GM[1]PB[Black]PW[White]KM[6.50])"[..]).unwrap().collection.games.remove(0);
    /// let mut info = game.info();
    /// info.black = Some("Cho Chikun".into());
    /// info.event = Some("Meijin".into());
    /// info.white = None;
    /// game.set_info(&info);
    /// assert_eq!(game.info(), info);
    /// assert_eq!(game.root().value("KM"), Some("6.50"), "unchanged values keep their text");
    /// assert!(game.root().get("PW").is_none());
    /// ```
    pub fn set_info(&mut self, info: &GameInfo) {
        let old = self.info();
        let real = |x: Option<f64>| x.filter(|v| v.is_finite()).map(format_real);
        let text = |old: &Option<String>, new: &Option<String>| (old != new).then(|| new.clone());
        let result = match (&info.result, &info.result_text) {
            (Some(r), t) if t.as_deref().and_then(GameResult::from_sgf).as_ref() != Some(r) => Some(r.to_sgf()),
            (_, t) => t.clone(),
        };
        let old_result = old.result_text.clone();
        let changes: [(&str, Option<Option<String>>); 19] = [
            ("PB", text(&old.black, &info.black)),
            ("PW", text(&old.white, &info.white)),
            ("BR", text(&old.black_rank, &info.black_rank)),
            ("WR", text(&old.white_rank, &info.white_rank)),
            ("BT", text(&old.black_team, &info.black_team)),
            ("WT", text(&old.white_team, &info.white_team)),
            ("KM", (old.komi != info.komi).then(|| real(info.komi))),
            ("HA", (old.handicap != info.handicap).then(|| info.handicap.map(|h| h.to_string()))),
            ("RE", text(&old_result, &result)),
            ("DT", text(&old.date, &info.date)),
            ("RU", text(&old.rules, &info.rules)),
            ("TM", (old.time != info.time).then(|| real(info.time))),
            ("OT", text(&old.overtime, &info.overtime)),
            ("EV", text(&old.event, &info.event)),
            ("RO", text(&old.round, &info.round)),
            ("PC", text(&old.place, &info.place)),
            ("GN", text(&old.name, &info.name)),
            ("SO", text(&old.source, &info.source)),
            ("GC", text(&old.comment, &info.comment)),
        ];
        for (ident, change) in changes {
            if let Some(value) = change {
                self.set_info_text(ident, value.as_deref());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{TreeBuilder, WinKind};

    #[test]
    fn setters_write_where_info_reads() {
        // Game information in the second node (as some servers write it) is edited there.
        let mut b = TreeBuilder::new();
        b.add_prop(b.root(), "SZ", ["19"]);
        let second = b.add_child(b.root());
        b.add_prop(second, "PB", ["old"]);
        let mut t = b.build();
        t.set_player(Color::Black, "new");
        t.set_player(Color::White, "white");
        assert_eq!(t.node(NodeId::from_index(1)).value("PB"), Some("new"));
        assert!(t.root().get("PB").is_none());
        assert_eq!(t.root().value("PW"), Some("white"));
        t.set_komi(-2.750);
        t.set_handicap(2);
        t.set_result(&GameResult::Win { winner: Color::Black, how: WinKind::Resign });
        t.set_date("2026-12-01");
        t.set_time_limit(3600.0);
        let info = t.info();
        assert_eq!((info.komi, info.handicap, info.time), (Some(-2.75), Some(2), Some(3600.0)));
        assert_eq!(info.result_text.as_deref(), Some("B+R"));
        assert_eq!(info.date.as_deref(), Some("2026-12-01"));
    }

    #[test]
    fn set_info_writes_every_field_and_the_parsed_result_wins() {
        let mut t = GameTree::new();
        let info = GameInfo {
            black: Some("b".into()),
            white: Some("w".into()),
            black_rank: Some("1d".into()),
            white_rank: Some("2d".into()),
            black_team: Some("bt".into()),
            white_team: Some("wt".into()),
            komi: Some(7.5),
            handicap: Some(0),
            result_text: Some("B+R".into()),
            result: Some(GameResult::Win { winner: Color::White, how: WinKind::Time }),
            date: Some("2000-01-01".into()),
            rules: Some("Chinese".into()),
            time: Some(60.0),
            overtime: Some("byo-yomi".into()),
            event: Some("ev".into()),
            round: Some("1".into()),
            place: Some("pc".into()),
            name: Some("gn".into()),
            source: Some("so".into()),
            comment: Some("gc".into()),
        };
        t.set_info(&info);
        let back = t.info();
        assert_eq!(back.result_text.as_deref(), Some("W+T"));
        assert_eq!(back, GameInfo { result_text: Some("W+T".into()), ..info });
        t.set_info(&GameInfo::default());
        assert_eq!(t.root().prop_count(), 0);
    }
}
