//! The `kifu` command: arguments, files, printing. Everything else lives in the library.

mod cli;

fn main() {
    std::process::exit(cli::run());
}
