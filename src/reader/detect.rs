//! Telling an input's format: `-f`, else the extension, else the content — and the content
//! wins, with a warning, when it is clearly another format than the extension says.

use super::codes::FORMAT_MISMATCH;
use crate::diag::Diagnostic;
use crate::formats::Format;
use std::path::Path;

/// The format to read `bytes` (the input at `path`, if a file) with: `forced` (`-f`), else the
/// extension's, else the sniffed one. When the extension's format does not recognise the
/// content but another format does (a UGF file renamed `.sgf`), the content's format is chosen
/// and a warning names both. `None` when nothing tells.
pub(crate) fn detect_format(
    forced: Option<Format>,
    path: Option<&Path>,
    bytes: &[u8],
) -> Option<(Format, Option<Diagnostic>)> {
    if let Some(f) = forced {
        return Some((f, None));
    }
    let by_name = path.and_then(Format::from_path).filter(|f| f.can_read());
    // The extension's format recognises the content (nearly every file): no other is tried.
    if let Some(named) = by_name.filter(|f| (f.spec().sniff)(bytes)) {
        return Some((named, None));
    }
    let sniffed = Format::sniff(bytes);
    match (by_name, sniffed) {
        (Some(named), Some(content)) if named != content && !(named.spec().sniff)(bytes) => {
            let ext = path.and_then(Path::extension).map_or_else(String::new, |e| e.to_string_lossy().into_owned());
            let d = Diagnostic::warning(
                FORMAT_MISMATCH,
                format!("the extension .{ext} says {named}, but the content is {content}; read as {content}"),
            );
            Some((content, Some(d)))
        }
        (Some(named), _) => Some((named, None)),
        (None, content) => content.map(|c| (c, None)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_wins_over_a_wrong_extension_with_a_warning() {
        let sgf = b"(;GM[1]SZ[19];B[pd])";
        let (f, d) = detect_format(None, Some(Path::new("game.sgf")), sgf).unwrap();
        assert_eq!((f, d), (Format::SGF, None));
        let (f, d) = detect_format(None, Some(Path::new("game.gib")), sgf).unwrap();
        assert_eq!(f, Format::SGF);
        let d = d.unwrap();
        assert_eq!(d.code, FORMAT_MISMATCH);
        assert!(d.message.contains(".gib says gib, but the content is sgf"), "{}", d.message);
        let gib = Format::from_name("gib").unwrap();
        assert_eq!(detect_format(Some(gib), Some(Path::new("x.sgf")), sgf).unwrap(), (gib, None));
        assert!(detect_format(None, None, b"hello").is_none());
    }
}
