//! The synthetic corpus and queries of the discover benchmark, shared by the engines.
//!
//! Each entry `/e/<i>` has a description of ~19 tokens: English-like words drawn (roughly
//! Zipfian) from a 24,000-word vocabulary, and in half the entries a run of Japanese characters
//! (its bigrams are tokens). With the path's two tokens (`e` and the number), entries have ~21
//! tokens and the corpus ~325,000 distinct terms at 300,000 entries.

/// A deterministic generator (xorshift).
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// Roughly Zipfian over `0..n` (log-uniform).
    pub fn zipf(&mut self, n: usize) -> usize {
        let u = (self.next() >> 11) as f64 / (1u64 << 53) as f64;
        ((n as f64).powf(u) - 1.0) as usize % n
    }
}

const SYLLABLES: &[&str] = &[
    "ka", "lo", "mi", "ren", "tos", "va", "qui", "dar", "el", "sun", "po", "gri", "be", "nor",
    "xi", "ul", "fa", "ter", "jo", "wen",
];
const JAPANESE: &str = "課題開発設計機能追加修正削除確認完了対応画面表示検索登録更新変更作成管理運用障害報告仕様書類会議議事録担当者期限優先度高中低新規既存外部内部連携通知設定権限承認却下保留";
const KANA: &str = "クローズオープンレビューテストリリースバグタスクサーバーデータベースをのにはがでとするしたいないます";

/// Vocabulary size of the English-like words.
pub const VOCABULARY: usize = 24_000;

/// The English-like word with rank `id`.
pub fn word(mut id: usize) -> String {
    let mut word = String::new();
    loop {
        word.push_str(SYLLABLES[id % SYLLABLES.len()]);
        id /= SYLLABLES.len();
        if id == 0 {
            break;
        }
    }
    word
}

fn japanese_char(rng: &mut Rng) -> char {
    let set: Vec<char> = if rng.below(2) == 0 {
        JAPANESE.chars().collect()
    } else {
        KANA.chars().collect()
    };
    set[rng.zipf(set.len())]
}

/// The description of entry `i`.
pub fn description(rng: &mut Rng) -> String {
    let japanese = rng.below(2) == 0;
    let words = if japanese { 15 } else { 19 };
    let mut parts: Vec<String> = (0..words).map(|_| word(rng.zipf(VOCABULARY))).collect();
    if japanese {
        // Five characters: four bigrams.
        let run: String = (0..5).map(|_| japanese_char(rng)).collect();
        let at = rng.below(parts.len());
        parts.insert(at, run);
    }
    parts.join(" ")
}

/// `(path, description)` of `n` entries.
pub fn corpus(n: usize) -> Vec<(String, String)> {
    let mut rng = Rng(0x00C0_FFEE_D15C_0BE7);
    (0..n)
        .map(|i| (format!("/e/{i}"), description(&mut rng)))
        .collect()
}

/// 100 queries of 1–3 terms: 80 of English-like words (common and rare), 20 of Japanese bigrams.
pub fn queries() -> Vec<String> {
    let mut rng = Rng(0x0051_EA2C_4000_0001);
    let mut out = Vec::new();
    for _ in 0..80 {
        let terms = 1 + rng.below(3);
        out.push(
            (0..terms)
                .map(|_| word(rng.zipf(VOCABULARY)))
                .collect::<Vec<_>>()
                .join(" "),
        );
    }
    for i in 0..20 {
        // Bigrams: one (2 characters) or two (3 characters) per query.
        let chars = if i % 2 == 0 { 2 } else { 3 };
        out.push((0..chars).map(|_| japanese_char(&mut rng)).collect());
    }
    out
}
