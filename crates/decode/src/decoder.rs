//! The streaming decoder: a chain of coding stages ending in a capped output.

use crate::brotli::BrotliDecoder;
use crate::deflate::DeflateDecoder;
use crate::gzip::GzipDecoder;
use crate::inflate::InflateBackend;
use crate::zstd::ZstdDecoder;
use crate::{Coding, Error};

/// Size of each stage's output buffer: how far past the cap a bomb can get before it is seen.
const SCRATCH: usize = 32 * 1024;

/// Slack for intermediate stages of a multi-coding body, whose output is coded data: such data
/// is at most slightly larger than what it finally decodes to, so more than
/// `4 × max_decoded + 64 KiB` of it means a bomb (e.g. empty DEFLATE blocks inside `br`) that
/// would otherwise burn unbounded work without growing the output.
const INTERMEDIATE_FACTOR: u64 = 4;
const INTERMEDIATE_SLACK: u64 = 64 * 1024;

pub(crate) type Emit<'a> = dyn FnMut(&[u8]) -> Result<(), Error> + 'a;

enum Codec {
    Gzip(GzipDecoder),
    Deflate(DeflateDecoder),
    Br(BrotliDecoder),
    Zstd(ZstdDecoder),
}

impl Codec {
    fn name(&self) -> &'static str {
        match self {
            Codec::Gzip(_) => "gzip",
            Codec::Deflate(_) => "deflate",
            Codec::Br(_) => "br",
            Codec::Zstd(_) => "zstd",
        }
    }
}

struct Stage {
    codec: Codec,
    scratch: Vec<u8>,
    started: bool,
    /// Output of this stage so far and its cap (None: unlimited).
    produced: u64,
    limit: Option<u64>,
    /// The cap reported when `limit` is crossed (the user's `max_decoded`).
    reported_limit: u64,
}

impl Stage {
    fn decode(&mut self, input: &[u8], next: &mut Emit<'_>) -> Result<(), Error> {
        if !input.is_empty() {
            self.started = true;
        }
        let (produced, limit, reported) = (&mut self.produced, self.limit, self.reported_limit);
        let mut emit = |chunk: &[u8]| {
            *produced = produced.saturating_add(len64(chunk));
            if limit.is_some_and(|limit| *produced > limit) {
                return Err(Error::TooLarge { limit: reported });
            }
            next(chunk)
        };
        let scratch = self.scratch.as_mut_slice();
        match &mut self.codec {
            Codec::Gzip(c) => c.decode(input, scratch, &mut emit),
            Codec::Deflate(c) => c.decode(input, scratch, &mut emit),
            Codec::Br(c) => c.decode(input, scratch, &mut emit),
            Codec::Zstd(c) => c.decode(input, scratch, &mut emit),
        }
    }

    fn finish(&mut self) -> Result<(), Error> {
        match &mut self.codec {
            Codec::Gzip(c) => c.finish(self.started),
            Codec::Deflate(c) => c.finish(),
            Codec::Br(c) => c.finish(),
            Codec::Zstd(c) => c.finish(),
        }
    }
}

/// Streaming decoder for a list of codings (decodes in reverse order of application).
///
/// Memory is bounded whatever the peer sends: each stage has a fixed 32 KiB output buffer,
/// DEFLATE keeps a 32 KiB window, brotli at most a 16 MiB window, zstd at most
/// [`crate::MAX_ZSTD_WINDOW`] plus one 128 KiB block.
pub struct Decoder {
    /// Stages in decoding order: the last coding applied is decoded first.
    stages: Vec<Stage>,
    decoded: u64,
    max_decoded: Option<u64>,
    /// The first error; a failed decoder keeps failing the same way.
    failed: Option<Error>,
    finished: bool,
}

impl core::fmt::Debug for Decoder {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let stages: Vec<&str> = self.stages.iter().map(|stage| stage.codec.name()).collect();
        f.debug_struct("Decoder")
            .field("stages", &stages)
            .field("decoded", &self.decoded)
            .field("max_decoded", &self.max_decoded)
            .field("failed", &self.failed)
            .finish()
    }
}

impl Decoder {
    /// A decoder for `codings` (as listed in `Content-Encoding`, i.e. in the order the server
    /// applied them). `max_decoded`: None = unlimited (explicit opt-out); Some(n) = error once
    /// output would exceed n.
    pub fn new(codings: &[Coding], max_decoded: Option<u64>) -> Decoder {
        Decoder::with_backend(codings, max_decoded, InflateBackend::DEFAULT)
    }

    /// [`Decoder::new`] with a chosen DEFLATE backend (for benchmarks and cross-checks).
    pub fn with_backend(
        codings: &[Coding],
        max_decoded: Option<u64>,
        backend: InflateBackend,
    ) -> Decoder {
        let count = codings.len();
        if count > crate::MAX_CODINGS {
            // Refused before any stage is allocated; the first call reports it.
            return Decoder {
                stages: Vec::new(),
                decoded: 0,
                max_decoded,
                failed: Some(Error::TooManyCodings { count }),
                finished: false,
            };
        }
        let stages = codings
            .iter()
            .rev()
            .enumerate()
            .map(|(index, coding)| {
                let codec = match coding {
                    Coding::Gzip => Codec::Gzip(GzipDecoder::new(backend)),
                    Coding::Deflate => Codec::Deflate(DeflateDecoder::new(backend)),
                    Coding::Br => Codec::Br(BrotliDecoder::new()),
                    Coding::Zstd => Codec::Zstd(ZstdDecoder::new()),
                };
                let is_last = index.saturating_add(1) == count;
                // The last stage's output is the body; the decoder caps it itself so that it
                // can hand out exactly `max_decoded` bytes.
                let limit = if is_last {
                    None
                } else {
                    max_decoded.map(|max| {
                        max.saturating_mul(INTERMEDIATE_FACTOR)
                            .saturating_add(INTERMEDIATE_SLACK)
                    })
                };
                Stage {
                    codec,
                    scratch: vec![0; SCRATCH],
                    started: false,
                    produced: 0,
                    limit,
                    reported_limit: max_decoded.unwrap_or(u64::MAX),
                }
            })
            .collect();
        Decoder {
            stages,
            decoded: 0,
            max_decoded,
            failed: None,
            finished: false,
        }
    }

    /// Decodes `input` (any split), appending decoded bytes to `out`. Never grows `out` by more
    /// than the cap allows; a bomb is stopped as soon as the cap is crossed, with bounded work.
    pub fn decode(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<(), Error> {
        self.check_usable()?;
        let result = self.run(input, out);
        self.record(result)
    }

    /// End of the coded body: [`Error::Truncated`] if a stream is incomplete; trailing garbage
    /// after a finished stream is an error (gzip: further members are decoded, as RFC 1952
    /// allows). An empty body decodes to nothing.
    pub fn finish(&mut self, out: &mut Vec<u8>) -> Result<(), Error> {
        self.check_usable()?;
        self.finished = true;
        let _ = out; // Every stage hands out all it can while decoding; nothing is held back.
        let result = self.stages.iter_mut().try_for_each(Stage::finish);
        self.record(result)
    }

    /// Decoded bytes produced so far.
    pub fn decoded_len(&self) -> u64 {
        self.decoded
    }

    fn check_usable(&self) -> Result<(), Error> {
        match &self.failed {
            Some(error) => Err(error.clone()),
            None if self.finished => Err(Error::corrupt("body", "decoder used after finish()")),
            None => Ok(()),
        }
    }

    fn record(&mut self, result: Result<(), Error>) -> Result<(), Error> {
        if let Err(error) = &result {
            self.failed = Some(error.clone());
        }
        result
    }

    fn run(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<(), Error> {
        let (decoded, max) = (&mut self.decoded, self.max_decoded);
        let mut sink = |chunk: &[u8]| push_capped(chunk, decoded, max, out);
        run_stages(&mut self.stages, input, &mut sink)
    }
}

/// Feeds `input` through `stages` in order, the last one's output into `sink`.
fn run_stages(stages: &mut [Stage], input: &[u8], sink: &mut Emit<'_>) -> Result<(), Error> {
    match stages.split_first_mut() {
        None => sink(input),
        Some((first, rest)) => {
            first.decode(input, &mut |chunk: &[u8]| run_stages(rest, chunk, sink))
        }
    }
}

/// Appends `chunk` to `out` up to the cap; past it, appends what fits and fails.
fn push_capped(
    chunk: &[u8],
    decoded: &mut u64,
    max: Option<u64>,
    out: &mut Vec<u8>,
) -> Result<(), Error> {
    if let Some(limit) = max {
        let room = limit.saturating_sub(*decoded);
        if len64(chunk) > room {
            let fits = usize::try_from(room).unwrap_or(usize::MAX).min(chunk.len());
            out.extend_from_slice(chunk.get(..fits).unwrap_or_default());
            *decoded = limit;
            return Err(Error::TooLarge { limit });
        }
    }
    out.extend_from_slice(chunk);
    *decoded = decoded.saturating_add(len64(chunk));
    Ok(())
}

fn len64(bytes: &[u8]) -> u64 {
    u64::try_from(bytes.len()).unwrap_or(u64::MAX)
}
