//! Process exit codes (documented in `kifu --help` and the README).

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
    /// The input is not readable as its format.
    DataErr = 65,
    /// An input is missing or unreadable.
    NoInput = 66,
    /// An output cannot be created.
    CantCreate = 73,
    /// Another I/O error.
    IoErr = 74,
}
