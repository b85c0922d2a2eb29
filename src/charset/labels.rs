//! Charset labels: the alias table for names found in real files, and the names kifu writes.

use encoding_rs::Encoding;

/// Project aliases on top of the WHATWG labels `encoding_rs` knows, keyed by the label with
/// everything but ASCII letters and digits removed, lower-cased. Documented in
/// [`formats/charsets.md`](crate::spec::charsets).
pub const ALIASES: &[(&str, &Encoding)] = &[
    // Korean: CP949 / Unified Hangul Code is a superset of EUC-KR; encoding_rs's EUC-KR is CP949.
    ("cp949", encoding_rs::EUC_KR),
    ("uhc", encoding_rs::EUC_KR),
    ("ms949", encoding_rs::EUC_KR),
    ("windows949", encoding_rs::EUC_KR),
    ("xwindows949", encoding_rs::EUC_KR),
    ("euckr", encoding_rs::EUC_KR),
    ("ksc5601", encoding_rs::EUC_KR),
    ("ksc56011987", encoding_rs::EUC_KR),
    ("ksx1001", encoding_rs::EUC_KR),
    ("korean", encoding_rs::EUC_KR),
    // Simplified Chinese: GB2312 / EUC-CN / CP936 are subsets of GBK.
    ("cp936", encoding_rs::GBK),
    ("ms936", encoding_rs::GBK),
    ("windows936", encoding_rs::GBK),
    ("euccn", encoding_rs::GBK),
    ("gb2312", encoding_rs::GBK),
    ("gb231280", encoding_rs::GBK),
    ("gbk", encoding_rs::GBK),
    ("chinese", encoding_rs::GBK),
    ("gb18030", encoding_rs::GB18030),
    // Japanese: encoding_rs's Shift_JIS is CP932 (Windows-31J).
    ("cp932", encoding_rs::SHIFT_JIS),
    ("ms932", encoding_rs::SHIFT_JIS),
    ("windows932", encoding_rs::SHIFT_JIS),
    ("windows31j", encoding_rs::SHIFT_JIS),
    ("sjis", encoding_rs::SHIFT_JIS),
    ("shiftjis", encoding_rs::SHIFT_JIS),
    ("xsjis", encoding_rs::SHIFT_JIS),
    ("mskanji", encoding_rs::SHIFT_JIS),
    ("eucjp", encoding_rs::EUC_JP),
    ("iso2022jp", encoding_rs::ISO_2022_JP),
    ("jis", encoding_rs::ISO_2022_JP),
    // Traditional Chinese: encoding_rs's Big5 includes the HKSCS extensions.
    ("cp950", encoding_rs::BIG5),
    ("ms950", encoding_rs::BIG5),
    ("windows950", encoding_rs::BIG5),
    ("big5", encoding_rs::BIG5),
    ("big5hkscs", encoding_rs::BIG5),
    // Unicode.
    ("utf8", encoding_rs::UTF_8),
    ("utf8bom", encoding_rs::UTF_8),
    ("unicode11utf8", encoding_rs::UTF_8),
    ("utf16", encoding_rs::UTF_16LE),
    ("utf16le", encoding_rs::UTF_16LE),
    ("ucs2", encoding_rs::UTF_16LE),
    ("ucs2le", encoding_rs::UTF_16LE),
    ("unicode", encoding_rs::UTF_16LE),
    ("utf16be", encoding_rs::UTF_16BE),
    ("ucs2be", encoding_rs::UTF_16BE),
    // Western: ISO-8859-1 and ASCII are read as windows-1252 (a superset), as browsers do.
    ("latin1", encoding_rs::WINDOWS_1252),
    ("iso88591", encoding_rs::WINDOWS_1252),
    ("l1", encoding_rs::WINDOWS_1252),
    ("ascii", encoding_rs::WINDOWS_1252),
    ("usascii", encoding_rs::WINDOWS_1252),
    ("cp1252", encoding_rs::WINDOWS_1252),
    ("cp1251", encoding_rs::WINDOWS_1251),
    ("macroman", encoding_rs::MACINTOSH),
];

fn normalize(label: &str) -> String {
    label.chars().filter(|c| c.is_ascii_alphanumeric()).map(|c| c.to_ascii_lowercase()).collect()
}

/// Looks up a charset label as found in real files: the project aliases ([`ALIASES`]: `CP949`,
/// `UHC`, `MS949`, `CP936`, `EUC-CN`, `CP932`, `SJIS`, `CP950`, `UTF16LE`, …, where case, `-`,
/// `_` and spaces are ignored), then the WHATWG labels. `iso-2022-kr` and the other labels
/// WHATWG maps to the "replacement" encoding give `None`, as does an unknown label.
pub fn encoding_for_label(label: &str) -> Option<&'static Encoding> {
    // The label of nearly every file, without the normalised copy.
    if label.eq_ignore_ascii_case("UTF-8") {
        return Some(encoding_rs::UTF_8);
    }
    let norm = normalize(label);
    if norm.is_empty() {
        return None;
    }
    ALIASES
        .iter()
        .find(|(alias, _)| *alias == norm)
        .map(|&(_, enc)| enc)
        .or_else(|| Encoding::for_label_no_replacement(label.trim().as_bytes()))
}

/// The label kifu writes in `CA` (and similar fields) for `enc`: the IANA name legacy software
/// expects (`UTF-8`, `GB18030`, `GBK`, `EUC-KR`, `Shift_JIS`, `Big5`, `UTF-16LE`, `ISO-8859-2`,
/// `windows-1251`, …). Every name returned reads back through [`encoding_for_label`] as `enc`.
pub fn ca_label(enc: &'static Encoding) -> &'static str {
    if enc == encoding_rs::GB18030 {
        "GB18030"
    } else if enc == encoding_rs::MACINTOSH {
        "macintosh"
    } else {
        enc.name()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_cover_labels_from_the_wild() {
        for (label, enc) in [
            ("CP949", encoding_rs::EUC_KR),
            ("UHC", encoding_rs::EUC_KR),
            ("ms949", encoding_rs::EUC_KR),
            ("KS_C_5601-1987", encoding_rs::EUC_KR),
            ("EUC-CN", encoding_rs::GBK),
            ("cp936", encoding_rs::GBK),
            ("GB2312", encoding_rs::GBK),
            ("GB18030", encoding_rs::GB18030),
            ("cp932", encoding_rs::SHIFT_JIS),
            ("MS_KANJI", encoding_rs::SHIFT_JIS),
            ("SJIS", encoding_rs::SHIFT_JIS),
            ("CP950", encoding_rs::BIG5),
            ("UTF16LE", encoding_rs::UTF_16LE),
            ("UTF-16BE", encoding_rs::UTF_16BE),
            ("utf-8", encoding_rs::UTF_8),
            ("ISO-8859-1", encoding_rs::WINDOWS_1252),
            ("ISO-8859-15", encoding_rs::ISO_8859_15),
            ("macintosh", encoding_rs::MACINTOSH),
            ("windows-1251", encoding_rs::WINDOWS_1251),
            (" Shift_JIS ", encoding_rs::SHIFT_JIS),
        ] {
            assert_eq!(encoding_for_label(label), Some(enc), "{label}");
        }
    }

    #[test]
    fn replacement_and_unknown_labels_give_none() {
        assert_eq!(encoding_for_label("iso-2022-kr"), None);
        assert_eq!(encoding_for_label("nonsense"), None);
        assert_eq!(encoding_for_label(""), None);
        assert_eq!(encoding_for_label("-_ "), None);
    }

    #[test]
    fn written_labels_read_back() {
        for enc in [
            encoding_rs::UTF_8,
            encoding_rs::GB18030,
            encoding_rs::GBK,
            encoding_rs::EUC_KR,
            encoding_rs::SHIFT_JIS,
            encoding_rs::BIG5,
            encoding_rs::UTF_16LE,
            encoding_rs::UTF_16BE,
            encoding_rs::WINDOWS_1251,
            encoding_rs::MACINTOSH,
            encoding_rs::ISO_2022_JP,
        ] {
            assert_eq!(encoding_for_label(ca_label(enc)), Some(enc), "{}", ca_label(enc));
        }
        assert_eq!(ca_label(encoding_rs::GB18030), "GB18030");
        assert_eq!(ca_label(encoding_rs::SHIFT_JIS), "Shift_JIS");
    }
}
