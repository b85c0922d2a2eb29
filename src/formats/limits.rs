//! The sizes that decide how an input is read: one value, [`Limits`], instead of constants spread
//! over the readers, the streaming code and the command.

/// The sizes the read pipeline goes by. The defaults suit every input; a caller changes them to
/// trade memory for speed or to test the paths of large inputs with small ones. None of them
/// changes the games or the diagnostics read, only how (whole or in pieces, in parallel or not)
/// and whether diagnostics can name the move they are about.
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
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { whole_up_to: 16 << 20, offsets_up_to: 256 << 10 }
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
}
