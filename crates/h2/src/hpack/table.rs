//! The static table (RFC 7541 Appendix A) and the dynamic table (§4).

use std::collections::VecDeque;

/// Per-entry overhead counted in table sizes (RFC 7541 §4.1).
pub const ENTRY_OVERHEAD: usize = 32;

/// The static table; index 1 is the first entry.
pub(crate) const STATIC: [(&[u8], &[u8]); 61] = [
    (b":authority", b""),
    (b":method", b"GET"),
    (b":method", b"POST"),
    (b":path", b"/"),
    (b":path", b"/index.html"),
    (b":scheme", b"http"),
    (b":scheme", b"https"),
    (b":status", b"200"),
    (b":status", b"204"),
    (b":status", b"206"),
    (b":status", b"304"),
    (b":status", b"400"),
    (b":status", b"404"),
    (b":status", b"500"),
    (b"accept-charset", b""),
    (b"accept-encoding", b"gzip, deflate"),
    (b"accept-language", b""),
    (b"accept-ranges", b""),
    (b"accept", b""),
    (b"access-control-allow-origin", b""),
    (b"age", b""),
    (b"allow", b""),
    (b"authorization", b""),
    (b"cache-control", b""),
    (b"content-disposition", b""),
    (b"content-encoding", b""),
    (b"content-language", b""),
    (b"content-length", b""),
    (b"content-location", b""),
    (b"content-range", b""),
    (b"content-type", b""),
    (b"cookie", b""),
    (b"date", b""),
    (b"etag", b""),
    (b"expect", b""),
    (b"expires", b""),
    (b"from", b""),
    (b"host", b""),
    (b"if-match", b""),
    (b"if-modified-since", b""),
    (b"if-none-match", b""),
    (b"if-range", b""),
    (b"if-unmodified-since", b""),
    (b"last-modified", b""),
    (b"link", b""),
    (b"location", b""),
    (b"max-forwards", b""),
    (b"proxy-authenticate", b""),
    (b"proxy-authorization", b""),
    (b"range", b""),
    (b"referer", b""),
    (b"refresh", b""),
    (b"retry-after", b""),
    (b"server", b""),
    (b"set-cookie", b""),
    (b"strict-transport-security", b""),
    (b"transfer-encoding", b""),
    (b"user-agent", b""),
    (b"vary", b""),
    (b"via", b""),
    (b"www-authenticate", b""),
];

/// The number of static entries; dynamic indices start after it.
pub(crate) const STATIC_LEN: usize = 61;

/// The dynamic table: newest entry first, bounded by `max_size` (in RFC 7541 size units).
#[derive(Debug, Clone)]
pub struct DynamicTable {
    entries: VecDeque<(Vec<u8>, Vec<u8>)>,
    size: usize,
    max_size: usize,
}

impl DynamicTable {
    /// An empty table of maximum size `max_size`.
    pub fn new(max_size: usize) -> DynamicTable {
        DynamicTable {
            entries: VecDeque::new(),
            size: 0,
            max_size,
        }
    }

    /// Current size (sum of name + value + 32 over the entries).
    pub fn size(&self) -> usize {
        self.size
    }

    /// Current maximum size.
    pub fn max_size(&self) -> usize {
        self.max_size
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Changes the maximum size, evicting as needed.
    pub fn set_max_size(&mut self, max: usize) {
        self.max_size = max;
        self.evict_to(max);
    }

    /// Entry `i` (0 = newest).
    pub fn get(&self, i: usize) -> Option<(&[u8], &[u8])> {
        self.entries
            .get(i)
            .map(|(n, v)| (n.as_slice(), v.as_slice()))
    }

    /// Inserts an entry (RFC 7541 §4.4): evicts old entries to make room; an entry larger than
    /// the maximum empties the table and is not inserted.
    pub fn insert(&mut self, name: &[u8], value: &[u8]) {
        let sz = entry_size(name, value);
        if sz > self.max_size {
            self.entries.clear();
            self.size = 0;
            return;
        }
        self.evict_to(self.max_size.saturating_sub(sz));
        self.entries.push_front((name.to_vec(), value.to_vec()));
        self.size = self.size.saturating_add(sz);
    }

    fn evict_to(&mut self, target: usize) {
        while self.size > target {
            match self.entries.pop_back() {
                Some((n, v)) => self.size = self.size.saturating_sub(entry_size(&n, &v)),
                None => {
                    self.size = 0;
                    break;
                }
            }
        }
    }

    /// Finds (full match index, name match index), dynamic positions 0-based.
    pub(crate) fn find(&self, name: &[u8], value: &[u8]) -> (Option<usize>, Option<usize>) {
        let mut name_hit = None;
        for (i, (n, v)) in self.entries.iter().enumerate() {
            if n.as_slice() == name {
                if v.as_slice() == value {
                    return (Some(i), Some(i));
                }
                name_hit.get_or_insert(i);
            }
        }
        (None, name_hit)
    }
}

/// The RFC 7541 size of an entry.
pub fn entry_size(name: &[u8], value: &[u8]) -> usize {
    name.len()
        .saturating_add(value.len())
        .saturating_add(ENTRY_OVERHEAD)
}

/// Finds (full match, name match) in the static table, 1-based indices.
pub(crate) fn find_static(name: &[u8], value: &[u8]) -> (Option<usize>, Option<usize>) {
    let mut name_hit = None;
    for (i, (n, v)) in STATIC.iter().enumerate() {
        if *n == name {
            let idx = i.saturating_add(1);
            if *v == value {
                return (Some(idx), Some(idx));
            }
            name_hit.get_or_insert(idx);
        }
    }
    (None, name_hit)
}
