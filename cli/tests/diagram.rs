//! Diagrams: golden SVG and text outputs of the authored fixtures in `fixtures/diagram/`, SVG
//! parsed back with usvg, PNG decoded back and checked pixel by pixel at stone centres, every
//! shared sample drawn, and the `kifu diagram` command (files, stdout, figures, batch).
//!
//! `KIFU_BLESS=1 cargo test --test diagram` rewrites the golden files after a deliberate change.

mod common;

use kifu::diagram::{self, Kind, NodePath, Options, Rect, Sides, Style, Target};
use kifu::{Format, ReadOptions};
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("fixtures/diagram").join(name)
}

fn games(name: &str) -> Vec<kifu::GameTree> {
    let bytes = std::fs::read(fixture(name)).unwrap();
    Format::SGF.read(bytes, &ReadOptions::default()).unwrap().collection.games
}

/// Draws `name` with `options` as `kind` and returns the text (SVG or text board).
fn draw(name: &str, options: &Options, kind: Kind) -> (String, Vec<kifu::Diagnostic>) {
    let games = games(name);
    let game = diagram::game(&games, options).unwrap();
    let scene = diagram::scene(game, options).unwrap();
    let out = diagram::render(&scene, kind, options).unwrap();
    (String::from_utf8(out.bytes).unwrap(), out.diagnostics)
}

/// Compares `actual` with the golden file (or rewrites it with `KIFU_BLESS`).
fn golden(file: &str, actual: &str) {
    let path = fixture(file);
    if std::env::var_os("KIFU_BLESS").is_some() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|_| panic!("{file} is missing; run with KIFU_BLESS=1"));
    pretty_assertions::assert_eq!(want, actual, "{file}");
}

/// Parses SVG with usvg (a real SVG parser) and returns its size.
fn parse_svg(svg: &str) -> (f32, f32) {
    let tree = resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default()).expect("usvg parses kifu's SVG");
    (tree.size().width(), tree.size().height())
}

/// Every (fixture, options, golden name) the goldens cover.
fn cases() -> Vec<(&'static str, Options, &'static str)> {
    let o = Options::default;
    vec![
        ("rectangle.sgf", o(), "rectangle"),
        ("markup.sgf", o(), "markup"),
        ("ko.sgf", Options { numbers: Some((1, 9)), comments: true, ..o() }, "ko-numbered"),
        ("captures.sgf", o(), "captures"),
        ("captures.sgf", Options { numbers: Some((41, 89)), style: Style::Print, ..o() }, "captures-41-89"),
        ("big.sgf", o(), "big"),
        (
            "collection.sgf",
            Options { game: 2, target: Target::Path(NodePath::parse("3").unwrap()), ..o() },
            "collection-2",
        ),
        ("view.sgf", Options { target: Target::Move(1), ..o() }, "view"),
        ("view.sgf", Options { crop: true, sides: Some(Sides::parse("tl").unwrap()), ..o() }, "view-crop"),
        ("ko.sgf", Options { range: Some(Rect::parse("bb:ff").unwrap()), style: Style::Minimal, ..o() }, "ko-range"),
    ]
}

#[test]
fn golden_svg_and_text() {
    for (file, options, name) in cases() {
        let (svg, _) = draw(file, &options, Kind::Svg);
        let (w, h) = parse_svg(&svg);
        assert!(w > 0.0 && h > 0.0, "{name}");
        golden(&format!("{name}.expected.svg"), &svg);
        let (text, _) = draw(file, &options, Kind::Text);
        golden(&format!("{name}.expected.txt"), &text);
    }
}

#[test]
fn ko_fight_notes_say_where_each_retake_went() {
    let (text, diags) = draw("ko.sgf", &Options { numbers: Some((1, 9)), ..Options::default() }, Kind::Text);
    assert!(diags.is_empty(), "{diags:?}");
    // 4 and 9 were played where a stone stood before move 1 (marked ▲), 7 where 1 was.
    assert!(text.contains("4, 9 at ▲; 7 at 1; 8: pass"), "{text}");
    let (svg, _) = draw("ko.sgf", &Options { numbers: Some((1, 9)), ..Options::default() }, Kind::Svg);
    assert!(svg.contains("4, 9 at ▲; 7 at 1; 8: pass"));
    assert_eq!(svg.matches("class=\"shape triangle on-white\"").count(), 1, "the ▲ stone is marked");
}

#[test]
fn figures_cut_the_game_with_captions_and_notes() {
    let games = games("captures.sgf");
    let figs = diagram::figures(&games[0], 40, &Options::default()).unwrap();
    let captions: Vec<_> = figs.iter().map(|f| f.caption.clone().unwrap()).collect();
    assert_eq!(captions, ["Figure 1 (1–40)", "Figure 2 (41–80)", "Figure 3 (81–89)"]);
    // Each figure numbers only its own moves.
    let numbers: Vec<u32> = figs[1].cells.iter().filter_map(|c| c.number).collect();
    assert!(numbers.iter().all(|n| (41..=80).contains(n)) && !numbers.is_empty());
    assert!(figs[2].notes.iter().any(|n| n.ends_with(": pass")), "{:?}", figs[2].notes);
    // The position under figure 2 is the one after move 40.
    let after_40 = diagram::scene(&games[0], &Options { target: Target::Move(40), ..Options::default() }).unwrap();
    for (a, b) in after_40.cells.iter().zip(&figs[1].cells) {
        if b.number.is_none() && a.stone.is_some() {
            assert_eq!(a.stone, b.stone);
        }
    }
}

#[test]
fn every_markup_kind_is_drawn() {
    let (svg, diags) = draw("markup.sgf", &Options::default(), Kind::Svg);
    assert!(diags.is_empty(), "{diags:?}");
    for class in [
        "shape triangle",
        "shape square",
        "shape circle",
        "shape cross",
        "class=\"selected\"",
        "label on-empty",
        "stone black dim",
        "stone white dim",
        "class=\"arrow\"",
        "class=\"head\"",
        "class=\"line\" x1",
        "last-move",
    ] {
        assert!(svg.contains(class), "{class} missing");
    }
    assert!(svg.contains(">A</text>") && svg.contains(">x</text>"));
}

#[test]
fn bad_markup_and_illegal_moves_are_reported() {
    let sgf = "(;SZ[5]TR[zz]LB[aa]AR[bb:bb];B[cc];W[cc])";
    let read = Format::SGF.read(sgf.as_bytes().to_vec(), &ReadOptions::default()).unwrap();
    let scene = diagram::scene(&read.collection.games[0], &Options::default()).unwrap();
    let codes: Vec<_> = scene.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["diagram.illegal-move"], "markup of other nodes is not drawn");
    assert!(scene.diagnostics[0].message.starts_with("move 2 (W cc)"), "{}", scene.diagnostics[0].message);
    let line = diagram::Target::Move(0);
    let scene = diagram::scene(&read.collection.games[0], &Options { target: line, ..Options::default() }).unwrap();
    let codes: Vec<_> = scene.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["diagram.off-board", "diagram.bad-markup", "diagram.bad-markup"]);
}

#[test]
fn selection_errors_name_what_exists() {
    let games = games("collection.sgf");
    let e = diagram::game(&games, &Options { game: 3, ..Options::default() }).unwrap_err();
    assert_eq!(e.to_string(), "the input holds 2 games; there is no game 3");
    let e = diagram::scene(&games[1], &Options { target: Target::Move(7), ..Options::default() }).unwrap_err();
    assert_eq!(e.to_string(), "the main line has 6 moves; there is no move 7");
    let e = diagram::scene(&games[1], &Options { numbers: Some((8, 9)), ..Options::default() }).unwrap_err();
    assert!(e.to_string().contains("no move 8"));
    let e = diagram::scene(&games[1], &Options { range: Some(Rect::parse("aa:kk").unwrap()), ..Options::default() })
        .unwrap_err();
    assert!(e.to_string().contains("beyond the 9x9 board"));
    assert_eq!(
        diagram::list_variations(&games[1]),
        "1  moves 1-6\n2    from move 5 of 1: move 6\n3    from move 3 of 1: move 4\n"
    );
}

/// Decodes a PNG: (width, height, RGBA pixels).
fn decode_png(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgba);
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

/// The centres of the stones of an SVG kifu wrote, with their colour class.
fn stone_centres(svg: &str) -> Vec<(String, f32, f32)> {
    let attr = |s: &str, name: &str| -> f32 {
        let i = s.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        s[i..s[i..].find('"').unwrap() + i].parse().unwrap()
    };
    svg.split("<circle class=\"stone ")
        .skip(1)
        .map(|s| (s.split(['"', ' ']).next().unwrap().to_string(), attr(s, "cx"), attr(s, "cy")))
        .collect()
}

#[test]
fn png_has_the_asked_width_and_stones_where_the_svg_puts_them() {
    let options = Options { width: Some(300), last_move: false, ..Options::default() };
    let games = games("rectangle.sgf");
    let scene = diagram::scene(&games[0], &options).unwrap();
    let svg = String::from_utf8(diagram::render(&scene, Kind::Svg, &options).unwrap().bytes).unwrap();
    let png = diagram::render(&scene, Kind::Png, &options).unwrap();
    assert!(png.diagnostics.is_empty());
    let (w, h, pixels) = decode_png(&png.bytes);
    assert_eq!(w, 300);
    let view_w: f32 = svg.split("viewBox=\"0 0 ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    let scale = w as f32 / view_w;
    let (_, svg_h) = parse_svg(&svg);
    assert_eq!(h, svg_h.round() as u32, "9 columns, 13 rows: taller than wide");
    assert!(h > w);
    let px = |x: f32, y: f32| {
        let i = ((y * scale) as usize * w as usize + (x * scale) as usize) * 4;
        [pixels[i], pixels[i + 1], pixels[i + 2]]
    };
    let stones = stone_centres(&svg);
    assert_eq!(stones.len(), 7);
    for (color, x, y) in stones {
        let [r, g, b] = px(x, y);
        match color.as_str() {
            "black" => assert!(r < 40 && g < 40 && b < 40, "black stone at {x},{y}: {r},{g},{b}"),
            "white" => assert!(r > 230 && g > 230 && b > 230, "white stone at {x},{y}: {r},{g},{b}"),
            other => panic!("{other}"),
        }
    }
    // Between lines, the board is wood-coloured (more red than blue).
    let [r, _, b] = px(184.0, 184.0);
    assert!(r > 180 && b < 150, "board colour {r},{b}");
}

#[test]
fn png_numbers_come_from_the_embedded_font() {
    // A numbered stone's centre holds light pixels of the digits on black.
    let options = Options { numbers: Some((1, 9)), width: Some(360), ..Options::default() };
    let games = games("ko.sgf");
    let scene = diagram::scene(&games[0], &options).unwrap();
    let png = diagram::render(&scene, Kind::Png, &options).unwrap();
    let (w, _, pixels) = decode_png(&png.bytes);
    let svg = String::from_utf8(diagram::render(&scene, Kind::Svg, &options).unwrap().bytes).unwrap();
    let view_w: f32 = svg.split("viewBox=\"0 0 ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    let scale = w as f32 / view_w;
    // Stone 3 (black, G2) lies at column 6, row 7.
    let (cx, cy) = ((134.0 + 6.0 * 100.0) * scale, (134.0 + 7.0 * 100.0) * scale);
    let light = (-8..=8)
        .flat_map(|dy| (-8..=8).map(move |dx| (dx, dy)))
        .filter(|(dx, dy)| {
            let i = (((cy as i32 + dy) as usize) * w as usize + (cx as i32 + dx) as usize) * 4;
            pixels[i] > 200
        })
        .count();
    assert!(light > 10, "digits drawn on the black stone ({light} light pixels)");
}

#[test]
fn every_shared_sample_draws() {
    let Some(dir) = common::shared("samples") else { return };
    let files = common::files(&dir, &["sgf", "gib", "ngf", "ugf", "ugi"]);
    assert!(files.len() > 10);
    for (i, path) in files.iter().enumerate() {
        let bytes = std::fs::read(path).unwrap();
        let Ok(read) = kifu::read_bytes(bytes, Format::from_path(path), &ReadOptions::default()) else { continue };
        for game in &read.collection.games {
            let options = Options::default();
            let scene = diagram::scene(game, &options).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let svg = String::from_utf8(diagram::render(&scene, Kind::Svg, &options).unwrap().bytes).unwrap();
            parse_svg(&svg);
            diagram::render(&scene, Kind::Text, &options).unwrap();
            let figs = diagram::figures(game, 100, &options).unwrap();
            assert!(!figs.is_empty());
            if i % 4 == 0 {
                let png = diagram::render(&scene, Kind::Png, &Options { width: Some(120), ..options }).unwrap();
                assert_eq!(decode_png(&png.bytes).0, 120);
            }
        }
    }
}

fn kifu() -> assert_cmd::Command {
    assert_cmd::cargo::cargo_bin_cmd!("kifu")
}

#[test]
fn cli_writes_stdout_files_and_refuses_to_clobber() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("ko.svg");
    let want = std::fs::read_to_string(fixture("ko-numbered.expected.txt")).unwrap();
    kifu()
        .args(["diagram", "--numbers", "1-9", "--comments", "-t", "text"])
        .arg(fixture("ko.sgf"))
        .assert()
        .success()
        .stdout(want);
    kifu().arg("diagram").arg(fixture("ko.sgf")).arg("-o").arg(&out).assert().success();
    assert!(std::fs::read_to_string(&out).unwrap().starts_with("<svg"));
    // The same picture again leaves the file as it is; another one needs --force.
    kifu().arg("diagram").arg(fixture("ko.sgf")).arg("-o").arg(&out).assert().success();
    kifu().arg("diagram").arg(fixture("ko.sgf")).args(["--style", "print", "-o"]).arg(&out).assert().code(73);
    kifu()
        .arg("diagram")
        .arg(fixture("ko.sgf"))
        .args(["--style", "print", "-o"])
        .arg(&out)
        .arg("--force")
        .assert()
        .success();
    assert!(std::fs::read_to_string(&out).unwrap().contains("style-print"));
    let png = dir.path().join("ko.png");
    kifu().arg("diagram").arg(fixture("ko.sgf")).args(["--width", "90", "-o"]).arg(&png).assert().success();
    assert_eq!(decode_png(&std::fs::read(&png).unwrap()).0, 90);
    // stdin in, stdout out
    kifu()
        .args(["diagram", "-t", "text", "--coords", "none"])
        .write_stdin("(;SZ[3];B[bb])")
        .assert()
        .success()
        .stdout("· · ·\n· ● ·\n· · ·\nLast move: ● B2\n");
}

#[test]
fn cli_usage_errors_exit_2() {
    for args in [
        &["--numbers", "9-3"][..],
        &["--move", "x"],
        &["--node", "0"],
        &["--crop", "tight"],
        &["--style", "fancy"],
        &["-t", "gif"],
        &["--game", "5"],
        &["--move", "99"],
        &["--coords", "x"],
    ] {
        kifu().arg("diagram").arg(fixture("ko.sgf")).args(args).assert().code(2);
    }
}

#[test]
fn cli_list_and_figures() {
    kifu()
        .args(["diagram", "--game", "2", "--list"])
        .arg(fixture("collection.sgf"))
        .assert()
        .success()
        .stdout("1  moves 1-6\n2    from move 5 of 1: move 6\n3    from move 3 of 1: move 4\n");
    let dir = tempfile::tempdir().unwrap();
    kifu()
        .args(["diagram", "--figures", "40", "-o"])
        .arg(dir.path().join("fig.svg"))
        .arg(fixture("captures.sgf"))
        .assert()
        .success();
    let mut names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    names.sort();
    assert_eq!(names, ["fig-1.svg", "fig-2.svg", "fig-3.svg"]);
    let fig2 = std::fs::read_to_string(dir.path().join("fig-2.svg")).unwrap();
    assert!(fig2.contains(">Figure 2 (41–80)</text>"));
    kifu().args(["diagram", "--figures", "40"]).arg(fixture("captures.sgf")).assert().code(2);
    let page = dir.path().join("page.svg");
    kifu()
        .args(["diagram", "--figures", "40", "--page", "-o"])
        .arg(&page)
        .arg(fixture("captures.sgf"))
        .assert()
        .success();
    let page = std::fs::read_to_string(page).unwrap();
    assert_eq!(page.matches("<g class=\"figure\"").count(), 3);
    parse_svg(&page);
}

#[test]
fn cli_batch_draws_one_picture_per_record_through_the_batch_engine() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    std::fs::create_dir_all(input.join("sub")).unwrap();
    std::fs::copy(fixture("ko.sgf"), input.join("ko.sgf")).unwrap();
    std::fs::copy(fixture("rectangle.sgf"), input.join("sub/rect.sgf")).unwrap();
    std::fs::write(input.join("bad.sgf"), "(;SZ[9];B[aa])").unwrap();
    let out = dir.path().join("out");
    let report = dir.path().join("report.ndjson");
    kifu()
        .args(["diagram", "-r", "--move", "3", "-t", "png", "--width", "64", "-O"])
        .arg(&out)
        .arg("--report")
        .arg(&report)
        .arg(&input)
        .assert()
        .code(1);
    assert_eq!(decode_png(&std::fs::read(out.join("ko.png")).unwrap()).0, 64);
    assert!(out.join("sub/rect.png").exists());
    assert!(!out.join("bad.png").exists(), "a record without move 3 fails");
    let report = std::fs::read_to_string(report).unwrap();
    assert!(report.contains("\"to\":\"png\""), "{report}");
    assert!(report.contains("diagram.cannot-draw"), "{report}");
    // Other pictures over these are refused without --force.
    let again = kifu()
        .args(["diagram", "-r", "--move", "3", "-t", "png", "--width", "65", "--report", "-", "-O"])
        .arg(&out)
        .arg(&input)
        .assert()
        .code(1);
    let report = String::from_utf8(again.get_output().stdout.clone()).unwrap();
    assert!(report.contains("batch.output-exists"), "{report}");
    assert_eq!(decode_png(&std::fs::read(out.join("ko.png")).unwrap()).0, 64);
}

#[test]
fn png_reports_characters_no_font_draws() {
    // DejaVu (embedded) has no CJK; system fonts are tried next. Either some font draws the
    // comment, or the PNG says which characters are missing.
    let sgf = "(;SZ[5];B[cc]C[囲碁 and Go])";
    let read = Format::SGF.read(sgf.as_bytes().to_vec(), &ReadOptions::default()).unwrap();
    let options = Options { comments: true, ..Options::default() };
    let scene = diagram::scene(&read.collection.games[0], &options).unwrap();
    let png = diagram::render(&scene, Kind::Png, &options).unwrap();
    decode_png(&png.bytes);
    match png.diagnostics.as_slice() {
        [] => {}
        [d] => {
            assert_eq!(d.code, "diagram.missing-glyph");
            assert!(d.message.contains("(囲碁)"), "{}", d.message);
        }
        more => panic!("{more:?}"),
    }
    // Latin text never needs a system font.
    let plain = diagram::render(&scene, Kind::Svg, &options).unwrap();
    assert!(plain.diagnostics.is_empty());
}

#[test]
fn long_games_get_small_numbers_and_ranges_read_both_ways() {
    // 1,200 moves on 52x52 (no captures: every move on a new point).
    let mut sgf = String::from("(;SZ[52]");
    let letters: Vec<char> = ('a'..='z').chain('A'..='Z').collect();
    for i in 0..1200usize {
        let (x, y) = (letters[i % 52], letters[i / 52]);
        sgf.push_str(&format!(";{}[{x}{y}]", if i % 2 == 0 { "B" } else { "W" }));
    }
    sgf.push(')');
    let read = Format::SGF.read(sgf.into_bytes(), &ReadOptions::default()).unwrap();
    let options = Options { numbers: Some((1, 1200)), ..Options::default() };
    let scene = diagram::scene(&read.collection.games[0], &options).unwrap();
    let svg = String::from_utf8(diagram::render(&scene, Kind::Svg, &options).unwrap().bytes).unwrap();
    assert_eq!(svg.matches(r#"class="on-black tiny""#).count() + svg.matches(r#"class="on-white tiny""#).count(), 201);
    assert!(svg.contains(">1200</text>"));
    parse_svg(&svg);
    assert_eq!(Rect::parse("cc-ff").unwrap(), Rect::parse("ff:cc").unwrap());
    assert!(Rect::parse("c3:f6").is_err());
}

#[test]
fn cli_strict_fails_on_warnings_and_never_overwrites_the_input() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("bad.sgf");
    std::fs::write(&input, "(;SZ[5];B[cc];W[cc])").unwrap();
    kifu().arg("diagram").arg(&input).args(["-t", "text", "--strict"]).assert().code(3).stderr(
        predicates::str::contains("bad.sgf:1:14: warning[diagram.illegal-move]: move 2 (W cc): the point is occupied"),
    );
    kifu().arg("diagram").arg(&input).args(["--force", "-o"]).arg(&input).assert().code(73);
    assert_eq!(std::fs::read_to_string(&input).unwrap(), "(;SZ[5];B[cc];W[cc])");
}
