//! Board diagrams: any position of any record as SVG, PNG or text, and whole games as numbered
//! figures the way books print them.
//!
//! [`scene()`] picks a node ([`Target`]) and works out what is drawn ([`Scene`]); [`figures`]
//! cuts a game into numbered figures; [`render`] draws a scene as SVG (CSS classes, real text),
//! PNG (the same SVG rasterised by resvg with an embedded DejaVu Sans, so no system font is
//! needed) or a Unicode text board. The options and the node-path syntax are specified in
//! [`formats/diagram.md`](crate::spec::diagram).
//!
//! ```
//! use kifu::diagram::{self, Kind, Options};
//! let read = kifu::read_bytes(b"(;SZ[9];B[ee];W[gc]TR[ee])".to_vec(), None, &Default::default()).unwrap();
//! let scene = diagram::scene(&read.collection.games[0], &Options::default()).unwrap();
//! let svg = diagram::render(&scene, Kind::Svg, &Options::default()).unwrap();
//! assert!(String::from_utf8(svg.bytes).unwrap().contains(r#"class="stone black""#));
//! ```

mod compose;
mod layout;
mod markup;
mod numbering;
#[cfg(feature = "png")]
mod png;
pub mod scene;
pub mod select;
mod svg;
mod text;

pub use scene::{Arrow, Cell, Mark, Rect, Scene, Span};
pub use select::{NodePath, Stop, Target, list_variations};

use crate::diag::Diagnostic;
use crate::formats::WriteOutput;
use crate::model::GameTree;

/// Diagnostic codes of diagrams (documented in [`formats/diagram.md`](crate::spec::diagram)).
pub mod codes {
    /// A move the board refuses (occupied point, suicide, ko) was drawn but not replayed.
    pub const ILLEGAL_MOVE: &str = "diagram.illegal-move";
    /// A markup or view point lies off the board; not drawn.
    pub const OFF_BOARD: &str = "diagram.off-board";
    /// A markup value is not what its property needs (`LB` without text, `AR` with one point).
    pub const BAD_MARKUP: &str = "diagram.bad-markup";
    /// Two marks on one point; the first is drawn.
    pub const MARK_CONFLICT: &str = "diagram.mark-conflict";
    /// A batch input could not be drawn (no such game, node or move).
    pub const CANNOT_DRAW: &str = "diagram.cannot-draw";
    /// PNG: text has characters no available font can draw (they show as boxes or not at all).
    pub const MISSING_GLYPH: &str = "diagram.missing-glyph";
    /// PNG: the image would have more pixels than [`Limits::max_pixels`](crate::Limits::max_pixels); nothing drawn.
    pub const TOO_LARGE: &str = "diagram.too-large";
    /// The game would be cut into more figures than [`Limits::max_figures`](crate::Limits::max_figures); nothing drawn.
    pub const TOO_MANY_FIGURES: &str = "diagram.too-many-figures";
}

/// Output kinds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Kind {
    /// SVG text.
    #[default]
    Svg,
    /// PNG bytes.
    Png,
    /// A Unicode text board.
    Text,
}

impl Kind {
    /// `svg`, `png` or `text` (also `txt`).
    pub fn from_name(name: &str) -> Option<Kind> {
        match name.to_ascii_lowercase().as_str() {
            "svg" => Some(Kind::Svg),
            "png" => Some(Kind::Png),
            "text" | "txt" => Some(Kind::Text),
            _ => None,
        }
    }

    /// The file extension (`svg`, `png`, `txt`).
    pub fn extension(self) -> &'static str {
        match self {
            Kind::Svg => "svg",
            Kind::Png => "png",
            Kind::Text => "txt",
        }
    }

    /// The name (`svg`, `png`, `text`).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Svg => "svg",
            Kind::Png => "png",
            Kind::Text => "text",
        }
    }
}

/// Looks: `simple` (wooden board), `print` (black and white, for books), `minimal` (lines and
/// stones only, no board colour, no coordinates by default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Style {
    /// A wooden board with coordinates.
    #[default]
    Simple,
    /// Black and white, no coordinates by default.
    Print,
    /// No board colour, thin lines, no coordinates by default.
    Minimal,
}

impl Style {
    /// `simple`, `print` or `minimal`.
    pub fn from_name(name: &str) -> Option<Style> {
        match name {
            "simple" => Some(Style::Simple),
            "print" => Some(Style::Print),
            "minimal" => Some(Style::Minimal),
            _ => None,
        }
    }

    /// The name, also the SVG's CSS class (`style-simple` …).
    pub fn name(self) -> &'static str {
        match self {
            Style::Simple => "simple",
            Style::Print => "print",
            Style::Minimal => "minimal",
        }
    }
}

/// The board sides that carry coordinates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sides {
    /// Above the board.
    pub top: bool,
    /// Below.
    pub bottom: bool,
    /// Left.
    pub left: bool,
    /// Right.
    pub right: bool,
}

impl Sides {
    /// All four sides.
    pub const ALL: Sides = Sides { top: true, bottom: true, left: true, right: true };
    /// None.
    pub const NONE: Sides = Sides { top: false, bottom: false, left: false, right: false };

    /// `all`, `none`, or letters among `t b l r` (`tl` = top and left).
    pub fn parse(text: &str) -> Result<Sides, String> {
        match text {
            "all" => return Ok(Sides::ALL),
            "none" => return Ok(Sides::NONE),
            _ => {}
        }
        let mut s = Sides::NONE;
        for c in text.chars() {
            match c {
                't' => s.top = true,
                'b' => s.bottom = true,
                'l' => s.left = true,
                'r' => s.right = true,
                _ => return Err(format!("'{text}' is not sides (all, none, or letters among t b l r)")),
            }
        }
        Ok(s)
    }

    /// Whether any side has coordinates.
    pub fn any(self) -> bool {
        self.top || self.bottom || self.left || self.right
    }
}

/// How coordinates are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Labels {
    /// Columns `A`–`T` without `I` (then `AA`, `AB` … on boards over 25), rows numbered from 1
    /// at the bottom.
    #[default]
    Go,
    /// SGF letters `a`–`z`, `A`–`Z` on both axes, rows from the top.
    Sgf,
}

/// What to draw and how.
#[derive(Clone, Debug)]
pub struct Options {
    /// The game of a collection, from 1.
    pub game: usize,
    /// The node drawn.
    pub target: Target,
    /// Number these moves on the position before the first of them.
    pub numbers: Option<Span>,
    /// Draw only this part of the board.
    pub range: Option<Rect>,
    /// Shrink the view to the stones and marks with a margin of one line (edges within two lines
    /// are kept).
    pub crop: bool,
    /// Coordinates on these sides; `None` takes the style's default (all for `simple`).
    pub sides: Option<Sides>,
    /// How coordinates are written.
    pub labels: Labels,
    /// The look.
    pub style: Style,
    /// Width in pixels (SVG `width`, PNG width); `None`: 32 pixels per line.
    pub width: Option<u32>,
    /// Mark the last move.
    pub last_move: bool,
    /// Draw the node's markup (`TR SQ CR MA SL LB AR LN`).
    pub markup: bool,
    /// Print comments under the board: the numbered moves', or the node's.
    pub comments: bool,
    /// A caption over the notes.
    pub caption: Option<String>,
    /// The limits of what may be drawn: [`Limits::max_pixels`](crate::Limits::max_pixels) and
    /// [`Limits::max_figures`](crate::Limits::max_figures).
    pub limits: crate::Limits,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            game: 1,
            target: Target::Last,
            numbers: None,
            range: None,
            crop: false,
            sides: None,
            labels: Labels::Go,
            style: Style::Simple,
            width: None,
            last_move: true,
            markup: true,
            comments: false,
            caption: None,
            limits: crate::Limits::default(),
        }
    }
}

impl Options {
    /// The sides with coordinates: as given, else the style's default.
    pub fn sides(&self) -> Sides {
        self.sides.unwrap_or(if self.style == Style::Simple { Sides::ALL } else { Sides::NONE })
    }
}

/// Why no diagram could be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DiagramError {
    /// The collection has no such game.
    #[error("the input holds {have} game{}; there is no game {want}", if *.have == 1 { "" } else { "s" })]
    NoGame {
        /// The game asked for (from 1).
        want: usize,
        /// Games in the collection.
        have: usize,
    },
    /// The node, move or range asked for is not in the game.
    #[error("{0}")]
    Select(String),
    /// The PNG could not be made.
    #[error("cannot make the PNG: {0}")]
    Png(String),
    /// A limit of [`Limits`](crate::Limits) refuses the drawing before anything of its size is
    /// allocated ([`codes::TOO_LARGE`], [`codes::TOO_MANY_FIGURES`]); the message names the limit.
    #[error("{message}")]
    Limit {
        /// The diagnostic code.
        code: &'static str,
        /// What was refused, and the limit.
        message: String,
    },
}

impl DiagramError {
    /// The error as one diagnostic: a limit's with its own code, any other with `code`.
    pub fn diagnostic(&self, code: &'static str) -> Diagnostic {
        match self {
            DiagramError::Limit { code, message } => Diagnostic::error(code, message.clone()),
            other => Diagnostic::error(code, other.to_string()),
        }
    }
}

/// The scene of `options.target` in `tree` (with `options.numbers`, the numbered moves).
pub fn scene(tree: &GameTree, options: &Options) -> Result<Scene, DiagramError> {
    let line = select::resolve(tree, &options.target).map_err(DiagramError::Select)?;
    let span = match options.numbers {
        Some((a, b)) => {
            let total = select::moves_on(tree, &line) as u32;
            if a == 0 || b < a {
                return Err(DiagramError::Select(format!("{a}-{b} is not a range of moves (first-last, from 1)")));
            }
            if a > total {
                return Err(DiagramError::Select(format!("the line drawn has {total} moves; there is no move {a}")));
            }
            Some((a, b.min(total)))
        }
        None => None,
    };
    let mut s = compose::build(tree, &line, span, options);
    layout::frame(&mut s, options).map_err(DiagramError::Select)?;
    Ok(s)
}

/// The game `options.game` of `games`.
pub fn game<'a>(games: &'a [GameTree], options: &Options) -> Result<&'a GameTree, DiagramError> {
    options
        .game
        .checked_sub(1)
        .and_then(|i| games.get(i))
        .ok_or(DiagramError::NoGame { want: options.game, have: games.len() })
}

/// The moves of the line `options.target` names cut into figures of `per` moves, each with its
/// caption (`Figure 2 (51–100)`) and notes. A line without moves gives one unnumbered figure.
///
/// More figures than [`Limits::max_figures`](crate::Limits::max_figures) are refused before
/// any is made ([`DiagramError::Limit`]). Each figure replays the line from its start; a
/// finding about a move before the figure's first (an illegal move, bad markup) was reported
/// by the figure before and is not repeated.
pub fn figures(tree: &GameTree, per: u32, options: &Options) -> Result<Vec<Scene>, DiagramError> {
    let line = select::resolve(tree, &options.target).map_err(DiagramError::Select)?;
    let total = select::moves_on(tree, &line) as u32;
    let per = per.max(1);
    let count = total.div_ceil(per).max(1);
    let max = options.limits.max_figures;
    if count as usize > max {
        return Err(DiagramError::Limit {
            code: codes::TOO_MANY_FIGURES,
            message: format!(
                "{total} moves in figures of {per} make {count} figures, over the limit of {max} \
                 (Limits::max_figures; --max-figures raises it, a larger --figures makes fewer); nothing drawn"
            ),
        });
    }
    let mut out = Vec::with_capacity(count as usize);
    for k in 0..count {
        let (a, b) = (k * per + 1, ((k + 1) * per).min(total));
        let mut o = options.clone();
        let span = (total > 0).then_some((a, b));
        o.caption = Some(match span {
            Some((a, b)) if a == b => format!("Figure {} ({a})", k + 1),
            Some((a, b)) => format!("Figure {} ({a}\u{2013}{b})", k + 1),
            None => format!("Figure {}", k + 1),
        });
        let mut s = compose::build_from(tree, &line, span, &o, if k == 0 { 0 } else { a });
        layout::frame(&mut s, &o).map_err(DiagramError::Select)?;
        out.push(s);
    }
    Ok(out)
}

/// Draws `scene` as `kind`. The diagnostics are the scene's, plus the PNG's missing glyphs.
pub fn render(scene: &Scene, kind: Kind, options: &Options) -> Result<WriteOutput, DiagramError> {
    let text = || text::render(scene, options);
    output(
        kind,
        options,
        scene.diagnostics.clone(),
        || svg::render(scene, options),
        text,
        || svg::layers(scene, options),
    )
}

/// Draws several scenes (figures) as one page: SVG and PNG stack them; text separates them by a
/// blank line. A PNG page is drawn one figure at a time (memory: the image and one figure).
pub fn render_page(scenes: &[Scene], kind: Kind, options: &Options) -> Result<WriteOutput, DiagramError> {
    let diagnostics = scenes.iter().flat_map(|s| s.diagnostics.iter().cloned()).collect();
    let text = || scenes.iter().map(|s| text::render(s, options)).collect::<Vec<_>>().join("\n");
    let layers = || svg::page_layers(scenes, options);
    output(kind, options, diagnostics, || svg::render_page(scenes, options), text, layers)
}

/// The bytes of `kind`: the SVG, its PNG (drawn from `layers`), or the text.
fn output(
    kind: Kind,
    options: &Options,
    mut diagnostics: Vec<Diagnostic>,
    svg: impl FnOnce() -> String,
    text: impl FnOnce() -> String,
    layers: impl FnOnce() -> svg::Layers,
) -> Result<WriteOutput, DiagramError> {
    let bytes = match kind {
        Kind::Svg => svg().into_bytes(),
        Kind::Text => text().into_bytes(),
        #[cfg(feature = "png")]
        Kind::Png => {
            let (bytes, missing) = png::render(&layers(), options).map_err(|f| match f {
                png::Failure::Limit(code, message) => DiagramError::Limit { code, message },
                png::Failure::Other(message) => DiagramError::Png(message),
            })?;
            diagnostics.extend(missing);
            bytes
        }
        #[cfg(not(feature = "png"))]
        Kind::Png => {
            let _ = (svg, options, layers);
            return Err(DiagramError::Png("kifu was built without its `png` feature".to_string()));
        }
    };
    // A long game can repeat one finding on every move: at most 100 of a code, then a count.
    crate::diag::cap_per_code(&mut diagnostics);
    Ok(WriteOutput { bytes, diagnostics })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Format, ReadOptions};

    /// A finding repeated on every move is shown 100 times, then counted (a 7 MB line of
    /// repeated moves printed 999,999 warnings).
    #[test]
    fn repeated_findings_are_capped_per_code() {
        let text = format!("(;GM[1]SZ[9];B[ee]{})", ";W[ee]".repeat(5_000));
        let read = Format::SGF.read(text.into_bytes(), &ReadOptions::default()).unwrap();
        let options = Options::default();
        let scene = scene(&read.collection.games[0], &options).unwrap();
        assert!(scene.diagnostics.len() >= 5_000, "{}", scene.diagnostics.len());
        let out = render(&scene, Kind::Text, &options).unwrap();
        let code = scene.diagnostics[0].code;
        let same: Vec<&Diagnostic> = out.diagnostics.iter().filter(|d| d.code == code).collect();
        assert_eq!(same.len(), crate::diag::MAX_PER_CODE + 1);
        assert!(same.last().unwrap().message.contains("more like this not shown"), "{:?}", same.last());
    }
}
