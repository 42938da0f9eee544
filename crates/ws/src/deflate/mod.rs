//! permessage-deflate (RFC 7692): negotiation ([`DeflateOffer`], [`DeflateParams`]) and the
//! two directions of the codec, over zlib-rs's raw DEFLATE (README.md, "Compressor").

mod params;

pub use params::{ClientWindowOffer, DeflateOffer, DeflateParams, PERMESSAGE_DEFLATE};

use zlib_rs::{DeflateFlush, InflateFlush, Status};

use crate::error::Kind;

/// The empty stored block's tail a sender strips from each message and a receiver appends
/// (§7.2.1, §7.2.2).
const TRAILER: [u8; 4] = [0x00, 0x00, 0xff, 0xff];

/// Output space added per inflate step at most, once earlier steps filled theirs.
const MAX_STEP: usize = 64 * 1024;

/// Inflates the server's messages, never past a caller's bound on a message's size.
///
/// The window is always 15 bits (32 KiB), whatever `server_max_window_bits` says: a decoder
/// with a larger window decodes every stream made with a smaller one, and zlib's raw deflate
/// quietly uses 9 bits when asked for 8, so a server that negotiated 8 bits still decodes.
pub(crate) struct Inflater {
    z: zlib_rs::Inflate,
}

impl Inflater {
    pub(crate) fn new() -> Inflater {
        Inflater {
            // Raw DEFLATE (no zlib header), 15 bits: valid arguments, so this does not panic.
            z: zlib_rs::Inflate::new(false, 15),
        }
    }

    /// Starts a message with an empty window (`server_no_context_takeover`).
    pub(crate) fn reset(&mut self) {
        self.z.reset(false);
    }

    /// Inflates `input` (a piece of a message's compressed payload) onto the end of `out`,
    /// which holds the message so far. `out` never grows past `max + 1` bytes: a message that
    /// would is [`Kind::MessageTooBig`] (a decompression bomb costs at most `max` bytes and
    /// the work to produce them).
    ///
    /// `check` sees `out` after every step, before the bound and before a corruption further
    /// on is reported: errors come in the order of the bytes that cause them, so every split of
    /// the input fails the same way.
    pub(crate) fn inflate(
        &mut self,
        mut input: &[u8],
        out: &mut Vec<u8>,
        max: usize,
        check: &mut dyn FnMut(&[u8]) -> Result<(), Kind>,
    ) -> Result<(), Kind> {
        let mut step = input.len().saturating_mul(4).clamp(256, MAX_STEP);
        loop {
            let len = out.len();
            let space = step.min(max.saturating_sub(len).saturating_add(1));
            crate::grow::reserve_within(out, space, max.saturating_add(1));
            let z = &mut self.z;
            let (r, consumed, produced) = step_into(out, space, |buf| {
                let (in0, out0) = (z.total_in(), z.total_out());
                let r = z.decompress(input, buf, InflateFlush::NoFlush);
                (r, delta(in0, z.total_in()), delta(out0, z.total_out()))
            });
            check(out)?;
            if out.len() > max {
                return Err(Kind::MessageTooBig);
            }
            let status = r.map_err(|_| Kind::BadCompressedData)?;
            input = input.get(consumed..).unwrap_or_default();
            if status == Status::StreamEnd {
                if consumed == 0 && produced == 0 {
                    // A stream that ends without taking a byte would repeat forever.
                    return Err(Kind::BadCompressedData);
                }
                // A block with BFINAL set ends the DEFLATE stream inside the message (RFC 7692
                // §7.2.3.4); what follows (at least the appended trailer) starts a new one.
                // A sender that ends its stream this way has lost its window too.
                self.z.reset(false);
                if input.is_empty() {
                    return Ok(());
                }
                continue;
            }
            if input.is_empty() && produced < space {
                return Ok(());
            }
            if consumed == 0 && produced == 0 {
                // zlib takes all the input it is given while it has room to write; a step that
                // does neither would loop forever.
                return Err(Kind::BadCompressedData);
            }
            if produced == space {
                step = step.saturating_mul(2).min(MAX_STEP);
            }
        }
    }

    /// Ends a message: appends the trailer the sender stripped and inflates it.
    pub(crate) fn finish(
        &mut self,
        out: &mut Vec<u8>,
        max: usize,
        check: &mut dyn FnMut(&[u8]) -> Result<(), Kind>,
    ) -> Result<(), Kind> {
        self.inflate(&TRAILER, out, max, check)
    }
}

/// Compresses our messages.
pub(crate) struct Compressor {
    z: zlib_rs::Deflate,
}

impl Compressor {
    /// A raw DEFLATE compressor with a window of `window_bits` and zlib level `level` (0..=9).
    ///
    /// `None` for an 8-bit window: zlib (and zlib-rs) cannot compress raw DEFLATE with a 256-byte
    /// window (it would use 512 bytes, which the server did not allow), so messages then go out
    /// uncompressed, which RFC 7692 permits for any message (Python websockets refuses the
    /// handshake instead).
    pub(crate) fn new(window_bits: u8, level: u8) -> Option<Compressor> {
        if !(9..=15).contains(&window_bits) {
            return None;
        }
        Some(Compressor {
            // Raw, 9..=15 bits, level at most 9: valid arguments, so this does not panic.
            z: zlib_rs::Deflate::new(i32::from(level.min(9)), false, window_bits),
        })
    }

    /// Forgets the window (`client_no_context_takeover`: every message starts empty).
    pub(crate) fn reset(&mut self) {
        self.z.reset();
    }

    /// Compresses one whole message onto the end of `out`, ending it with a sync flush and
    /// without the flush's 4-byte trailer (§7.2.1). An error leaves the compressor unusable.
    pub(crate) fn compress(&mut self, mut input: &[u8], out: &mut Vec<u8>) -> Result<(), ()> {
        let start = out.len();
        let mut space = input
            .len()
            .saturating_add(input.len() / 8)
            .saturating_add(64);
        loop {
            let z = &mut self.z;
            let (r, consumed, produced) = step_into(out, space, |buf| {
                let (in0, out0) = (z.total_in(), z.total_out());
                let r = z.compress(input, buf, DeflateFlush::SyncFlush);
                (r, delta(in0, z.total_in()), delta(out0, z.total_out()))
            });
            let status = r.map_err(|_| ())?;
            input = input.get(consumed..).unwrap_or_default();
            // Done when all input is in and the flush left output space over (zlib: "call
            // again ... while avail_out == 0"); BufError: nothing more to flush.
            if status == Status::BufError || (input.is_empty() && produced < space) {
                break;
            }
            space = space.saturating_mul(2);
        }
        let body = out.len().saturating_sub(start);
        if body < TRAILER.len() || !out.ends_with(&TRAILER) {
            return Err(());
        }
        out.truncate(out.len().saturating_sub(TRAILER.len()));
        Ok(())
    }
}

/// permessage-deflate on one connection: the agreed parameters and the two codecs, each made
/// when first needed (a connection that never sends compressed messages never allocates a
/// compressor's ~300 KiB).
pub(crate) struct PerMessageDeflate {
    params: DeflateParams,
    inflater: Option<Inflater>,
    compressor: Sending,
}

/// The compressing side's state.
enum Sending {
    /// No message compressed yet.
    NotYet,
    Ready(Compressor),
    /// An 8-bit window, or a compressor that failed: messages go out uncompressed.
    Off,
}

impl PerMessageDeflate {
    pub(crate) fn new(params: DeflateParams) -> PerMessageDeflate {
        PerMessageDeflate {
            params,
            inflater: None,
            compressor: Sending::NotYet,
        }
    }

    /// What was agreed.
    pub(crate) fn params(&self) -> DeflateParams {
        self.params
    }

    /// A compressed message starts: the inflater, reset when the server starts every message
    /// with an empty window.
    pub(crate) fn start_message(&mut self) {
        match &mut self.inflater {
            Some(z) if self.params.server_no_context_takeover => z.reset(),
            Some(_) => {}
            None => self.inflater = Some(Inflater::new()),
        }
    }

    /// The inflater of the message in progress.
    pub(crate) fn inflater(&mut self) -> &mut Inflater {
        self.inflater.get_or_insert_with(Inflater::new)
    }

    /// Compresses a whole message onto the end of `out` with zlib level `level`; false: it
    /// must go out uncompressed (and `out` is as it was).
    pub(crate) fn compress(&mut self, level: u8, payload: &[u8], out: &mut Vec<u8>) -> bool {
        if matches!(self.compressor, Sending::NotYet) {
            self.compressor = match Compressor::new(self.params.client_max_window_bits, level) {
                Some(c) => Sending::Ready(c),
                None => Sending::Off,
            };
        }
        let Sending::Ready(c) = &mut self.compressor else {
            return false;
        };
        let start = out.len();
        if c.compress(payload, out).is_err() {
            // The server never sees this message compressed, so our window and its differ
            // from here on: compress nothing more.
            out.truncate(start);
            self.compressor = Sending::Off;
            return false;
        }
        if self.params.client_no_context_takeover {
            c.reset();
        }
        true
    }
}

/// Runs one zlib call (`call` returns its result, bytes consumed, bytes produced) writing into
/// `space` new bytes at the end of `out`, of which only those produced are kept.
fn step_into<R>(
    out: &mut Vec<u8>,
    space: usize,
    call: impl FnOnce(&mut [u8]) -> (R, usize, usize),
) -> (R, usize, usize) {
    let len = out.len();
    out.resize(len.saturating_add(space), 0);
    let (r, consumed, produced) = call(out.get_mut(len..).unwrap_or_default());
    out.truncate(len.saturating_add(produced));
    (r, consumed, produced)
}

fn delta(before: u64, after: u64) -> usize {
    // Each step moves at most one slice length, so this always fits.
    usize::try_from(after.saturating_sub(before)).unwrap_or(usize::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inflate_all(z: &mut Inflater, pieces: &[&[u8]], max: usize) -> Result<Vec<u8>, Kind> {
        let mut out = Vec::new();
        for p in pieces {
            z.inflate(p, &mut out, max, &mut |_| Ok(()))?;
        }
        z.finish(&mut out, max, &mut |_| Ok(()))?;
        Ok(out)
    }

    #[test]
    fn round_trip_with_context_takeover() {
        let mut c = Compressor::new(15, 6).unwrap();
        let mut d = Inflater::new();
        let msg = b"{\"type\":\"tick\",\"price\":123.45,\"symbol\":\"ABC\"}".repeat(20);
        let mut sizes = Vec::new();
        for _ in 0..3 {
            let mut z = Vec::new();
            c.compress(&msg, &mut z).unwrap();
            sizes.push(z.len());
            assert_eq!(inflate_all(&mut d, &[&z], 1 << 20).unwrap(), msg);
        }
        // The window carries over: the second message is mostly one back-reference.
        assert!(sizes[1].saturating_mul(3) < sizes[0], "{sizes:?}");
    }

    #[test]
    fn no_context_takeover_resets_both_sides() {
        let mut c = Compressor::new(10, 6).unwrap();
        let mut d = Inflater::new();
        let msg = b"abcdefghij".repeat(30);
        let mut sizes = Vec::new();
        for _ in 0..2 {
            c.reset();
            d.reset();
            let mut z = Vec::new();
            c.compress(&msg, &mut z).unwrap();
            sizes.push(z.len());
            assert_eq!(inflate_all(&mut d, &[&z], 1 << 20).unwrap(), msg);
        }
        assert_eq!(sizes[0], sizes[1]);
    }

    #[test]
    fn eight_bit_windows_are_not_compressed() {
        assert!(Compressor::new(8, 6).is_none());
    }

    #[test]
    fn empty_message_compresses_to_one_byte() {
        // An empty stored block, its LEN/NLEN stripped: the 0x00 of RFC 7692 §7.2.3.6.
        let mut c = Compressor::new(15, 6).unwrap();
        let mut z = Vec::new();
        c.compress(b"", &mut z).unwrap();
        assert_eq!(z, [0x00]);
    }

    #[test]
    fn bomb_stops_at_the_bound() {
        let mut c = Compressor::new(15, 9).unwrap();
        let big = vec![b'a'; 10 << 20];
        let mut z = Vec::new();
        c.compress(&big, &mut z).unwrap();
        assert!(z.len() < 20 << 10, "{}", z.len());
        let mut d = Inflater::new();
        let mut out = Vec::new();
        assert_eq!(
            d.inflate(&z, &mut out, 1 << 20, &mut |_| Ok(())),
            Err(Kind::MessageTooBig)
        );
        assert!(out.capacity() <= (1 << 20) + 1, "{}", out.capacity());
        // Exactly at the bound passes.
        let mut d = Inflater::new();
        assert_eq!(
            inflate_all(&mut d, &[&z], 10 << 20).unwrap().len(),
            10 << 20
        );
    }

    #[test]
    fn garbage_is_bad_compressed_data() {
        let mut d = Inflater::new();
        assert_eq!(
            inflate_all(&mut d, &[&[0xff, 0xff, 0xff]], 100),
            Err(Kind::BadCompressedData)
        );
    }
}
