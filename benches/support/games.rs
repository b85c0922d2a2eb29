//! Generates realistic SGF game records for benchmarks: server-style headers, 150–320 moves,
//! time left on every move in some games, comments (with escapes) in others, a few variations.
//! Deterministic: the same seed gives the same bytes.

/// A small deterministic pseudo-random generator (64-bit LCG).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407))
    }
    pub fn next(&mut self) -> u32 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) as u32
    }
    pub fn below(&mut self, n: u32) -> u32 {
        self.next() % n
    }
}

const NAMES: &[&str] =
    &["Lee Sedol", "이창호", "柯洁", "井山裕太", "Shin Jinseo", "AlphaGo", "古力", "박정환", "Ke Jie", "一力遼"];
const WORDS: &[&str] = &[
    "this", "move", "is", "slow", "better", "at", "the", "corner", "tenuki", "joseki", "thick", "ko", "threat", "aji",
    "[sic]", "shape", "miai", "sente", "gote", "wins", "by", "points", "黑棋", "好手", "悪手", "좋은", "수",
];

fn point(rng: &mut Rng, out: &mut String) {
    out.push((b'a' + rng.below(19) as u8) as char);
    out.push((b'a' + rng.below(19) as u8) as char);
}

fn comment(rng: &mut Rng, out: &mut String) {
    out.push_str("C[");
    let n = 4 + rng.below(20);
    for i in 0..n {
        if i > 0 {
            out.push(if rng.below(12) == 0 { '\n' } else { ' ' });
        }
        let w = WORDS[rng.below(WORDS.len() as u32) as usize];
        // Escape as an SGF writer must.
        for c in w.chars() {
            if c == ']' || c == '\\' {
                out.push('\\');
            }
            out.push(c);
        }
    }
    out.push(']');
}

/// Appends one game to `out`.
pub fn game(rng: &mut Rng, out: &mut String) {
    game_of(rng, out, (150, 170));
}

/// Appends one game of `least + (0..spread)` moves to `out`.
pub fn game_of(rng: &mut Rng, out: &mut String, (least, spread): (u32, u32)) {
    let timed = rng.below(3) == 0;
    let commented = rng.below(3) == 0;
    let b = NAMES[rng.below(NAMES.len() as u32) as usize];
    let w = NAMES[rng.below(NAMES.len() as u32) as usize];
    out.push_str(&format!(
        "(;GM[1]FF[4]CA[UTF-8]AP[Generator:1.0]SZ[19]KM[6.5]RU[Japanese]\nPB[{b}]BR[{}d]PW[{w}]WR[{}d]DT[20{:02}-{:02}-{:02}]RE[{}+R]TM[1800]OT[3x30 byo-yomi]\n",
        1 + rng.below(9),
        1 + rng.below(9),
        rng.below(25),
        1 + rng.below(12),
        1 + rng.below(28),
        if rng.below(2) == 0 { "B" } else { "W" },
    ));
    let moves = least + rng.below(spread);
    let mut col = 0;
    let mut variation_at = if rng.below(20) == 0 { Some(40 + rng.below(60)) } else { None };
    let mut open = 0;
    for i in 0..moves {
        let start = out.len();
        let c = if i % 2 == 0 { 'B' } else { 'W' };
        if Some(i) == variation_at {
            out.push('(');
            open += 1;
        }
        out.push(';');
        out.push(c);
        out.push('[');
        point(rng, out);
        out.push(']');
        if timed {
            out.push_str(&format!("{c}L[{}.{}]", 1800 - i * 5, rng.below(10)));
        }
        if commented && rng.below(10) == 0 {
            comment(rng, out);
        }
        if open > 0 && Some(i) == variation_at.map(|v| v + 6) {
            // close the variation, then open the main line as a sibling
            out.push_str(")\n(");
            variation_at = None;
        }
        col += out.len() - start;
        if col > 72 {
            out.push('\n');
            col = 0;
        }
    }
    for _ in 0..open {
        out.push(')');
    }
    out.push_str(")\n");
}

/// A collection of about `bytes` bytes.
pub fn collection(bytes: usize, seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let mut out = String::with_capacity(bytes + 16 * 1024);
    while out.len() < bytes {
        game(&mut rng, &mut out);
    }
    out
}

/// A collection of `n` small games (10–40 moves each): many games, so that work quadratic in
/// the number of games shows.
#[allow(dead_code)]
pub fn small_collection(n: usize, seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let mut out = String::with_capacity(n * 600);
    for _ in 0..n {
        game_of(&mut rng, &mut out, (10, 31));
    }
    out
}
