//! PNG: the diagram's SVG rasterised by resvg. DejaVu Sans (from the `dejavu` crate) is always
//! loaded, so numbers, coordinates and Latin text never depend on the machine's fonts; system
//! fonts are loaded only when some text has characters DejaVu lacks (CJK names and comments),
//! and characters no font has are reported.

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

/// Rasterises `svg` at `options.width` pixels wide (the SVG's own width otherwise). Returns the
/// PNG and a diagnostic when some characters have no glyph in any font.
pub(super) fn render(svg: &str, options: &Options) -> Result<(Vec<u8>, Vec<Diagnostic>), String> {
    let text = texts(svg);
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
    let opts = usvg::Options { fontdb: Arc::clone(db), ..usvg::Options::default() };
    let tree = usvg::Tree::from_str(svg, &opts).map_err(|e| e.to_string())?;
    let size = tree.size();
    let width = options.width.map_or(size.width(), |w| w as f32).max(1.0);
    let scale = width / size.width();
    let (w, h) = ((size.width() * scale).round().max(1.0) as u32, (size.height() * scale).round().max(1.0) as u32);
    let mut pixmap = resvg::tiny_skia::Pixmap::new(w, h).ok_or_else(|| format!("a {w}x{h} image is too large"))?;
    resvg::render(&tree, resvg::tiny_skia::Transform::from_scale(scale, scale), &mut pixmap.as_mut());
    let bytes = pixmap.encode_png().map_err(|e| e.to_string())?;
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
