//! The client's opening handshake (RFC 6455 §4.1, §4.2.2; RFC 7692 §5, §7.1): the Upgrade
//! request's WebSocket fields, and the check of the server's 101 response.
//!
//! The HTTP/1.1 request and response heads themselves belong to the caller (burrow-h1 encodes
//! and parses them); this module only produces and reads the fields.

mod extensions;

use base64::Engine;
use sha1::Digest;

use crate::deflate::{DeflateOffer, DeflateParams, PERMESSAGE_DEFLATE};
use crate::error::{Error, Kind};

/// The GUID appended to the key before hashing (§1.3).
pub const GUID: &str = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

/// `Sec-WebSocket-Accept` for a `Sec-WebSocket-Key`: base64(SHA-1(key + GUID)) (§4.2.2).
pub fn accept_key(key: &str) -> String {
    let mut h = sha1::Sha1::new();
    h.update(key.as_bytes());
    h.update(GUID.as_bytes());
    base64::engine::general_purpose::STANDARD.encode(h.finalize())
}

/// What the client offers: a key from a caller-provided nonce, subprotocols, and optionally
/// permessage-deflate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Handshake {
    key: String,
    protocols: Vec<String>,
    deflate: Option<DeflateOffer>,
}

/// What the server's response agreed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Accepted {
    /// The subprotocol the server selected (one of the offered ones), `None` if it selected
    /// none. Browsers accept a response without one even when some were offered, and so does
    /// this check; a caller that requires one says so itself.
    pub protocol: Option<String>,
    /// The agreed permessage-deflate parameters, `None` if the server did not accept the
    /// extension (messages are then never compressed).
    pub deflate: Option<DeflateParams>,
}

impl Handshake {
    /// An offer whose `Sec-WebSocket-Key` is the base64 of `nonce`, which "MUST be selected
    /// randomly for each connection" (§4.1): the caller draws it from the platform's random
    /// source. No subprotocols; permessage-deflate offered as [`DeflateOffer::default`]
    /// (as browsers do).
    pub fn new(nonce: [u8; 16]) -> Handshake {
        Handshake {
            key: base64::engine::general_purpose::STANDARD.encode(nonce),
            protocols: Vec::new(),
            deflate: Some(DeflateOffer::default()),
        }
    }

    /// Offers these subprotocols, in order of preference. Each must be a token (RFC 9110
    /// §5.6.2) and appear once (WHATWG's `new WebSocket` throws a SyntaxError otherwise).
    pub fn with_protocols<S: AsRef<str>>(mut self, protocols: &[S]) -> Result<Handshake, Error> {
        let mut list: Vec<String> = Vec::with_capacity(protocols.len());
        for p in protocols {
            let p = p.as_ref();
            if p.is_empty() || !p.bytes().all(extensions::is_tchar) || list.iter().any(|q| q == p) {
                return Err(Error::user(Kind::InvalidProtocol));
            }
            list.push(p.to_owned());
        }
        self.protocols = list;
        Ok(self)
    }

    /// Offers permessage-deflate with these parameters, or not at all (`None`).
    pub fn with_deflate(mut self, offer: Option<DeflateOffer>) -> Result<Handshake, Error> {
        if let Some(o) = &offer {
            o.check()?;
        }
        self.deflate = offer;
        Ok(self)
    }

    /// The `Sec-WebSocket-Key` value.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// The offered subprotocols.
    pub fn protocols(&self) -> &[String] {
        &self.protocols
    }

    /// The header fields of the Upgrade request, in this order: `Upgrade: websocket`,
    /// `Connection: Upgrade`, `Sec-WebSocket-Key`, `Sec-WebSocket-Version: 13`, then
    /// `Sec-WebSocket-Protocol` and `Sec-WebSocket-Extensions` when something is offered. The
    /// caller sends them in a `GET` with `Host` (and `Origin`, cookies, authorization, as it
    /// likes).
    pub fn request_fields(&self) -> Vec<(&'static str, String)> {
        let mut f = vec![
            ("Upgrade", "websocket".to_owned()),
            ("Connection", "Upgrade".to_owned()),
            ("Sec-WebSocket-Key", self.key.clone()),
            ("Sec-WebSocket-Version", "13".to_owned()),
        ];
        if !self.protocols.is_empty() {
            f.push(("Sec-WebSocket-Protocol", self.protocols.join(", ")));
        }
        if let Some(d) = &self.deflate {
            f.push(("Sec-WebSocket-Extensions", d.header_value()));
        }
        f
    }

    /// Checks the server's response head (§4.1, "the client MUST validate the server's
    /// response as follows") and returns what it agreed.
    ///
    /// `fields` are the response's header fields as (name, value) bytes in order, as
    /// burrow-h1's `ResponseHead::headers.iter()` gives them. Names compare
    /// case-insensitively; values are trimmed of whitespace. Checked: status 101; exactly one
    /// `Upgrade`, equal to `websocket` ignoring case; a `Connection` token `upgrade`; exactly
    /// one `Sec-WebSocket-Accept`, equal to [`accept_key`] of our key; at most one selected
    /// subprotocol, one we offered (exact match); every extension one we offered, once, with
    /// parameters RFC 7692 §7.1 lets the server answer.
    pub fn check_response<'h, I>(&self, status: u16, fields: I) -> Result<Accepted, Error>
    where
        I: IntoIterator<Item = (&'h [u8], &'h [u8])>,
    {
        if status != 101 {
            return Err(Error::handshake(Kind::NotSwitchingProtocols { status }));
        }
        let mut upgrade = Vec::new();
        let mut connection_upgrade = false;
        let mut accept = Vec::new();
        let mut protocol = Vec::new();
        let mut exts = Vec::new();
        for (name, value) in fields {
            let value = value.trim_ascii();
            let is = |n: &str| name.eq_ignore_ascii_case(n.as_bytes());
            if is("upgrade") {
                upgrade.push(value);
            } else if is("connection") {
                connection_upgrade |= value
                    .split(|b| *b == b',')
                    .any(|t| t.trim_ascii().eq_ignore_ascii_case(b"upgrade"));
            } else if is("sec-websocket-accept") {
                accept.push(value);
            } else if is("sec-websocket-protocol") {
                protocol.push(value);
            } else if is("sec-websocket-extensions") {
                exts.push(value);
            }
        }
        match upgrade.as_slice() {
            [v] if v.eq_ignore_ascii_case(b"websocket") => {}
            _ => return Err(Error::handshake(Kind::BadUpgrade)),
        }
        if !connection_upgrade {
            return Err(Error::handshake(Kind::BadConnection));
        }
        match accept.as_slice() {
            [v] if *v == accept_key(&self.key).as_bytes() => {}
            [_] => return Err(Error::handshake(Kind::WrongAccept)),
            _ => return Err(Error::handshake(Kind::MissingAccept)),
        }
        let protocol = match protocol.as_slice() {
            [] => None,
            [v] => Some(
                self.protocols
                    .iter()
                    .find(|p| p.as_bytes() == *v)
                    .cloned()
                    .ok_or(Error::handshake(Kind::UnofferedProtocol))?,
            ),
            _ => return Err(Error::handshake(Kind::UnofferedProtocol)),
        };
        Ok(Accepted {
            protocol,
            deflate: self.check_extensions(&exts)?,
        })
    }

    /// "If the response includes a |Sec-WebSocket-Extensions| header field and this header
    /// field indicates the use of an extension that was not present in the client's
    /// handshake ..., the client MUST _Fail the WebSocket Connection_."
    fn check_extensions(&self, values: &[&[u8]]) -> Result<Option<DeflateParams>, Error> {
        let mut agreed = None;
        for v in values {
            let list =
                extensions::parse(v).map_err(|_| Error::handshake(Kind::MalformedExtensions))?;
            for ext in list {
                let offer = match &self.deflate {
                    Some(o) if ext.name == PERMESSAGE_DEFLATE && agreed.is_none() => o,
                    _ => return Err(Error::handshake(Kind::UnofferedExtension)),
                };
                agreed = Some(offer.accept(&ext.params)?);
            }
        }
        Ok(agreed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deflate::ClientWindowOffer;
    use crate::error::{DeflateParam, ParamProblem, Scope};

    /// The nonce whose base64 is RFC 6455's example key "dGhlIHNhbXBsZSBub25jZQ==".
    const NONCE: [u8; 16] = *b"the sample nonce";

    fn ok_fields() -> Vec<(&'static [u8], Vec<u8>)> {
        vec![
            (b"Upgrade", b"websocket".to_vec()),
            (b"Connection", b"Upgrade".to_vec()),
            (
                b"Sec-WebSocket-Accept",
                b"s3pPLMBiTxaQ9kYGzzhZRbK+xOo=".to_vec(),
            ),
        ]
    }

    fn check(h: &Handshake, fields: &[(&'static [u8], Vec<u8>)]) -> Result<Accepted, Error> {
        h.check_response(101, fields.iter().map(|(n, v)| (*n, v.as_slice())))
    }

    fn with(extra: &[(&'static [u8], &str)]) -> Vec<(&'static [u8], Vec<u8>)> {
        let mut f = ok_fields();
        f.extend(extra.iter().map(|(n, v)| (*n, v.as_bytes().to_vec())));
        f
    }

    #[test]
    fn rfc6455_example_key_and_accept() {
        let h = Handshake::new(NONCE);
        assert_eq!(h.key(), "dGhlIHNhbXBsZSBub25jZQ==");
        assert_eq!(accept_key(h.key()), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
        let a = check(&h, &ok_fields()).unwrap();
        assert_eq!((a.protocol, a.deflate), (None, None));
    }

    #[test]
    fn request_fields() {
        let h = Handshake::new(NONCE)
            .with_protocols(&["chat", "superchat"])
            .unwrap();
        let f = h.request_fields();
        let names: Vec<&str> = f.iter().map(|(n, _)| *n).collect();
        assert_eq!(
            names,
            [
                "Upgrade",
                "Connection",
                "Sec-WebSocket-Key",
                "Sec-WebSocket-Version",
                "Sec-WebSocket-Protocol",
                "Sec-WebSocket-Extensions"
            ]
        );
        assert_eq!(f[4].1, "chat, superchat");
        assert_eq!(f[5].1, "permessage-deflate; client_max_window_bits");
        let bare = Handshake::new(NONCE).with_deflate(None).unwrap();
        assert_eq!(bare.request_fields().len(), 4);
    }

    #[test]
    fn protocols_to_offer_are_tokens_once() {
        for bad in [&["a b"][..], &[""], &["chat", "chat"], &["a,b"]] {
            let e = Handshake::new(NONCE).with_protocols(bad).unwrap_err();
            assert_eq!((e.kind(), e.scope()), (Kind::InvalidProtocol, Scope::Call));
        }
    }

    #[test]
    fn response_checks_name_what_was_wrong() {
        let h = Handshake::new(NONCE).with_protocols(&["chat"]).unwrap();
        let kind = |f: &[(&'static [u8], Vec<u8>)]| check(&h, f).unwrap_err().kind();
        assert_eq!(
            h.check_response(200, ok_fields().iter().map(|(n, v)| (*n, v.as_slice())))
                .unwrap_err()
                .kind(),
            Kind::NotSwitchingProtocols { status: 200 }
        );
        let without = |name: &[u8]| -> Vec<(&'static [u8], Vec<u8>)> {
            ok_fields()
                .into_iter()
                .filter(|(n, _)| *n != name)
                .collect()
        };
        assert_eq!(kind(&without(b"Upgrade")), Kind::BadUpgrade);
        assert_eq!(kind(&with(&[(b"upgrade", "websocket")])), Kind::BadUpgrade);
        assert_eq!(kind(&without(b"Connection")), Kind::BadConnection);
        assert_eq!(kind(&without(b"Sec-WebSocket-Accept")), Kind::MissingAccept);
        assert_eq!(
            kind(&with(&[(
                b"Sec-WebSocket-Accept",
                "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
            )])),
            Kind::MissingAccept
        );
        let mut wrong = ok_fields();
        wrong[2].1 = b"s3pPLMBiTxaQ9kYGzzhZRbK+xOo".to_vec();
        assert_eq!(kind(&wrong), Kind::WrongAccept);
        assert_eq!(
            kind(&with(&[(b"Sec-WebSocket-Protocol", "other")])),
            Kind::UnofferedProtocol
        );
        assert_eq!(
            kind(&with(&[(b"Sec-WebSocket-Protocol", "Chat")])),
            Kind::UnofferedProtocol
        );
        assert_eq!(
            kind(&with(&[
                (b"Sec-WebSocket-Protocol", "chat"),
                (b"Sec-WebSocket-Protocol", "chat")
            ])),
            Kind::UnofferedProtocol
        );
        assert_eq!(
            kind(&with(&[(b"Sec-WebSocket-Extensions", "x-foo")])),
            Kind::UnofferedExtension
        );
        assert_eq!(
            kind(&with(&[
                (b"Sec-WebSocket-Extensions", "permessage-deflate"),
                (b"Sec-WebSocket-Extensions", "permessage-deflate")
            ])),
            Kind::UnofferedExtension
        );
        assert_eq!(
            kind(&with(&[(
                b"Sec-WebSocket-Extensions",
                "permessage-deflate; x"
            )])),
            Kind::DeflateParameter {
                param: DeflateParam::Unknown,
                problem: ParamProblem::Unknown
            }
        );
        assert_eq!(
            kind(&with(&[(
                b"Sec-WebSocket-Extensions",
                "permessage-deflate;"
            )])),
            Kind::MalformedExtensions
        );
        let no_deflate = Handshake::new(NONCE).with_deflate(None).unwrap();
        assert_eq!(
            check(
                &no_deflate,
                &with(&[(b"Sec-WebSocket-Extensions", "permessage-deflate")])
            )
            .unwrap_err()
            .kind(),
            Kind::UnofferedExtension
        );
    }

    #[test]
    fn accepted_protocol_and_deflate() {
        let h = Handshake::new(NONCE)
            .with_protocols(&["chat", "superchat"])
            .unwrap()
            .with_deflate(Some(DeflateOffer {
                client_max_window_bits: ClientWindowOffer::Supported,
                ..DeflateOffer::default()
            }))
            .unwrap();
        let a = check(
            &h,
            &with(&[
                (b"sec-websocket-protocol", " superchat "),
                (
                    b"SEC-WEBSOCKET-EXTENSIONS",
                    "permessage-deflate; client_max_window_bits=\"10\"; server_no_context_takeover",
                ),
                (b"Connection", "keep-alive"),
            ]),
        )
        .unwrap();
        assert_eq!(a.protocol.as_deref(), Some("superchat"));
        assert_eq!(
            a.deflate,
            Some(DeflateParams {
                server_no_context_takeover: true,
                client_max_window_bits: 10,
                ..DeflateParams::default()
            })
        );
        // Case of Upgrade and Connection values is not significant; Connection is a list.
        let mut f = ok_fields();
        f[0].1 = b"WebSocket".to_vec();
        f[1].1 = b"keep-alive, upgrade".to_vec();
        assert!(check(&h, &f).is_ok());
    }
}
