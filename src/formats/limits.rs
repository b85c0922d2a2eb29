//! The sizes that decide how an input is read: one value, [`Limits`], instead of constants spread
//! over the readers, the streaming code and the command.

/// The sizes the read pipeline goes by. The defaults suit every input; a caller changes them to
/// trade memory for speed or to test the paths of large inputs with small ones. `whole_up_to`
/// and `offsets_up_to` do not change the games or the diagnostics read, only how (whole or in
/// pieces, in parallel or not) and whether diagnostics can name the move they are about; the
/// `max_*` limits bound what an input or an option may make kifu allocate: past one, the input
/// or the request is refused with an error that names the limit, never cut silently
/// (formats/robustness.md lists them all).
///
/// ```
/// let limits = kifu::Limits::default();
/// assert_eq!(limits.whole_up_to, 16 << 20);
/// let small = kifu::Limits::default().with_whole_up_to(1 << 20);
/// assert!(small.whole_up_to < limits.whole_up_to);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Inputs up to this many bytes are read whole, with the offsets of their nodes recorded so
    /// that each diagnostic names the move it is about; larger inputs of a format that can be
    /// cut ([`Format::can_be_cut`](crate::Format::can_be_cut)) are read piece by piece
    /// ([`crate::stream`]), each piece as a whole input. 16 MiB.
    pub whole_up_to: usize,
    /// When moves are not named ([`ReadOptions::name_moves`](crate::ReadOptions::name_moves)
    /// off), inputs to repair up to this many bytes are still read with offsets: most need a
    /// repair, and recording offsets while reading costs less than reading a game again to place
    /// its repair. 256 KiB.
    pub offsets_up_to: usize,
    /// A member of an archive ([`crate::archive`]) larger than this many bytes once
    /// uncompressed is refused (`archive.member-too-large`), before it is read: its declared
    /// size is checked first and its bytes are read through `Read::take`, so a size that lies
    /// costs no more. 64 MiB.
    pub max_member: u64,
    /// An archive with more members than this is refused (`archive.too-many-members`). 100,000.
    pub max_members: usize,
    /// An archive whose members add up to more than this many bytes once uncompressed is
    /// refused from the member that passes it on (`archive.too-large`). 1 GiB.
    pub max_archive: u64,
    /// A compressed member (or compressed stream) of more than 1 MiB that is more than this
    /// many times its compressed size is refused (`archive.ratio`): the mark of a zip bomb. Game
    /// records compress about 5 to 1; 200.
    pub max_ratio: u64,
    /// One record (a game tree of an SGF collection, a line of NDJSON) larger than this many
    /// bytes is refused (`input.record-too-large`) before it is held whole: the streaming
    /// reader stops buffering at it, and an input read whole is scanned for its games when it
    /// is larger. Reading takes several times a record's size (up to about 12 times for a
    /// line of JSON holding only moves). 128 MiB.
    pub max_record: usize,
    /// A PNG diagram of more than this many pixels (width × height, 4 bytes each) is refused
    /// (`diagram.too-large`) before anything is drawn. 2<sup>26</sup> (8192 × 8192).
    pub max_pixels: u64,
    /// A game cut into more figures than this is refused (`diagram.too-many-figures`) before
    /// any is drawn. 1,000.
    pub max_figures: usize,
    /// The SGF reader reads a decoded text of this many bytes or more in pieces on the thread
    /// pool, cut at `(;` (formats/sgf.md); the result is the same. 8 MiB.
    pub pieces_from: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            whole_up_to: 16 << 20,
            offsets_up_to: 256 << 10,
            max_member: 64 << 20,
            max_members: 100_000,
            max_archive: 1 << 30,
            max_ratio: 200,
            max_record: 128 << 20,
            max_pixels: 1 << 26,
            max_figures: 1_000,
            pieces_from: 8 << 20,
        }
    }
}

impl Limits {
    /// These limits with [`Limits::whole_up_to`] set.
    pub fn with_whole_up_to(mut self, bytes: usize) -> Limits {
        self.whole_up_to = bytes;
        self
    }

    /// These limits with [`Limits::offsets_up_to`] set.
    pub fn with_offsets_up_to(mut self, bytes: usize) -> Limits {
        self.offsets_up_to = bytes;
        self
    }

    /// These limits with [`Limits::max_member`] set.
    pub fn with_max_member(mut self, bytes: u64) -> Limits {
        self.max_member = bytes;
        self
    }

    /// These limits with [`Limits::max_members`] set.
    pub fn with_max_members(mut self, members: usize) -> Limits {
        self.max_members = members;
        self
    }

    /// These limits with [`Limits::max_archive`] set.
    pub fn with_max_archive(mut self, bytes: u64) -> Limits {
        self.max_archive = bytes;
        self
    }

    /// These limits with [`Limits::max_ratio`] set.
    pub fn with_max_ratio(mut self, ratio: u64) -> Limits {
        self.max_ratio = ratio;
        self
    }

    /// These limits with [`Limits::max_record`] set.
    pub fn with_max_record(mut self, bytes: usize) -> Limits {
        self.max_record = bytes;
        self
    }

    /// These limits with [`Limits::max_pixels`] set.
    pub fn with_max_pixels(mut self, pixels: u64) -> Limits {
        self.max_pixels = pixels;
        self
    }

    /// These limits with [`Limits::max_figures`] set.
    pub fn with_max_figures(mut self, figures: usize) -> Limits {
        self.max_figures = figures;
        self
    }

    /// These limits with [`Limits::pieces_from`] set.
    pub fn with_pieces_from(mut self, bytes: usize) -> Limits {
        self.pieces_from = bytes;
        self
    }
}
