//! Go rules: a board that replays moves and setup with captures, and handicap layouts.

mod board;
pub mod handicap;

pub use board::{Board, IllegalMove, Replay, ReplayIssue};
