//! The cookie-date parsing algorithm of RFC 6265bis §5.1.1, to Unix seconds.
//!
//! Deliberately lenient in the token grammar (that is what servers send) and strict in the
//! ranges: a date that fails any check is `None`, and the caller ignores the Expires attribute.

/// The earliest year §5.1.1 accepts.
const MIN_YEAR: i64 = 1601;

/// Parses a cookie-date (§5.1.1) and returns it as Unix seconds (UTC), or `None` when the
/// algorithm says to fail.
pub(crate) fn parse_cookie_date(input: &str) -> Option<i64> {
    let mut time: Option<(i64, i64, i64)> = None;
    let mut day: Option<i64> = None;
    let mut month: Option<i64> = None;
    let mut year: Option<i64> = None;

    for token in input.as_bytes().split(|&b| is_delimiter(b)) {
        if token.is_empty() {
            continue;
        }
        if time.is_none() {
            if let Some(t) = match_time(token) {
                time = Some(t);
                continue;
            }
        }
        if day.is_none() {
            if let Some(d) = match_digits_prefix(token, 1, 2) {
                day = Some(d);
                continue;
            }
        }
        if month.is_none() {
            if let Some(m) = match_month(token) {
                month = Some(m);
                continue;
            }
        }
        if year.is_none() {
            if let Some(y) = match_digits_prefix(token, 2, 4) {
                year = Some(y);
                continue;
            }
        }
    }

    let (hour, minute, second) = time?;
    let day = day?;
    let month = month?;
    let mut year = year?;
    // Two-digit years (§5.1.1 steps 3 and 4).
    if (70..=99).contains(&year) {
        year = year.checked_add(1900)?;
    } else if (0..=69).contains(&year) {
        year = year.checked_add(2000)?;
    }
    if !(1..=31).contains(&day) || year < MIN_YEAR || hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    if day > days_in_month(year, month) {
        return None;
    }
    let days = days_from_civil(year, month, day);
    days.checked_mul(86_400)?
        .checked_add(hour.checked_mul(3600)?)?
        .checked_add(minute.checked_mul(60)?)?
        .checked_add(second)
}

/// delimiter = %x09 / %x20-2F / %x3B-40 / %x5B-60 / %x7B-7E
fn is_delimiter(b: u8) -> bool {
    matches!(b, 0x09 | 0x20..=0x2F | 0x3B..=0x40 | 0x5B..=0x60 | 0x7B..=0x7E)
}

/// Matches `min..=max` digits followed by nothing or by a non-digit and anything (the shape of
/// the day-of-month and year productions).
fn match_digits_prefix(token: &[u8], min: usize, max: usize) -> Option<i64> {
    let digits = token.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits < min || digits > max {
        return None;
    }
    token.get(..digits).map(digits_value)
}

/// hms-time ( non-digit *OCTET ), hms-time = time-field ":" time-field ":" time-field,
/// time-field = 1*2DIGIT.
fn match_time(token: &[u8]) -> Option<(i64, i64, i64)> {
    let mut rest = token;
    let mut fields = [0i64; 3];
    for (i, field) in fields.iter_mut().enumerate() {
        let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        if !(1..=2).contains(&digits) {
            return None;
        }
        *field = digits_value(rest.get(..digits)?);
        rest = rest.get(digits..)?;
        if i < 2 {
            // A colon must follow the first two fields.
            rest = rest.strip_prefix(b":")?;
        }
    }
    // After the third field: end of token, or a non-digit (the count above already stopped at
    // a non-digit, so anything left starts with one).
    let [h, m, s] = fields;
    Some((h, m, s))
}

/// month = ( "jan" / "feb" / ... / "dec" ) *OCTET, case-insensitive.
fn match_month(token: &[u8]) -> Option<i64> {
    const MONTHS: [&[u8; 3]; 12] = [
        b"jan", b"feb", b"mar", b"apr", b"may", b"jun", b"jul", b"aug", b"sep", b"oct", b"nov",
        b"dec",
    ];
    let prefix = token.get(..3)?;
    let mut month = 0i64;
    for name in MONTHS {
        month = month.checked_add(1)?;
        if prefix.eq_ignore_ascii_case(name) {
            return Some(month);
        }
    }
    None
}

/// At most four ASCII digits, so this cannot overflow.
fn digits_value(digits: &[u8]) -> i64 {
    digits.iter().fold(0i64, |acc, &b| {
        acc.saturating_mul(10)
            .saturating_add(i64::from(b.saturating_sub(b'0')))
    })
}

fn is_leap(year: i64) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
/// Inputs are range-checked by the caller (year 1601..=9999), so plain arithmetic is safe.
#[allow(clippy::arithmetic_side_effects)]
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_epoch_and_leap_day() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
        assert_eq!(days_from_civil(1601, 1, 1), -134_774);
    }

    // 2023-11-14 22:30:00 UTC.
    const T: i64 = 1_700_001_000;

    #[test]
    fn formats_servers_send_5_1_1() {
        for s in [
            "Tue, 14 Nov 2023 22:30:00 GMT",   // RFC 1123 / IMF-fixdate
            "Tuesday, 14-Nov-23 22:30:00 GMT", // RFC 850, two-digit year
            "Tue Nov 14 22:30:00 2023",        // asctime
            "14 nov 2023 22:30:00",            // lowercase month
            "14 NOVEMBER 2023 22:30:00xyz",    // month *OCTET, trailing junk on the time
            "2023 22:30:00 Nov 14",            // any order
            "14-Nov-2023 22:30:00 +0100",      // zone ignored: cookie dates are UTC
            "Tue, 14 Nov 2023 22:30:00 GMT;",  // trailing delimiter
        ] {
            assert_eq!(parse_cookie_date(s), Some(T), "{s}");
        }
    }

    #[test]
    fn two_digit_years_5_1_1() {
        assert_eq!(parse_cookie_date("1 Jan 70 00:00:00"), Some(0));
        assert_eq!(parse_cookie_date("1 Jan 99 00:00:00"), Some(915_148_800));
        assert_eq!(parse_cookie_date("1 Jan 00 00:00:00"), Some(946_684_800));
        assert_eq!(parse_cookie_date("14 Nov 24 00:00:00"), Some(1_731_542_400));
        assert_eq!(parse_cookie_date("1 Jan 69 00:00:00"), Some(3_124_224_000));
    }

    #[test]
    fn ranges_and_calendar_5_1_1() {
        assert_eq!(
            parse_cookie_date("29 Feb 2024 00:00:00"),
            Some(1_709_164_800)
        );
        assert_eq!(
            parse_cookie_date("1 Jan 1601 00:00:00"),
            Some(-11_644_473_600)
        );
        assert_eq!(
            parse_cookie_date("31 Dec 9999 23:59:59"),
            Some(253_402_300_799)
        );
        for bad in [
            "29 Feb 2023 00:00:00", // not a leap year
            "30 Feb 2024 00:00:00",
            "31 Apr 2024 00:00:00",
            "0 Jan 2024 00:00:00",  // day < 1
            "32 Jan 2024 00:00:00", // day > 31
            "1 Jan 1600 00:00:00",  // year < 1601
            "1 Jan 2024 24:00:00",  // hour > 23
            "1 Jan 2024 00:60:00",  // minute > 59
            "1 Jan 2024 00:00:60",  // second > 59
            "1 Jan 2024",           // no time
            "Jan 2024 00:00:00",    // no day
            "1 2024 00:00:00",      // no month
            "1 Jan 00:00:00",       // no year
            "1 Jan 20245 00:00:00", // five-digit year token
            "1 Jan 2024 000:00:00", // three-digit time field
            "1 Jan 2024 00:00:000",
            "",
            "foo",
        ] {
            assert_eq!(parse_cookie_date(bad), None, "{bad}");
        }
    }

    #[test]
    fn first_match_of_each_kind_wins_5_1_1() {
        // The second time-shaped token is read as the day of month ("23" then a non-digit).
        assert_eq!(
            parse_cookie_date("22:30:00 23:59:59 Nov 2023"),
            Some(1_700_778_600)
        );
        // A second month token is ignored.
        assert_eq!(parse_cookie_date("14 Nov Dec 2023 22:30:00"), Some(T));
    }
}
