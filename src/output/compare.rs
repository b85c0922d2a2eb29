//! Comparing the bytes being written with an existing file, as they are written, so that an
//! output equal to what is there leaves it untouched.

use std::fs;
use std::io::{self, Write};
use std::path::Path;

/// Compares what is written with an existing file, as it is written.
pub(super) struct Compare {
    old: Option<io::BufReader<fs::File>>,
    equal: bool,
    scratch: Vec<u8>,
}

impl Compare {
    pub(super) fn new(old: Option<&Path>) -> Compare {
        let old = old.and_then(|p| fs::File::open(p).ok()).map(io::BufReader::new);
        Compare { equal: old.is_some(), old, scratch: Vec::new() }
    }

    /// Whether everything written equals the whole old file.
    pub(super) fn finish(mut self) -> bool {
        let mut one = [0u8; 1];
        self.equal && self.old.as_mut().is_some_and(|f| matches!(io::Read::read(f, &mut one), Ok(0)))
    }
}

impl Write for Compare {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if let (true, Some(old)) = (self.equal, self.old.as_mut()) {
            // In bounded pieces: a whole output written at once (write_output's bytes) must not
            // mean a second copy of the old file, and reading stops at the first difference.
            for part in buf.chunks(1 << 16) {
                self.scratch.resize(part.len(), 0);
                if io::Read::read_exact(old, &mut self.scratch).is_err() || self.scratch != part {
                    self.equal = false;
                    break;
                }
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
