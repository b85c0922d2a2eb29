//! The one-call entry points: read a file or a reader in whatever format it is, write a
//! collection to a writer, write a file safely, and keep the input's charset when writing it back.

use std::io::{self, Read, Write};
use std::path::Path;

use crate::output::{OutputPolicy, write_output};

use crate::diag::Diagnostic;
use crate::formats::{Format, ReadError, ReadOptions, ReadOutput, WriteError, WriteOptions};
use crate::model::Collection;

/// SGF inputs up to this size are read with offsets when they are to be repaired, and keep them
/// when some game was (see [`Format::read`]).
const POSITIONS_UP_TO: usize = 256 << 10;

/// How much of a larger SGF input [`first_games_need_repair`] reads (whole games up to about
/// this size).
const PROBE: usize = 64 << 10;

/// Whether a game among the first of a larger SGF input needs a repair (its first [`PROBE`]
/// bytes or so of whole games, read alone). Collections are mostly of one origin, repaired throughout or not at
/// all: when the first games need repairs, reading with offsets costs less than the second parse
/// that would find them; when they do not, the offsets would cost memory for nothing. Only the
/// cost depends on the guess, never the result.
fn first_games_need_repair(bytes: &[u8]) -> bool {
    // At most four times that is looked at: a first game larger than that is guessed from its
    // beginning (memory stays bounded whatever the input holds).
    let head = &bytes[..bytes.len().min(4 * PROBE)];
    let mut chunks = crate::stream::Chunks::new(Vec::new(), head, crate::stream::Cut::Sgf).with_target(PROBE);
    let Some(Ok(first)) = chunks.next() else { return false };
    let options = ReadOptions { no_repair: true, positions: true, ..ReadOptions::default() };
    Format::SGF.read(first.bytes, &options).is_ok_and(|r| r.collection.games.iter().any(crate::normalise::needs_repair))
}

/// Diagnostic codes of the entry points.
pub(crate) mod codes {
    /// The input could not be read (the message gives the operating system's reason).
    pub(crate) const UNREADABLE: &str = "io.unreadable";
    /// Neither the file name nor the content tells the input's format.
    pub(crate) const UNKNOWN_FORMAT: &str = "format.unknown";
}

fn unreadable(what: &str, e: &std::io::Error) -> ReadError {
    ReadError { diagnostics: vec![Diagnostic::error(codes::UNREADABLE, format!("cannot read {what}: {e}"))] }
}

/// Reads the file at `path` in its format (from the extension and the content,
/// [`Format::guess`]), deciding its charset; the result carries every diagnostic.
///
/// ```
/// let read = kifu::read_path("fixtures/gib/korean-euc-kr.gib").unwrap();
/// let info = read.collection.games[0].info();
/// assert_eq!(read.charset.unwrap().name(), "EUC-KR");
/// assert!(info.black.is_some() && info.white.is_some());
/// ```
pub fn read_path(path: impl AsRef<Path>) -> Result<ReadOutput, ReadError> {
    read_path_with(path, &ReadOptions::default())
}

/// [`read_path`] with options (a charset to impose, positions to record, …).
pub fn read_path_with(path: impl AsRef<Path>, options: &ReadOptions) -> Result<ReadOutput, ReadError> {
    let path = path.as_ref();
    let bytes = std::fs::read(path).map_err(|e| unreadable(&path.display().to_string(), &e))?;
    let format = Format::guess(path, &bytes);
    read_bytes(bytes, format, options)
}

/// Reads everything from `reader` and reads it in the format its content shows
/// ([`Format::sniff`]), deciding its charset.
///
/// ```
/// let read = kifu::read(&b"(;GM[1]SZ[9]PB[Shusaku]PW[Gennan];B[ee];W[])"[..]).unwrap();
/// assert_eq!(read.collection.games[0].main_line().count(), 3);
/// assert!(read.diagnostics.is_empty());
/// ```
pub fn read(mut reader: impl Read) -> Result<ReadOutput, ReadError> {
    let mut bytes = Vec::new();
    reader.read_to_end(&mut bytes).map_err(|e| unreadable("the input", &e))?;
    read_bytes(bytes, None, &ReadOptions::default())
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
    match format.or_else(|| Format::sniff(&bytes)) {
        Some(f) => f.read(bytes, options),
        None => Err(ReadError {
            diagnostics: vec![Diagnostic::error(
                codes::UNKNOWN_FORMAT,
                "cannot tell the input's format from its content",
            )],
        }),
    }
}

impl Format {
    /// Reads `bytes` in this format, deciding their charset; SGF input then gets the repairs of
    /// [`normalise`](crate::normalise) unless [`ReadOptions::no_repair`] is set.
    ///
    /// The games carry the offsets of their nodes and properties when
    /// [`ReadOptions::positions`] asks for them; the repaired games of a small SGF input (up to
    /// 256 KiB) may carry them too (recorded to place the repairs;
    /// [`GameTree::forget_positions`](crate::model::GameTree::forget_positions) drops them).
    ///
    /// ```
    /// use kifu::{Format, ReadOptions};
    /// let read = Format::SGF.read(b"(;GM[1]SZ[9];B[ee])".to_vec(), &ReadOptions::default()).unwrap();
    /// assert_eq!(read.collection.games[0].main_line().count(), 2);
    /// let err = Format::GIB.read(b"not a GIB file".to_vec(), &ReadOptions::default()).unwrap_err();
    /// assert!(err.diagnostics.iter().any(|d| d.code == "gib.no-game"));
    /// ```
    pub fn read(self, bytes: Vec<u8>, options: &ReadOptions) -> Result<ReadOutput, ReadError> {
        self.read_placing(bytes, options, false)
    }

    /// [`Format::read`], where the repaired games of an SGF input keep the offsets that placed
    /// their repairs (recorded while reading when its first games need a repair, whatever its
    /// size): `kifu convert` names the moves of its diagnostics from them.
    pub(crate) fn read_keeping_offsets(self, bytes: Vec<u8>, options: &ReadOptions) -> Result<ReadOutput, ReadError> {
        self.read_placing(bytes, options, true)
    }

    /// [`Format::read`]; `keep`: see [`Format::read_keeping_offsets`].
    fn read_placing(self, bytes: Vec<u8>, options: &ReadOptions, keep: bool) -> Result<ReadOutput, ReadError> {
        match self.spec().read {
            Some(read) => {
                // SGF only: the legacy readers build clean models, and kifu's JSON is kept exactly.
                let repair = !options.no_repair && self == Format::SGF;
                // Repairs are placed by the reader's offsets; most small files need one, and
                // recording offsets while reading costs less than reading a game again to find
                // them. Trees that needed no repair are returned without them, as asked. A
                // larger input is read without them (they would take more memory than its
                // games): each game whose repair is to be placed is read again with them.
                let early = repair
                    && !options.positions
                    && (bytes.len() <= POSITIONS_UP_TO || (keep && first_games_need_repair(&bytes)));
                let opts;
                let options = if early {
                    opts = ReadOptions { positions: true, ..options.clone() };
                    &opts
                } else {
                    options
                };
                read(bytes, options).map(|mut out| {
                    if repair && !crate::normalise::apply_reporting(&mut out) && early {
                        out.collection.games.iter_mut().for_each(crate::model::GameTree::forget_positions);
                    }
                    out
                })
            }
            None => Err(ReadError {
                diagnostics: vec![Diagnostic::error("format.cannot-read", format!("kifu cannot read {}", self.name()))],
            }),
        }
    }
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
    fn large_inputs_are_read_with_offsets_when_their_first_games_need_repairs() {
        // 8,000 clean games (over 256 KiB), then the same with a rank to rewrite in each.
        let clean: String = (0..8000).map(|i| format!("(;GM[1]FF[4]SZ[19]PB[p{i}];B[pd];W[dd];B[pp])\n")).collect();
        let repaired = clean.replace("PB[", "BR[9段]PB[");
        assert!(clean.len() > POSITIONS_UP_TO);
        assert!(!first_games_need_repair(clean.as_bytes()));
        assert!(first_games_need_repair(repaired.as_bytes()));
        // One game larger than what is looked at: guessed from its beginning.
        let long = format!("(;GM[1]BR[9段]{})", ";B[pd];W[dd]".repeat(100_000));
        assert!(long.len() > 4 * PROBE && first_games_need_repair(long.as_bytes()));
        // The guess changes only the cost: the games and diagnostics are those of a read that
        // recorded offsets from the start, without the offsets.
        let read = Format::SGF.read(repaired.clone().into_bytes(), &ReadOptions::default()).unwrap();
        let mut with = Format::SGF.read(repaired.into_bytes(), &ReadOptions { positions: true, ..Default::default() });
        let with = with.as_mut().unwrap();
        with.collection.games.iter_mut().for_each(crate::model::GameTree::forget_positions);
        assert_eq!(read.diagnostics, with.diagnostics);
        assert_eq!(read.collection, with.collection);
        assert!(read.diagnostics.iter().any(|d| d.code == "fix.rank" && d.position.is_some()));
    }

    #[test]
    fn unreadable_paths_and_readers_are_diagnostics() {
        let err = read_path("fixtures/no-such-file.sgf").unwrap_err();
        assert_eq!(err.diagnostics[0].code, codes::UNREADABLE);
        assert!(err.diagnostics[0].message.contains("no-such-file.sgf"), "{}", err.diagnostics[0].message);
        struct Broken;
        impl Read for Broken {
            fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("disk on fire"))
            }
        }
        assert!(read(Broken).unwrap_err().to_string().contains("disk on fire"));
    }

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
