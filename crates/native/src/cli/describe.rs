//! Human-readable names for what `-v` prints: TLS versions, suites, groups, dates and staple
//! verdicts (X.509 Names are rendered by burrow-client's `CertSummary`).

use burrow_client::{CertSummary, StapleStatus, TlsInfo};
use burrow_handshake::{CipherSuite, NamedGroup, ProtocolVersion};

/// `TLSv1.3` / `TLSv1.2`.
pub(crate) fn version(v: u16) -> String {
    ProtocolVersion(v).to_string()
}

/// The IANA name of a cipher suite (else its code point).
pub(crate) fn suite(s: u16) -> String {
    CipherSuite(s).to_string()
}

/// The IANA name of a key exchange group (else its code point).
pub(crate) fn group(g: u16) -> String {
    NamedGroup(g).to_string()
}

/// Unix seconds as `YYYY-MM-DD HH:MM:SS UTC` (proleptic Gregorian, civil-from-days).
#[allow(
    clippy::arithmetic_side_effects,
    reason = "times come from parsed certificates and OCSP responses, years 0..=9999: far from overflow"
)]
pub(crate) fn date(unix: i64) -> String {
    let days = unix.div_euclid(86_400);
    let secs = unix.rem_euclid(86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC",
        secs / 3600,
        secs % 3600 / 60,
        secs % 60
    )
}

/// The stapled OCSP verdict.
pub(crate) fn staple(s: &StapleStatus) -> String {
    match s {
        StapleStatus::Good(g) => match g.next_update {
            Some(next) => format!(
                "good (this update {}, next update {})",
                date(g.this_update),
                date(next)
            ),
            None => format!("good (this update {})", date(g.this_update)),
        },
        StapleStatus::None => "none sent".to_string(),
        StapleStatus::NotChecked => "not checked".to_string(),
    }
}

/// The `-v` lines for one TLS session (`who`: "TLS" or "proxy TLS").
pub(crate) fn tls_lines(who: &str, t: &TlsInfo) -> Vec<String> {
    let mut out = vec![
        format!(
            "{who}: {} / {} / {}",
            version(t.version),
            suite(t.cipher_suite),
            group(t.group)
        ),
        format!("{who} ALPN: {}", t.alpn.as_deref().unwrap_or("none")),
        format!("{who} resumed: {}", if t.resumed { "yes" } else { "no" }),
    ];
    if t.extended_master_secret == Some(false) {
        out.push(format!(
            "{who}: the TLS 1.2 server has no extended master secret (RFC 7627): session not resumable (refuse such servers with --require-ems)"
        ));
    }
    for (i, c) in t.peer_chain.iter().enumerate() {
        out.extend(cert_lines(who, i, c));
    }
    out.push(format!("{who} OCSP staple: {}", staple(&t.ocsp)));
    out
}

fn cert_lines(who: &str, i: usize, c: &CertSummary) -> [String; 2] {
    [
        format!("{who} certificate {i}: subject {}", c.subject_text()),
        format!(
            "{who} certificate {i}: issuer {}; expires {}",
            c.issuer_text(),
            date(c.not_after)
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(date(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(date(951_782_400), "2000-02-29 00:00:00 UTC");
        assert_eq!(date(1_798_761_599), "2026-12-31 23:59:59 UTC");
        assert_eq!(date(-1), "1969-12-31 23:59:59 UTC");
        // notAfter comes from the peer: extremes format without overflow.
        assert!(date(i64::MAX).ends_with(" UTC"));
        assert!(date(i64::MIN).ends_with(" UTC"));
    }

    #[test]
    fn code_point_names() {
        assert_eq!(suite(0x1301), "TLS_AES_128_GCM_SHA256");
        assert_eq!(suite(0xc02f), "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256");
        assert_eq!(suite(0x1234), "0x1234");
        assert_eq!(group(0x001d), "x25519");
        assert_eq!(version(0x0304), "TLSv1.3");
    }
}
