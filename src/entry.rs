//! The one-call entry points: read a file or a reader in whatever format it is, write a
//! collection to a writer, write a file safely, and keep the input's charset when writing it back.

use std::io::{self, Read, Write};
use std::path::Path;

use crate::diag::Diagnostic;
use crate::formats::{Format, ReadError, ReadOptions, ReadOutput, WriteError, WriteOptions};
use crate::model::Collection;
use crate::output::{OutputPolicy, write_output};
use crate::reader::Reader;

/// Reads the file at `path` in its format, deciding its charset; the result carries every
/// diagnostic. The same as [`Reader::new`]`().read_path(path)` (see [`Reader`] for how the format
/// is decided: the content wins over a lying extension).
///
/// ```
/// let read = kifu::read_path("fixtures/gib/korean-euc-kr.gib").unwrap();
/// let info = read.collection.games[0].info();
/// assert_eq!(read.charset.unwrap().name(), "EUC-KR");
/// assert!(info.black.is_some() && info.white.is_some());
/// ```
pub fn read_path(path: impl AsRef<Path>) -> Result<ReadOutput, ReadError> {
    Reader::new().read_path(path)
}

/// [`read_path`] with options (a charset to impose, positions to record, …).
pub fn read_path_with(path: impl AsRef<Path>, options: &ReadOptions) -> Result<ReadOutput, ReadError> {
    Reader::new().with_options(options.clone()).read_path(path)
}

/// Reads everything from `reader` and reads it in the format its content shows, deciding its
/// charset ([`Reader::read`]).
///
/// ```
/// let read = kifu::read(&b"(;GM[1]SZ[9]PB[Shusaku]PW[Gennan];B[ee];W[])"[..]).unwrap();
/// assert_eq!(read.collection.games[0].main_line().count(), 3);
/// assert!(read.diagnostics.is_empty());
/// ```
pub fn read(reader: impl Read) -> Result<ReadOutput, ReadError> {
    Reader::new().read(reader)
}

/// Reads `bytes` as `format`, or as the format sniffed from the content when `format` is `None`
/// (an error `format.unknown` when nothing matches).
///
/// ```
/// use kifu::{Format, ReadOptions};
/// let read = kifu::read_bytes(b"(;SZ[9])".to_vec(), Some(Format::SGF), &ReadOptions::default()).unwrap();
/// assert_eq!(read.collection.games[0].board_size().width, 9);
/// let err = kifu::read_bytes(b"hello".to_vec(), None, &ReadOptions::default()).unwrap_err();
/// assert_eq!(err.diagnostics[0].code, "format.unknown");
/// ```
pub fn read_bytes(bytes: Vec<u8>, format: Option<Format>, options: &ReadOptions) -> Result<ReadOutput, ReadError> {
    Reader::new().with_format_opt(format).with_options(options.clone()).read_bytes(bytes, None)
}

impl ReadOutput {
    /// Options that write the games back in the charset they were read in (`CA` set to match
    /// for SGF), recording that charset for JSON's `info.charset`. UTF-16 input is written as
    /// UTF-8: no writer produces UTF-16.
    ///
    /// ```
    /// let read = kifu::read_path("fixtures/gib/korean-euc-kr.gib").unwrap();
    /// let options = read.write_options();
    /// assert_eq!(options.encoding().name(), "EUC-KR");
    /// let mut sgf = Vec::new();
    /// read.collection.write_to(&mut sgf, kifu::Format::SGF, &options).unwrap();
    /// assert!(sgf.starts_with(b"(;FF[4]CA[EUC-KR]"));
    /// ```
    pub fn write_options(&self) -> WriteOptions {
        WriteOptions {
            encoding: self.charset.map(|c| c.encoding.output_encoding()),
            source_charset: self.charset,
            ..WriteOptions::default()
        }
    }
}

impl Collection {
    /// Writes the games to `writer` in `format`; returns the writer's diagnostics (what the
    /// format could not hold, item by item). Nothing is written when the games cannot be
    /// represented at all.
    ///
    /// ```
    /// use kifu::{Format, WriteOptions};
    /// let read = kifu::read(&b"(;GM[1]PB[Lee Sedol];B[pd]C[first move])"[..]).unwrap();
    /// let mut out = Vec::new();
    /// let lost = read.collection.write_to(&mut out, Format::GIB, &WriteOptions::default()).unwrap();
    /// assert!(out.starts_with(b"\\HS"));
    /// assert!(lost.iter().any(|d| d.code == "gib.lossy-comment"));
    /// ```
    pub fn write_to(
        &self,
        mut writer: impl Write,
        format: Format,
        options: &WriteOptions,
    ) -> Result<Vec<Diagnostic>, WriteError> {
        let out = format.write(self, options)?;
        writer.write_all(&out.bytes).and_then(|()| writer.flush()).map_err(|e| WriteError::Io(e.into()))?;
        Ok(out.diagnostics)
    }
}

/// Writes `bytes` to the file `path` as the `kifu` command writes its outputs: through a
/// temporary file beside it (`.kifu-PID-XXXXXX.tmp`) and a rename, so `path` never holds half a
/// file; a new file gets mode `0666` minus the umask, a replaced one keeps its mode; a file that
/// already holds exactly `bytes` is left untouched; character devices, FIFOs and sockets
/// (`/dev/null`, `/dev/stdout`) are written through, and a symbolic link's target is written
/// (never the link). An existing file whose bytes differ is replaced only when `replace` is
/// true; otherwise the error is [`io::ErrorKind::AlreadyExists`]. A missing folder is
/// [`io::ErrorKind::NotFound`] (no folder is created), a folder
/// [`io::ErrorKind::IsADirectory`]; block devices are refused ([`io::ErrorKind::InvalidInput`]).
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let out = dir.path().join("game.sgf");
/// kifu::write_file(&out, b"(;GM[1])", false).unwrap();
/// kifu::write_file(&out, b"(;GM[1])", false).unwrap(); // the same bytes: nothing to do
/// let err = kifu::write_file(&out, b"(;GM[1]SZ[9])", false).unwrap_err();
/// assert_eq!(err.kind(), std::io::ErrorKind::AlreadyExists);
/// kifu::write_file(&out, b"(;GM[1]SZ[9])", true).unwrap();
/// assert_eq!(std::fs::read(&out).unwrap(), b"(;GM[1]SZ[9])");
/// ```
pub fn write_file(path: impl AsRef<Path>, bytes: &[u8], replace: bool) -> io::Result<()> {
    write_output(path.as_ref(), bytes, &OutputPolicy::single(replace)).map(drop).map_err(io::Error::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_to_reports_io_errors() {
        struct Full;
        impl Write for Full {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::Error::new(std::io::ErrorKind::StorageFull, "full"))
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let read = read(&b"(;GM[1])"[..]).unwrap();
        let err = read.collection.write_to(Full, Format::SGF, &WriteOptions::default()).unwrap_err();
        assert!(matches!(&err, WriteError::Io(e) if e.kind() == std::io::ErrorKind::StorageFull), "{err}");
    }

    #[test]
    fn write_file_errors_have_kinds() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("a.sgf");
        write_file(&out, b"one", false).unwrap();
        let kind = |p: &Path, replace| write_file(p, b"two", replace).unwrap_err().kind();
        assert_eq!(kind(&out, false), io::ErrorKind::AlreadyExists);
        assert_eq!(kind(&dir.path().join("no/b.sgf"), true), io::ErrorKind::NotFound);
        assert_eq!(kind(dir.path(), true), io::ErrorKind::IsADirectory);
        assert_eq!(std::fs::read(&out).unwrap(), b"one");
        write_file(&out, b"two", true).unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file left");
        #[cfg(unix)]
        write_file("/dev/null", b"through", false).unwrap();
    }

    #[test]
    fn keeping_the_charset_round_trips_the_bytes_of_names() {
        let bytes = std::fs::read("fixtures/gib/korean-euc-kr.gib").unwrap();
        let read = read_path("fixtures/gib/korean-euc-kr.gib").unwrap();
        let mut gib = Vec::new();
        read.collection.write_to(&mut gib, Format::GIB, &read.write_options()).unwrap();
        let name = read.collection.games[0].info().black.unwrap();
        let (encoded, _, _) = encoding_rs::EUC_KR.encode(&name);
        assert!(memchr::memmem::find(&bytes, &encoded).is_some(), "the name is in the input");
        assert!(memchr::memmem::find(&gib, &encoded).is_some(), "and, in EUC-KR, in the output");
        // Without the option the output is UTF-8.
        let mut utf8 = Vec::new();
        read.collection.write_to(&mut utf8, Format::GIB, &WriteOptions::default()).unwrap();
        assert!(String::from_utf8(utf8).unwrap().contains(&name));
    }
}
