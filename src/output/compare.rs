//! Comparing the bytes being written with an existing file, as they are written, so that an
//! output equal to what is there leaves it untouched.

use std::fs;
use std::io::{self, Read, Write};
use std::path::Path;

/// Compares what is written with an existing file, as it is written. The file's length is known
/// beforehand (its `stat`), so an output of another length is told apart without reading it:
/// at once when the output's length is known too, else as soon as more is written than the file
/// holds.
pub(super) struct Compare {
    old: Option<fs::File>,
    /// Bytes of the old file not compared yet.
    left: u64,
    equal: bool,
    scratch: Vec<u8>,
}

impl Compare {
    /// Compares with the file `old` of the given length (never equal when `None`); `size` is the
    /// output's length when known.
    pub(super) fn new(old: Option<(&Path, u64)>, size: Option<u64>) -> Compare {
        let (old, left) = match old {
            Some((path, len)) if size.is_none_or(|s| s == len) => (fs::File::open(path).ok(), len),
            _ => (None, 0),
        };
        Compare { equal: old.is_some(), old, left, scratch: Vec::new() }
    }

    /// Whether the old file is open to compare with (not when the lengths differ or it cannot
    /// be opened: then nothing written is read against it).
    pub(super) fn is_open(&self) -> bool {
        self.old.is_some()
    }

    /// Whether everything written equals the whole old file (which ends where it did).
    pub(super) fn finish(mut self) -> bool {
        let mut one = [0u8; 1];
        self.equal && self.left == 0 && self.old.as_mut().is_some_and(|f| matches!(f.read(&mut one), Ok(0)))
    }
}

impl Write for Compare {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if let (true, Some(old)) = (self.equal, self.old.as_mut()) {
            if buf.len() as u64 > self.left {
                self.equal = false;
                return Ok(buf.len());
            }
            // In bounded pieces: a whole output written at once (write_output's bytes) must not
            // mean a second copy of the old file, and reading stops at the first difference.
            for part in buf.chunks(1 << 16) {
                self.scratch.resize(part.len(), 0);
                if old.read_exact(&mut self.scratch).is_err() || self.scratch != part {
                    self.equal = false;
                    break;
                }
                self.left -= part.len() as u64;
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Writes to a file and compares with the old one at the same time.
pub(super) struct Tee<'a> {
    pub(super) file: &'a mut fs::File,
    pub(super) compare: Compare,
}

impl Write for Tee<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file.write_all(buf)?;
        self.compare.write_all(buf)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compared(old: &Path, len: u64, size: Option<u64>, written: &[u8]) -> (bool, bool) {
        let mut c = Compare::new(Some((old, len)), size);
        let opened = c.old.is_some();
        c.write_all(written).unwrap();
        (opened, c.finish())
    }

    #[test]
    fn lengths_tell_outputs_apart_without_reading() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("old.sgf");
        fs::write(&p, "(;GM[1])").unwrap();
        assert_eq!(compared(&p, 8, Some(8), b"(;GM[1])"), (true, true));
        assert_eq!(compared(&p, 8, Some(8), b"(;GM[2])"), (true, false));
        // A known size that differs: the file is not even opened.
        assert_eq!(compared(&p, 8, Some(9), b"(;GM[1]) "), (false, false));
        // Unknown size: reading stops once the output is longer than the file, or ends short.
        assert_eq!(compared(&p, 8, None, b"(;GM[1]) "), (true, false));
        assert_eq!(compared(&p, 8, None, b"(;GM[1]"), (true, false));
        assert_eq!(compared(&p, 8, None, b"(;GM[1])"), (true, true));
        // The file grew after its length was taken: not equal.
        assert_eq!(compared(&p, 7, None, b"(;GM[1]"), (true, false));
        assert!(!Compare::new(None, Some(8)).finish());
    }
}
