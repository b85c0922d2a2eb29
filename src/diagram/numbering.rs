//! Numbered moves the way printed kifu show them: each move's number on the point where it was
//! played, the position before the first numbered move underneath, and the moves that could not
//! be drawn (a point already drawn, a pass) listed as notes: `73 at 61`, `74 at ▲`, `80: pass`.

use crate::model::{Color, Move, Point};

/// What a point shows in a numbered diagram.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Drawn {
    /// Nothing.
    Empty,
    /// A stone on the board before the first numbered move (or put there by setup).
    Stone(Color),
    /// The first stone numbered on the point.
    Numbered(u32, Color),
}

/// Where a note's moves were played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum At {
    /// On the point of this numbered stone.
    Number(u32),
    /// On the point of an unnumbered stone (marked ▲, or a letter when there are several).
    Stone(Point),
    /// A pass.
    Pass,
}

/// The numbered moves of one diagram, collected move by move.
#[derive(Clone, Debug)]
pub(crate) struct Numbering {
    width: u8,
    /// What each point shows, row-major.
    pub drawn: Vec<Drawn>,
    /// Moves that could not be drawn where they were played, in move order.
    pub repeats: Vec<(u32, At)>,
    /// The first numbered move: its number and colour.
    pub first: Option<(u32, Color)>,
    /// Every numbered move in order: number and colour (to tell whether they alternate).
    pub colors: Vec<(u32, Color)>,
}

impl Numbering {
    /// Starts from the position `stones` (row-major, `width` columns).
    pub(super) fn new(width: u8, stones: impl Iterator<Item = Option<Color>>) -> Numbering {
        let drawn = stones.map(|s| s.map_or(Drawn::Empty, Drawn::Stone)).collect();
        Numbering { width, drawn, repeats: Vec::new(), first: None, colors: Vec::new() }
    }

    fn idx(&self, p: Point) -> usize {
        p.y as usize * self.width as usize + p.x as usize
    }

    /// Setup inside the numbered range: shown as unnumbered stones where the point is free.
    pub(super) fn setup(&mut self, p: Point, stone: Option<Color>) {
        let i = self.idx(p);
        if let Some(cell) = self.drawn.get_mut(i) {
            match (*cell, stone) {
                (Drawn::Empty, Some(c)) => *cell = Drawn::Stone(c),
                (Drawn::Stone(_), None) => *cell = Drawn::Empty,
                _ => {}
            }
        }
    }

    /// Move `number` by `color`.
    pub(super) fn play(&mut self, number: u32, color: Color, mv: Move) {
        self.first.get_or_insert((number, color));
        self.colors.push((number, color));
        let p = match mv {
            Move::Pass => return self.repeats.push((number, At::Pass)),
            Move::Play(p) => p,
        };
        let i = self.idx(p);
        let Some(cell) = self.drawn.get_mut(i) else { return };
        match *cell {
            Drawn::Empty => *cell = Drawn::Numbered(number, color),
            Drawn::Numbered(n, _) => self.repeats.push((number, At::Number(n))),
            Drawn::Stone(_) => self.repeats.push((number, At::Stone(p))),
        }
    }

    /// The unnumbered stones that notes refer to, in order of first reference.
    pub(super) fn referenced_stones(&self) -> Vec<Point> {
        let mut out = Vec::new();
        for (_, at) in &self.repeats {
            if let At::Stone(p) = at {
                if !out.contains(p) {
                    out.push(*p);
                }
            }
        }
        out
    }

    /// The notes as text, moves played at the same place grouped: `67, 73 at 61`,
    /// `74 at ▲`, `80: pass`. `name` gives the marker of each referenced unnumbered stone.
    pub(super) fn notes(&self, name: impl Fn(Point) -> String) -> Vec<String> {
        let mut groups: Vec<(At, Vec<u32>)> = Vec::new();
        for &(n, at) in &self.repeats {
            match groups.iter_mut().find(|(a, _)| *a == at) {
                Some((_, moves)) => moves.push(n),
                None => groups.push((at, vec![n])),
            }
        }
        groups
            .into_iter()
            .map(|(at, moves)| {
                let list = moves.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
                match at {
                    At::Number(n) => format!("{list} at {n}"),
                    At::Stone(p) => format!("{list} at {}", name(p)),
                    At::Pass => format!("{list}: pass"),
                }
            })
            .collect()
    }

    /// Whether the numbered moves alternate in colour (so the first one's colour tells all).
    pub(super) fn alternates(&self) -> bool {
        self.colors.windows(2).all(|w| w[0].1 != w[1].1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Point {
        Point::from_sgf(s).unwrap()
    }

    #[test]
    fn repeats_become_grouped_notes() {
        let mut stones = vec![None; 9];
        stones[0] = Some(Color::White); // aa
        let mut n = Numbering::new(3, stones.into_iter());
        n.play(61, Color::Black, Move::Play(p("bb")));
        n.play(62, Color::White, Move::Play(p("cb")));
        n.play(63, Color::Black, Move::Play(p("aa")));
        n.play(64, Color::White, Move::Play(p("bb")));
        n.play(65, Color::Black, Move::Pass);
        n.play(66, Color::White, Move::Play(p("bb")));
        assert_eq!(n.drawn[4], Drawn::Numbered(61, Color::Black));
        assert_eq!(n.drawn[0], Drawn::Stone(Color::White));
        assert_eq!(n.referenced_stones(), vec![p("aa")]);
        assert_eq!(n.notes(|_| "▲".to_string()), ["63 at ▲", "64, 66 at 61", "65: pass"]);
        assert!(n.alternates());
        assert_eq!(n.first, Some((61, Color::Black)));
    }
}
