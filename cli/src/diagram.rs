//! `kifu diagram`: draw a position (or numbered figures) of a record as SVG, PNG or text; whole
//! folders go through the batch engine with a diagram producer.

use crate::ExitCode;
use crate::output::{Loudness, print_diagnostics, print_stdout, write_file};
use clap::Args;
use kifu::diagram::{self, Kind, Labels, NodePath, Options, Rect, Sides, Style, Target};
use kifu::formats::{WriteError, WriteOptions, WriteOutput};
use kifu::reader::Decision;
use kifu::{Collection, Diagnostic, ReadOptions, Reader, Severity};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;

const NODE_HELP: &str = "\
Node paths (--node):
  V        the end of variation V (1 = the main line; variations numbered depth-first)
  V@M      move M on variation V (V@0: before the first move)
  V/D      the node at depth D of variation V (the root is depth 0)
`kifu diagram FILE --list` prints the variations with their numbers.";

/// Arguments of `kifu diagram`.
#[derive(Debug, Args)]
pub struct DiagramArgs {
    /// Input file; `-` or nothing reads standard input. Folders with -r (and -O DIR) make one
    /// picture per record.
    #[arg(value_name = "INPUT")]
    inputs: Vec<PathBuf>,
    /// Input format (default: from the file extension, else from the content).
    #[arg(short = 'f', long = "from", value_name = "FORMAT")]
    from: Option<String>,
    /// Decode the input with this charset, whatever it declares.
    #[arg(long, value_name = "LABEL")]
    from_encoding: Option<String>,
    /// Output: svg, png or text (default: from the -o extension, else svg; on a terminal, text).
    #[arg(short = 't', long = "to", value_name = "KIND")]
    to: Option<String>,
    /// Output file (with --figures, the base name: FILE-1.svg, FILE-2.svg …); nothing or `-`
    /// writes standard output (an SVG or PNG goes to a terminal only with `-o -`).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    /// Replace existing output files.
    #[arg(long)]
    force: bool,
    /// The game of a collection, from 1.
    #[arg(long, value_name = "N", default_value_t = 1)]
    game: usize,
    /// The position after move N of the main line (0: before the first move), or `last`.
    #[arg(long = "move", value_name = "N", conflicts_with = "node")]
    move_number: Option<String>,
    /// The position at a node path (V, V@MOVE, V/DEPTH; see below and --list).
    #[arg(long, value_name = "PATH")]
    node: Option<String>,
    /// Print the variations of the game with the numbers --node takes, and draw nothing.
    #[arg(long)]
    list: bool,
    /// Number moves FIRST-LAST on the position before FIRST; repeats under the board
    /// ("73 at 61", "80: pass").
    #[arg(long, value_name = "FIRST-LAST", conflicts_with = "figures")]
    numbers: Option<String>,
    /// The whole line as figures of N numbered moves each, captioned `Figure 2 (51–100)`.
    #[arg(long, value_name = "N")]
    figures: Option<u32>,
    /// With --figures: all figures on one page (one file) instead of FILE-1, FILE-2 …
    #[arg(long, requires = "figures")]
    page: bool,
    /// Draw only this part of the board: two SGF corner points, e.g. `cc:ff`.
    #[arg(long, value_name = "RANGE", conflicts_with = "crop")]
    range: Option<String>,
    /// `auto`: shrink the view to the stones and marks, one line of margin (for problems).
    #[arg(long, value_name = "auto")]
    crop: Option<String>,
    /// Sides with coordinates: all, none, or letters among t b l r (default: all for the
    /// simple style, none otherwise).
    #[arg(long, value_name = "SIDES")]
    coords: Option<String>,
    /// Coordinate labels: go (A–T without I, rows numbered from the bottom) or sgf (letters).
    #[arg(long, value_name = "STYLE", default_value = "go")]
    labels: String,
    /// Look: simple (wooden board), print (black and white), minimal.
    #[arg(long, value_name = "STYLE", default_value = "simple")]
    style: String,
    /// Width in pixels (default: 32 per line).
    #[arg(long, value_name = "PX")]
    width: Option<u32>,
    /// Do not mark the last move.
    #[arg(long)]
    no_last_move: bool,
    /// Do not draw the node's markup (TR SQ CR MA SL LB AR LN).
    #[arg(long)]
    no_markup: bool,
    /// Print the comments of the numbered moves (or of the node) under the board.
    #[arg(long)]
    comments: bool,
    /// A caption under the board.
    #[arg(long, value_name = "TEXT")]
    caption: Option<String>,
    #[command(flatten)]
    loud: Loudness,
    #[command(flatten)]
    select: crate::select_args::SelectArgs,
    #[command(flatten)]
    batch: Box<crate::batch_cmd::BatchArgs>,
}

/// The help text after the options.
pub const AFTER_HELP: &str = NODE_HELP;

fn usage(msg: &str) -> ExitCode {
    eprintln!("kifu: {msg}");
    ExitCode::Usage
}

/// The diagram options from the arguments, or a usage message.
fn options(args: &DiagramArgs) -> Result<Options, String> {
    let target = match (&args.move_number, &args.node) {
        (Some(m), _) if m == "last" => Target::Last,
        (Some(m), _) => {
            Target::Move(m.parse().map_err(|_| format!("--move takes a move number or `last`, not '{m}'"))?)
        }
        (None, Some(p)) => Target::Path(NodePath::parse(p)?),
        (None, None) => Target::Last,
    };
    let numbers = match &args.numbers {
        None => None,
        Some(text) => {
            let bad = || format!("--numbers takes FIRST-LAST (e.g. 51-100), not '{text}'");
            let (a, b) = text.split_once('-').ok_or_else(bad)?;
            Some((a.trim().parse().map_err(|_| bad())?, b.trim().parse().map_err(|_| bad())?))
        }
    };
    if let Some(c) = &args.crop {
        if c != "auto" {
            return Err(format!("--crop takes `auto`, not '{c}' (give a --range for a fixed part)"));
        }
    }
    if args.game == 0 {
        return Err("games are numbered from 1".to_string());
    }
    Ok(Options {
        game: args.game,
        target,
        numbers,
        range: args.range.as_deref().map(Rect::parse).transpose()?,
        crop: args.crop.is_some(),
        sides: args.coords.as_deref().map(Sides::parse).transpose()?,
        labels: match args.labels.as_str() {
            "go" => Labels::Go,
            "sgf" => Labels::Sgf,
            other => return Err(format!("--labels takes go or sgf, not '{other}'")),
        },
        style: Style::from_name(&args.style)
            .ok_or_else(|| format!("--style takes simple, print or minimal, not '{}'", args.style))?,
        width: match args.width {
            Some(0) => return Err("--width must be at least 1".to_string()),
            w => w,
        },
        last_move: !args.no_last_move,
        markup: !args.no_markup,
        comments: args.comments,
        caption: args.caption.clone(),
    })
}

/// Draws one diagram of a collection for batch runs.
struct Producer {
    kind: Kind,
    options: Options,
}

impl crate::batch::Produce for Producer {
    fn name(&self) -> &'static str {
        self.kind.name()
    }

    fn extension(&self) -> &'static str {
        self.kind.extension()
    }

    fn produce(&self, games: &Collection, _: &WriteOptions) -> Result<WriteOutput, WriteError> {
        let invalid = |e: diagram::DiagramError| {
            WriteError::Invalid(vec![Diagnostic::error(diagram::codes::CANNOT_DRAW, e.to_string())])
        };
        let game = diagram::game(&games.games, &self.options).map_err(invalid)?;
        let scene = diagram::scene(game, &self.options).map_err(invalid)?;
        diagram::render(&scene, self.kind, &self.options).map_err(invalid)
    }
}

/// Writes `bytes` to `path` (or stdout), as `kifu convert` does.
fn put(path: Option<&Path>, bytes: &[u8], force: bool) -> Result<(), ExitCode> {
    match path {
        Some(p) => write_file(p, bytes, force).map(|_| ()),
        None => print_stdout(bytes),
    }
}

/// `fig.svg` → `fig-2.svg`.
fn numbered(path: &Path, k: usize) -> PathBuf {
    let stem = path.file_stem().map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let name = match path.extension() {
        Some(e) => format!("{stem}-{k}.{}", e.to_string_lossy()),
        None => format!("{stem}-{k}"),
    };
    path.with_file_name(name)
}

/// Runs `kifu diagram`.
pub fn run(args: DiagramArgs) -> ExitCode {
    let v = args.loud.verbosity();
    let (from, from_enc) = match crate::args::input(args.from.as_deref(), args.from_encoding.as_deref()) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let opts = match options(&args) {
        Ok(o) => o,
        Err(msg) => return usage(&msg),
    };
    let output = args.output.clone().filter(|p| !crate::input::is_stdin(p));
    let batch = args.batch.wanted(args.inputs.len());
    // A picture goes to a terminal only when asked with `-o -` (formats/cli.md, "Standard
    // output"); without -t or -o a terminal gets the text board.
    let terminal = args.output.is_none() && !batch && std::io::stdout().is_terminal();
    let kind = match (&args.to, &output) {
        (Some(t), _) => match Kind::from_name(t) {
            Some(k) => k,
            None => {
                let hint = crate::args::did_you_mean(t, ["svg", "png", "text"]);
                return usage(&format!("-t takes svg, png or text, not '{t}'{hint}"));
            }
        },
        (None, Some(p)) => p.extension().and_then(|e| e.to_str()).and_then(Kind::from_name).unwrap_or(Kind::Svg),
        (None, None) if terminal => Kind::Text,
        (None, None) => Kind::Svg,
    };
    if terminal && kind != Kind::Text && !args.list {
        return usage(&format!(
            "standard output is a terminal: not writing {} there; give -o FILE, or -o - to write it here anyway",
            kind.name().to_uppercase()
        ));
    }
    let read_options = ReadOptions::default().with_encoding(from_enc);
    if let Err(code) = crate::batch::walk::refuse_folders(&args.inputs, args.batch.walk.recursive, "draw") {
        return code;
    }

    if batch {
        if args.figures.is_some() || args.list {
            return usage("--figures and --list take one input");
        }
        let common = crate::batch_cmd::Common {
            from,
            to: None,
            read: read_options.clone(),
            write: WriteOptions::default(),
            force: args.force,
            strict: args.loud.strict,
            verbosity: v,
            single_output: args.output.is_some(),
            filter: args.select.filter(),
            strip: kifu::strip::Strip::new(),
        };
        let producer = Arc::new(Producer { kind, options: opts });
        return crate::batch_cmd::run_with(&args.inputs, &args.batch, common, Some(producer));
    }

    let read_in = match crate::input::read(args.inputs.first().map(PathBuf::as_path)) {
        Ok(i) => i,
        Err(e) => {
            let shown = args.inputs.first().map_or_else(|| "standard input".to_string(), |p| p.display().to_string());
            eprintln!("kifu: {shown}: {}", e.message);
            return e.code;
        }
    };
    let (name, bytes, input) = (read_in.name, read_in.bytes, read_in.path);
    let reader = Reader::new().with_format_opt(from).with_options(read_options);
    let Ok(Decision { format, mismatch, .. }) = reader.decide(input.as_deref(), &bytes) else {
        eprintln!("kifu: {name}: {}", crate::input::no_format(&bytes));
        return ExitCode::DataErr;
    };
    print_diagnostics(&name, mismatch.as_slice(), v);
    // Node positions let the diagram's own diagnostics give their line and column (inputs read
    // whole).
    let whole = bytes.len() <= reader.options().limits.whole_up_to;
    let options = reader.options().clone().with_positions(whole);
    let reader = reader.with_options(options);
    let mut read = match reader.read_as(format, bytes) {
        Ok(r) => r,
        Err(e) => {
            print_diagnostics(&name, &e.diagnostics, v);
            return ExitCode::DataErr;
        }
    };
    print_diagnostics(&name, &read.diagnostics, v);
    // --game counts the games the filters keep.
    let left_out = args.select.filter().retain(&mut read.collection, Some(format));
    if left_out > 0 && read.collection.games.is_empty() {
        if !v.quiet {
            eprintln!("kifu: {name}: no game matches the filters ({left_out} left out); nothing drawn");
        }
        return ExitCode::Ok;
    }
    let game = match diagram::game(&read.collection.games, &opts) {
        Ok(g) => g,
        Err(e) => return usage(&format!("{name}: {e}")),
    };
    if args.list {
        let text = diagram::list_variations(game);
        return match put(None, text.as_bytes(), false) {
            Ok(()) => ExitCode::Ok,
            Err(code) => code,
        };
    }

    let out_name = output.as_ref().map_or_else(|| "<stdout>".to_string(), |p| p.display().to_string());
    let mut warned = mismatch.iter().chain(&read.diagnostics).any(|d| d.severity >= Severity::Warning);
    let mut outputs: Vec<(Option<PathBuf>, WriteOutput)> = Vec::new();
    let drawn = match args.figures {
        Some(per) => diagram::figures(game, per, &opts).and_then(|scenes| {
            if args.page || output.is_none() && kind == Kind::Text {
                outputs.push((output.clone(), diagram::render_page(&scenes, kind, &opts)?));
                return Ok(());
            }
            let Some(base) = &output else {
                return Err(diagram::DiagramError::Select(
                    "--figures writes one file per figure: give -o FILE (FILE-1, FILE-2 …) or --page".to_string(),
                ));
            };
            for (k, s) in scenes.iter().enumerate() {
                outputs.push((Some(numbered(base, k + 1)), diagram::render(s, kind, &opts)?));
            }
            Ok(())
        }),
        None => diagram::scene(game, &opts).and_then(|s| {
            outputs.push((output.clone(), diagram::render(&s, kind, &opts)?));
            Ok(())
        }),
    };
    if let Err(e) = drawn {
        return match e {
            diagram::DiagramError::Png(_) => {
                eprintln!("kifu: {out_name}: {e}");
                ExitCode::IoErr
            }
            _ => usage(&format!("{name}: {e}")),
        };
    }
    if let Some(i) = &input {
        if outputs.iter().any(|(p, _)| p.as_ref().is_some_and(|p| kifu::output::same_file(i, p))) {
            eprintln!("kifu: the output is the input {name}; refusing to overwrite it");
            return ExitCode::CantCreate;
        }
    }
    // Figures are several files: refuse before writing any when one would be refused (a file
    // holding other bytes without --force; one holding these bytes is left as it is).
    if !args.force {
        let differs = |p: &Path, bytes: &[u8]| {
            std::fs::metadata(p).is_ok_and(|m| m.is_file()) && std::fs::read(p).is_ok_and(|old| old != bytes)
        };
        if let Some((Some(p), _)) = outputs.iter().find(|(p, out)| p.as_deref().is_some_and(|p| differs(p, &out.bytes)))
        {
            eprintln!("kifu: {} exists; use --force to replace it", p.display());
            return ExitCode::CantCreate;
        }
    }
    for (path, out) in &outputs {
        // What the record holds is reported against the input; missing glyphs against the PNG.
        let shown = path.as_ref().map_or_else(|| out_name.clone(), |p| p.display().to_string());
        let (glyphs, rest): (Vec<Diagnostic>, Vec<Diagnostic>) =
            out.diagnostics.iter().cloned().partition(|d| d.code == diagram::codes::MISSING_GLYPH);
        print_diagnostics(&name, &rest, v);
        print_diagnostics(&shown, &glyphs, v);
        warned |= out.diagnostics.iter().any(|d| d.severity >= Severity::Warning);
        if let Err(code) = put(path.as_deref(), &out.bytes, args.force) {
            return code;
        }
    }
    let mut tally = crate::output::Tally::default();
    tally.add(&read.diagnostics);
    tally.print(v);
    if args.loud.strict && warned { ExitCode::Strict } else { ExitCode::Ok }
}
