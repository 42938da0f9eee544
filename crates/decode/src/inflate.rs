//! The DEFLATE backends behind gzip and deflate, behind one small streaming interface.

#[cfg(not(any(feature = "zlib-rs", feature = "miniz")))]
compile_error!("burrow-decode needs a DEFLATE backend: enable feature `zlib-rs` or `miniz`");

/// Which DEFLATE implementation decodes gzip and deflate bodies.
///
/// Both are pure Rust. The default is [`InflateBackend::DEFAULT`]; the other exists (behind its
/// cargo feature) so the benchmark can compare them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum InflateBackend {
    /// The `zlib-rs` crate (a Rust port of zlib-ng).
    #[cfg(feature = "zlib-rs")]
    ZlibRs,
    /// The `miniz_oxide` crate.
    #[cfg(feature = "miniz")]
    Miniz,
}

impl InflateBackend {
    /// The backend [`crate::Decoder::new`] uses: zlib-rs when built in (measured faster natively
    /// and in wasm32: README.md).
    #[cfg(feature = "zlib-rs")]
    pub const DEFAULT: InflateBackend = InflateBackend::ZlibRs;
    /// The backend [`crate::Decoder::new`] uses.
    #[cfg(not(feature = "zlib-rs"))]
    pub const DEFAULT: InflateBackend = InflateBackend::Miniz;

    /// Every backend in this build, for benchmarks.
    pub const ALL: &'static [InflateBackend] = &[
        #[cfg(feature = "zlib-rs")]
        InflateBackend::ZlibRs,
        #[cfg(feature = "miniz")]
        InflateBackend::Miniz,
    ];

    /// The backend's crate name.
    pub fn name(self) -> &'static str {
        match self {
            #[cfg(feature = "zlib-rs")]
            InflateBackend::ZlibRs => "zlib-rs",
            #[cfg(feature = "miniz")]
            InflateBackend::Miniz => "miniz_oxide",
        }
    }
}

/// Wire format of the DEFLATE stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    /// RFC 1951 only (gzip bodies, and "deflate" bodies without a zlib header).
    Raw,
    /// RFC 1950: header, DEFLATE data, Adler-32 (checked by the backend).
    Zlib,
}

/// What one [`Inflater::step`] did.
pub(crate) struct Step {
    pub(crate) consumed: usize,
    pub(crate) produced: usize,
    pub(crate) ended: bool,
}

/// One DEFLATE stream being decoded.
pub(crate) enum Inflater {
    #[cfg(feature = "zlib-rs")]
    ZlibRs(Box<zlib_rs::Inflate>),
    #[cfg(feature = "miniz")]
    Miniz(Box<miniz_oxide::inflate::stream::InflateState>),
}

impl Inflater {
    pub(crate) fn new(backend: InflateBackend, format: Format) -> Inflater {
        match backend {
            #[cfg(feature = "zlib-rs")]
            // 15 window bits: the largest window either format allows (32 KiB).
            InflateBackend::ZlibRs => {
                Inflater::ZlibRs(Box::new(zlib_rs::Inflate::new(format == Format::Zlib, 15)))
            }
            #[cfg(feature = "miniz")]
            InflateBackend::Miniz => {
                use miniz_oxide::DataFormat;
                let format = match format {
                    Format::Raw => DataFormat::Raw,
                    Format::Zlib => DataFormat::Zlib,
                };
                Inflater::Miniz(miniz_oxide::inflate::stream::InflateState::new_boxed(
                    format,
                ))
            }
        }
    }

    /// Decodes from `input` into `output`; an error is the backend's description.
    pub(crate) fn step(&mut self, input: &[u8], output: &mut [u8]) -> Result<Step, &'static str> {
        match self {
            #[cfg(feature = "zlib-rs")]
            Inflater::ZlibRs(inflate) => {
                let (in_before, out_before) = (inflate.total_in(), inflate.total_out());
                let status = inflate
                    .decompress(input, output, zlib_rs::InflateFlush::NoFlush)
                    .map_err(|e| match e {
                        zlib_rs::InflateError::NeedDict { .. } => {
                            "zlib preset dictionaries are not supported"
                        }
                        other => inflate.error_message().unwrap_or(other.as_str()),
                    })?;
                Ok(Step {
                    consumed: delta(in_before, inflate.total_in()),
                    produced: delta(out_before, inflate.total_out()),
                    ended: status == zlib_rs::Status::StreamEnd,
                })
            }
            #[cfg(feature = "miniz")]
            Inflater::Miniz(state) => {
                use miniz_oxide::{MZError, MZFlush, MZStatus};
                let result =
                    miniz_oxide::inflate::stream::inflate(state, input, output, MZFlush::None);
                let ended = match result.status {
                    Ok(MZStatus::StreamEnd) => true,
                    // Buf: no progress possible without more input; the caller sees that.
                    Ok(_) | Err(MZError::Buf) => false,
                    Err(MZError::Data) => return Err("invalid DEFLATE data or checksum mismatch"),
                    Err(MZError::Param) | Err(MZError::Stream) => {
                        return Err("DEFLATE stream error")
                    }
                    Err(_) => return Err("invalid DEFLATE data"),
                };
                Ok(Step {
                    consumed: result.bytes_consumed,
                    produced: result.bytes_written,
                    ended,
                })
            }
        }
    }
}

#[cfg(feature = "zlib-rs")]
fn delta(before: u64, after: u64) -> usize {
    // Each step moves at most one slice length, so this always fits.
    usize::try_from(after.saturating_sub(before)).unwrap_or(usize::MAX)
}

/// Runs `inflater` over all of `input`, handing output to `emit` in `scratch`-sized pieces.
/// Returns the input left over after the end of the stream and whether the stream ended.
pub(crate) fn pump<'i>(
    inflater: &mut Inflater,
    coding: &'static str,
    mut input: &'i [u8],
    scratch: &mut [u8],
    emit: &mut crate::Emit<'_>,
) -> Result<(&'i [u8], bool), crate::Error> {
    loop {
        let step = inflater
            .step(input, scratch)
            .map_err(|what| crate::Error::corrupt(coding, what))?;
        input = input.get(step.consumed..).unwrap_or_default();
        if step.produced > 0 {
            emit(scratch.get(..step.produced).unwrap_or_default())?;
        }
        if step.ended {
            return Ok((input, true));
        }
        let output_full = step.produced == scratch.len();
        if input.is_empty() && !output_full {
            return Ok((input, false));
        }
        if step.consumed == 0 && step.produced == 0 {
            // Both backends take all input they are given; stalling would lose data silently.
            return Err(crate::Error::corrupt(
                coding,
                "DEFLATE decoder made no progress",
            ));
        }
    }
}
