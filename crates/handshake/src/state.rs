//! Where the connection is: waiting for the ServerHello, in a version's handshake, or in its
//! application traffic. The steps themselves live in `server_hello`, `tls13`, `tls12` and
//! `traffic`; this closed enum only routes to them.

use crate::server_hello::{AfterServerHello, ExpectServerHello};
use crate::step::{Env, Message, Output, Progress};
use crate::tls12::Tls12;
use crate::tls13::Tls13;
use crate::traffic::{Traffic12, Traffic13};
use crate::verify::Answer;
use crate::Error;

/// Where the connection is.
pub(crate) enum State {
    /// The ClientHello is out.
    ServerHello(Box<ExpectServerHello>),
    /// A TLS 1.3 handshake after ServerHello.
    Tls13(Tls13),
    /// A TLS 1.2 handshake after ServerHello.
    Tls12(Tls12),
    /// TLS 1.3 application traffic.
    Traffic13(Box<Traffic13>),
    /// TLS 1.2 application traffic.
    Traffic12(Traffic12),
    /// Failed (or being replaced while a step runs).
    Dead,
}

impl State {
    /// Handles one whole handshake message.
    pub(crate) fn handle(
        self,
        m: Message<'_>,
        env: Env<'_>,
        out: &mut dyn Output,
    ) -> Result<Self, Error> {
        Ok(match self {
            Self::ServerHello(s) => match s.handle(m, env, out)? {
                AfterServerHello::Retry(s) => Self::ServerHello(s),
                AfterServerHello::Tls13(s) => Self::Tls13(s),
                AfterServerHello::Tls12(s) => Self::Tls12(s),
            },
            Self::Tls13(s) => match s.handle(m, env, out)? {
                Progress::Handshake(s) => Self::Tls13(s),
                Progress::Traffic(t) => Self::Traffic13(Box::new(t)),
            },
            Self::Tls12(s) => match s.handle(m, env, out)? {
                Progress::Handshake(s) => Self::Tls12(s),
                Progress::Traffic(t) => Self::Traffic12(t),
            },
            Self::Traffic13(mut t) => {
                t.handle(m, env, out)?;
                Self::Traffic13(t)
            }
            Self::Traffic12(mut t) => {
                t.handle(m, out)?;
                Self::Traffic12(t)
            }
            Self::Dead => return Err(Error::UnexpectedMessage),
        })
    }

    /// Applies the caller's answer to an outstanding request.
    pub(crate) fn complete(self, answer: Answer) -> Result<Self, Error> {
        match self {
            Self::Tls13(s) => s.complete(answer).map(Self::Tls13),
            Self::Tls12(s) => s.complete(answer).map(Self::Tls12),
            other => Ok(other),
        }
    }

    /// Applies the caller's answer to [`Event::NeedSign`](crate::Event::NeedSign).
    pub(crate) fn complete_sign(
        self,
        signature: &[u8],
        out: &mut dyn Output,
    ) -> Result<Self, Error> {
        Ok(match self {
            Self::Tls13(s) => match s.complete_sign(signature, out)? {
                Progress::Handshake(s) => Self::Tls13(s),
                Progress::Traffic(t) => Self::Traffic13(Box::new(t)),
            },
            Self::Tls12(s) => Self::Tls12(s.complete_sign(signature, out)?),
            _ => return Err(Error::Misuse),
        })
    }

    /// Whether the outstanding request is a [`Event::NeedSign`](crate::Event::NeedSign).
    pub(crate) fn awaiting_signature(&self) -> bool {
        match self {
            Self::Tls13(s) => s.awaiting_signature(),
            Self::Tls12(s) => s.awaiting_signature(),
            _ => false,
        }
    }

    /// A change_cipher_spec record (delivered by the reader only during a TLS 1.2 handshake).
    pub(crate) fn change_cipher_spec(self, out: &mut dyn Output) -> Result<Self, Error> {
        match self {
            Self::Tls12(s) => s.change_cipher_spec(out).map(Self::Tls12),
            _ => Err(Error::UnexpectedMessage),
        }
    }

    pub(crate) fn awaiting_answer(&self) -> bool {
        match self {
            Self::Tls13(s) => s.awaiting_answer(),
            Self::Tls12(s) => s.awaiting_answer(),
            _ => false,
        }
    }

    pub(crate) fn is_traffic(&self) -> bool {
        matches!(self, Self::Traffic13(_) | Self::Traffic12(_))
    }

    pub(crate) fn traffic13_mut(&mut self) -> Option<&mut Traffic13> {
        match self {
            Self::Traffic13(t) => Some(t),
            _ => None,
        }
    }

    /// Whether the peer's handshake-phase change_cipher_spec is still acceptable.
    pub(crate) fn before_server_finished(&self) -> bool {
        !matches!(self, Self::Traffic13(_) | Self::Traffic12(_) | Self::Dead)
    }

    /// TLS 1.2 handshake: the server's ChangeCipherSpec is a record the handshake acts on.
    /// TLS 1.2: the server asked for a certificate, ours was empty, and the server has not
    /// answered our flight yet (its refusal then means "a certificate is required").
    pub(crate) fn sent_empty_certificate12(&self) -> bool {
        matches!(self, Self::Tls12(s) if s.sent_empty_certificate())
    }

    pub(crate) fn delivers_change_cipher_spec(&self) -> bool {
        matches!(self, Self::Tls12(_))
    }
}
