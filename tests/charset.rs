//! The charset layer end to end: own fixtures, generated texts in every charset (with, without
//! and with a wrong `CA`), the peer suites' charset files, EXPECTED.tsv, a corpus sweep, and
//! writing legacy charsets.

use encoding_rs::Encoding;
use kifu::charset::{CharsetSource, ca_label, codes};
use kifu::{Collection, Format, ReadOptions, ReadOutput, Severity, WriteOptions};
use pretty_assertions::assert_eq;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn read(bytes: Vec<u8>) -> ReadOutput {
    Format::SGF.read(bytes, &ReadOptions::default()).expect("readable SGF")
}

fn root_value(c: &Collection, ident: &str) -> Option<String> {
    c.games.first()?.root().value(ident).map(str::to_string)
}

/// The first `C` value in document order (pre-order over every game).
fn first_comment(c: &Collection) -> Option<String> {
    for game in &c.games {
        let mut stack = vec![game.root()];
        while let Some(node) = stack.pop() {
            if let Some(v) = node.value("C") {
                return Some(v.to_string());
            }
            let children: Vec<_> = node.children().collect();
            stack.extend(children.into_iter().rev());
        }
    }
    None
}

fn shared() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared");
    if p.is_dir() {
        Some(p)
    } else {
        eprintln!("note: {} is absent; skipping", p.display());
        None
    }
}

// ---------------------------------------------------------------- own fixtures

#[test]
fn fixtures_decode_to_their_expected_values() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/charset");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "sgf") {
            continue;
        }
        seen += 1;
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let expected = std::fs::read_to_string(path.with_extension("expected")).unwrap();
        let out = read(std::fs::read(&path).unwrap());
        let decision = out.charset.unwrap();
        for line in expected.lines() {
            let (key, value) = line.split_once('\t').unwrap();
            let got = match key {
                "CHARSET" => Some(ca_label(decision.encoding).to_string()),
                "SOURCE" => Some(decision.source.to_string()),
                "C" => first_comment(&out.collection),
                "DIAG" => out.diagnostics.iter().find(|d| d.code == value).map(|d| d.code.to_string()),
                k => root_value(&out.collection, k),
            };
            assert_eq!(got.as_deref(), Some(value), "{name} {key}");
        }
        // Every decision has a reason and becomes an info note.
        let note = decision.note();
        assert_eq!((note.code, note.severity), (codes::DECIDED, Severity::Info), "{name}");
        assert!(note.message.contains(decision.reason) && !decision.reason.is_empty(), "{name}");
    }
    assert!(seen >= 12, "{seen} fixtures");
}

// ---------------------------------------------------------------- generated texts

struct Sample {
    lang: &'static str,
    names: [&'static str; 2],
    comment: &'static str,
    charsets: &'static [&'static Encoding],
}

const SAMPLES: &[Sample] = &[
    Sample {
        lang: "zh-hans",
        names: ["陈志刚", "刘小光"],
        comment: "这盘棋黑方在中盘就取得了优势，白棋虽然顽强抵抗，最终还是认输了。围棋的魅力就在于此。",
        charsets: &[encoding_rs::GBK, encoding_rs::GB18030],
    },
    Sample {
        lang: "zh-hant",
        names: ["林海峰", "王立誠"],
        comment: "這盤棋黑方在中盤就取得了優勢，白棋雖然頑強抵抗，最終還是認輸了。圍棋的魅力就在於此。",
        charsets: &[encoding_rs::BIG5],
    },
    Sample {
        lang: "ja",
        names: ["高橋秀", "小林光"],
        comment: "この碁は黒が中盤で優勢を築き、白は粘り強く抵抗しましたが、最後には投了しました。申し分ない内容です。",
        charsets: &[encoding_rs::SHIFT_JIS, encoding_rs::EUC_JP],
    },
    Sample {
        lang: "ko",
        names: ["최철한", "이세돌"],
        comment: "이 바둑은 흑이 중반에 우세를 잡았고, 백은 끈질기게 저항했지만 결국 돌을 던졌습니다. 바둑의 매력이 바로 여기에 있습니다.",
        charsets: &[encoding_rs::EUC_KR],
    },
    Sample {
        lang: "ru",
        names: ["Иван", "Олег"],
        comment: "Чёрные получили преимущество в середине партии, белые упорно сопротивлялись, но в конце концов сдались.",
        charsets: &[encoding_rs::WINDOWS_1251],
    },
    Sample {
        lang: "fr",
        names: ["Zoé", "Gaël"],
        comment: "Les noirs ont pris l'avantage au milieu de la partie ; les blancs ont résisté, puis abandonné. Très belle partie, bravo à l'élève !",
        charsets: &[encoding_rs::WINDOWS_1252],
    },
];

fn game(ca: Option<&str>, pb: &str, pw: &str, comment: Option<&str>) -> String {
    let mut s = String::from("(;FF[4]");
    if let Some(ca) = ca {
        s.push_str(&format!("CA[{ca}]"));
    }
    s.push_str(&format!("GM[1]SZ[19]PB[{pb}]PW[{pw}]"));
    if let Some(c) = comment {
        s.push_str(&format!("C[{c}]"));
    }
    s.push_str(";B[pd];W[dp];B[pp])\n");
    s
}

fn check(label: &str, bytes: Vec<u8>, pb: &str, pw: &str, comment: Option<&str>) -> Result<(), String> {
    let out = read(bytes);
    let got = (root_value(&out.collection, "PB"), root_value(&out.collection, "PW"), first_comment(&out.collection));
    let want = (Some(pb.to_string()), Some(pw.to_string()), comment.map(str::to_string));
    if got == want { Ok(()) } else { Err(format!("{label}: got {got:?} as {}", out.charset.unwrap().name())) }
}

/// Every text in every charset that holds it: with its `CA`, without `CA`, and with a wrong
/// `CA` (`UTF-8` on legacy bytes). Long comments with short names, and short names alone.
#[test]
fn generated_texts_decode_in_every_charset() {
    let mut failures = Vec::new();
    let mut runs = 0;
    for s in SAMPLES {
        let [pb, pw] = s.names;
        for &enc in s.charsets {
            for comment in [Some(s.comment), None] {
                let shape = if comment.is_some() { "long" } else { "names" };
                // A wrong legacy label: by the decision order it stands when the bytes happen
                // to decode cleanly in it (checked below), and is overruled otherwise.
                let wrong = if enc == encoding_rs::BIG5 { "Shift_JIS" } else { "Big5" };
                let text = game(Some(wrong), pb, pw, comment);
                let bytes = enc.encode(&text).0.into_owned();
                let out = read(bytes.clone());
                let decision = out.charset.unwrap();
                let wrong_enc = kifu::charset::encoding_for_label(wrong).unwrap();
                if wrong_enc.decode_without_bom_handling_and_without_replacement(&bytes).is_some() {
                    assert_eq!((decision.encoding, decision.source), (wrong_enc, CharsetSource::Declared));
                } else {
                    runs += 1;
                    let label = format!("{} {} {shape} CA={wrong}", s.lang, enc.name());
                    if let Err(e) = check(&label, bytes, pb, pw, comment) {
                        failures.push(e);
                    }
                    assert_eq!(decision.source, CharsetSource::Detected, "{label}");
                    assert!(out.diagnostics.iter().any(|d| d.code == codes::MISMATCH), "{label}");
                }
                for ca in [Some(ca_label(enc)), None, Some("UTF-8")] {
                    let text = game(ca, pb, pw, comment);
                    let (bytes, _, unmappable) = enc.encode(&text);
                    assert!(!unmappable, "{} cannot hold the {} sample", enc.name(), s.lang);
                    let label = format!("{} {} {shape} CA={ca:?}", s.lang, enc.name());
                    runs += 1;
                    if let Err(e) = check(&label, bytes.into_owned(), pb, pw, comment) {
                        failures.push(e);
                    }
                }
            }
        }
        // UTF-8 and UTF-16 hold everything.
        let text = game(None, pb, pw, Some(s.comment));
        let utf16 = |le: bool| -> Vec<u8> {
            text.encode_utf16().flat_map(|u| if le { u.to_le_bytes() } else { u.to_be_bytes() }).collect()
        };
        let variants: Vec<(&str, Vec<u8>)> = vec![
            ("utf-8", text.clone().into_bytes()),
            ("utf-8 bom", [&[0xEF, 0xBB, 0xBF][..], text.as_bytes()].concat()),
            ("utf-16le bom", [&[0xFF, 0xFE][..], &utf16(true)].concat()),
            ("utf-16be bom", [&[0xFE, 0xFF][..], &utf16(false)].concat()),
            ("utf-16le", utf16(true)),
            ("utf-16be", utf16(false)),
        ];
        for (v, bytes) in variants {
            runs += 1;
            if let Err(e) = check(&format!("{} {v}", s.lang), bytes, pb, pw, Some(s.comment)) {
                failures.push(e);
            }
        }
    }
    // Short names alone with no usable CA are the hard case; they decode exactly too (EUC-JP
    // kanji names read as GBK until the tie-break had frequency tables, formats/charsets.md).
    let other: Vec<_> = failures.iter().collect();
    eprintln!("generated: {runs} runs, {} failed: {failures:?}", failures.len());
    assert!(other.is_empty(), "{} of {runs} runs failed: {other:#?}", other.len());
}

/// The hard case: CA-less files whose only non-ASCII text is one or two short player names.
/// 170 names of Go players (Chinese GBK, Korean EUC-KR, Japanese Shift_JIS, Taiwanese Big5),
/// each alone and paired with the next; all decode exactly (芈昱廷 read as EUC-KR hanja and
/// 黑嘉嘉 as GBK before the tie-break had frequency tables).
#[test]
fn short_names_alone_without_ca() {
    let sets: [(&str, &'static encoding_rs::Encoding, &[&str]); 6] = [
        (
            "ko2",
            encoding_rs::EUC_KR,
            &[
                "차민수",
                "서봉수",
                "윤기현",
                "김인",
                "조남철",
                "홍성지",
                "허영호",
                "나현",
                "이지현",
                "박민규",
                "김채영",
                "조혜연",
                "박지은",
                "최명훈",
                "송태곤",
                "백홍석",
                "김승재",
                "이영구",
                "윤준상",
                "한상훈",
                "홍기표",
                "안국현",
                "이원영",
                "설현준",
                "박진솔",
                "김정현",
                "이호승",
                "송지훈",
                "한우진",
                "문민종",
                "김은지",
                "오정아",
                "허서현",
                "김다영",
                "최서비",
                "이슬아",
                "권효진",
                "김미리",
                "조승아",
                "류수항",
                "양건",
                "정대상",
                "김성룡",
                "백성호",
                "곽원근",
                "김형우",
                "진시영",
                "이춘규",
                "엄동건",
                "황재연",
            ],
        ),
        (
            "zh2",
            encoding_rs::GBK,
            &[
                "谢赫",
                "江维杰",
                "陈耀烨",
                "唐韦星",
                "檀啸",
                "范廷钰",
                "辜梓豪",
                "杨鼎新",
                "李钦诚",
                "许嘉阳",
                "王星昊",
                "丁浩",
                "谢科",
                "党毅飞",
                "连笑",
                "周睿羊",
                "彭立尧",
                "廖元赫",
                "赵晨宇",
                "屠晓宇",
                "於之莹",
                "王晨星",
                "周泓余",
                "李赫",
                "陈一鸣",
                "刘星",
                "邱峻",
                "胡耀宇",
                "王檄",
                "朴文垚",
                "黄云嵩",
                "柁嘉熹",
                "童梦成",
                "伊凌涛",
                "严在明",
                "韩一洲",
                "王硕",
                "邬光亚",
                "杨楷文",
                "张涛",
            ],
        ),
        (
            "zh",
            encoding_rs::GBK,
            &[
                "王小明",
                "李大龙",
                "张伟",
                "刘洋",
                "陈静",
                "杨帆",
                "赵磊",
                "黄海",
                "周杰",
                "吴刚",
                "古力",
                "柯洁",
                "常昊",
                "孔杰",
                "聂卫平",
                "马晓春",
                "俞斌",
                "罗洗河",
                "时越",
                "芈昱廷",
            ],
        ),
        (
            "ko",
            encoding_rs::EUC_KR,
            &[
                "이세돌",
                "박정환",
                "신진서",
                "최정",
                "조훈현",
                "이창호",
                "유창혁",
                "김지석",
                "강동윤",
                "박영훈",
                "목진석",
                "원성진",
                "최철한",
                "안성준",
                "변상일",
                "김명훈",
                "한승주",
                "이동훈",
                "신민준",
                "오유진",
            ],
        ),
        (
            "ja",
            encoding_rs::SHIFT_JIS,
            &[
                "井山裕太",
                "一力遼",
                "芝野虎丸",
                "本因坊",
                "山下敬吾",
                "張栩",
                "高尾紳路",
                "結城聡",
                "羽根直樹",
                "河野臨",
                "村川大介",
                "余正麒",
                "許家元",
                "藤沢里菜",
                "上野愛咲美",
                "小林光一",
                "趙治勲",
                "大竹英雄",
                "武宮正樹",
                "坂田栄男",
            ],
        ),
        (
            "tw",
            encoding_rs::BIG5,
            &[
                "林海峰",
                "王立誠",
                "王銘琬",
                "張栩",
                "周俊勳",
                "陳詩淵",
                "林君諺",
                "許皓鋐",
                "賴均輔",
                "王元均",
                "蕭正浩",
                "彭立堯",
                "簡靖庭",
                "潘善琪",
                "黑嘉嘉",
                "謝依旻",
                "楊子萱",
                "俞俐均",
                "陳祈睿",
                "吳肇毅",
            ],
        ),
    ];
    let mut total = 0;
    let mut wrong = Vec::new();
    for (lang, enc, names) in sets {
        for (i, n) in names.iter().enumerate() {
            let m = names[(i + 1) % names.len()];
            for pw in ["Leela", m] {
                total += 1;
                let text = format!("(;GM[1]SZ[19]PB[{n}]PW[{pw}];B[pd])");
                let out = read(enc.encode(&text).0.into_owned());
                let got = (root_value(&out.collection, "PB"), root_value(&out.collection, "PW"));
                if got != (Some(n.to_string()), Some(pw.to_string())) {
                    wrong.push((lang, *n, pw, out.charset.unwrap().name(), got));
                }
            }
        }
    }
    assert_eq!(total, 340);
    eprintln!("short names: {} of {total} wrong: {wrong:?}", wrong.len());
    assert!(wrong.is_empty(), "{wrong:?}");
}

// ---------------------------------------------------------------- writing

fn collection(text: &str) -> Collection {
    read(text.as_bytes().to_vec()).collection
}

#[test]
fn writing_a_legacy_charset_sets_a_matching_ca_and_round_trips() {
    // 申 (90 5C) and 表 (95 5C) end in a backslash byte in Shift_JIS; 因 (A6 5D) ends in ']' in
    // Big5. Escaping is done on characters, so those bytes are written raw and a real ']' or
    // '\' is escaped.
    let cases: [(&Encoding, &str); 4] = [
        (encoding_rs::SHIFT_JIS, "(;FF[4]GM[1]PB[申表]PW[ソ能]C[申し分ない \\] と \\\\ ])"),
        (encoding_rs::BIG5, "(;FF[4]GM[1]PB[因功]PW[許]C[因為 \\] 與 \\\\ ])"),
        (encoding_rs::GB18030, "(;FF[4]GM[1]PB[古力]PW[柯洁]C[围棋 😀 \\]])"),
        (encoding_rs::EUC_KR, "(;FF[4]GM[1]PB[이세돌]PW[박정환]C[바둑 \\]])"),
    ];
    for (enc, text) in cases {
        let c = collection(text);
        let out = Format::SGF.write(&c, &WriteOptions::default().with_encoding(Some(enc))).unwrap();
        assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
        let ca = format!("CA[{}]", ca_label(enc));
        assert!(memchr::memmem::find(&out.bytes, ca.as_bytes()).is_some(), "{} output lacks {ca}", enc.name());
        let back = read(out.bytes);
        let decision = back.charset.unwrap();
        assert_eq!((decision.encoding, decision.source), (enc, CharsetSource::Declared));
        for ident in ["PB", "PW"] {
            assert_eq!(root_value(&back.collection, ident), root_value(&c, ident), "{} {ident}", enc.name());
        }
        assert_eq!(first_comment(&back.collection), first_comment(&c), "{}", enc.name());
    }
}

/// ISO-2022-JP writes `本` as the byte pair `K\` and `丸` as `4]`: byte-level SGF readers cut
/// there. Refused as an output charset by every writer that would write it (GIB, which has no
/// flavour for it, writes UTF-8 and says so).
#[test]
fn iso_2022_jp_is_refused_as_an_output_charset() {
    let c = collection("(;FF[4]GM[1]PB[井山裕太]PW[本丸]C[囲碁];B[pd])");
    let gib = Format::GIB.write(&c, &WriteOptions::default().with_encoding(Some(encoding_rs::ISO_2022_JP))).unwrap();
    assert!(gib.diagnostics.iter().any(|d| d.code == "gib.charset"));
    assert!(std::str::from_utf8(&gib.bytes).is_ok());
    for f in [Format::SGF, Format::NGF, Format::UGF] {
        let options = WriteOptions::default().with_encoding(Some(encoding_rs::ISO_2022_JP)).with_lossy(true);
        let kifu::WriteError::Invalid(diags) = f.write(&c, &options).unwrap_err() else { panic!("{f}: not Invalid") };
        assert!(diags.iter().any(|d| d.code == codes::UNWRITABLE && d.severity == Severity::Error), "{f}: {diags:?}");
    }
}

#[test]
fn unrepresentable_characters_are_errors_or_lossy_warnings() {
    let c = collection("(;FF[4]GM[1]PB[이세돌]PW[Go Seigen]\n;B[pd]C[囲碁 😀])");
    let err = Format::SGF.write(&c, &WriteOptions::default().with_encoding(Some(encoding_rs::SHIFT_JIS))).unwrap_err();
    let kifu::WriteError::Invalid(diags) = err else { panic!("not an Invalid error") };
    let listed: Vec<(String, u32)> = diags
        .iter()
        .map(|d| (d.message.split('\'').nth(1).unwrap_or("").to_string(), d.position.unwrap().line))
        .collect();
    assert_eq!(listed, [("이".into(), 1), ("세".into(), 1), ("돌".into(), 1), ("😀".into(), 2)], "{diags:#?}");
    assert!(diags.iter().all(|d| d.severity == Severity::Error && d.code == codes::UNMAPPABLE));
    let out = Format::SGF
        .write(&c, &WriteOptions::default().with_encoding(Some(encoding_rs::SHIFT_JIS)).with_lossy(true))
        .unwrap();
    assert_eq!(out.diagnostics.len(), 4);
    assert!(out.diagnostics.iter().all(|d| d.severity == Severity::Warning));
    let back = read(out.bytes);
    assert_eq!(root_value(&back.collection, "PB").as_deref(), Some("???"));
}

#[test]
fn utf8_is_the_default_output() {
    let bytes = encoding_rs::EUC_KR.encode("(;CA[EUC-KR]PB[이세돌])").0.into_owned();
    let c = read(bytes).collection;
    let out = Format::SGF.write(&c, &WriteOptions::default()).unwrap();
    assert_eq!(String::from_utf8(out.bytes).unwrap(), "(;FF[4]CA[UTF-8]PB[이세돌])\n");
}

// ---------------------------------------------------------------- peer suites and samples

/// Values of the libsgfc++ files that are not in the UTF-8 ground truth: the Western files
/// carry their own demonstration lines (checked here against what each line says it holds).
const WESTERN_LINES: &[&str] =
    &["Ää Àà Ââ Åå Ææ Çç Èè Éé Êê Ëë Îî Ïï Ññ Öö Ôô Øø ß Üü Ùù Ûû ÿ ¿¡ «»", "Ÿ Œœ €", "Šš Žž", "ƒ ‰ ™"];

fn comments(c: &Collection) -> Vec<String> {
    c.games.iter().flat_map(|g| g.nodes().filter_map(|n| n.value("C").map(str::to_string))).collect()
}

#[test]
fn libsgfcplusplus_encoding_files_match_the_utf8_ground_truth() {
    let Some(shared) = shared() else { return };
    let dir = shared.join("sgf-tests/libsgfcplusplus");
    let truth = comments(&read(std::fs::read(dir.join("encoding-utf8-nobom.sgf")).unwrap()).collection);
    assert!(truth.len() > 10);
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if !name.starts_with("encoding-") {
            continue;
        }
        files += 1;
        let out = read(std::fs::read(&path).unwrap());
        assert!(out.diagnostics.iter().all(|d| d.severity < Severity::Warning), "{name}: {:?}", out.diagnostics);
        let mut matched = 0;
        for (i, c) in comments(&out.collection).into_iter().enumerate() {
            if i == 0 {
                assert!(c.starts_with("BBEdit calls the encoding of this file"), "{name}: {c}");
                continue;
            }
            let known = truth.contains(&c) || WESTERN_LINES.contains(&c.as_str()) || c.starts_with("The comment in");
            assert!(known, "{name}: unexpected value {c:?}");
            matched += !c.is_ascii() as usize;
        }
        assert!(matched >= 1, "{name}: no non-ASCII value checked");
    }
    assert_eq!(files, 19);
}

/// EXPECTED.tsv rows: file → key → value.
fn expected(shared: &Path) -> BTreeMap<String, BTreeMap<String, String>> {
    let mut map: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    let Ok(tsv) = std::fs::read_to_string(shared.join("samples/EXPECTED.tsv")) else { return map };
    for line in tsv.lines().skip(1) {
        let mut cols = line.split('\t');
        let (Some(file), Some(key), Some(value)) = (cols.next(), cols.next(), cols.next()) else { continue };
        map.entry(file.to_string()).or_default().insert(key.to_string(), value.to_string());
    }
    map
}

fn tsv_unescape(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some(o) => out.push(o),
            None => out.push('\\'),
        }
    }
    out
}

/// The charset EXPECTED.tsv names, as kifu's decision names it.
fn charset_matches(expected: &str, got: &'static Encoding, text_is_ascii: bool) -> bool {
    let first = expected.split([';', ' ']).next().unwrap_or("");
    match first {
        "ASCII" => text_is_ascii,
        "GB2312" => got == encoding_rs::GBK || got == encoding_rs::GB18030,
        other => kifu::charset::encoding_for_label(other) == Some(got),
    }
}

fn check_expected(shared: &Path, rel: &str, path: &Path, rows: &BTreeMap<String, String>) -> usize {
    let out = read(std::fs::read(path).unwrap());
    let mut checked = 0;
    if let Some(cs) = rows.get("CHARSET") {
        let decision = out.charset.unwrap();
        let ascii = std::fs::read(path).unwrap().is_ascii();
        assert!(charset_matches(cs, decision.encoding, ascii), "{rel}: expected {cs}, got {}", decision.name());
        checked += 1;
    }
    for key in ["PB", "PW", "GN"] {
        if let Some(v) = rows.get(key) {
            let got = root_value(&out.collection, key).unwrap_or_default();
            assert_eq!(got, tsv_unescape(v), "{rel} {key}");
            checked += 1;
        }
    }
    if let Some(v) = rows.get("C") {
        let got: String = first_comment(&out.collection).unwrap_or_default().chars().take(40).collect();
        assert_eq!(got, tsv_unescape(v), "{rel} C");
        checked += 1;
    }
    let _ = shared;
    checked
}

#[test]
fn samples_decode_to_the_expected_values() {
    let Some(shared) = shared() else { return };
    let expected = expected(&shared);
    if expected.is_empty() {
        eprintln!("note: EXPECTED.tsv is absent; skipping");
        return;
    }
    let mut checked = 0;
    for (file, rows) in &expected {
        if !file.starts_with("sgf/") {
            continue;
        }
        checked += check_expected(&shared, file, &shared.join("samples").join(file), rows);
    }
    assert!(checked >= 40, "{checked} values checked");
}

#[test]
fn sabaki_sgf_charset_cases() {
    let Some(shared) = shared() else { return };
    let expected = expected(&shared);
    let dir = shared.join("sgf-tests/sabaki-sgf");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        // The same files are in samples/ under their provenance names.
        if let Some((_, rows)) =
            expected.iter().find(|(f, _)| f.starts_with("sgf/SabakiHQ__") && f.ends_with(&format!("__{name}")))
        {
            check_expected(&shared, &name, &path, rows);
        }
        let out = read(std::fs::read(&path).unwrap());
        match name.as_str() {
            // The unknown-to-Sabaki label must not produce the Shift_JIS text.
            "japanese_bad.sgf" => assert_ne!(first_comment(&out.collection).as_deref(), Some("囲碁 is fun")),
            "no-ca.sgf" => assert!(first_comment(&out.collection).unwrap().starts_with("【第三型】")),
            "complex.sgf" => assert_eq!(out.collection.games.len(), 1),
            "utf16le.sgf" => assert_eq!(root_value(&out.collection, "PW").as_deref(), Some("Go Seigen")),
            _ => {}
        }
    }
}

// ---------------------------------------------------------------- corpus sweep

/// Signs of text decoded with the wrong charset: UTF-8 read as Latin-1 (`Ã`, `Â` followed by a
/// Latin-1 symbol), the GBK reading of U+FFFD bytes (`锟斤拷`), C1 control characters.
fn looks_like_mojibake(s: &str) -> bool {
    let chars: Vec<char> = s.chars().collect();
    chars
        .windows(2)
        .any(|w| matches!(w[0], 'Ã' | 'Â' | 'å' | 'æ' | 'ç' | 'è' | 'é') && ('\u{80}'..='\u{BF}').contains(&w[1]))
        || s.contains("锟斤拷")
        || chars.iter().any(|c| ('\u{80}'..='\u{9F}').contains(c))
}

#[test]
fn corpus_utf8_files_never_turn_into_mojibake() {
    let Some(shared) = shared() else { return };
    let corpus = shared.join("corpus");
    if !corpus.is_dir() {
        eprintln!("note: {} is absent; skipping", corpus.display());
        return;
    }
    let mut stats: BTreeMap<String, usize> = BTreeMap::new();
    let mut bad = Vec::new();
    for entry in walkdir::WalkDir::new(&corpus).into_iter().filter_map(Result::ok) {
        let path = entry.path();
        if !path.extension().is_some_and(|e| e.eq_ignore_ascii_case("sgf")) {
            continue;
        }
        let bytes = std::fs::read(path).unwrap();
        let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
        let utf8 = std::str::from_utf8(body).is_ok();
        let declared = kifu::formats::sgf::find_declared_charset(&bytes);
        let declared_utf8 = declared.as_deref().and_then(kifu::charset::encoding_for_label) == Some(encoding_rs::UTF_8);
        let mut sink = kifu::diag::Sink::new();
        let d = kifu::charset::decode(&bytes, None, declared.as_deref(), &mut sink);
        let _ = sink.finish(&d.text);
        *stats.entry(format!("{} {}", d.decision.name(), d.decision.source)).or_default() += 1;
        if (utf8 && !body.is_ascii()) || declared_utf8 {
            // UTF-8 (valid, or declared UTF-8 with cut characters) must stay UTF-8.
            if d.decision.encoding != encoding_rs::UTF_8 || looks_like_mojibake(&d.text) {
                bad.push(format!("{}: {}", path.display(), d.decision.name()));
            } else if utf8 {
                assert_eq!(d.text, std::str::from_utf8(body).unwrap(), "{}", path.display());
            }
        }
    }
    eprintln!("corpus decisions: {stats:?}");
    // Two CA-less GB2312 files with one or two characters (the manifest's non-UTF-8 cases).
    let games = corpus.join("gnugo_games/regression/games");
    for (file, ident, want) in [("9handicap.sgf", "PW", "白"), ("trevor/trevor_42.sgf", "C", "盘面")] {
        if let Ok(bytes) = std::fs::read(games.join(file)) {
            let c = read(bytes).collection;
            let got = if ident == "C" { first_comment(&c) } else { root_value(&c, ident) };
            assert!(got.as_deref().is_some_and(|v| v.starts_with(want)), "{file}: {got:?}");
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
    assert!(stats.values().sum::<usize>() > 9000);
}

// ---------------------------------------------------------------- command line

#[test]
fn the_specification_lists_every_alias_and_code() {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("formats/charsets.md")).unwrap();
    for (alias, _) in kifu::charset::ALIASES {
        assert!(doc.contains(&format!("`{alias}`")), "alias {alias} is not documented");
    }
    for code in [codes::DECIDED, codes::UNKNOWN_LABEL, codes::MISMATCH, codes::INVALID_BYTES, codes::UNMAPPABLE] {
        assert!(doc.contains(&format!("`{code}`")), "code {code} is not documented");
    }
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Any text written as UTF-8 without a declaration reads back unchanged, as UTF-8.
        #[test]
        fn utf8_text_reads_back_unchanged(text in "\\PC{0,60}") {
            let mut sink = kifu::diag::Sink::new();
            let d = kifu::charset::decode_owned(text.clone().into_bytes(), None, None, &mut sink);
            prop_assume!(kifu::charset::sniff_utf16(text.as_bytes()).is_none());
            // Short text with IPA, Armenian, NKo … may be legacy bytes (formats/charsets.md).
            prop_assume!(!kifu::charset::suspicious_utf8(&text));
            prop_assert_eq!(d.decision.encoding, encoding_rs::UTF_8);
            prop_assert_eq!(d.text, text);
        }

        /// Arbitrary bytes never panic, and every U+FFFD the decoding adds is reported.
        #[test]
        fn every_replacement_is_reported(
            bytes in proptest::collection::vec(any::<u8>(), 0..120),
            declared in proptest::option::of("(UTF-8|GBK|Shift_JIS|EUC-KR|Big5|bogus)"),
        ) {
            let mut sink = kifu::diag::Sink::new();
            let d = kifu::charset::decode(&bytes, None, declared.as_deref(), &mut sink);
            let diags = sink.finish(&d.text);
            let added = diags.iter().filter(|x| x.code == codes::INVALID_BYTES || x.code == codes::NUL).count();
            let in_text = d.text.matches('\u{FFFD}').count();
            let enc = d.decision.encoding;
            if enc == encoding_rs::UTF_8 {
                // U+FFFD already encoded in the input is not damage.
                let present = memchr::memmem::find_iter(&bytes, "\u{FFFD}".as_bytes()).count();
                prop_assert_eq!(in_text, added + present);
            } else if enc == encoding_rs::UTF_16LE || enc == encoding_rs::UTF_16BE {
                prop_assert!(in_text >= added);
            } else {
                prop_assert_eq!(in_text, added);
            }
            for x in diags.iter().filter(|x| x.code == codes::INVALID_BYTES) {
                let at = x.position.unwrap().offset;
                let replaced = d.text[at..].starts_with(char::REPLACEMENT_CHARACTER);
                prop_assert!(replaced, "no U+FFFD at {}", at);
            }
        }
    }
}

/// Timing of the decision paths (run with `cargo test --release --test charset -- --ignored`).
#[test]
#[ignore]
fn timing() {
    let Some(shared) = shared() else { return };
    for (file, n) in [
        ("samples/sgf/SabakiHQ__sgf__no-ca.sgf", 2000),
        ("samples/sgf/SabakiHQ__Sabaki__korean.sgf", 2000),
        ("samples/sgf/yenw__computer-go-dataset__tencent_s1-1_KM375.SGF", 2000),
    ] {
        let bytes = std::fs::read(shared.join(file)).unwrap();
        let declared = kifu::formats::sgf::find_declared_charset(&bytes);
        let start = std::time::Instant::now();
        for _ in 0..n {
            let mut sink = kifu::diag::Sink::new();
            let d = kifu::charset::decode_owned(bytes.clone(), None, declared.as_deref(), &mut sink);
            std::hint::black_box(d);
        }
        let per = start.elapsed() / n;
        eprintln!("{file}: {} bytes, {per:?} per decision+decode", bytes.len());
    }
}

/// EUC-KR player names in a file whose long GBK comment decides its charset (no `CA`): the
/// names become rare han (`이세돌` as `捞技倒`). The file is read in one charset, so they stay as
/// read, and each gets a warning naming the charset that reads it as a name.
#[test]
fn names_in_another_charset_than_the_rest_are_warned_about() {
    let mut bytes = b"(;GM[1]FF[4]SZ[19]PB[".to_vec();
    bytes.extend(encoding_rs::EUC_KR.encode("이세돌").0.iter());
    bytes.extend(b"]PW[");
    bytes.extend(encoding_rs::EUC_KR.encode("박정환").0.iter());
    bytes.extend(b"]C[");
    let comment = "这是一盘非常精彩的围棋比赛，黑棋在中盘取得了优势，白棋最后认输。双方都下得很好。";
    bytes.extend(encoding_rs::GBK.encode(comment).0.iter());
    bytes.extend(b"];B[pd];W[dp])");
    let out = read(bytes.clone());
    assert_eq!(out.charset.unwrap().encoding, encoding_rs::GBK);
    assert_eq!(first_comment(&out.collection).as_deref(), Some(comment));
    let warned: Vec<&str> =
        out.diagnostics.iter().filter(|d| d.code == codes::NAMES_DISAGREE).map(|d| d.message.as_str()).collect();
    assert_eq!(warned.len(), 2, "{:?}", out.diagnostics);
    assert!(warned[0].contains("PB[捞技倒] reads as the name '이세돌' in EUC-KR"), "{}", warned[0]);
    assert!(warned[1].contains("'박정환'"), "{}", warned[1]);
    assert!(out.diagnostics.iter().all(|d| d.severity <= Severity::Warning));
    // A declared charset, or the user's, is not second-guessed; a file all in one charset is quiet.
    let chosen =
        kifu::Format::SGF.read(bytes, &ReadOptions::default().with_encoding(Some(encoding_rs::EUC_KR))).unwrap();
    assert!(chosen.diagnostics.iter().all(|d| d.code != codes::NAMES_DISAGREE));
    let mut gbk = b"(;GM[1]PB[".to_vec();
    gbk.extend(encoding_rs::GBK.encode("古力").0.iter());
    gbk.extend(b"]PW[");
    gbk.extend(encoding_rs::GBK.encode("柯洁").0.iter());
    gbk.extend(b"]C[");
    gbk.extend(encoding_rs::GBK.encode(comment).0.iter());
    gbk.extend(b"])");
    let quiet = read(gbk);
    assert!(quiet.diagnostics.iter().all(|d| d.code != codes::NAMES_DISAGREE), "{:?}", quiet.diagnostics);
}
