//! Detection for inputs whose charset is not settled by a BOM, the user or a declaration: UTF-8
//! validity (with damage told apart from legacy bytes), UTF-16 without a BOM, chardetng, and a
//! tie-break by script coherence.

use encoding_rs::Encoding;

/// Where the malformed sequences of bytes read as UTF-8 are: (start, length) of each, in order.
pub(crate) type Marks = Vec<(usize, usize)>;

/// What the bytes look like as UTF-8.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Utf8Stats {
    /// Valid non-ASCII characters.
    pub good: usize,
    /// Invalid byte sequences.
    pub bad: usize,
    /// Invalid sequences that are a character cut short (a lead byte and possibly some
    /// continuation bytes, then ASCII or the end): the mark of a byte-length limit, not of a
    /// legacy charset.
    pub cut: usize,
}

impl Utf8Stats {
    /// Measures `bytes`.
    #[cfg(test)]
    pub(crate) fn of(bytes: &[u8]) -> Utf8Stats {
        Utf8Stats::measure(bytes, 0).0
    }

    /// Measures `bytes`, also returning where their malformed sequences are when there are at
    /// most `keep` of them (`None` otherwise).
    #[cfg(test)]
    pub(crate) fn measure(bytes: &[u8], keep: usize) -> (Utf8Stats, Option<Marks>) {
        Utf8Stats::measure_after(bytes, 0, keep)
    }

    /// [`Utf8Stats::measure`] of `bytes` whose first `valid` bytes are known to be valid UTF-8
    /// (they are not validated again).
    pub(crate) fn measure_after(bytes: &[u8], valid: usize, keep: usize) -> (Utf8Stats, Option<Marks>) {
        let mut s = Utf8Stats { good: lead_bytes(&bytes[..valid]), ..Utf8Stats::default() };
        let mut marks = Some(Vec::new());
        let mut runs = Utf8Runs::new(&bytes[valid..]);
        while let Some((valid, invalid)) = runs.next() {
            s.good += lead_bytes(valid);
            if let Some(&lead) = invalid.first() {
                s.bad += 1;
                // The byte after the invalid sequence; the end counts as ASCII.
                let rest = runs.rest();
                if (0xC2..=0xF4).contains(&lead) && rest.first().is_none_or(|b| b.is_ascii()) {
                    s.cut += 1;
                }
                if s.bad > keep {
                    marks = None;
                }
                if let Some(m) = &mut marks {
                    m.push((bytes.len() - rest.len() - invalid.len(), invalid.len()));
                }
            }
        }
        (s, marks)
    }

    /// Valid UTF-8 (ASCII included).
    pub(crate) fn is_valid(&self) -> bool {
        self.bad == 0
    }

    /// UTF-8 with some damage: every invalid sequence is a cut character, or the valid
    /// multi-byte characters far outnumber the invalid sequences. Legacy double-byte text read
    /// as UTF-8 gives mostly invalid sequences, few of them cuts.
    pub(crate) fn is_damaged_utf8(&self) -> bool {
        self.bad > 0 && self.good > 0 && (self.bad == self.cut || self.good >= 4 * self.bad)
    }
}

/// The runs of `bytes` read as UTF-8: each valid stretch (as bytes) and the malformed sequence
/// after it (empty at the end), cut exactly as [`<[u8]>::utf8_chunks`] cuts them. Found with
/// `std::str::from_utf8`, which validates ASCII-heavy text many bytes at a time, where
/// `Utf8Chunks` decodes byte by byte.
pub(crate) struct Utf8Runs<'a> {
    rest: &'a [u8],
}

impl<'a> Utf8Runs<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Utf8Runs { rest: bytes }
    }

    /// What is left after the last run given.
    pub(crate) fn rest(&self) -> &'a [u8] {
        self.rest
    }
}

impl<'a> Iterator for Utf8Runs<'a> {
    type Item = (&'a [u8], &'a [u8]);

    fn next(&mut self) -> Option<Self::Item> {
        if self.rest.is_empty() {
            return None;
        }
        let (valid, invalid) = match std::str::from_utf8(self.rest) {
            Ok(_) => (self.rest, &[][..]),
            Err(e) => {
                let (valid, after) = self.rest.split_at(e.valid_up_to());
                // No error length: a sequence cut by the end, which is all that is left.
                (valid, &after[..e.error_len().map_or(after.len(), usize::from)])
            }
        };
        self.rest = &self.rest[valid.len() + invalid.len()..];
        Some((valid, invalid))
    }
}

/// The number of characters of the valid UTF-8 `valid` that are not ASCII: its lead bytes
/// (0xC0 and above: with the top bit flipped, above 0x3F as signed bytes), counted 32 lanes at
/// a time (a lane's count fits a byte for 255 rounds).
fn lead_bytes(valid: &[u8]) -> usize {
    const LANES: usize = 32;
    let is_lead = |b: u8| u8::from((b ^ 0x80) as i8 > 0x3F);
    let mut total = 0;
    let mut blocks = valid.chunks_exact(LANES);
    loop {
        let mut lanes = [0u8; LANES];
        let mut rounds = 0;
        for block in blocks.by_ref().take(255) {
            let block: &[u8; LANES] = block.try_into().unwrap_or(&[0; LANES]);
            for (n, &b) in lanes.iter_mut().zip(block) {
                *n += is_lead(b);
            }
            rounds += 1;
        }
        total += lanes.iter().map(|&n| usize::from(n)).sum::<usize>();
        if rounds < 255 {
            break;
        }
    }
    total + blocks.remainder().iter().map(|&b| usize::from(is_lead(b))).sum::<usize>()
}

/// How well `bytes` read as UTF-8, for a file that is not valid UTF-8 throughout: +2 per byte of
/// every valid multi-byte character of a script game records hold (Latin, Greek, Cyrillic,
/// punctuation, CJK, kana, hangul, full-width forms), 0 for other valid characters (legacy
/// double-byte text makes IPA, Armenian, Hebrew… by accident), −4 per malformed sequence.
/// Compared with [`legacy_score`] of the other reading: the charset that fits more of the file
/// wins, so two stray bytes do not turn a UTF-8 file into windows-1252.
pub(crate) fn utf8_score(bytes: &[u8]) -> i64 {
    let mut score = 0i64;
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars().filter(|c| !c.is_ascii()) {
            let plausible = matches!(c as u32,
                0xA0..=0x24F | 0x370..=0x3FF | 0x400..=0x4FF | 0x2000..=0x206F | 0x2100..=0x22FF
                | 0x2460..=0x24FF | 0x25A0..=0x25FF | 0x3000..=0x30FF | 0x3130..=0x318F
                | 0x4E00..=0x9FFF | 0xAC00..=0xD7A3 | 0xFF00..=0xFFEF);
            if plausible {
                score += 2 * c.len_utf8() as i64;
            }
        }
        if !chunk.invalid().is_empty() {
            score -= 4;
        }
    }
    score
}

/// How well `bytes` read in the legacy charset `enc`: the [`coherence`] of the text, −4 per
/// malformed sequence, and for a single-byte charset −4 per byte of every valid multi-byte
/// UTF-8 character (mojibake: UTF-8 级 read as windows-1252 is "çº§").
pub(crate) fn legacy_score(bytes: &[u8], enc: &'static Encoding) -> i64 {
    let (text, damage) = super::decode_counting(enc, bytes);
    let mut score = coherence(&text, enc) - 4 * damage as i64;
    if enc.is_single_byte() {
        let utf8_bytes: usize = bytes
            .utf8_chunks()
            .map(|c| c.valid().chars().filter(|c| !c.is_ascii()).map(char::len_utf8).sum::<usize>())
            .sum();
        score -= 4 * utf8_bytes as i64;
    }
    score
}

/// A declared single-byte charset (`CA[ISO-8859-1]`) on bytes that read as coherent Chinese,
/// Korean or Japanese text in a double-byte charset: Latin-1 decodes any byte, so only script
/// coherence can tell. Returns the double-byte charset when one decodes every byte, scores at
/// least 2 per character (frequent native characters, single-script runs) and far above the
/// declared reading.
pub(crate) fn coherent_cjk(bytes: &[u8], declared: &'static Encoding) -> Option<&'static Encoding> {
    let (declared_text, _) = super::decode_counting(declared, bytes);
    let declared_score = coherence(&declared_text, declared);
    let mut best: Option<(&'static Encoding, i64)> = None;
    // chardetng's frequency model and the tie-break first (EUC-KR names also decode as GBK).
    let guess = detect_legacy(bytes);
    let candidates = std::iter::once(guess).filter(|g| CJK.contains(g) || *g == encoding_rs::GB18030);
    for enc in candidates.chain(CJK) {
        let Some(text) = enc.decode_without_bom_handling_and_without_replacement(bytes) else { continue };
        let chars = text.chars().filter(|c| !c.is_ascii()).take(4000).count() as i64;
        let score = coherence(&text, enc);
        if chars > 0 && score >= 2 * chars && best.is_none_or(|(_, b)| score > b) {
            best = Some((enc, score));
        }
    }
    let (enc, score) = best?;
    (score > declared_score + (declared_score.abs() / 2).max(8)).then_some(enc)
}

/// UTF-16 without a byte-order mark: most ASCII characters have a zero high byte, so one byte
/// parity is mostly zeros and the other almost never, starting with the first character.
/// Returns the byte order.
pub fn sniff_utf16(bytes: &[u8]) -> Option<&'static Encoding> {
    let head = &bytes[..bytes.len().min(4096) & !1];
    let pairs = head.len() / 2;
    if pairs < 2 {
        return None;
    }
    // Every format kifu reads starts with an ASCII character, so the first code unit must look
    // like one in the byte order found (a run of zero bytes inside a value must not count);
    // 8-bit text is told at once.
    let ascii_first_be = head[0] == 0 && head[1] != 0 && head[1] < 0x80;
    let ascii_first_le = head[1] == 0 && head[0] != 0 && head[0] < 0x80;
    if !ascii_first_be && !ascii_first_le {
        return None;
    }
    let (mut even, mut odd) = (0, 0);
    for pair in head.chunks_exact(2) {
        even += (pair[0] == 0) as usize;
        odd += (pair[1] == 0) as usize;
    }
    if ascii_first_be && even * 5 >= pairs * 2 && odd * 20 <= pairs {
        Some(encoding_rs::UTF_16BE)
    } else if ascii_first_le && odd * 5 >= pairs * 2 && even * 20 <= pairs {
        Some(encoding_rs::UTF_16LE)
    } else {
        None
    }
}

/// Valid UTF-8 that is probably legacy text by accident: a short text (at most 8 non-ASCII
/// characters) holding characters no Go record has (IPA, modifier letters, combining marks,
/// Cyrillic beyond Russian's letters, Armenian, Syriac, Thaana, NKo, C1 controls): GBK 时越
/// (CA B1 D4 BD) is valid UTF-8 "ʱԽ", GBK 谢一 (D0 BB D2 BB) is "лһ".
pub fn suspicious_utf8(text: &str) -> bool {
    let mut non_ascii = 0;
    let mut odd = false;
    for c in text.chars().filter(|c| !c.is_ascii()) {
        non_ascii += 1;
        if non_ascii > 8 {
            return false;
        }
        // (Esperanto's circumflexed letters too: EUC-JP 張 is "ĥ".)
        odd |= matches!(c as u32,
            0x80..=0x9F | 0x108 | 0x109 | 0x11C | 0x11D | 0x124 | 0x125 | 0x134 | 0x135 | 0x15C | 0x15D
            | 0x250..=0x36F | 0x460..=0x58F | 0x700..=0x7FF);
    }
    odd
}

/// The double-byte charsets whose bytes overlap (EUC-KR bytes decode cleanly as GBK, and so
/// on): the candidates of the script-coherence tie-break.
const CJK: [&Encoding; 5] =
    [encoding_rs::GBK, encoding_rs::EUC_KR, encoding_rs::SHIFT_JIS, encoding_rs::BIG5, encoding_rs::EUC_JP];

/// Statistical detection of a legacy charset for bytes that are not UTF-8: chardetng over the
/// whole input (no TLD hint), then the script-coherence tie-break among the CJK charsets that
/// decode the bytes without error.
pub(crate) fn detect_legacy(bytes: &[u8]) -> &'static Encoding {
    let iso2022 = if memchr::memchr(0x1B, bytes).is_some() {
        chardetng::Iso2022JpDetection::Allow
    } else {
        chardetng::Iso2022JpDetection::Deny
    };
    let mut det = chardetng::EncodingDetector::new(iso2022);
    det.feed(bytes, true);
    let guess = det.guess(None, chardetng::Utf8Detection::Deny);
    tie_break(bytes, guess)
}

/// Picks among `guess` and the CJK charsets: a candidate must decode without error, and
/// replaces the guess only when its text is clearly more coherent.
pub(crate) fn tie_break(bytes: &[u8], guess: &'static Encoding) -> &'static Encoding {
    let decode = |enc: &'static Encoding| enc.decode_without_bom_handling_and_without_replacement(bytes);
    let guess_text = decode(guess);
    let guess_score = guess_text.as_deref().map(|t| coherence(t, guess));
    // A guess outside the charsets Go records are written in (EUC-JP, ISO-8859-5, … on a
    // two-character name) yields to an equally coherent CJK reading.
    let usual = GO_CHARSETS.contains(&guess);
    // No candidate scores more than 4 per character, so a usual guess within a tenth of that
    // bound cannot be beaten by the margin: skip the other decodings.
    let chars = guess_text.as_deref().map_or(0, |t| t.chars().filter(|c| !c.is_ascii()).take(4000).count() as i64);
    if let (true, Some(g)) = (usual, guess_score) {
        // (Short texts always go on: a name run starting with a surname scores 4 more.)
        if chars > 40 && g * 10 >= 36 * chars {
            return guess;
        }
    }
    let mut best: Option<(&'static Encoding, i64)> = None;
    for enc in CJK {
        if enc == guess {
            continue;
        }
        if let Some(text) = decode(enc) {
            let score = coherence(&text, enc);
            if best.is_none_or(|(_, s)| score > s) {
                best = Some((enc, score));
            }
        }
    }
    // chardetng calls some short CJK names a single-byte charset Go records do not use
    // (棕仙 in GBK is KOI8-U "вьои"): a clean CJK reading with at least 2 points a character
    // wins. (windows-1251 stays: Russian records use it.)
    let exotic = !usual && guess.is_single_byte() && guess != encoding_rs::WINDOWS_1251;
    if let (true, true, Some((enc, score))) = (exotic, chars <= SHORT, best) {
        let cjk_chars = decode(enc).map_or(0, |t| t.chars().filter(|c| !c.is_ascii()).count() as i64);
        if cjk_chars > 0 && score >= 2 * cjk_chars {
            return enc;
        }
    }
    match (guess_score, best) {
        (None, Some((enc, score))) if score > 0 => enc,
        (Some(g), Some((enc, score))) => {
            // On a few characters (a name or two) chardetng's model has little to go on:
            // any higher score wins.
            let margin = match (usual, chars <= SHORT) {
                (true, false) => (g.abs() / 10).max(2),
                (true, true) => 0,
                (false, _) => -1,
            };
            if score > g + margin { enc } else { guess }
        }
        _ => guess,
    }
}

/// At most this many non-ASCII characters make a short text (two player names), where the
/// tie-break needs no margin over chardetng's guess.
const SHORT: i64 = 12;

/// The charsets real Go records use, besides UTF-8 and UTF-16.
const GO_CHARSETS: [&Encoding; 6] = [
    encoding_rs::GBK,
    encoding_rs::GB18030,
    encoding_rs::EUC_KR,
    encoding_rs::SHIFT_JIS,
    encoding_rs::BIG5,
    encoding_rs::WINDOWS_1252,
];

/// About 790 frequent hangul syllables (grammar endings, common words, Korean surnames,
/// given-name syllables and the syllables of the loanwords nicknames are made of: 클, 듀, 짱,
/// and the ㅡ+ㄹ and ㅂ/ㅅ-final syllables English words turn into, 블루, 플레이, 칩, 캡, 샷,
/// 슛), sorted. Wrong double-byte readings land uniformly over the 2,350 KS X 1001 syllables,
/// so they are mostly outside this set. (Loanword syllables whose bytes are a frequent name
/// character in GBK or Big5 are left out: 븐 is GBK 红, 갤 Big5 偉, 펙 GBK 棋.)
const COMMON_HANGUL: &str = concat!(
    "가각간갈감갑강갖같개객거건걸검겁게겠겨격견결겸경계고곡곤골곱공과곽관광괘괴교구국군굴궁권귀규균그극근글금급긍기긴길김까깡깨꺼",
    "께꼬꼼꽃꾸꿀꿈끗끝끼나낙난날남납낭내냉냐냥너널넘넣네녀년념녕노녹논놀농높놓뇌누눈뉴느는늘능늬니닉닌님닙닝다닥단달담답당대댁댄",
    "댕더덕던덟덤데델도독돈돌동돼되된될됩두둑둔둘둡둥뒀뒤듀드득든들등디딩따딸때떠또똥뚜뚱뜻라락란람랍랑래랙랜램랩랭략량러럭런럼럽",
    "렇레렌렛려력련렬렴렵령례로록론롤롭롱뢰료룡루룰룸류륙륜률륭르른를름릉리릭린릴림립릿링마막만많말망맞매맥맨맹머먹먼멍메며면멸명",
    "몇모목몬몰몽묘무묵문물뭉뭐뮤므미믹민밀밍바박밖반받발밝밤방배백뱅버번벌범법베벤벨벽변별병보복본볼봄봅봇봉봐뵙부북분불붕뷰브블",
    "비빅빈빌빙빛빠빨빵뻔뽀뽑뽕뿅뿌뿐쁘삐사삭산살삼상새색샘생샤샵샷섀서석선설섬섭섯성세셀셋셨소속손솔솜송쇄쇠쇼수숙순술숭숲쉐쉬쉽",
    "슈슛스슨슬습승시식신실심십싶싸쌀쌈쌍써썬쎄쏘쏭쑥쓰쓸씨씩씽아악안않알암압앙앞애액앤앨앵야약얀양얘어억언얻얼엄업없엇었에엑엔엘",
    "엠여역연열염엽였영옆예옛오옥온올옹와완왕왜외요욕용우욱운울움웃웅워원월웠위윈유육윤율융으은을음읍응의이익인일읽잃임입잇있잉자",
    "작잔잖잘잠잡장재잭쟁저적전절젊점접정제젠젤졌조족존졸좀종좋좌죄죠주죽준줄줌줍중줘쥐쥬즈즉즐증지직진질짐집징짜짝짧짱째쩌쪼쪽쫑",
    "쭈찌찍찐찡차착찬찰참창찾채책챔챠처척천철첨첩청체쳐초촉촌총최추축춘출춤충취츄츠측층치칙친칠침칩칭카칼캐캔캠캡커컨컬컴컵케켓켜",
    "코콘콜콩쾌쿠쿤쿨쿵퀵퀸큐크큰클키킥킨킬킴킹타탁탄탈탐탑탓탕태택탱터턴털텀텍텐텔템텝토톡톤톰톱통퇴투툰튀튜트특튼틀티틴틸팀팁팅",
    "파판팔팝팡패팩팬팽퍼펀펄펌펑페펜펫펴편평폐포폭폰폴퐁표푸푼풀품풍퓨프픈플피픽핀필핑하학한할함합핫항해핵핸햄햇했행향허헌험헤헬",
    "혁현혈혐협형혜호혹혼홀홈홉홍화확환활황회획횡효후훈훤휘휴흉흐흑흔흠흡흥희흰히힌힘힙",
);

fn is_common_hangul(c: char) -> bool {
    static SET: std::sync::OnceLock<Vec<char>> = std::sync::OnceLock::new();
    SET.get_or_init(|| COMMON_HANGUL.chars().collect()).binary_search(&c).is_ok()
}

/// The script a character belongs to, for coherence scoring.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Script {
    Hangul,
    /// Hangul syllables outside [`COMMON_HANGUL`].
    HangulRare,
    /// Han characters of the language's frequency table ([`super::freq`]).
    HanFrequent,
    /// Other han characters of level 1 of GB2312, Big5 or JIS X 0208.
    HanCommon,
    /// Level 2 of GB2312 (the rarer characters names still use: 茯, 蓠).
    HanLevel2,
    HanRare,
    Kana,
    Latin,
    Cyrillic,
    Greek,
    /// Punctuation, symbols, digits: fit every charset.
    Neutral,
    /// Characters real text almost never holds: half-width katakana, private use, C1 controls,
    /// compatibility jamo, box drawing, rare extensions.
    Junk,
}

fn is_common_han(c: char) -> bool {
    let mut utf8 = [0u8; 4];
    let s = c.encode_utf8(&mut utf8);
    // The character's two-byte code in `enc`, encoded into a stack buffer (no allocation).
    let two = |enc: &'static Encoding| {
        let mut out = [0u8; 8];
        let (res, _, written) = enc.new_encoder().encode_from_utf8_without_replacement(s, &mut out, true);
        (res == encoding_rs::EncoderResult::InputEmpty && written == 2).then(|| u16::from_be_bytes([out[0], out[1]]))
    };
    two(encoding_rs::GBK).is_some_and(|v| (0xB0A1..=0xD7F9).contains(&v) && v & 0xFF >= 0xA1)
        || two(encoding_rs::BIG5).is_some_and(|v| (0xA440..=0xC67E).contains(&v))
        || two(encoding_rs::SHIFT_JIS).is_some_and(|v| (0x889F..=0x9872).contains(&v))
}

/// Which frequency table decides [`Script::HanFrequent`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Han {
    Simplified,
    Traditional,
    Japanese,
    None,
}

fn is_frequent_han(c: char, han: Han) -> bool {
    use std::sync::OnceLock;
    fn sorted(lock: &'static OnceLock<Vec<char>>, table: &str) -> &'static [char] {
        lock.get_or_init(|| {
            let mut v: Vec<char> = table.chars().collect();
            v.sort_unstable();
            v.dedup();
            v
        })
    }
    static ZH: OnceLock<Vec<char>> = OnceLock::new();
    static TW: OnceLock<Vec<char>> = OnceLock::new();
    static JA: OnceLock<Vec<char>> = OnceLock::new();
    let table = match han {
        Han::Simplified => sorted(&ZH, super::freq::ZH),
        Han::Traditional => sorted(&TW, super::freq::TW),
        Han::Japanese => sorted(&JA, super::freq::JA),
        Han::None => return false,
    };
    table.binary_search(&c).is_ok()
}

fn is_gb2312_level2(c: char) -> bool {
    let mut utf8 = [0u8; 4];
    let mut out = [0u8; 8];
    let s = c.encode_utf8(&mut utf8);
    let (res, _, written) = encoding_rs::GBK.new_encoder().encode_from_utf8_without_replacement(s, &mut out, true);
    res == encoding_rs::EncoderResult::InputEmpty && written == 2 && (0xD8..=0xF7).contains(&out[0]) && out[1] >= 0xA1
}

fn script(c: char, han: Han) -> Script {
    match c as u32 {
        0xAC00..=0xD7A3 => {
            if is_common_hangul(c) {
                Script::Hangul
            } else {
                Script::HangulRare
            }
        }
        0x4E00..=0x9FFF => {
            if is_frequent_han(c, han) {
                Script::HanFrequent
            } else if is_common_han(c) {
                Script::HanCommon
            } else if han == Han::Simplified && is_gb2312_level2(c) {
                Script::HanLevel2
            } else {
                Script::HanRare
            }
        }
        0x3040..=0x30FF => Script::Kana,
        0x00C0..=0x024F => Script::Latin,
        0x0400..=0x04FF => Script::Cyrillic,
        0x0370..=0x03FF => Script::Greek,
        0x0080..=0x009F | 0xE000..=0xF8FF | 0xFF61..=0xFF9F | 0x3130..=0x318F | 0x1100..=0x11FF => Script::Junk,
        0x2500..=0x257F | 0x3400..=0x4DBF | 0xF900..=0xFAFF | 0x20000.. | 0xFFFD => Script::Junk,
        _ => Script::Neutral,
    }
}

/// The coherence of a reading that is a name: a frequent surname and frequent characters (every
/// one of twenty Korean professionals' names read as EUC-KR scores 14–18; their GBK misreadings
/// 2–12, and no other reading of twenty Chinese professionals' GBK names more than 6).
const NAME_COHERENCE: i64 = 12;

/// A short text (a player's name) that `decided`, the charset detected for its whole file,
/// turned into nonsense while another double-byte charset reads its bytes as a name: that
/// charset and the name in it. `None` when `decided` is no double-byte charset, the text has no
/// such character, or no other reading is far more coherent (EUC-KR names in a file whose GBK
/// comment decided it read as rare han: `이세돌` as `捞技倒`).
pub(crate) fn other_reading(text: &str, decided: &'static Encoding) -> Option<(&'static Encoding, String)> {
    if !CJK.contains(&decided) && decided != encoding_rs::GB18030 || text.is_ascii() {
        return None;
    }
    let (bytes, _, unmappable) = decided.encode(text);
    if unmappable {
        return None;
    }
    let here = coherence(text, decided);
    CJK.iter()
        .copied()
        .filter(|&e| e != decided && !(decided == encoding_rs::GB18030 && e == encoding_rs::GBK))
        .filter_map(|e| Some((e, e.decode_without_bom_handling_and_without_replacement(&bytes)?.into_owned())))
        .map(|(e, t)| (coherence(&t, e), e, t))
        .filter(|(score, _, _)| *score >= NAME_COHERENCE && *score > here)
        .max_by_key(|(score, _, _)| *score)
        .map(|(_, e, t)| (e, t))
}

/// How well `text` reads as text in `enc`: native-script characters in single-script runs
/// score, foreign scripts, rare characters, junk and runs that mix hangul with han or kana
/// (the mark of a wrong double-byte charset) cost. Looks at the first 4,000 non-ASCII
/// characters.
pub(crate) fn coherence(text: &str, enc: &'static Encoding) -> i64 {
    let korean = enc == encoding_rs::EUC_KR;
    let japanese = enc == encoding_rs::SHIFT_JIS || enc == encoding_rs::EUC_JP || enc == encoding_rs::ISO_2022_JP;
    let chinese = enc == encoding_rs::GBK || enc == encoding_rs::GB18030 || enc == encoding_rs::BIG5;
    let cjk = korean || japanese || chinese;
    let mut score = 0i64;
    let mut seen = 0;
    let mut run: Vec<Script> = Vec::new();
    let mut run_text = String::new();
    let surnames: &[&str] = if korean {
        &KO_SURNAMES
    } else if japanese {
        &JA_SURNAMES
    } else if enc == encoding_rs::BIG5 {
        &TW_SURNAMES
    } else if chinese {
        &ZH_SURNAMES
    } else {
        &[]
    };
    let han = if korean || enc == encoding_rs::BIG5 {
        Han::Traditional
    } else if japanese {
        Han::Japanese
    } else if chinese {
        Han::Simplified
    } else {
        Han::None
    };
    let flush = |run: &mut Vec<Script>, run_text: &mut String, score: &mut i64| {
        // A short run that starts with one of the language's frequent surnames is a name, and
        // player names are the short texts a file often holds alone.
        if run.len() <= 5 && !run.contains(&Script::Junk) && surnames.iter().any(|s| run_text.starts_with(s)) {
            *score += 4;
        }
        // A word of frequent hangul alone is Korean (a wrong reading lands on rare syllables
        // seven times in ten).
        if korean && run.len() >= 2 && run.iter().all(|&s| s == Script::Hangul) {
            *score += 2;
        }
        // So is a run of kana alone (EUC-JP kana bytes are Big5's most frequent characters).
        let small = |c: char| "ぁぃぅぇぉっゃゅょゎんァィゥェォッャュョヮンー".contains(c);
        if japanese && run.len() >= 2 && run.iter().all(|&s| s == Script::Kana) && !run_text.starts_with(small) {
            *score += if run.len() >= 4 { 8 } else { 4 };
        }
        run_text.clear();
        let has = |s: Script| run.contains(&s);
        let han = [Script::HanFrequent, Script::HanCommon, Script::HanLevel2, Script::HanRare].iter().any(|&s| has(s));
        let soup = (has(Script::Hangul) || has(Script::HangulRare)) && (han || has(Script::Kana));
        // Western words hold an accented letter here and there; three or more non-ASCII
        // characters in a row are the mark of double-byte text read as Latin-1.
        let long_latin = run.len() >= 3 && has(Script::Latin);
        let alphabets = [Script::Latin, Script::Cyrillic, Script::Greek].iter().filter(|&&s| has(s)).count();
        for &s in run.iter() {
            // Points per byte of evidence: a CJK character takes two bytes, a letter of a
            // single-byte charset one.
            *score += match s {
                Script::Neutral => 0,
                Script::Junk => -4,
                _ if soup => -4,
                Script::Hangul if korean => 4,
                Script::HangulRare if korean => 0,
                Script::Kana if japanese => 4,
                // Hanja are rare in Korean names and text; han read from CP949 bytes is
                // the mark of Chinese text.
                Script::HanFrequent if korean => 1,
                Script::HanCommon if korean => -1,
                Script::HanFrequent if cjk => 4,
                Script::HanCommon if cjk => 1,
                Script::HanLevel2 => 1,
                Script::HanRare if cjk => -2,
                Script::Latin | Script::Cyrillic | Script::Greek if alphabets > 1 => -4,
                Script::Latin if long_latin && !cjk => 0,
                Script::Latin | Script::Cyrillic | Script::Greek if !cjk => 2,
                _ => -4,
            };
        }
        run.clear();
    };
    for c in text.chars() {
        if c.is_ascii() {
            if !run.is_empty() {
                flush(&mut run, &mut run_text, &mut score);
            }
            continue;
        }
        seen += 1;
        if seen > 4000 {
            break;
        }
        run.push(script(c, han));
        run_text.push(c);
    }
    flush(&mut run, &mut run_text, &mut score);
    score
}

/// The most frequent surnames of each language (from population statistics; far from complete
/// on purpose: a wrong double-byte reading starts with one of them rarely).
const KO_SURNAMES: [&str; 80] = [
    "김", "이", "박", "최", "정", "강", "조", "윤", "장", "임", "한", "오", "서", "신", "권", "황", "안", "송", "류",
    "전", "홍", "고", "문", "양", "손", "배", "백", "허", "유", "남", "심", "노", "하", "곽", "성", "차", "주", "우",
    "구", "민", "진", "나", "지", "엄", "채", "원", "천", "방", "공", "현", "함", "변", "염", "여", "추", "도", "소",
    "석", "선", "설", "마", "길", "연", "위", "표", "명", "기", "반", "왕", "금", "옥", "육", "인", "맹", "제", "모",
    "탁", "국", "어", "은",
];
const ZH_SURNAMES: [&str; 80] = [
    "王", "李", "张", "刘", "陈", "杨", "黄", "赵", "吴", "周", "徐", "孙", "马", "朱", "胡", "郭", "何", "高", "林",
    "罗", "郑", "梁", "谢", "宋", "唐", "许", "韩", "冯", "邓", "曹", "彭", "曾", "肖", "田", "董", "袁", "潘", "于",
    "蒋", "蔡", "余", "杜", "叶", "程", "苏", "魏", "吕", "丁", "任", "沈", "姚", "卢", "姜", "崔", "钟", "谭", "陆",
    "汪", "范", "金", "石", "廖", "贾", "夏", "韦", "付", "方", "白", "邹", "孟", "熊", "秦", "邱", "江", "尹", "薛",
    "闫", "段", "雷", "侯",
];
const TW_SURNAMES: [&str; 80] = [
    "陳", "林", "黃", "張", "李", "王", "吳", "劉", "蔡", "楊", "許", "鄭", "謝", "郭", "洪", "曾", "邱", "廖", "賴",
    "周", "徐", "蘇", "葉", "莊", "呂", "江", "何", "蕭", "羅", "高", "潘", "簡", "朱", "鍾", "彭", "游", "詹", "胡",
    "施", "沈", "余", "趙", "盧", "梁", "顏", "柯", "孫", "魏", "翁", "戴", "范", "宋", "方", "鄧", "杜", "傅", "侯",
    "曹", "薛", "丁", "卓", "馬", "阮", "董", "唐", "温", "藍", "蔣", "石", "古", "紀", "姚", "連", "馮", "歐", "程",
    "湯", "韓", "田", "康",
];
const JA_SURNAMES: [&str; 111] = [
    "佐藤",
    "鈴木",
    "高橋",
    "田中",
    "伊藤",
    "渡辺",
    "山本",
    "中村",
    "小林",
    "加藤",
    "吉田",
    "山田",
    "佐々木",
    "山口",
    "松本",
    "井上",
    "木村",
    "林",
    "清水",
    "山崎",
    "森",
    "池田",
    "橋本",
    "阿部",
    "石川",
    "山下",
    "中島",
    "石井",
    "小川",
    "前田",
    "岡田",
    "長谷川",
    "藤田",
    "後藤",
    "近藤",
    "村上",
    "遠藤",
    "青木",
    "坂本",
    "斉藤",
    "福田",
    "太田",
    "西村",
    "藤井",
    "金子",
    "岡本",
    "藤原",
    "中野",
    "三浦",
    "原田",
    "中川",
    "松田",
    "竹内",
    "小野",
    "田村",
    "中山",
    "和田",
    "石田",
    "森田",
    "上田",
    "原",
    "柴田",
    "酒井",
    "工藤",
    "横山",
    "宮崎",
    "宮本",
    "内田",
    "高木",
    "安藤",
    "島田",
    "谷口",
    "大野",
    "高田",
    "丸山",
    "今井",
    "河野",
    "藤本",
    "村田",
    "武田",
    "上野",
    "杉山",
    "増田",
    "小山",
    "大塚",
    "平野",
    "菅原",
    "久保",
    "松井",
    "千葉",
    "岩崎",
    "桜井",
    "木下",
    "野口",
    "松尾",
    "菊地",
    "野村",
    "新井",
    "渡部",
    // Professionals whose names fill Japanese game records.
    "井山",
    "羽根",
    "溝上",
    "依田",
    "結城",
    "一力",
    "芝野",
    "大竹",
    "坂田",
    "藤沢",
    "高尾",
    "本因坊",
];

#[cfg(test)]
pub(super) mod tests {
    /// Player names in EUC-KR beside a GBK comment: the GBK reading of the file turns them
    /// into rare han, the EUC-KR reading of their bytes into names. Names right in the decided
    /// charset stay.
    #[test]
    fn names_another_charset_reads_far_better() {
        const KO: [&str; 20] = [
            "이세돌",
            "박정환",
            "김지석",
            "신진서",
            "최정",
            "조한승",
            "원성진",
            "강동윤",
            "박영훈",
            "이영구",
            "안성준",
            "변상일",
            "신민준",
            "김명훈",
            "홍성지",
            "윤준상",
            "목진석",
            "이창호",
            "유창혁",
            "서봉수",
        ];
        const ZH: [&str; 20] = [
            "古力",
            "柯洁",
            "常昊",
            "聂卫平",
            "陈耀烨",
            "马晓春",
            "俞斌",
            "周睿羊",
            "江维杰",
            "时越",
            "唐韦星",
            "芈昱廷",
            "范廷钰",
            "檀啸",
            "杨鼎新",
            "辜梓豪",
            "谢尔豪",
            "党毅飞",
            "王檄",
            "李轩豪",
        ];
        for name in KO {
            let (bytes, _, _) = encoding_rs::EUC_KR.encode(name);
            let gbk = encoding_rs::GBK.decode_without_bom_handling_and_without_replacement(&bytes).unwrap();
            assert_eq!(other_reading(&gbk, encoding_rs::GBK), Some((encoding_rs::EUC_KR, name.to_string())), "{name}");
            assert_eq!(other_reading(name, encoding_rs::EUC_KR), None, "{name}");
        }
        for name in ZH {
            assert_eq!(other_reading(name, encoding_rs::GBK), None, "{name}");
        }
        assert_eq!(other_reading("Lee Sedol", encoding_rs::GBK), None);
        assert_eq!(other_reading("捞技倒", encoding_rs::UTF_8), None, "only for a detected double-byte charset");
    }

    use super::*;

    fn enc(e: &'static Encoding, s: &str) -> Vec<u8> {
        e.encode(s).0.into_owned()
    }

    #[test]
    fn utf8_damage_is_told_apart_from_legacy_bytes() {
        let mut cut = "PB[你若有".as_bytes().to_vec();
        cut.extend_from_slice(&"情".as_bytes()[..2]);
        cut.extend_from_slice(b"]PW[CGI]");
        let s = Utf8Stats::of(&cut);
        assert_eq!(s, Utf8Stats { good: 3, bad: 1, cut: 1 });
        assert!(s.is_damaged_utf8());
        let korean = enc(encoding_rs::EUC_KR, "PB[이세돌]PW[박정환]C[바둑은 재미있다]");
        let s = Utf8Stats::of(&korean);
        assert!(!s.is_valid() && !s.is_damaged_utf8(), "{s:?}");
        assert!(Utf8Stats::of("(;C[é])".as_bytes()).is_valid());
    }

    /// [`Utf8Stats::of`] as it was, over `utf8_chunks`: the reference for the fast measure.
    fn stats_by_chunks(bytes: &[u8]) -> Utf8Stats {
        let mut s = Utf8Stats::default();
        let mut chunks = bytes.utf8_chunks().peekable();
        while let Some(chunk) = chunks.next() {
            s.good += chunk.valid().chars().filter(|c| !c.is_ascii()).count();
            let invalid = chunk.invalid();
            if let Some(&lead) = invalid.first() {
                s.bad += 1;
                let next = chunks.peek().map_or(Some(&b'('), |c| c.valid().as_bytes().first().or(c.invalid().first()));
                if (0xC2..=0xF4).contains(&lead) && next.is_none_or(|b| b.is_ascii()) {
                    s.cut += 1;
                }
            }
        }
        s
    }

    /// Byte strings that exercise UTF-8's edges: every short sequence over bytes at the limits
    /// of each class (ASCII, continuation ranges, each kind of lead byte, bytes never valid),
    /// and long random mixes of ASCII, valid characters and stray bytes (runs longer than a
    /// counting block, 32 × 255 bytes, included).
    pub(crate) fn utf8_edge_cases() -> Vec<Vec<u8>> {
        let edges: [u8; 22] = [
            0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xEF, 0xF0,
            0xF1, 0xF4, 0xF5, 0xFF,
        ];
        let mut out: Vec<Vec<u8>> = vec![Vec::new()];
        let mut level: Vec<Vec<u8>> = vec![Vec::new()];
        for _ in 0..4 {
            level = level.iter().flat_map(|p| edges.iter().map(move |&b| [p.as_slice(), &[b]].concat())).collect();
            out.extend(level.iter().cloned());
        }
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        let pieces: [&[u8]; 9] = [
            b"(;B[pd]",
            "围棋".as_bytes(),
            "é".as_bytes(),
            "😀".as_bytes(),
            b"\xE5\x9B",
            b"\xFF",
            b"\xC2",
            b"]",
            b"\xED\xA0\x80",
        ];
        for len in [1usize, 2, 3, 10, 100, 1000, 3000, 9000] {
            for _ in 0..20 {
                let mut v = Vec::new();
                while v.len() < len {
                    // Mostly ASCII, as game records are.
                    let k = if next(4) == 0 { next(pieces.len() as u64) as usize } else { 0 };
                    v.extend_from_slice(pieces[k]);
                }
                out.push(v);
            }
        }
        // Valid runs of several counting blocks, with a damaged character or not.
        let long = "(;B[pd]围棋é;W[dp]".repeat(1500).into_bytes();
        for cut in [None, Some(31), Some(8159), Some(8160), Some(8161), Some(20000)] {
            let mut v = long.clone();
            if let Some(at) = cut {
                v.insert(at, 0xE5);
            }
            out.push(v);
        }
        out
    }

    /// Lengths of starts of `bytes` that are valid UTF-8: none, the longest, and one between.
    pub(crate) fn valid_starts(bytes: &[u8]) -> Vec<usize> {
        let longest = std::str::from_utf8(bytes).map_or_else(|e| e.valid_up_to(), |s| s.len());
        let mut middle = longest / 2;
        while std::str::from_utf8(&bytes[..middle]).is_err() {
            middle -= 1;
        }
        vec![0, middle, longest]
    }

    #[test]
    fn the_fast_measure_agrees_with_utf8_chunks() {
        for bytes in utf8_edge_cases() {
            let by_runs: Vec<(&[u8], &[u8])> = Utf8Runs::new(&bytes).collect();
            let by_chunks: Vec<(&[u8], &[u8])> =
                bytes.utf8_chunks().map(|c| (c.valid().as_bytes(), c.invalid())).collect();
            assert_eq!(by_runs, by_chunks, "{bytes:02X?}");
            let (stats, marks) = Utf8Stats::measure(&bytes, usize::MAX);
            assert_eq!(stats, stats_by_chunks(&bytes), "{bytes:02X?}");
            let mut at = 0;
            let expected: Vec<(usize, usize)> = by_chunks
                .iter()
                .filter_map(|(v, i)| {
                    at += v.len() + i.len();
                    (!i.is_empty()).then_some((at - i.len(), i.len()))
                })
                .collect();
            assert_eq!(marks, Some(expected), "{bytes:02X?}");
            assert_eq!(Utf8Stats::measure(&bytes, 0).1.is_some(), stats.bad == 0);
            // Knowing a valid start changes nothing.
            for valid in valid_starts(&bytes) {
                assert_eq!(Utf8Stats::measure_after(&bytes, valid, usize::MAX), (stats, marks.clone()), "{bytes:02X?}");
            }
        }
    }

    #[test]
    fn utf16_without_bom_is_sniffed() {
        let be: Vec<u8> = "(;FF[4]C[碁])".encode_utf16().flat_map(|u| u.to_be_bytes()).collect();
        let le: Vec<u8> = "(;FF[4]C[碁])".encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
        assert_eq!(sniff_utf16(&be), Some(encoding_rs::UTF_16BE));
        assert_eq!(sniff_utf16(&le), Some(encoding_rs::UTF_16LE));
        assert_eq!(sniff_utf16(b"(;FF[4]C[plain])"), None);
        assert_eq!(sniff_utf16(b"("), None);
    }

    #[test]
    fn coherence_prefers_the_native_script() {
        let korean = enc(encoding_rs::EUC_KR, "바둑은 재미있다");
        let as_ko = encoding_rs::EUC_KR.decode(&korean).0;
        let as_gb = encoding_rs::GBK.decode(&korean).0;
        assert!(coherence(&as_ko, encoding_rs::EUC_KR) > 0);
        let chinese = enc(encoding_rs::GBK, "围棋很好玩，黑先白死");
        let as_zh = encoding_rs::GBK.decode(&chinese).0;
        let as_kr = encoding_rs::EUC_KR.decode(&chinese).0;
        assert!(coherence(&as_zh, encoding_rs::GBK) > coherence(&as_kr, encoding_rs::EUC_KR), "{as_zh} vs {as_kr}");
        let japanese = enc(encoding_rs::SHIFT_JIS, "囲碁は楽しい");
        let as_ja = encoding_rs::SHIFT_JIS.decode(&japanese).0;
        let as_gbk = encoding_rs::GBK.decode(&japanese).0;
        assert!(coherence(&as_ja, encoding_rs::SHIFT_JIS) > coherence(&as_gbk, encoding_rs::GBK));
        assert!(coherence(&as_gb, encoding_rs::GBK) > -100);
    }

    #[test]
    fn common_hangul_is_sorted_and_known() {
        let all: Vec<char> = COMMON_HANGUL.chars().collect();
        assert!(all.windows(2).all(|w| w[0] < w[1]));
        assert!(all.iter().all(|c| ('\u{AC00}'..='\u{D7A3}').contains(c)));
        assert!(is_common_hangul('이') && !is_common_hangul('뮴'));
    }

    #[test]
    fn tie_break_fixes_a_soup_guess() {
        let chinese = enc(encoding_rs::GBK, "PB[古力]PW[柯洁]C[围棋 is fun]");
        assert_eq!(tie_break(&chinese, encoding_rs::EUC_KR), encoding_rs::GBK);
        let korean = enc(encoding_rs::EUC_KR, "PB[이세돌]PW[박정환]C[바둑 is fun]");
        assert_eq!(tie_break(&korean, encoding_rs::EUC_KR), encoding_rs::EUC_KR);
    }

    #[test]
    fn short_names_read_in_their_own_charset() {
        // CP949 hangul bytes are GB2312 level-1 hanzi: 미라클 is GBK 固扼努, frequent hanzi only
        // in part (issue 19's case).
        let korean = enc(encoding_rs::EUC_KR, "PB[미라클]PW[guest]");
        assert_eq!(tie_break(&korean, encoding_rs::GBK), encoding_rs::EUC_KR);
        // chardetng calls GBK 棕仙 KOI8-U "вьои".
        let chinese = enc(encoding_rs::GBK, "PB[棕仙]PW[BensonDarr]");
        assert_eq!(tie_break(&chinese, encoding_rs::KOI8_U), encoding_rs::GBK);
        // EUC-JP kana bytes are Big5's most frequent characters (方手木氏元).
        let kana = enc(encoding_rs::EUC_JP, "PB[よもれんじ]PW[guest]");
        assert_eq!(tie_break(&kana, encoding_rs::BIG5), encoding_rs::EUC_JP);
        let kanji = enc(encoding_rs::EUC_JP, "PB[井山裕太]PW[guest]");
        assert_eq!(tie_break(&kanji, encoding_rs::GBK), encoding_rs::EUC_JP);
        assert!(is_frequent_han('的', Han::Simplified) && !is_frequent_han('扼', Han::Simplified));
        assert!(is_frequent_han('國', Han::Traditional) && is_frequent_han('藤', Han::Japanese));
    }

    #[test]
    fn loanword_nicknames_read_as_korean() {
        // Server nicknames are often English words in hangul, whose syllables (블, 플, 칩, 샷…)
        // are rare in native words; read as GBK their bytes are level-1 hanzi (칩 is 抹).
        let wrong: Vec<String> = ["레드칩", "블루킹", "블루문", "톱스타", "칩샷", "플레이어", "블랙드래곤", "슛돌이"]
            .iter()
            .filter_map(|name| {
                let bytes = enc(encoding_rs::EUC_KR, &format!("(;PB[{name}]PW[guest])"));
                let got = detect_legacy(&bytes);
                (got != encoding_rs::EUC_KR).then(|| format!("{name}: {}", got.name()))
            })
            .collect();
        assert!(wrong.is_empty(), "{wrong:?}");
    }

    #[test]
    fn zero_bytes_inside_a_value_are_not_utf16() {
        let mut b = b"(;FF[4]C[".to_vec();
        for _ in 0..40 {
            b.extend_from_slice(&[0, b'x']);
        }
        b.extend_from_slice(b"])");
        assert_eq!(sniff_utf16(&b), None);
        let le: Vec<u8> = "(;FF[4]C[x])".encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
        assert_eq!(sniff_utf16(&le), Some(encoding_rs::UTF_16LE));
    }
}
