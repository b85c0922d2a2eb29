//! Small shell-style globs for `--include` / `--exclude`.
//!
//! `*` matches any run of characters except `/`, `**` any run including `/` (`**/` also matches
//! nothing, so `**/x.sgf` matches `x.sgf`), `?` one character except `/`, `[abc]`, `[a-z]` and
//! `[!a-z]` (or `[^a-z]`) one character of a set. Matching ignores ASCII case, since archives
//! gathered on Windows mix `.SGF` and `.sgf`. A pattern without `/` is matched against the file
//! (or folder) name; a pattern with `/` against the whole path relative to the walked folder.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Char(char),
    One,
    Star,
    /// `**`; `true` when it was written `**/` (and may then match nothing at all).
    AnyPath(bool),
    Class(bool, Vec<(char, char)>),
}

/// A compiled glob pattern.
#[derive(Clone, PartialEq, Eq)]
pub struct Glob {
    source: String,
    tokens: Vec<Token>,
    whole_path: bool,
}

impl fmt::Debug for Glob {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Glob({:?})", self.source)
    }
}

impl fmt::Display for Glob {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.source)
    }
}

/// Why a pattern could not be compiled.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad glob '{pattern}': {reason}")]
pub struct GlobError {
    /// The pattern as given.
    pub pattern: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

impl Glob {
    /// Compiles `pattern`.
    pub fn new(pattern: &str) -> Result<Glob, GlobError> {
        let err = |reason| GlobError { pattern: pattern.to_string(), reason };
        if pattern.is_empty() {
            return Err(err("empty pattern"));
        }
        let chars: Vec<char> = pattern.chars().collect();
        let mut tokens = Vec::new();
        let mut i = 0;
        while let Some(&c) = chars.get(i) {
            i += 1;
            match c {
                '?' => tokens.push(Token::One),
                '*' if chars.get(i) == Some(&'*') => {
                    i += 1;
                    while chars.get(i) == Some(&'*') {
                        i += 1;
                    }
                    let slash = chars.get(i) == Some(&'/');
                    if slash {
                        i += 1;
                    }
                    tokens.push(Token::AnyPath(slash));
                }
                '*' => tokens.push(Token::Star),
                '[' => {
                    let negate = matches!(chars.get(i), Some('!' | '^'));
                    if negate {
                        i += 1;
                    }
                    let mut ranges = Vec::new();
                    let mut first = true;
                    loop {
                        let Some(&lo) = chars.get(i) else { return Err(err("unclosed '['")) };
                        if lo == ']' && !first {
                            i += 1;
                            break;
                        }
                        first = false;
                        i += 1;
                        if chars.get(i) == Some(&'-') && chars.get(i + 1).is_some_and(|&h| h != ']') {
                            let hi = chars.get(i + 1).copied().unwrap_or(lo);
                            i += 2;
                            ranges.push((lo.to_ascii_lowercase(), hi.to_ascii_lowercase()));
                        } else {
                            ranges.push((lo.to_ascii_lowercase(), lo.to_ascii_lowercase()));
                        }
                    }
                    tokens.push(Token::Class(negate, ranges));
                }
                '\\' => match chars.get(i) {
                    Some(&n) => {
                        i += 1;
                        tokens.push(Token::Char(n.to_ascii_lowercase()));
                    }
                    None => return Err(err("trailing '\\'")),
                },
                c => tokens.push(Token::Char(c.to_ascii_lowercase())),
            }
        }
        let whole_path = pattern.contains('/');
        Ok(Glob { source: pattern.to_string(), tokens, whole_path })
    }

    /// Whether the relative path `rel` (components separated by `/`) matches.
    pub fn matches(&self, rel: &str) -> bool {
        let subject = if self.whole_path { rel } else { rel.rsplit('/').next().unwrap_or(rel) };
        let text: Vec<char> = subject.chars().map(|c| c.to_ascii_lowercase()).collect();
        let width = text.len() + 1;
        let mut failed = vec![false; (self.tokens.len() + 1) * width];
        self.match_at(0, 0, &text, &mut failed)
    }

    /// Backtracking matcher, memoising the (token, text position) pairs already known to fail,
    /// so any pattern runs in O(tokens × text) steps.
    fn match_at(&self, t: usize, s: usize, text: &[char], failed: &mut [bool]) -> bool {
        let key = t * (text.len() + 1) + s;
        if failed.get(key).copied().unwrap_or(true) {
            return false;
        }
        let ok = match self.tokens.get(t) {
            None => s == text.len(),
            Some(tok) => match tok {
                Token::Char(c) => text.get(s) == Some(c) && self.match_at(t + 1, s + 1, text, failed),
                Token::One => text.get(s).is_some_and(|&c| c != '/') && self.match_at(t + 1, s + 1, text, failed),
                Token::Class(negate, ranges) => {
                    text.get(s)
                        .is_some_and(|&c| c != '/' && ranges.iter().any(|&(lo, hi)| lo <= c && c <= hi) != *negate)
                        && self.match_at(t + 1, s + 1, text, failed)
                }
                Token::Star => {
                    let mut end = s;
                    loop {
                        if self.match_at(t + 1, end, text, failed) {
                            break true;
                        }
                        match text.get(end) {
                            Some(&c) if c != '/' => end += 1,
                            _ => break false,
                        }
                    }
                }
                Token::AnyPath(slash) => {
                    // `**/` matches nothing, or anything that ends with `/`; bare `**` anything.
                    (*slash && self.match_at(t + 1, s, text, failed))
                        || (s..=text.len()).any(|end| {
                            let fits = !*slash || (end > s && text.get(end - 1) == Some(&'/'));
                            fits && self.match_at(t + 1, end, text, failed)
                        })
                }
            },
        };
        if !ok {
            if let Some(f) = failed.get_mut(key) {
                *f = true;
            }
        }
        ok
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(p: &str, s: &str) -> bool {
        Glob::new(p).unwrap().matches(s)
    }

    #[test]
    fn stars_and_names() {
        assert!(m("*.gib", "a/b/c.gib"));
        assert!(m("*.gib", "c.GIB"));
        assert!(!m("*.gib", "c.gib.bak"));
        assert!(m("a/*.sgf", "a/x.sgf"));
        assert!(!m("a/*.sgf", "a/b/x.sgf"));
        assert!(m("a/**/x.sgf", "a/x.sgf"));
        assert!(m("a/**/x.sgf", "a/b/c/x.sgf"));
        assert!(m("**/x.sgf", "x.sgf"));
        assert!(m("drafts/**", "drafts/a/b.sgf"));
        assert!(!m("drafts/**", "other/drafts.sgf"));
    }

    #[test]
    fn classes_and_single_characters() {
        assert!(m("game-?.sgf", "game-1.sgf"));
        assert!(!m("game-?.sgf", "game-12.sgf"));
        assert!(m("[a-c]*", "b.sgf"));
        assert!(!m("[!a-c]*", "b.sgf"));
        assert!(m("[]x]", "]"));
        assert!(m("a\\*", "a*"));
        assert!(!m("a\\*", "ab"));
    }

    #[test]
    fn bad_patterns_are_errors() {
        assert_eq!(Glob::new("[ab").unwrap_err().reason, "unclosed '['");
        assert!(Glob::new("").is_err());
        assert!(Glob::new("x\\").is_err());
    }

    #[test]
    fn many_stars_stay_fast() {
        let p = Glob::new("*a*a*a*a*a*a*a*a*a*b").unwrap();
        assert!(!p.matches(&"a".repeat(200)));
    }
}
