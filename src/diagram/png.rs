//! PNG: the diagram's SVG rasterised by resvg. DejaVu Sans (from the `dejavu` crate) is always
//! loaded, so numbers, coordinates and Latin text never depend on the machine's fonts; system
//! fonts are loaded only when some text has characters DejaVu lacks (CJK names and comments),
//! and characters no font has are reported.

use super::svg::Layers;
use super::{Options, codes};
use crate::diag::Diagnostic;
use resvg::usvg::{self, fontdb};
use std::sync::{Arc, OnceLock};

/// The embedded font alone.
fn embedded() -> &'static Arc<fontdb::Database> {
    static DB: OnceLock<Arc<fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = fontdb::Database::new();
        db.load_font_data(dejavu::sans::regular().to_vec());
        db.load_font_data(dejavu::sans::bold().to_vec());
        db.set_sans_serif_family("DejaVu Sans");
        db.set_serif_family("DejaVu Sans");
        Arc::new(db)
    })
}

/// The embedded font, then the system's.
fn with_system() -> &'static Arc<fontdb::Database> {
    static DB: OnceLock<Arc<fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = (**embedded()).clone();
        db.load_system_fonts();
        Arc::new(db)
    })
}

fn has_char(db: &fontdb::Database, id: fontdb::ID, c: char) -> bool {
    db.with_face_data(id, |data, index| {
        let font = skrifa::FontRef::from_index(data, index).ok()?;
        skrifa::charmap::Charmap::new(&font).map(c)
    })
    .flatten()
    .is_some()
}

/// The characters of `text` that no face of `db` has.
fn missing(db: &fontdb::Database, text: &str) -> Vec<char> {
    let mut out: Vec<char> = Vec::new();
    for c in text.chars().filter(|c| !c.is_whitespace() && !c.is_control()) {
        if !out.contains(&c) && !db.faces().any(|f| has_char(db, f.id, c)) {
            out.push(c);
        }
    }
    out
}

/// The text content of an SVG written by kifu (between `>` and `</text>`), unescaped enough for
/// a glyph check.
fn texts(svg: &str) -> String {
    let mut out = String::new();
    for part in svg.split("</text>") {
        if let Some(i) = part.rfind('>') {
            out.push_str(&part[i + 1..].replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">"));
        }
    }
    out.replace("&quot;", "\"")
}

/// Why no PNG was made: a limit of [`crate::Limits`] (its diagnostic code and message), or
/// anything else.
pub(super) enum Failure {
    Limit(&'static str, String),
    Other(String),
}

/// Refuses an image of `w` × `h` pixels past [`crate::Limits::max_pixels`] (or one tiny-skia
/// cannot hold), before anything of its size is allocated.
fn check_size(w: f64, h: f64, options: &Options) -> Result<(u32, u32), Failure> {
    let (w, h) = (w.round().max(1.0), h.round().max(1.0));
    let max = options.limits.max_pixels;
    if w * h > max as f64 || w > f64::from(u32::MAX) || h > f64::from(u32::MAX) {
        return Err(Failure::Limit(
            codes::TOO_LARGE,
            format!(
                "a {w}x{h} image is {} pixels, over the limit of {max} (Limits::max_pixels; --max-pixels raises it, \
                 a smaller --width makes it smaller); nothing drawn",
                w * h
            ),
        ));
    }
    Ok((w as u32, h as u32))
}

/// Rasterises the layers at `options.width` pixels wide (the SVG's own width otherwise), one
/// layer parsed and drawn at a time over the one before. Returns the PNG and a diagnostic when
/// some characters have no glyph in any font. The image's size is checked against
/// [`crate::Limits::max_pixels`] before the SVG is parsed.
///
/// Memory: the image (4 bytes a pixel), once more while it is encoded (tiny-skia copies it to
/// undo premultiplied alpha) and the PNG itself, plus the one layer parsed; resvg draws into
/// layers of their own only groups with opacity, filters, clips or masks, which kifu's SVG
/// gives only to single stones and marks.
pub(super) fn render(layers: &Layers, options: &Options) -> Result<(Vec<u8>, Vec<Diagnostic>), Failure> {
    let (px, py) = layers.pixels;
    check_size(px, py, options)?;
    let mut text = String::new();
    for doc in &layers.documents {
        text.push_str(&texts(doc));
    }
    let mut db = embedded();
    let mut diags = Vec::new();
    if !missing(db, &text).is_empty() {
        db = with_system();
        let lost = missing(db, &text);
        if !lost.is_empty() {
            let list: String = lost.iter().take(20).collect();
            diags.push(Diagnostic::warning(
                codes::MISSING_GLYPH,
                format!(
                    "no font here draws {} character(s) of the text ({list}); they are left out of the PNG",
                    lost.len()
                ),
            ));
        }
    }
    drop(text);
    let opts = usvg::Options { fontdb: Arc::clone(db), ..usvg::Options::default() };
    let mut drawn: Option<(resvg::tiny_skia::Pixmap, resvg::tiny_skia::Transform)> = None;
    for doc in &layers.documents {
        let tree = usvg::Tree::from_str(doc, &opts).map_err(|e| Failure::Other(e.to_string()))?;
        let (pixmap, transform) = match &mut drawn {
            Some((p, t)) => (p, *t),
            None => {
                let size = tree.size();
                let width = options.width.map_or(size.width(), |w| w as f32).max(1.0);
                let scale = width / size.width();
                let (w, h) = check_size(f64::from(size.width() * scale), f64::from(size.height() * scale), options)?;
                let pixmap = resvg::tiny_skia::Pixmap::new(w, h)
                    .ok_or_else(|| Failure::Other(format!("a {w}x{h} image is too large")))?;
                let (p, t) = drawn.insert((pixmap, resvg::tiny_skia::Transform::from_scale(scale, scale)));
                (p, *t)
            }
        };
        resvg::render(&tree, transform, &mut pixmap.as_mut());
    }
    let Some((pixmap, _)) = drawn else { return Err(Failure::Other("nothing to draw".to_string())) };
    let bytes = pixmap.encode_png().map_err(|e| Failure::Other(e.to_string()))?;
    Ok((bytes, diags))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_font_covers_what_kifu_writes() {
        assert!(
            missing(embedded(), "ABCDEFGHJKLMNOPQRSTUVWXYZ 0123456789 abc ▲ – Figure (51–100) 73 at 61").is_empty()
        );
        assert_eq!(missing(embedded(), "囲碁"), ['囲', '碁']);
    }

    #[test]
    fn text_of_an_svg() {
        assert_eq!(texts(r#"<text x="1">A &amp; B</text><g><text>73</text></g>"#), "A & B73");
    }
}
