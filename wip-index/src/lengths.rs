//! Document lengths in a byte each: most weighted lengths are under 255, and the few others are
//! kept exactly beside them, so scores stay exact (unlike a lossy field norm).

/// By doc id: its weighted length.
#[derive(Clone, Debug, Default)]
pub(crate) struct Lengths {
    /// The length, or `LONG` when it is in `long`.
    short: Vec<u8>,
    /// `(doc, length)` of the docs whose length is at least `LONG`, by doc id.
    long: Vec<(u32, u32)>,
}

const LONG: u8 = u8::MAX;

impl Lengths {
    /// Appends the length of the next doc id.
    pub(crate) fn push(&mut self, len: u32) {
        match u8::try_from(len) {
            Ok(short) if short < LONG => self.short.push(short),
            _ => {
                let doc = u32::try_from(self.short.len()).expect("fewer than 2^32 documents");
                self.long.push((doc, len));
                self.short.push(LONG);
            }
        }
    }

    /// The length of `doc`.
    #[inline]
    pub(crate) fn get(&self, doc: u32) -> u32 {
        match self.short[doc as usize] {
            LONG => {
                let at = self
                    .long
                    .binary_search_by_key(&doc, |&(d, _)| d)
                    .expect("a long length is kept");
                self.long[at].1
            }
            short => u32::from(short),
        }
    }

    /// An empty table with room for `docs`.
    pub(crate) fn with_capacity(docs: usize) -> Self {
        Self {
            short: Vec::with_capacity(docs),
            long: Vec::new(),
        }
    }

    pub(crate) fn heap_bytes(&self) -> usize {
        self.short.capacity() + self.long.capacity() * 8
    }
}

#[cfg(test)]
mod tests {
    use super::Lengths;

    #[test]
    fn every_length_reads_back() {
        let lens = [0, 1, 254, 255, 256, 70_000, 3, u32::MAX];
        let mut table = Lengths::default();
        for len in lens {
            table.push(len);
        }
        for (doc, len) in lens.into_iter().enumerate() {
            assert_eq!(table.get(doc as u32), len);
        }
    }
}
