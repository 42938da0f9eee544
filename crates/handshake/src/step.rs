//! What a handshake step is given and what it may do: one whole message in, the connection's
//! settings to read, and a narrow [`Output`] for its effects (the driver implements it over
//! its record layer). A step owns its data and is consumed by the message it handles.

use crate::event::Event;
use crate::keyschedule as ks;
use crate::suites::Suite;
use crate::{Config, Error, HandshakeType};
use burrow_crypto::aead::AeadAlgorithm;
use burrow_record::{AlertDescription, TrafficKeys};

/// One whole handshake message.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Message<'a> {
    /// The message type.
    pub(crate) typ: HandshakeType,
    /// The whole message, header included: what the transcript takes.
    pub(crate) raw: &'a [u8],
    /// The body after the 4-byte header.
    pub(crate) body: &'a [u8],
}

impl<'a> Message<'a> {
    /// `raw` is one whole message (type, u24 length, body), as the driver assembled it.
    pub(crate) fn new(raw: &'a [u8]) -> Result<Self, Error> {
        let (&typ, _) = raw.split_first().ok_or(Error::Decode)?;
        let body = raw.get(4..).ok_or(Error::Decode)?;
        Ok(Self {
            typ: HandshakeType(typ),
            raw,
            body,
        })
    }
}

/// What a step reads: the connection's settings and the time of the current call.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Env<'a> {
    /// The connection's configuration.
    pub(crate) config: &'a Config,
    /// Unix milliseconds, as passed to the call being served.
    pub(crate) now_ms: u64,
}

/// Record protection to set up: an AEAD key and IV, for TLS 1.3 (12-byte IV, nonce from the
/// sequence number) or TLS 1.2 (RFC 5288 salt or RFC 7905 IV).
#[derive(Clone, Copy, Debug)]
pub(crate) struct KeyMaterial<'a> {
    pub(crate) aead: AeadAlgorithm,
    pub(crate) key: &'a [u8],
    pub(crate) iv: &'a [u8],
    pub(crate) tls12: bool,
    /// Whether the keys open the server's records (else they seal ours).
    pub(crate) for_reading: bool,
}

/// Everything a step may do besides choosing the next step.
pub(crate) trait Output {
    /// Queues a handshake message (or a flight of them) under the current write keys.
    fn send_handshake(&mut self, msg: &[u8]) -> Result<(), Error>;
    /// TLS 1.2: queues ChangeCipherSpec, then protects our records with `keys`.
    fn send_change_cipher_spec(&mut self, keys: TrafficKeys) -> Result<(), Error>;
    /// TLS 1.3 middlebox compatibility (RFC 8446 §D.4): one change_cipher_spec before our
    /// first protected record; later calls do nothing.
    fn send_compat_ccs(&mut self);
    /// Queues a warning alert (the connection stays up).
    fn send_warning(&mut self, alert: AlertDescription) -> Result<(), Error>;
    /// Record keys under a fresh key id, announced to an offloading caller
    /// ([`Event::TrafficKey`]).
    fn make_keys(&mut self, material: KeyMaterial<'_>) -> Result<TrafficKeys, Error>;
    /// Opens the server's records with `keys` from the next record on.
    fn read_with(&mut self, keys: TrafficKeys);
    /// Protects our records with `keys` from the next one on.
    fn write_with(&mut self, keys: TrafficKeys);
    /// The server's record_size_limit (RFC 8449), as the record writer counts it.
    fn set_peer_record_size_limit(&mut self, limit: u16);
    /// Hands the caller an event.
    fn emit(&mut self, event: Event);
    /// A secret for the key log; kept only when the caller asked for one
    /// ([`Config::key_log`]).
    fn log_secret(&mut self, label: &'static str, secret: &[u8]);

    /// TLS 1.3: opens the server's records with the keys of traffic secret `secret` from the
    /// next record on.
    fn read_secret(&mut self, suite: Suite, secret: &[u8]) -> Result<(), Error> {
        let keys = self.tls13_keys(suite, secret, true)?;
        self.read_with(keys);
        Ok(())
    }

    /// TLS 1.3: protects our records with the keys of traffic secret `secret` from the next
    /// one on.
    fn write_secret(&mut self, suite: Suite, secret: &[u8]) -> Result<(), Error> {
        let keys = self.tls13_keys(suite, secret, false)?;
        self.write_with(keys);
        Ok(())
    }

    /// TLS 1.3: the record keys of one traffic secret (RFC 8446 §7.3).
    fn tls13_keys(
        &mut self,
        suite: Suite,
        secret: &[u8],
        for_reading: bool,
    ) -> Result<TrafficKeys, Error> {
        let (key, iv) = ks::traffic_key_iv(suite, secret)?;
        self.make_keys(KeyMaterial {
            aead: suite.aead,
            key: &key,
            iv: &iv,
            tls12: false,
            for_reading,
        })
    }
}

/// What a version's handshake step leads to: another step of it, or application traffic.
pub(crate) enum Progress<H, T> {
    /// The handshake goes on.
    Handshake(H),
    /// The handshake is done.
    Traffic(T),
}
