//! X.509 / OCSP times (UTCTime, GeneralizedTime) to seconds since the Unix epoch.

use burrow_der::{tag, Error as DerError, Reader, Result as DerResult};

/// Seconds since 1970-01-01T00:00:00Z.
pub type UnixTime = i64;

fn digits(s: &[u8]) -> DerResult<i64> {
    let mut v: i64 = 0;
    for c in s {
        if !c.is_ascii_digit() {
            return Err(DerError::Invalid("non-digit in time"));
        }
        v = v
            .checked_mul(10)
            .and_then(|v| v.checked_add(i64::from(c.wrapping_sub(b'0'))))
            .ok_or(DerError::Invalid("time overflow"))?;
    }
    Ok(v)
}

fn field(s: &[u8], from: usize, to: usize) -> DerResult<i64> {
    digits(s.get(from..to).ok_or(DerError::Invalid("short time"))?)
}

/// Reads a `Time ::= CHOICE { utcTime, generalTime }`.
pub(crate) fn read_time(r: &mut Reader<'_>) -> DerResult<UnixTime> {
    match r.peek_tag() {
        Some(tag::UTC_TIME) => parse_utc(r.read(tag::UTC_TIME)?),
        Some(tag::GENERALIZED_TIME) => parse_generalized(r.read(tag::GENERALIZED_TIME)?),
        _ => Err(DerError::Invalid("expected a time")),
    }
}

/// `YYMMDDHHMMSSZ`; YY < 50 means 20YY (RFC 5280 §4.1.2.5.1).
pub(crate) fn parse_utc(s: &[u8]) -> DerResult<UnixTime> {
    if s.len() != 13 || s.last() != Some(&b'Z') {
        return Err(DerError::Invalid("UTCTime must be YYMMDDHHMMSSZ"));
    }
    let yy = field(s, 0, 2)?;
    let year = if yy < 50 {
        2000i64.checked_add(yy)
    } else {
        1900i64.checked_add(yy)
    }
    .ok_or(DerError::Invalid("year"))?;
    civil(year, s.get(2..12).ok_or(DerError::Invalid("short time"))?)
}

/// `YYYYMMDDHHMMSSZ`, no fractional seconds (RFC 5280 §4.1.2.5.2).
pub(crate) fn parse_generalized(s: &[u8]) -> DerResult<UnixTime> {
    if s.len() != 15 || s.last() != Some(&b'Z') {
        return Err(DerError::Invalid("GeneralizedTime must be YYYYMMDDHHMMSSZ"));
    }
    let year = field(s, 0, 4)?;
    civil(year, s.get(4..14).ok_or(DerError::Invalid("short time"))?)
}

fn civil(year: i64, rest: &[u8]) -> DerResult<UnixTime> {
    let month = field(rest, 0, 2)?;
    let day = field(rest, 2, 4)?;
    let hour = field(rest, 4, 6)?;
    let min = field(rest, 6, 8)?;
    let sec = field(rest, 8, 10)?;
    if !(1..=12).contains(&month) || hour > 23 || min > 59 || sec > 59 {
        return Err(DerError::Invalid("time field out of range"));
    }
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let mdays = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    if day < 1 || day > mdays {
        return Err(DerError::Invalid("day out of range"));
    }
    let days = days_from_civil(year, month, day);
    // hour <= 23, min <= 59, sec <= 59 (checked above): no overflow possible.
    #[allow(clippy::arithmetic_side_effects)]
    let secs_of_day = hour * 3600 + min * 60 + sec;
    days.checked_mul(86_400)
        .and_then(|d| d.checked_add(secs_of_day))
        .ok_or(DerError::Invalid("time overflow"))
}

/// Days since 1970-01-01 for a proleptic Gregorian date (H. Hinnant's algorithm). Inputs are
/// small (year < 10000, validated month/day), so plain arithmetic cannot overflow.
#[allow(clippy::arithmetic_side_effects)]
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Parses an RFC 3339 UTC timestamp (`2024-01-02T03:04:05Z`, optional fraction, `+00:00`):
/// used by the limbo harness and by callers holding textual times.
pub fn parse_rfc3339(s: &str) -> Option<UnixTime> {
    let b = s.as_bytes();
    if b.len() < 20 || b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') {
        return None;
    }
    let mut compact = Vec::with_capacity(14);
    for (from, to) in [(0, 4), (5, 7), (8, 10), (11, 13), (14, 16), (17, 19)] {
        compact.extend_from_slice(b.get(from..to)?);
    }
    let t = civil(digits(compact.get(0..4)?).ok()?, compact.get(4..)?).ok()?;
    let mut rest = b.get(19..)?;
    if rest.first() == Some(&b'.') {
        let n = rest
            .iter()
            .skip(1)
            .take_while(|c| c.is_ascii_digit())
            .count();
        rest = rest.get(n.checked_add(1)?..)?;
    }
    match rest {
        b"Z" | b"z" | b"+00:00" | b"-00:00" => Some(t),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_instants() {
        assert_eq!(parse_utc(b"700101000000Z").unwrap(), 0);
        assert_eq!(parse_utc(b"491231235959Z").unwrap(), 2_524_607_999);
        assert_eq!(parse_generalized(b"20000229120000Z").unwrap(), 951_825_600);
        assert!(parse_generalized(b"20010229120000Z").is_err());
        assert!(parse_utc(b"7001010000Z").is_err());
        assert!(parse_generalized(b"20000229120000.5Z").is_err());
        assert_eq!(parse_rfc3339("2000-02-29T12:00:00Z"), Some(951_825_600));
        assert_eq!(
            parse_rfc3339("2000-02-29T12:00:00.25+00:00"),
            Some(951_825_600)
        );
    }

    #[test]
    fn out_of_range_fields_and_bad_forms() {
        for bad in [
            &b"701301000000Z"[..], // month 13
            b"700001000000Z",      // month 0
            b"700101240000Z",      // hour 24
            b"700101006000Z",      // minute 60
            b"700101000060Z",      // second 60 (no leap seconds)
            b"700100000000Z",      // day 0
            b"700431000000Z",      // April 31
        ] {
            assert!(parse_utc(bad).is_err(), "{}", String::from_utf8_lossy(bad));
        }
        assert_eq!(
            parse_utc(b"700101000000+"),
            Err(DerError::Invalid("UTCTime must be YYMMDDHHMMSSZ"))
        );
        assert_eq!(
            parse_utc(b"70010100000aZ"),
            Err(DerError::Invalid("non-digit in time"))
        );
        assert_eq!(parse_utc(b"500101000000Z"), Ok(-631_152_000)); // 1950
        assert_eq!(parse_generalized(b"19000301000000Z"), Ok(-2_203_891_200));
        assert!(parse_generalized(b"19000229000000Z").is_err()); // 1900: no leap day
        assert!(parse_generalized(b"20000229000000").is_err());
        // RFC 3339: only UTC, the separators where they belong.
        assert_eq!(parse_rfc3339("1970-01-01T00:00:00z"), Some(0));
        assert_eq!(parse_rfc3339("1970-01-01T00:00:00-00:00"), Some(0));
        for bad in [
            "1970-01-01T00:00:00",
            "1970-01-01T00:00:00+01:00",
            "1970-01-01T00:00:00.Z5",
            "1970/01/01T00:00:00Z",
            "1970-13-01T00:00:00Z",
            "197a-01-01T00:00:00Z",
            "1970-01-01T00:00:00ZZ",
        ] {
            assert_eq!(parse_rfc3339(bad), None, "{bad}");
        }
        assert_eq!(parse_rfc3339("1970-01-01T00:00:01.999Z"), Some(1));
        let mut r = Reader::new(&[0x04, 0x00]);
        assert_eq!(read_time(&mut r), Err(DerError::Invalid("expected a time")));
    }
}
