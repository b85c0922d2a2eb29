//! Short CJK player names in files without a charset field: a name-level test set generated
//! here from syllable and character frequency tables written for this test (no copied name
//! lists), each name encoded in every legacy charset of its script, read back from a CA-less SGF
//! file and from kifu's own NGF output (NGF declares no charset). Every charset must read at
//! least 99 % of the names exactly; the figures are in `formats/charsets.md`
//! (`cargo test --test charset_names -- --nocapture` prints them).

mod common;

use encoding_rs::Encoding;
use kifu::{Format, ReadOptions, WriteOptions};

/// A deterministic generator (an LCG), so the set is the same on every run.
struct Pick(u64);

impl Pick {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }

    /// One entry of a table whose entries are listed most frequent first: the first third is
    /// picked half of the time.
    fn weighted<'a>(&mut self, table: &[&'a str]) -> &'a str {
        let n = table.len();
        if self.next(2) == 0 { table[self.next(n.div_ceil(3))] } else { table[self.next(n)] }
    }
}

fn split(s: &'static str) -> Vec<&'static str> {
    s.split_whitespace().collect()
}

// Korean: surnames by frequency, given-name syllables, and nickname syllables (server ids are
// often words: 미라클, 바둑왕).
const KO_SURNAMES: &str = "김 이 박 최 정 강 조 윤 장 임 한 오 서 신 권 황 안 송 류 전 홍 고 문 양 손 배 백 허 유 남 심 노 하 곽 성 차 주 우 구 민 진 나 지 엄 채 원 천 방 공 현 함 변 염 여 추 도 소 석 선 설 마 길 연 위 표 명 기 반 왕 금 옥 육 인 맹 제 모 탁 국 어 은 편 용";
const KO_GIVEN: &str = "민 준 서 지 현 우 영 수 호 진 성 훈 재 동 정 희 은 혜 경 미 상 석 태 연 윤 승 주 원 종 철 광 명 기 환 규 범 혁 용 찬 빈 예 하 유 아 나 다 채 소 효 세 도 한 건 시 율 선 인 혁 진 창 병 일 길 남 옥 순 자 숙 애 란 화 형 식 익 근 봉 학 덕 만 택 관 웅 열 욱 섭 필 표";
const KO_NICK: &str = "미 라 클 바 둑 왕 하 늘 사 랑 별 빛 바 람 꽃 초 보 고 수 신 의 한 수 달 빛 푸 른 산 강 물 돌 흑 백 승 리 대 마 왕 자 천 재 소 년 검 객 용 호 랑 이 곰 나 무 구 름 태 양 바 다 우 주 영 웅 전 설 기 사 도 사 천 사 마 법 사 짱";

// Simplified Chinese (GBK, GB18030).
const ZH_SURNAMES: &str = "王 李 张 刘 陈 杨 黄 赵 吴 周 徐 孙 马 朱 胡 郭 何 高 林 罗 郑 梁 谢 宋 唐 许 韩 冯 邓 曹 彭 曾 肖 田 董 袁 潘 于 蒋 蔡 余 杜 叶 程 苏 魏 吕 丁 任 沈 姚 卢 姜 崔 钟 谭 陆 汪 范 金 石 廖 贾 夏 韦 付 方 白 邹 孟 熊 秦 邱 江 尹 薛 闫 段 雷 侯 龙 史 陶 黎 贺 顾 毛 郝 龚 邵 万 钱 严 武 戴 莫 孔 向 汤 常 柯 古 芈 党 连 檀 时 范 俞 聂 常 彭 陈";
const ZH_GIVEN: &str = "伟 芳 娜 敏 静 丽 强 磊 军 洋 勇 艳 杰 娟 涛 明 超 秀 霞 平 刚 桂 英 华 玉 兰 飞 鹏 斌 宇 浩 凯 健 俊 帆 帅 旭 宁 龙 林 欣 峰 建 文 辉 力 永 亮 成 国 海 波 志 东 晨 阳 博 思 雨 轩 子 涵 梓 睿 一 诺 嘉 怡 佳 琪 洁 昱 廷 越 逸 凡 烨 元 豪 卫 平 松 芮 乃 伟 克 常 昊 晓 春 立 新 生 德 福 光 荣 庆 红 梅 秋 云 雪 婷 萍 颖 倩 蕾 琳 璐 瑶 瑞 泽 铭 哲";
const ZH_NICK: &str = "骊 龙 棋 圣 天 下 无 敌 围 棋 高 手 小 虎 大 师 黑 白 星 月 风 云 江 湖 少 侠 剑 客 神 算 子 弈 仙 老 顽 童 飞 鹰 猛 虎 长 空 蓝 海 青 山 流 水 落 花 明 日 东 方 不 败";

// Traditional Chinese (Big5).
const TW_SURNAMES: &str = "王 李 張 劉 陳 楊 黃 趙 吳 周 徐 孫 馬 朱 胡 郭 何 高 林 羅 鄭 梁 謝 宋 唐 許 韓 馮 鄧 曹 彭 曾 蕭 田 董 袁 潘 于 蔣 蔡 余 杜 葉 程 蘇 魏 呂 丁 任 沈 姚 盧 姜 崔 鍾 譚 陸 汪 范 金 石 廖 賈 夏 韋 方 白 鄒 孟 熊 秦 邱 江 尹 薛 閻 段 雷 侯 龍 史 陶 黎 賀 顧 毛 郝 龔 邵 萬 錢 嚴 武 戴 莫 孔 向 湯 常 簡 賴 洪 游 詹 施 沈 翁 柯 黑 周 俞";
const TW_GIVEN: &str = "偉 芳 娜 敏 靜 麗 強 磊 軍 洋 勇 艷 傑 娟 濤 明 超 秀 霞 平 剛 桂 英 華 玉 蘭 飛 鵬 斌 宇 浩 凱 健 俊 帆 帥 旭 寧 龍 林 欣 峰 建 文 輝 力 永 亮 成 國 海 波 志 東 晨 陽 博 思 雨 軒 子 涵 梓 睿 一 諾 嘉 怡 佳 琪 宏 婷 雅 筱 冠 承 翰 柏 彥 廷 豪 家 銘 哲 瑋 鈞 維 慧 淑 珍 君 蓉 萱 穎 瑜 儀 嘉 元 耀 昇 衛 聖";
const TW_NICK: &str = "棋 聖 天 下 無 敵 圍 棋 高 手 小 虎 大 師 黑 白 星 月 風 雲 江 湖 少 俠 劍 客 神 算 子 弈 仙 老 頑 童 飛 鷹 猛 長 空 藍 海 青 山 流 水 落 花 明 日 東 方 不 敗";

// Japanese: surnames and given names by frequency (kanji), hiragana and katakana names.
const JA_SURNAMES: &str = "佐藤 鈴木 高橋 田中 伊藤 渡辺 山本 中村 小林 加藤 吉田 山田 佐々木 山口 松本 井上 木村 林 清水 山崎 森 池田 橋本 阿部 石川 山下 中島 石井 小川 前田 岡田 長谷川 藤田 後藤 近藤 村上 遠藤 青木 坂本 斉藤 福田 太田 西村 藤井 金子 岡本 藤原 中野 三浦 原田 中川 松田 竹内 小野 田村 中山 和田 石田 森田 上田 原 柴田 酒井 工藤 横山 宮崎 宮本 内田 高木 安藤 島田 谷口 大野 高田 丸山 今井 河野 藤本 村田 武田 上野 杉山 増田 小山 大塚 平野 菅原 久保 松井 千葉 岩崎 桜井 木下 野口 松尾 菊地 野村 新井 井山 一力 芝野 結城 趙 張 大竹 小松 依田 羽根 溝上 本因坊";
const JA_GIVEN: &str = "裕太 遼 栄介 大輔 翔太 健太 拓也 直樹 大樹 一郎 太郎 誠 聡 隆 浩 勝 修 博 茂 実 明 進 豊 清 和也 達也 翔 蓮 陽翔 湊 悠真 花子 美咲 陽菜 結衣 由美 恵子 京子 幸子 里菜 朋美 奈穂 千尋 虎丸 秀行 治勲 正樹 英夫 光雄 智 健一 剛 亮 優 彩 愛 舞 真由美 直子 洋子 久美子 雅人 信夫 敬吾 宇太郎 祐 龍一 慎一 康晴";
const JA_KANA: &str = "ひかる さくら あかり ゆうき はるか みなみ かおり まこと しのぶ たけし ヒカル サクラ アキラ ケンジ ユウキ ハルカ タロウ ジロウ ミドリ カオル トオル";

/// (script, the names).
fn names() -> Vec<(&'static str, Vec<String>)> {
    let mut p = Pick(0x6b69_6675);
    let (ko_s, ko_g, ko_n) = (split(KO_SURNAMES), split(KO_GIVEN), split(KO_NICK));
    let (zh_s, zh_g, zh_n) = (split(ZH_SURNAMES), split(ZH_GIVEN), split(ZH_NICK));
    let (tw_s, tw_g, tw_n) = (split(TW_SURNAMES), split(TW_GIVEN), split(TW_NICK));
    let (ja_s, ja_g, ja_k) = (split(JA_SURNAMES), split(JA_GIVEN), split(JA_KANA));
    let mut ko = Vec::new();
    let mut zh = Vec::new();
    let mut tw = Vec::new();
    let mut ja = Vec::new();
    for i in 0..400 {
        // Korean: surname + one or two syllables, or a two-to-four-syllable nickname.
        ko.push(match i % 5 {
            0..=2 => format!("{}{}{}", p.weighted(&ko_s), p.weighted(&ko_g), p.weighted(&ko_g)),
            3 => format!("{}{}", p.weighted(&ko_s), p.weighted(&ko_g)),
            _ => (0..2 + p.next(3)).map(|_| ko_n[p.next(ko_n.len())]).collect(),
        });
        let chinese = |p: &mut Pick, s: &[&str], g: &[&str], n: &[&str]| match i % 5 {
            0 | 1 => format!("{}{}{}", p.weighted(s), p.weighted(g), p.weighted(g)),
            2 | 3 => format!("{}{}", p.weighted(s), p.weighted(g)),
            _ => (0..2 + p.next(3)).map(|_| n[p.next(n.len())]).collect(),
        };
        zh.push(chinese(&mut p, &zh_s, &zh_g, &zh_n));
        tw.push(chinese(&mut p, &tw_s, &tw_g, &tw_n));
        // Japanese: surname + given name, surname alone, or a kana name.
        ja.push(match i % 6 {
            0..=3 => format!("{}{}", p.weighted(&ja_s), p.weighted(&ja_g)),
            4 => p.weighted(&ja_s).to_string(),
            _ => p.weighted(&ja_k).to_string(),
        });
    }
    vec![("Korean", ko), ("Chinese", zh), ("Traditional Chinese", tw), ("Japanese", ja)]
}

/// The CJK player names of ../shared/samples and ../shared/corpus (UTF-8 SGF files), sorted by
/// script like the generated ones; empty (with a note) when the folder is absent.
fn shared_names() -> Vec<(&'static str, Vec<String>)> {
    let mut found = std::collections::BTreeSet::new();
    for sub in ["samples", "corpus"] {
        let Some(dir) = common::shared(sub) else { continue };
        for path in common::files(&dir, &["sgf"]) {
            let Ok(bytes) = std::fs::read(&path) else { continue };
            let Ok(text) = std::str::from_utf8(&bytes) else { continue };
            for key in ["PB[", "PW["] {
                for (at, _) in text.match_indices(key) {
                    let rest = &text[at + 3..];
                    let Some(end) = rest.find(']').filter(|&e| e <= 40) else { continue };
                    let name = rest[..end].trim();
                    // A name whose GBK bytes are valid UTF-8 is UTF-8 read as GBK by an earlier
                    // tool (鍓戣繃鏃犲０ is 剑过无声): those bytes rightly read as UTF-8.
                    let (gbk, _, unmappable) = encoding_rs::GBK.encode(name);
                    let mojibake = !unmappable && std::str::from_utf8(&gbk).is_ok();
                    if name.chars().any(|c| c as u32 >= 0x3040) && !name.chars().any(|c| c.is_ascii()) && !mojibake {
                        found.insert(name.to_string());
                    }
                }
            }
        }
    }
    let script = |n: &str| {
        if n.chars().any(|c| ('\u{AC00}'..='\u{D7A3}').contains(&c)) {
            "Korean"
        } else if n.chars().any(|c| ('\u{3040}'..='\u{30FF}').contains(&c)) {
            "Japanese"
        } else if encoding_rs::GBK.encode(n).2 {
            "Traditional Chinese"
        } else {
            "Chinese"
        }
    };
    let mut out: Vec<(&'static str, Vec<String>)> =
        ["Korean", "Chinese", "Traditional Chinese", "Japanese"].iter().map(|s| (*s, Vec::new())).collect();
    for name in found {
        let s = script(&name);
        if let Some((_, list)) = out.iter_mut().find(|(k, _)| *k == s) {
            list.push(name);
        }
    }
    out.retain(|(_, l)| !l.is_empty());
    out
}

/// The legacy charsets a script's names are written in.
fn charsets(script: &str) -> Vec<&'static Encoding> {
    match script {
        "Korean" => vec![encoding_rs::EUC_KR],
        "Chinese" => vec![encoding_rs::GBK, encoding_rs::GB18030],
        "Traditional Chinese" => vec![encoding_rs::BIG5],
        _ => vec![encoding_rs::SHIFT_JIS, encoding_rs::EUC_JP],
    }
}

/// The share of exact names each charset must reach: 99 % for every charset, generated and
/// real (`formats/charsets.md`, "Short names").
fn floor(_origin: &str, _enc: &'static Encoding) -> f64 {
    99.0
}

/// Reads `name` back from a CA-less SGF file holding it as the only non-ASCII text, and from
/// kifu's own NGF output (written in `enc`) when `ngf`.
fn read_back(name: &str, opponent: &str, enc: &'static Encoding, ngf: bool) -> Option<String> {
    if ngf {
        let sgf = format!("(;GM[1]FF[4]SZ[19]PB[{name}]PW[{opponent}]KM[6.5];B[pd];W[dp])");
        let read = Format::SGF.read(sgf.into_bytes(), &ReadOptions::default()).ok()?;
        let ngf = Format::from_name("ngf").unwrap();
        let options = WriteOptions::default().with_encoding(Some(enc)).with_lossy(true);
        let out = ngf.write(&read.collection, &options).ok()?;
        let back = ngf.read(out.bytes, &ReadOptions::default()).ok()?;
        return back.collection.games[0].root().value("PB").map(str::to_string);
    }
    let text = format!("(;GM[1]FF[4]SZ[19]PB[{name}]PW[{opponent}];B[pd])");
    let (bytes, _, bad) = enc.encode(&text);
    assert!(!bad, "{name} in {}", enc.name());
    let back = Format::SGF.read(bytes.into_owned(), &ReadOptions::default()).ok()?;
    back.collection.games[0].root().value("PB").map(str::to_string)
}

#[test]
fn short_cjk_names_without_a_charset_field_read_back_exactly() {
    let all = names();
    let total: usize = all.iter().map(|(_, n)| n.len()).sum();
    assert!(total >= 1000, "{total}");
    let shared = shared_names();
    let mut failures = Vec::new();
    let sets = all.iter().map(|(s, l)| ("generated", *s, l)).chain(shared.iter().map(|(s, l)| ("shared", *s, l)));
    for (origin, script, list) in sets {
        for enc in charsets(script) {
            for (form, ngf) in [("SGF, no CA", false), ("NGF", true)] {
                let mut exact = 0;
                let mut tried = 0;
                let mut wrong = Vec::new();
                for (i, name) in list.iter().enumerate() {
                    if enc.encode(name).2 {
                        continue; // the charset cannot hold it
                    }
                    // Alone (an ASCII opponent) and next to another name of the same script.
                    let other = &list[(i * 7 + 3) % list.len()];
                    let opponent = if i % 2 == 0 || enc.encode(other).2 { "guest" } else { other.as_str() };
                    tried += 1;
                    match read_back(name, opponent, enc, ngf) {
                        Some(got) if got == *name => exact += 1,
                        got => wrong.push(format!("{name} → {}", got.unwrap_or_default())),
                    }
                }
                let pct = 100.0 * exact as f64 / tried.max(1) as f64;
                println!("{origin:9} {script:20} {:10} {form:10}: {exact}/{tried} exact ({pct:.1} %)", enc.name());
                if !wrong.is_empty() {
                    println!("    wrong: {}", wrong.iter().take(12).cloned().collect::<Vec<_>>().join(", "));
                }
                let floor = floor(origin, enc);
                if (exact as f64) < tried as f64 * floor / 100.0 {
                    failures.push(format!("{origin} {script} {} {form}: {pct:.1} % (floor {floor} %)", enc.name()));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:?}");
}
