//! SOCKS5 `CONNECT` (RFC 1928) with optional username/password authentication (RFC 1929).
//!
//! Messages are sent one at a time, each after the proxy's previous reply: greeting, then the
//! username/password request if the proxy chose that method, then `CONNECT`. Version bytes are
//! checked (0x05, and 0x01 for the RFC 1929 status); the reserved byte of the final reply is
//! ignored (as curl does). The bound address of any type is parsed and skipped, so every byte
//! after it is tunnel data. All replies are at most 262 bytes, so nothing here grows unbounded.

use core::fmt;
use std::net::IpAddr;

use crate::{Credentials, Error, Handshake, Progress, Socks5Reply, Stage, Target};

const VERSION: u8 = 0x05;
const AUTH_VERSION: u8 = 0x01;
const METHOD_NO_AUTH: u8 = 0x00;
const METHOD_USERPASS: u8 = 0x02;
const METHOD_NONE_ACCEPTABLE: u8 = 0xFF;
const CMD_CONNECT: u8 = 0x01;
const ATYP_IPV4: u8 = 0x01;
const ATYP_DOMAIN: u8 = 0x03;
const ATYP_IPV6: u8 = 0x04;

enum State {
    Method,
    Auth,
    Reply,
    Done,
    Failed(Error),
}

/// A SOCKS5 `CONNECT` handshake.
pub struct Socks5Handshake {
    transmit: Vec<u8>,
    received: Vec<u8>,
    state: State,
    stage: Stage,
    /// The RFC 1929 request, sent if the proxy picks username/password.
    auth_request: Option<Vec<u8>>,
    connect_request: Vec<u8>,
}

impl fmt::Debug for Socks5Handshake {
    // The pending messages may hold the password: never print them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Socks5Handshake")
            .field("stage", &self.stage)
            .field("pending_transmit_bytes", &self.transmit.len())
            .field("received_bytes", &self.received.len())
            .field("has_credentials", &self.auth_request.is_some())
            .finish_non_exhaustive()
    }
}

/// `len` as the one-byte length prefix SOCKS5 uses, if `1..=255`.
fn length_byte(len: usize) -> Option<u8> {
    u8::try_from(len).ok().filter(|&n| n > 0)
}

impl Socks5Handshake {
    /// Prepares the handshake. Offers method 0x00 (no authentication) and, when `credentials`
    /// are given, 0x02 (username/password). `Target::Domain` is sent as ATYP 3 (the proxy
    /// resolves it: socks5h behaviour; for plain socks5 the caller resolves and passes
    /// `Target::Ip`), `Target::Ip` as ATYP 1 or 4.
    ///
    /// Errors (nothing is sent): a user name or password that is empty or longer than 255
    /// bytes, a domain longer than 255 bytes or with characters not allowed in a host name,
    /// and port 0.
    pub fn new(target: &Target, credentials: Option<&Credentials>) -> Result<Self, Error> {
        let mut connect_request = vec![VERSION, CMD_CONNECT, 0x00];
        match target {
            Target::Domain(name, _) => {
                Target::check_domain(name)?;
                let len = length_byte(name.len()).ok_or_else(|| {
                    Error::invalid_request(format!(
                        "the target host name is {} bytes; SOCKS5 carries at most 255",
                        name.len()
                    ))
                })?;
                connect_request.extend_from_slice(&[ATYP_DOMAIN, len]);
                connect_request.extend_from_slice(name.as_bytes());
            }
            Target::Ip(IpAddr::V4(ip), _) => {
                connect_request.push(ATYP_IPV4);
                connect_request.extend_from_slice(&ip.octets());
            }
            Target::Ip(IpAddr::V6(ip), _) => {
                connect_request.push(ATYP_IPV6);
                connect_request.extend_from_slice(&ip.octets());
            }
        }
        if target.port() == 0 {
            return Err(Error::invalid_request("the target port is 0"));
        }
        connect_request.extend_from_slice(&target.port().to_be_bytes());

        let auth_request = credentials.map(auth_request).transpose()?;
        let transmit = if auth_request.is_some() {
            vec![VERSION, 2, METHOD_NO_AUTH, METHOD_USERPASS]
        } else {
            vec![VERSION, 1, METHOD_NO_AUTH]
        };
        Ok(Socks5Handshake {
            transmit,
            received: Vec::new(),
            state: State::Method,
            stage: Stage::Socks5Method,
            auth_request,
            connect_request,
        })
    }

    /// Consumes complete replies from `received` for as long as there are any.
    fn advance(&mut self) -> Result<Progress, Error> {
        loop {
            match self.state {
                State::Method => {
                    let Some(&[version, method]) = self.received.get(..2) else {
                        return Ok(Progress::NeedMore);
                    };
                    self.check_version(version, VERSION)?;
                    self.received.drain(..2);
                    match method {
                        METHOD_NO_AUTH => self.send_connect(),
                        METHOD_USERPASS => match self.auth_request.take() {
                            Some(request) => {
                                self.transmit.extend_from_slice(&request);
                                self.state = State::Auth;
                                self.stage = Stage::Socks5Auth;
                            }
                            None => return Err(self.unoffered(method)),
                        },
                        METHOD_NONE_ACCEPTABLE => return Err(Error::Socks5NoAcceptableMethod),
                        other => return Err(self.unoffered(other)),
                    }
                }
                State::Auth => {
                    let Some(&[version, status]) = self.received.get(..2) else {
                        return Ok(Progress::NeedMore);
                    };
                    self.check_version(version, AUTH_VERSION)?;
                    self.received.drain(..2);
                    if status != 0 {
                        return Err(Error::ProxyAuthRequired {
                            had_credentials: true,
                            proxy_authenticate: None,
                        });
                    }
                    self.send_connect();
                }
                State::Reply => {
                    let Some(&[version, reply]) = self.received.get(..2) else {
                        return Ok(Progress::NeedMore);
                    };
                    self.check_version(version, VERSION)?;
                    // A failure is final even if the proxy closes before the address follows.
                    if let Some(reply) = Socks5Reply::from_code(reply) {
                        return Err(Error::Socks5 { reply });
                    }
                    let Some(len) = self.reply_len()? else {
                        return Ok(Progress::NeedMore);
                    };
                    if self.received.len() < len {
                        return Ok(Progress::NeedMore);
                    }
                    self.received.drain(..len);
                    self.state = State::Done;
                    return Ok(Progress::Done {
                        leftover: core::mem::take(&mut self.received),
                    });
                }
                State::Done | State::Failed(_) => return Ok(Progress::NeedMore),
            }
        }
    }

    /// The length of the whole `CONNECT` reply, once the address type (and a domain's length
    /// byte) have arrived.
    fn reply_len(&self) -> Result<Option<usize>, Error> {
        let Some(&atyp) = self.received.get(3) else {
            return Ok(None);
        };
        // VER REP RSV ATYP, address, 2 port bytes.
        let address = match atyp {
            ATYP_IPV4 => 4,
            ATYP_IPV6 => 16,
            ATYP_DOMAIN => match self.received.get(4) {
                Some(&len) => usize::from(len).saturating_add(1),
                None => return Ok(None),
            },
            other => {
                return Err(Error::protocol(
                    Stage::Socks5Reply,
                    format!("unknown address type {other:#04x} in the bound address"),
                ))
            }
        };
        Ok(Some(address.saturating_add(6)))
    }

    fn send_connect(&mut self) {
        self.transmit.extend_from_slice(&self.connect_request);
        self.state = State::Reply;
        self.stage = Stage::Socks5Reply;
    }

    fn check_version(&self, got: u8, want: u8) -> Result<(), Error> {
        if got == want {
            return Ok(());
        }
        let hint = if got == b'H' {
            " (it looks like an HTTP reply: use an http:// proxy URL)"
        } else {
            ""
        };
        Err(Error::protocol(
            self.stage,
            format!("version byte {got:#04x}, expected {want:#04x}{hint}"),
        ))
    }

    fn unoffered(&self, method: u8) -> Error {
        Error::protocol(
            self.stage,
            format!("the proxy chose authentication method {method:#04x}, which was not offered"),
        )
    }
}

/// The RFC 1929 request: VER ULEN UNAME PLEN PASSWD.
fn auth_request(credentials: &Credentials) -> Result<Vec<u8>, Error> {
    let field = |value: &str, what: &str| {
        length_byte(value.len()).ok_or_else(|| {
            Error::invalid_request(format!(
                "the SOCKS5 {what} is {} bytes; RFC 1929 needs 1 to 255",
                value.len()
            ))
        })
    };
    let ulen = field(&credentials.username, "user name")?;
    let plen = field(&credentials.password, "password")?;
    let mut request = vec![AUTH_VERSION, ulen];
    request.extend_from_slice(credentials.username.as_bytes());
    request.push(plen);
    request.extend_from_slice(credentials.password.as_bytes());
    Ok(request)
}

impl Handshake for Socks5Handshake {
    fn take_transmit(&mut self) -> Vec<u8> {
        core::mem::take(&mut self.transmit)
    }

    fn feed(&mut self, input: &[u8]) -> Result<Progress, Error> {
        match &self.state {
            State::Done => {
                return Err(Error::invalid_request(
                    "the tunnel is already open; bytes after Done belong to the next layer",
                ))
            }
            State::Failed(e) => return Err(e.clone()),
            State::Method | State::Auth | State::Reply => {}
        }
        self.received.extend_from_slice(input);
        let result = self.advance();
        if let Err(e) = &result {
            self.state = State::Failed(e.clone());
            self.received = Vec::new();
            self.transmit = Vec::new();
        }
        result
    }

    fn eof(&mut self) -> Error {
        Error::ProxyClosed { stage: self.stage }
    }
}
