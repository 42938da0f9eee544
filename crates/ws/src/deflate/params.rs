//! permessage-deflate negotiation (RFC 7692 §7.1): the client's offer and the check of the
//! server's response against it.

use crate::error::{DeflateParam, Error, Kind, ParamProblem};

/// The extension's name in `Sec-WebSocket-Extensions`.
pub const PERMESSAGE_DEFLATE: &str = "permessage-deflate";

/// What the client says about its own compressor's window (`client_max_window_bits`,
/// RFC 7692 §7.1.2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClientWindowOffer {
    /// Not offered: the server may not limit our window.
    Absent,
    /// Offered without a value: the server may limit our window.
    Supported,
    /// Offered with a value (8..=15): our window is at most this, and the server may lower it.
    Limit(u8),
}

/// One permessage-deflate offer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeflateOffer {
    /// Ask the server to compress each message with an empty window (§7.1.1.1).
    pub server_no_context_takeover: bool,
    /// Tell the server we compress each message with an empty window (§7.1.1.2).
    pub client_no_context_takeover: bool,
    /// The largest window (8..=15 bits) the server may compress with (§7.1.2.1); `None`: 15.
    pub server_max_window_bits: Option<u8>,
    /// Our window, see [`ClientWindowOffer`].
    pub client_max_window_bits: ClientWindowOffer,
}

impl Default for DeflateOffer {
    /// `permessage-deflate; client_max_window_bits`: Chromium's offer (context takeover both
    /// ways, 32 KiB windows, and the server may make ours smaller).
    fn default() -> DeflateOffer {
        DeflateOffer {
            server_no_context_takeover: false,
            client_no_context_takeover: false,
            server_max_window_bits: None,
            client_max_window_bits: ClientWindowOffer::Supported,
        }
    }
}

/// What the handshake agreed (RFC 7692 §7.1), from our side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeflateParams {
    /// The server starts every message with an empty window: our inflater is reset per message.
    pub server_no_context_takeover: bool,
    /// We start every message with an empty window.
    pub client_no_context_takeover: bool,
    /// The server's window, 8..=15 bits (15 when not negotiated).
    pub server_max_window_bits: u8,
    /// Our window, 8..=15 bits (15 when not negotiated).
    pub client_max_window_bits: u8,
}

impl Default for DeflateParams {
    /// Context takeover both ways, 15-bit windows: what an offer and a response without
    /// parameters agree.
    fn default() -> DeflateParams {
        DeflateParams {
            server_no_context_takeover: false,
            client_no_context_takeover: false,
            server_max_window_bits: 15,
            client_max_window_bits: 15,
        }
    }
}

impl DeflateOffer {
    /// Checks the window sizes (8..=15): a caller error otherwise.
    pub fn check(&self) -> Result<(), Error> {
        let ok = |b: u8| (8..=15).contains(&b);
        let client_ok = match self.client_max_window_bits {
            ClientWindowOffer::Limit(b) => ok(b),
            ClientWindowOffer::Absent | ClientWindowOffer::Supported => true,
        };
        if self.server_max_window_bits.is_some_and(|b| !ok(b)) || !client_ok {
            return Err(Error::user(Kind::InvalidDeflateOffer));
        }
        Ok(())
    }

    /// The offer as one element of `Sec-WebSocket-Extensions`.
    pub fn header_value(&self) -> String {
        let mut v = String::from(PERMESSAGE_DEFLATE);
        if self.server_no_context_takeover {
            v.push_str("; server_no_context_takeover");
        }
        if self.client_no_context_takeover {
            v.push_str("; client_no_context_takeover");
        }
        if let Some(b) = self.server_max_window_bits {
            v.push_str(&format!("; server_max_window_bits={b}"));
        }
        match self.client_max_window_bits {
            ClientWindowOffer::Absent => {}
            ClientWindowOffer::Supported => v.push_str("; client_max_window_bits"),
            ClientWindowOffer::Limit(b) => v.push_str(&format!("; client_max_window_bits={b}")),
        }
        v
    }

    /// Checks the parameters of the server's `permessage-deflate` response against this offer
    /// and returns what was agreed. Every rule of RFC 7692 §7.1 that a client checks: unknown
    /// and repeated parameters, values where none belong (and none where one does), window
    /// sizes outside 8..=15 or above the offer, `client_max_window_bits` not offered, and the
    /// offer's `server_no_context_takeover` / `server_max_window_bits` left out of the answer.
    pub fn accept(&self, params: &[(&str, Option<String>)]) -> Result<DeflateParams, Error> {
        let mut seen = [false; 4];
        let mut agreed = DeflateParams::default();
        let (mut server_bits, mut client_bits) = (None, None);
        for (name, value) in params {
            let param = match *name {
                "server_no_context_takeover" => DeflateParam::ServerNoContextTakeover,
                "client_no_context_takeover" => DeflateParam::ClientNoContextTakeover,
                "server_max_window_bits" => DeflateParam::ServerMaxWindowBits,
                "client_max_window_bits" => DeflateParam::ClientMaxWindowBits,
                _ => return Err(Error::param(DeflateParam::Unknown, ParamProblem::Unknown)),
            };
            let slot = match param {
                DeflateParam::ServerNoContextTakeover => &mut seen[0],
                DeflateParam::ClientNoContextTakeover => &mut seen[1],
                DeflateParam::ServerMaxWindowBits => &mut seen[2],
                _ => &mut seen[3],
            };
            if core::mem::replace(slot, true) {
                return Err(Error::param(param, ParamProblem::Repeated));
            }
            let bad = || Error::param(param, ParamProblem::BadValue);
            match param {
                DeflateParam::ServerNoContextTakeover | DeflateParam::ClientNoContextTakeover => {
                    if value.is_some() {
                        return Err(bad());
                    }
                    if param == DeflateParam::ServerNoContextTakeover {
                        agreed.server_no_context_takeover = true;
                    } else {
                        agreed.client_no_context_takeover = true;
                    }
                }
                DeflateParam::ServerMaxWindowBits => {
                    server_bits = Some(value.as_deref().and_then(window_bits).ok_or_else(bad)?);
                }
                _ => {
                    // "If a received extension negotiation response includes the
                    // client_max_window_bits extension parameter and the received extension
                    // negotiation offer ... didn't, the client MUST _Fail the WebSocket
                    // Connection_."
                    if self.client_max_window_bits == ClientWindowOffer::Absent {
                        return Err(Error::param(param, ParamProblem::NotOffered));
                    }
                    client_bits = Some(value.as_deref().and_then(window_bits).ok_or_else(bad)?);
                }
            }
        }
        if self.server_no_context_takeover && !agreed.server_no_context_takeover {
            return Err(Error::param(
                DeflateParam::ServerNoContextTakeover,
                ParamProblem::Missing,
            ));
        }
        // The server accepts an offered server_max_window_bits by answering it with the same or
        // a smaller value (§7.1.2.1); without an offer it may still limit its own window.
        match (self.server_max_window_bits, server_bits) {
            (Some(_), None) => {
                return Err(Error::param(
                    DeflateParam::ServerMaxWindowBits,
                    ParamProblem::Missing,
                ))
            }
            (Some(offered), Some(b)) if b > offered => {
                return Err(Error::param(
                    DeflateParam::ServerMaxWindowBits,
                    ParamProblem::AboveOffer,
                ))
            }
            (_, Some(b)) => agreed.server_max_window_bits = b,
            (None, None) => {}
        }
        match (self.client_max_window_bits, client_bits) {
            (ClientWindowOffer::Limit(offered), Some(b)) if b > offered => {
                return Err(Error::param(
                    DeflateParam::ClientMaxWindowBits,
                    ParamProblem::AboveOffer,
                ))
            }
            (_, Some(b)) => agreed.client_max_window_bits = b,
            (ClientWindowOffer::Limit(offered), None) => agreed.client_max_window_bits = offered,
            (_, None) => {}
        }
        Ok(agreed)
    }
}

/// A window size: "a decimal integer value without leading zeroes between 8 to 15, inclusive".
fn window_bits(v: &str) -> Option<u8> {
    if v.starts_with('0') || !v.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    v.parse::<u8>().ok().filter(|b| (8..=15).contains(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(list: &[(&'static str, Option<&str>)]) -> Vec<(&'static str, Option<String>)> {
        list.iter()
            .map(|(n, v)| (*n, v.map(str::to_owned)))
            .collect()
    }

    fn problem(
        offer: DeflateOffer,
        list: &[(&'static str, Option<&str>)],
    ) -> (DeflateParam, ParamProblem) {
        match offer.accept(&p(list)).unwrap_err().kind() {
            Kind::DeflateParameter { param, problem } => (param, problem),
            k => panic!("{k:?}"),
        }
    }

    #[test]
    fn offers() {
        assert_eq!(
            DeflateOffer::default().header_value(),
            "permessage-deflate; client_max_window_bits"
        );
        let all = DeflateOffer {
            server_no_context_takeover: true,
            client_no_context_takeover: true,
            server_max_window_bits: Some(10),
            client_max_window_bits: ClientWindowOffer::Limit(12),
        };
        assert_eq!(
            all.header_value(),
            "permessage-deflate; server_no_context_takeover; client_no_context_takeover; \
             server_max_window_bits=10; client_max_window_bits=12"
        );
        assert!(all.check().is_ok());
        let bad = DeflateOffer {
            server_max_window_bits: Some(16),
            ..DeflateOffer::default()
        };
        assert_eq!(bad.check().unwrap_err().kind(), Kind::InvalidDeflateOffer);
    }

    #[test]
    fn agreed_parameters() {
        let d = DeflateOffer::default();
        assert_eq!(d.accept(&[]).unwrap(), DeflateParams::default());
        let a = d
            .accept(&p(&[
                ("server_no_context_takeover", None),
                ("client_no_context_takeover", None),
                ("server_max_window_bits", Some("10")),
                ("client_max_window_bits", Some("9")),
            ]))
            .unwrap();
        assert_eq!(
            a,
            DeflateParams {
                server_no_context_takeover: true,
                client_no_context_takeover: true,
                server_max_window_bits: 10,
                client_max_window_bits: 9,
            }
        );
        // An offered client limit the server leaves out stays ours.
        let lim = DeflateOffer {
            client_max_window_bits: ClientWindowOffer::Limit(11),
            ..d
        };
        assert_eq!(lim.accept(&[]).unwrap().client_max_window_bits, 11);
    }

    #[test]
    fn refused_parameters() {
        use DeflateParam as D;
        use ParamProblem as P;
        let d = DeflateOffer::default();
        assert_eq!(problem(d, &[("x_bits", None)]), (D::Unknown, P::Unknown));
        assert_eq!(
            problem(
                d,
                &[
                    ("server_no_context_takeover", None),
                    ("server_no_context_takeover", None)
                ]
            ),
            (D::ServerNoContextTakeover, P::Repeated)
        );
        assert_eq!(
            problem(d, &[("client_no_context_takeover", Some("1"))]),
            (D::ClientNoContextTakeover, P::BadValue)
        );
        for v in [
            None,
            Some("7"),
            Some("16"),
            Some("010"),
            Some("+9"),
            Some(""),
        ] {
            assert_eq!(
                problem(d, &[("server_max_window_bits", v)]),
                (D::ServerMaxWindowBits, P::BadValue),
                "{v:?}"
            );
        }
        assert_eq!(
            problem(d, &[("client_max_window_bits", None)]),
            (D::ClientMaxWindowBits, P::BadValue)
        );
        let no_client = DeflateOffer {
            client_max_window_bits: ClientWindowOffer::Absent,
            ..d
        };
        assert_eq!(
            problem(no_client, &[("client_max_window_bits", Some("10"))]),
            (D::ClientMaxWindowBits, P::NotOffered)
        );
        let asks = DeflateOffer {
            server_no_context_takeover: true,
            server_max_window_bits: Some(10),
            client_max_window_bits: ClientWindowOffer::Limit(10),
            ..d
        };
        let ok = [
            ("server_no_context_takeover", None),
            ("server_max_window_bits", Some("10")),
        ];
        assert!(asks.accept(&p(&ok)).is_ok());
        assert_eq!(
            problem(asks, &ok[1..]),
            (D::ServerNoContextTakeover, P::Missing)
        );
        assert_eq!(
            problem(asks, &ok[..1]),
            (D::ServerMaxWindowBits, P::Missing)
        );
        assert_eq!(
            problem(asks, &[ok[0], ("server_max_window_bits", Some("11"))]),
            (D::ServerMaxWindowBits, P::AboveOffer)
        );
        assert_eq!(
            problem(
                asks,
                &[ok[0], ok[1], ("client_max_window_bits", Some("11"))]
            ),
            (D::ClientMaxWindowBits, P::AboveOffer)
        );
    }
}
