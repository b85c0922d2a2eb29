//! Process exit codes (the table in formats/cli.md, `kifu --help` and the README).

/// What the process reports to its caller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i32)]
pub enum ExitCode {
    /// Everything worked.
    Ok = 0,
    /// Some inputs of a batch failed.
    SomeFailed = 1,
    /// Bad command line.
    Usage = 2,
    /// `--strict` turned warnings into failure.
    Strict = 3,
    /// The output format or charset cannot hold the input (and `--lossy` was not given).
    CannotHold = 4,
    /// The input is not readable as its format.
    DataErr = 65,
    /// An input is missing or unreadable.
    NoInput = 66,
    /// An output cannot be created.
    CantCreate = 73,
    /// Writing failed (a full disk, `/dev/full`).
    IoErr = 74,
    /// Interrupted by a signal; temporary files were removed.
    Interrupted = 130,
}
