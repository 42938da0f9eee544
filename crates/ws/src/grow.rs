//! Growing a message buffer geometrically, but never past the message bound: a message of up
//! to `max` bytes never holds more than `max + 1` bytes of capacity (Vec's own doubling would
//! allow up to twice that).

/// Makes room for `extra` more bytes in `v`, doubling its capacity as Vec does but capping it
/// at `limit` (or at what is needed, if that is more).
pub(crate) fn reserve_within(v: &mut Vec<u8>, extra: usize, limit: usize) {
    let need = v.len().saturating_add(extra);
    if need <= v.capacity() {
        return;
    }
    let target = v.capacity().saturating_mul(2).min(limit).max(need);
    v.reserve_exact(target.saturating_sub(v.len()));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles_up_to_the_limit() {
        let mut v = Vec::new();
        let mut copies = 0;
        for _ in 0..1000 {
            let before = v.capacity();
            reserve_within(&mut v, 1000, 1_000_001);
            if v.capacity() != before {
                copies += 1;
            }
            v.extend_from_slice(&[0; 1000]);
        }
        assert!(v.capacity() <= 1_000_001, "{}", v.capacity());
        assert!(copies < 25, "{copies} reallocations");
    }
}
