//! Fuzzing entry points (not a stable API).

use crate::{Next, RecordReader, TrafficKeys};
use burrow_crypto::aead::AeadAlgorithm;

fn drain(r: &mut RecordReader, offload: bool) -> Result<Vec<(u8, Vec<u8>)>, crate::RecordError> {
    let mut out = Vec::new();
    loop {
        match r.next_record()? {
            Next::NeedData => return Ok(out),
            Next::Record(p) => out.push((p.content_type.0, p.data.to_vec())),
            Next::NeedOpen(_) => {
                let _ = r.job_data_mut();
                r.complete_open(offload)?;
            }
        }
    }
}

fn run(
    data: &[u8],
    chunk: usize,
    keyed: bool,
    offload: bool,
) -> Result<Vec<(u8, Vec<u8>)>, crate::RecordError> {
    let mut r = RecordReader::new();
    r.set_ccs_allowed(true);
    r.set_offload(offload);
    if keyed {
        r.set_keys(TrafficKeys::new(AeadAlgorithm::Aes128Gcm, &[0u8; 16], &[0u8; 12], 1).ok());
    }
    let mut got = Vec::new();
    for c in data.chunks(chunk.max(1)) {
        r.feed(c)?;
        got.extend(drain(&mut r, offload)?);
    }
    Ok(got)
}

/// Reads `data` (first byte picks chunk size and mode) as records; must never panic, and must
/// give the same records whole and chunked.
pub fn reader(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let keyed = mode & 0x80 != 0;
    let offload = mode & 0x40 != 0;
    let chunk = usize::from(mode & 0x3f).saturating_add(1);
    let whole = run(rest, rest.len().max(1), keyed, offload);
    let split = run(rest, chunk, keyed, offload);
    // Records decoded before an error are the same however the input was split.
    if let (Ok(a), Ok(b)) = (&whole, &split) {
        assert_eq!(a, b, "chunking changed the records");
    }
}
