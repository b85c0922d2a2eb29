//! Splitting an input byte stream into chunks of whole games, with bounded buffering.
//!
//! SGF is cut only between two top-level game trees: a scanner follows `(`, `)`, value brackets
//! `[` `]` and `\` escapes (with `memchr`), and cuts right before a `(` that opens a game tree
//! after one closed (the text between two games stays with the game before, so the reader
//! reports it as text after a game tree, as it does for the whole file). NDJSON is cut at line
//! ends. A chunk holds whole games up to about [`CHUNK_TARGET`] bytes; a single game larger than
//! that is one chunk of its own size.

use std::io::{self, Read};

/// The size a chunk grows to before it is cut at the next game boundary.
pub const CHUNK_TARGET: usize = 512 << 10;

/// How much is read from the input at a time.
const READ_BLOCK: usize = 256 << 10;

/// How the input is cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// Between SGF game trees.
    Sgf,
    /// At line ends (NDJSON).
    Lines,
}

/// A piece of the input holding whole games, and where it starts.
#[derive(Clone, Debug)]
pub struct Chunk {
    /// Its place in input order, from 0.
    pub index: usize,
    /// The raw bytes.
    pub bytes: Vec<u8>,
    /// The byte offset of its first byte in the input.
    pub offset: u64,
}

/// The bytes that change the scanner's state inside a game tree: `[`, `]`, `\\`, `(`, `)`.
static TREE_BYTES: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b'[' as usize] = 1;
    t[b']' as usize] = 1;
    t[b'\\' as usize] = 1;
    t[b'(' as usize] = 1;
    t[b')' as usize] = 1;
    t
};

/// The SGF scanner's state between reads.
#[derive(Clone, Copy, Debug, Default)]
struct Scan {
    /// Open game-tree levels.
    depth: u32,
    /// Inside a property value.
    in_value: bool,
    /// The byte after a `\` inside a value is escaped.
    escaped: bool,
    /// A game tree has closed since the chunk started (the next one may start a new chunk).
    closed: bool,
}

/// An iterator over the chunks of an input.
pub struct Chunks<R> {
    reader: R,
    cut: Cut,
    buf: Vec<u8>,
    /// How far `buf` has been scanned.
    scanned: usize,
    /// The last cut found in `buf` (a chunk may end there).
    last_cut: Option<usize>,
    scan: Scan,
    eof: bool,
    offset: u64,
    index: usize,
    target: usize,
    /// Where the next chunk starts in `buf` (the bytes before were given out).
    start: usize,
}

impl<R: Read> Chunks<R> {
    /// Chunks of `prefix` (bytes already read from the input) followed by the rest of `reader`.
    pub fn new(prefix: Vec<u8>, reader: R, cut: Cut) -> Self {
        Chunks {
            reader,
            cut,
            buf: prefix,
            scanned: 0,
            last_cut: None,
            scan: Scan::default(),
            eof: false,
            offset: 0,
            index: 0,
            target: CHUNK_TARGET,
            start: 0,
        }
    }

    /// Cuts chunks of about `target` bytes instead of [`CHUNK_TARGET`] (tests cut small inputs).
    pub fn with_target(mut self, target: usize) -> Self {
        self.target = target.max(1);
        self
    }

    /// Scans `buf` from `scanned` on; records cuts; stops at the first cut past the target.
    fn scan(&mut self) {
        match self.cut {
            Cut::Lines => {
                while let Some(k) = memchr::memchr(b'\n', &self.buf[self.scanned..]) {
                    self.scanned += k + 1;
                    self.last_cut = Some(self.scanned);
                    if self.scanned - self.start >= self.target {
                        return;
                    }
                }
                self.scanned = self.buf.len();
            }
            Cut::Sgf => self.scan_sgf(),
        }
    }

    fn scan_sgf(&mut self) {
        let b = &self.buf;
        let mut i = self.scanned;
        let s = &mut self.scan;
        while i < b.len() {
            if s.escaped {
                s.escaped = false;
                i += 1;
                continue;
            }
            if s.depth == 0 && !s.in_value {
                // Between games the reader skips whitespace and reads a game tree at `(`, skips a
                // stray `)`, and skips other text up to the next `(;`.
                let Some(j) = b[i..].iter().position(|c| !c.is_ascii_whitespace()).map(|k| i + k) else {
                    i = b.len();
                    break;
                };
                let at = match b[j] {
                    b'(' => j,
                    b')' => {
                        i = j + 1;
                        continue;
                    }
                    _ => match game_start(b, j, self.eof) {
                        Some(Some(at)) => at,
                        Some(None) => {
                            i = b.len();
                            break;
                        }
                        None => {
                            // Cannot tell yet: wait for more input.
                            i = j;
                            break;
                        }
                    },
                };
                if s.closed && at > self.start {
                    self.last_cut = Some(at);
                    if at - self.start >= self.target {
                        self.scanned = at;
                        return;
                    }
                }
                s.depth = 1;
                i = at + 1;
                continue;
            }
            // Inside a game tree: bytes that matter are found through a table, one state change
            // at a time (values are mostly short: moves, numbers).
            let (mut depth, mut in_value) = (s.depth, s.in_value);
            loop {
                while i < b.len() && TREE_BYTES[usize::from(b[i])] == 0 {
                    i += 1;
                }
                let Some(&c) = b.get(i) else { break };
                i += 1;
                if in_value {
                    match c {
                        b']' => in_value = false,
                        // The escaped byte is skipped (at the next read when it is not here yet).
                        b'\\' if i < b.len() => i += 1,
                        b'\\' => s.escaped = true,
                        _ => {}
                    }
                    continue;
                }
                match c {
                    b'[' => in_value = true,
                    b'(' => depth += 1,
                    b')' => {
                        depth -= 1;
                        if depth == 0 {
                            s.closed = true;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            (s.depth, s.in_value) = (depth, in_value);
        }
        self.scanned = i;
    }

    /// Gives out the chunk `buf[start..at]`; drops what was given out once it is most of the
    /// buffer (so the first, large read is not kept whole).
    fn take(&mut self, at: usize) -> Chunk {
        let bytes = self.buf[self.start..at].to_vec();
        self.last_cut = None;
        self.scan.closed = false;
        let chunk = Chunk { index: self.index, bytes, offset: self.offset };
        self.offset += (at - self.start) as u64;
        self.index += 1;
        self.start = at;
        if self.start >= self.buf.len() / 2 {
            self.buf.drain(..self.start);
            self.scanned -= self.start;
            self.start = 0;
            if self.buf.capacity() > 4 * (self.target + READ_BLOCK) {
                self.buf.shrink_to(2 * (self.target + READ_BLOCK));
            }
        }
        chunk
    }

    /// Reads ahead until at least `n` bytes not yet given out are buffered (or the input ends),
    /// and returns them.
    pub fn lookahead(&mut self, n: usize) -> io::Result<&[u8]> {
        while !self.eof && self.buf.len() - self.start < n {
            self.fill()?;
        }
        Ok(&self.buf[self.start..])
    }

    fn fill(&mut self) -> io::Result<()> {
        let start = self.buf.len();
        self.buf.resize(start + READ_BLOCK, 0);
        let n = loop {
            match self.reader.read(&mut self.buf[start..]) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                r => break r,
            }
        };
        self.buf.truncate(start + *n.as_ref().unwrap_or(&0));
        if n? == 0 {
            self.eof = true;
        }
        Ok(())
    }
}

/// Where the reader, skipping text from `from`, finds the next game: a `(` followed (after
/// whitespace) by `;`. `Some(None)`: none in `b` and the input is at its end; `None`: more input
/// is needed to tell.
fn game_start(b: &[u8], from: usize, eof: bool) -> Option<Option<usize>> {
    for at in memchr::memchr_iter(b'(', &b[from..]).map(|k| from + k) {
        match b[at + 1..].iter().find(|c| !c.is_ascii_whitespace()) {
            Some(b';') => return Some(Some(at)),
            Some(_) => {}
            None if eof => return Some(None),
            None => return None,
        }
    }
    if eof { Some(None) } else { None }
}

impl<R: Read> Iterator for Chunks<R> {
    type Item = io::Result<Chunk>;

    fn next(&mut self) -> Option<io::Result<Chunk>> {
        loop {
            self.scan();
            if let Some(at) = self.last_cut.filter(|&at| at - self.start >= self.target) {
                return Some(Ok(self.take(at)));
            }
            if self.eof {
                if self.scanned < self.buf.len() {
                    continue;
                }
                if self.start == self.buf.len() {
                    return None;
                }
                let all = self.buf.len();
                return Some(Ok(self.take(all)));
            }
            if let Err(e) = self.fill() {
                return Some(Err(e));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cuts(input: &[u8], cut: Cut) -> Vec<Vec<u8>> {
        Chunks::new(Vec::new(), input, cut).map(|c| c.unwrap().bytes).collect()
    }

    #[test]
    fn small_inputs_are_one_chunk_and_nothing_is_lost() {
        assert_eq!(cuts(b"(;B[aa])\n(;W[bb])\n", Cut::Sgf), vec![b"(;B[aa])\n(;W[bb])\n".to_vec()]);
        assert!(cuts(b"", Cut::Sgf).is_empty());
    }

    #[test]
    fn sgf_is_cut_between_games_only() {
        // Brackets, parentheses and escapes inside values never cut.
        let game = b"(;C[a ) ( \\] (;]PB[x](;B[aa])(;B[bb]))\ntext between\n";
        let mut input = Vec::new();
        while input.len() < 3 * CHUNK_TARGET {
            input.extend_from_slice(game);
        }
        let chunks = cuts(&input, Cut::Sgf);
        assert!(chunks.len() >= 3, "{}", chunks.len());
        assert_eq!(chunks.concat(), input);
        for c in &chunks {
            assert!(c.starts_with(b"(;C[a ) ("), "cut inside a game");
            assert!(c.ends_with(b"text between\n"));
        }
    }

    #[test]
    fn lines_are_cut_at_line_ends() {
        let line = b"{\"nodes\":[{}]}\n";
        let input: Vec<u8> = line.iter().copied().cycle().take(line.len() * 100_000).collect();
        let chunks = cuts(&input, Cut::Lines);
        assert!(chunks.len() > 1);
        assert!(chunks.iter().all(|c| c.ends_with(b"\n") && c.starts_with(b"{")));
        assert_eq!(chunks.concat(), input);
    }

    #[test]
    fn a_game_cut_off_at_the_end_is_the_last_chunk() {
        let mut input = b"(;B[aa])\n".repeat(CHUNK_TARGET / 9 + 10);
        input.extend_from_slice(b"(;B[cc];W[dd");
        let chunks = cuts(&input, Cut::Sgf);
        assert_eq!(chunks.concat(), input);
        assert!(chunks.last().unwrap().ends_with(b"W[dd"));
    }
}
