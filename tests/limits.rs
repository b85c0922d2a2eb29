//! `kifu::Limits`: every size an input or an option makes kifu allocate is checked before it is
//! allocated, and an input or a request past a limit is refused with an error naming it
//! (formats/robustness.md, "Limits, and what happens past each").

mod common;

use kifu::diagram::{self, Options};
use kifu::{Format, Limits, ReadOptions, Reader};

/// `n` NDJSON lines of one game each; line `big` holds a comment of `comment` bytes.
fn ndjson(n: usize, big: usize, comment: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for k in 0..n {
        let c = if k == big { "x".repeat(comment) } else { format!("game {k}") };
        out.extend_from_slice(format!(r#"{{"nodes":[{{"GM":["1"],"C":["{c}"]}},{{"B":["pd"]}}]}}"#).as_bytes());
        out.push(b'\n');
    }
    out
}

fn limited(max_record: usize) -> ReadOptions {
    ReadOptions::default().with_limits(Limits::default().with_max_record(max_record))
}

#[test]
fn a_record_past_max_record_is_refused_by_every_read() {
    let input = ndjson(50, 20, 5_000);
    let line_start = input.split(|&b| b == b'\n').take(20).map(|l| l.len() + 1).sum::<usize>() as u64;
    // Read whole: refused before the reader runs, with the record's place.
    let err = Format::NDJSON.read(input.clone(), &limited(4_000)).unwrap_err();
    assert_eq!(err.diagnostics.len(), 1);
    let d = &err.diagnostics[0];
    assert_eq!(d.code, kifu::reader::codes::RECORD_TOO_LARGE);
    assert!(d.message.contains(&format!("from byte {line_start} ")), "{}", d.message);
    assert!(d.message.contains("Limits::max_record"), "{}", d.message);
    // Within the limit, every game is read.
    assert_eq!(Format::NDJSON.read(input.clone(), &limited(6_000)).unwrap().collection.games.len(), 50);

    // Streamed (larger than whole_up_to): every game before it, then the error.
    let options = ReadOptions::default().with_limits(Limits::default().with_whole_up_to(1_000).with_max_record(4_000));
    let mut games = Format::NDJSON.games(&input[..], &options);
    let mut read = 0;
    let err = loop {
        match games.next().expect("the error ends the games") {
            Ok(_) => read += 1,
            Err(e) => break e,
        }
    };
    assert_eq!(read, 20, "the games before the large one are read");
    let over = kifu::stream::RecordTooLarge::of(&err).expect("refused by the limit");
    assert_eq!((over.offset, over.limit), (line_start, 4_000));
    assert_eq!(over.diagnostic().code, kifu::stream::codes::RECORD_TOO_LARGE);

    // SGF: a game tree is the record; a format that is not cut is one record.
    let sgf = format!("(;GM[1];B[pd])\n(;GM[1]C[{}];B[dd])\n(;GM[1])", "y".repeat(3_000));
    let err = Format::SGF.read(sgf.clone().into_bytes(), &limited(2_000)).unwrap_err();
    assert!(err.diagnostics[0].message.contains("from byte 15 "), "{}", err.diagnostics[0].message);
    assert_eq!(Format::SGF.read(sgf.into_bytes(), &limited(4_000)).unwrap().collection.games.len(), 3);
    let json = Format::JSON
        .write(&Format::NDJSON.read(ndjson(3, 0, 10), &limited(1_000)).unwrap().collection, &Default::default());
    let json = json.unwrap().bytes;
    let err = Reader::new().with_options(limited(json.len() - 1)).read_bytes(json.clone(), None).unwrap_err();
    assert!(err.diagnostics[0].message.contains("from byte 0 "), "{}", err.diagnostics[0].message);
    assert!(Reader::new().with_options(limited(json.len())).read_bytes(json, None).is_ok());
}

/// A game of `moves` moves ([`common::long_game_sgf`]).
fn long_game(moves: usize) -> kifu::GameTree {
    let sgf = common::long_game_sgf(moves);
    Format::SGF.read(sgf.into_bytes(), &ReadOptions::default()).unwrap().collection.games.remove(0)
}

#[test]
fn figures_past_max_figures_are_refused_and_each_finding_is_reported_once() {
    let game = long_game(1_000);
    let options = Options { limits: Limits::default().with_max_figures(999), ..Options::default() };
    let err = diagram::figures(&game, 1, &options).unwrap_err();
    let d = err.diagnostic(diagram::codes::CANNOT_DRAW);
    assert_eq!(d.code, diagram::codes::TOO_MANY_FIGURES);
    assert!(d.message.contains("1000 figures") && d.message.contains("Limits::max_figures"), "{}", d.message);
    assert_eq!(diagram::figures(&game, 2, &options).unwrap().len(), 500);

    // Each illegal move is reported by the figure that numbers it, not again by every later one.
    let whole = diagram::scene(&game, &Options::default()).unwrap();
    let illegal = |d: &&kifu::Diagnostic| d.code == diagram::codes::ILLEGAL_MOVE;
    let once: Vec<&kifu::Diagnostic> = whole.diagnostics.iter().filter(illegal).collect();
    assert!(once.len() > 100, "{} illegal moves", once.len());
    let figures = diagram::figures(&game, 10, &Options::default()).unwrap();
    let reported: Vec<&kifu::Diagnostic> = figures.iter().flat_map(|s| s.diagnostics.iter()).filter(illegal).collect();
    let text = |d: &[&kifu::Diagnostic]| d.iter().map(|d| d.message.clone()).collect::<Vec<_>>();
    assert_eq!(text(&reported), text(&once));
}

#[cfg(feature = "png")]
#[test]
fn a_png_past_max_pixels_is_refused_before_it_is_drawn() {
    let game = long_game(30);
    let scene = diagram::scene(&game, &Options::default()).unwrap();
    for width in [40_000, 100_000, u32::MAX] {
        let options = Options { width: Some(width), ..Options::default() };
        let err = diagram::render(&scene, diagram::Kind::Png, &options).unwrap_err();
        let d = err.diagnostic(diagram::codes::CANNOT_DRAW);
        assert_eq!(d.code, diagram::codes::TOO_LARGE, "{width}: {d}");
        assert!(d.message.contains("Limits::max_pixels"), "{}", d.message);
    }
    // The limit is the image's pixels: 19 lines at 32 px are 662 × 662 (438,244) pixels.
    let at = |max: u64| Options { limits: Limits::default().with_max_pixels(max), ..Options::default() };
    assert!(diagram::render(&scene, diagram::Kind::Png, &at(662 * 662)).is_ok());
    assert!(diagram::render(&scene, diagram::Kind::Png, &at(662 * 662 - 1)).is_err());
    // SVG has no pixels to allocate: any width is written.
    let svg =
        diagram::render(&scene, diagram::Kind::Svg, &Options { width: Some(u32::MAX), ..Options::default() }).unwrap();
    assert!(String::from_utf8(svg.bytes).unwrap().contains(r#"width="4294967295""#));
}

/// A page of figures is drawn one figure at a time onto one image: the same pixels as the page's
/// SVG drawn at once.
#[cfg(feature = "png")]
#[test]
fn a_png_page_is_the_page_svg_drawn() {
    let game = long_game(60);
    let options = Options { width: Some(150), ..Options::default() };
    let scenes = diagram::figures(&game, 20, &options).unwrap();
    let png = diagram::render_page(&scenes, diagram::Kind::Png, &options).unwrap().bytes;
    let svg = String::from_utf8(diagram::render_page(&scenes, diagram::Kind::Svg, &options).unwrap().bytes).unwrap();
    let mut fonts = resvg::usvg::fontdb::Database::new();
    fonts.load_font_data(dejavu::sans::regular().to_vec());
    fonts.load_font_data(dejavu::sans::bold().to_vec());
    fonts.set_sans_serif_family("DejaVu Sans");
    let opts = resvg::usvg::Options { fontdb: std::sync::Arc::new(fonts), ..Default::default() };
    let tree = resvg::usvg::Tree::from_str(&svg, &opts).unwrap();
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
    resvg::render(&tree, resvg::tiny_skia::Transform::identity(), &mut pixmap.as_mut());
    assert!(pixmap.encode_png().unwrap() == png, "the layered page differs from the page drawn at once");
}
