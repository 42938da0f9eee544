//! Secrets in the NSS key log format (`SSLKEYLOGFILE`), so a capture can be decrypted with
//! Wireshark. Only produced when the caller opts in with [`Config::key_log`](crate::Config).

use core::fmt::Write as _;

/// One key log line's worth: a label, the ClientHello random that identifies the connection,
/// and the secret. `Debug` leaves the secret out.
#[derive(Clone, PartialEq, Eq)]
pub struct KeyLogEntry {
    /// The NSS label, one of the `KeyLogEntry::*` constants.
    pub label: &'static str,
    /// ClientHello.random of the connection.
    pub client_random: [u8; 32],
    /// The secret (TLS 1.3: a traffic or exporter secret; TLS 1.2: the 48-byte master secret).
    pub secret: Vec<u8>,
}

impl KeyLogEntry {
    /// TLS 1.3 client_early_traffic_secret (only when the server selected a PSK we offered
    /// with the early_data indication).
    pub const CLIENT_EARLY_TRAFFIC_SECRET: &'static str = "CLIENT_EARLY_TRAFFIC_SECRET";
    /// TLS 1.3 client_handshake_traffic_secret.
    pub const CLIENT_HANDSHAKE_TRAFFIC_SECRET: &'static str = "CLIENT_HANDSHAKE_TRAFFIC_SECRET";
    /// TLS 1.3 server_handshake_traffic_secret.
    pub const SERVER_HANDSHAKE_TRAFFIC_SECRET: &'static str = "SERVER_HANDSHAKE_TRAFFIC_SECRET";
    /// TLS 1.3 client_application_traffic_secret_0.
    pub const CLIENT_TRAFFIC_SECRET_0: &'static str = "CLIENT_TRAFFIC_SECRET_0";
    /// TLS 1.3 server_application_traffic_secret_0.
    pub const SERVER_TRAFFIC_SECRET_0: &'static str = "SERVER_TRAFFIC_SECRET_0";
    /// TLS 1.3 exporter_master_secret.
    pub const EXPORTER_SECRET: &'static str = "EXPORTER_SECRET";
    /// TLS 1.2 master secret.
    pub const CLIENT_RANDOM: &'static str = "CLIENT_RANDOM";

    /// The key log line, without a newline: `LABEL <hex client_random> <hex secret>`
    /// (lowercase hex).
    pub fn to_line(&self) -> String {
        let mut s = String::with_capacity(
            self.label
                .len()
                .saturating_add(66)
                .saturating_add(self.secret.len().saturating_mul(2)),
        );
        s.push_str(self.label);
        s.push(' ');
        push_hex(&mut s, &self.client_random);
        s.push(' ');
        push_hex(&mut s, &self.secret);
        s
    }
}

impl core::fmt::Debug for KeyLogEntry {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let mut random = String::with_capacity(64);
        push_hex(&mut random, &self.client_random);
        f.debug_struct("KeyLogEntry")
            .field("label", &self.label)
            .field("client_random", &random)
            .finish_non_exhaustive()
    }
}

fn push_hex(s: &mut String, bytes: &[u8]) {
    for b in bytes {
        // Writing to a String cannot fail.
        let _ = write!(s, "{b:02x}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_format() {
        let mut client_random = [0u8; 32];
        client_random[0] = 0xab;
        client_random[31] = 0x01;
        let e = KeyLogEntry {
            label: KeyLogEntry::CLIENT_RANDOM,
            client_random,
            secret: vec![0x00, 0xff, 0x10],
        };
        assert_eq!(
            e.to_line(),
            format!("CLIENT_RANDOM ab{}01 00ff10", "00".repeat(30))
        );
    }

    #[test]
    fn debug_hides_the_secret() {
        let e = KeyLogEntry {
            label: KeyLogEntry::EXPORTER_SECRET,
            client_random: [0x11; 32],
            secret: vec![0x5e; 32],
        };
        let d = format!("{e:?}");
        assert!(
            d.contains("EXPORTER_SECRET") && d.contains(&"11".repeat(32)),
            "{d}"
        );
        assert!(!d.contains("5e") && !d.contains("94"), "{d}");
    }
}
