//! Opening a connection to an origin: TCP to the first hop, the proxy handshake, the origin's
//! TLS, each under its deadline.

use crate::config::ClientConfig;
use crate::deadline::{Clock, Deadline};
use crate::error::Error;
use crate::message::Timings;
use crate::net::{Net, NetStream};
use crate::proxy::{http_connect, socks5_connect};
use crate::sessions::{SessionCache, SessionScope};
use crate::tls::{TlsInfo, TlsStream};
use crate::transport::{Hop, HopKind, Transport};
use burrow_proxy::{Proxy, Scheme as ProxyScheme};
use std::pin::pin;

/// Where a request goes: the origin as the URL names it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Origin {
    pub(crate) https: bool,
    /// Host name (punycode) or IP literal without brackets.
    pub(crate) host: String,
    pub(crate) port: u16,
}

impl Origin {
    pub(crate) fn of(url: &url::Url) -> Result<Origin, Error> {
        let https = match url.scheme() {
            "https" => true,
            "http" => false,
            other => {
                return Err(Error::BadUrl(format!(
                    "scheme {other:?} is not supported (http or https)"
                )))
            }
        };
        let host = match url.host() {
            Some(url::Host::Domain(d)) => d.to_string(),
            Some(url::Host::Ipv4(a)) => a.to_string(),
            Some(url::Host::Ipv6(a)) => a.to_string(),
            None => return Err(Error::BadUrl(format!("{url} has no host"))),
        };
        let port = url
            .port_or_known_default()
            .ok_or_else(|| Error::BadUrl(format!("{url} has no port")))?;
        Ok(Origin { https, host, port })
    }
}

/// A connection ready for HTTP, and what it is.
pub(crate) struct Connected<S: NetStream> {
    pub(crate) stream: Transport<S>,
    pub(crate) info: ConnInfo,
}

/// What a connection is (kept with it in the pool).
#[derive(Clone, Debug, Default)]
pub(crate) struct ConnInfo {
    pub(crate) tls: Option<TlsInfo>,
    pub(crate) proxy_tls: Option<TlsInfo>,
    pub(crate) proxied: Option<ProxyScheme>,
    /// Requests go out in absolute-form with proxy credentials (plain http via an HTTP proxy).
    pub(crate) absolute_form: Option<Proxy>,
    pub(crate) timings: Timings,
}

/// What a new connection is for, where that changes how it is made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Purpose {
    /// Offer only `http/1.1` in ALPN, whatever `http1_only` says (a WebSocket's Upgrade is
    /// HTTP/1.1).
    pub(crate) http1_only: bool,
    /// Reach a plain `http` origin through an HTTP(S) proxy by a CONNECT tunnel rather than in
    /// absolute-form: a WebSocket is not a request a proxy can forward (browsers tunnel `ws://`
    /// too).
    pub(crate) tunnel: bool,
}

/// The proxy to use for `origin`, after no_proxy.
pub(crate) fn proxy_for<'a>(config: &'a ClientConfig, origin: &Origin) -> Option<&'a Proxy> {
    config
        .proxy
        .as_ref()
        .filter(|_| !config.no_proxy.matches(&origin.host, origin.port))
}

pub(crate) async fn connect<N: Net>(
    net: &N,
    config: &ClientConfig,
    origin: &Origin,
    clock: &Clock,
    sessions: &SessionCache,
    scope: &SessionScope,
    purpose: Purpose,
) -> Result<Connected<N::Stream>, Error> {
    let d = &config.deadlines;
    let proxy = proxy_for(config, origin);
    let (first_host, first_port) = match proxy {
        Some(p) => (p.host.as_str(), p.port),
        None => (origin.host.as_str(), origin.port),
    };
    let mut info = ConnInfo {
        proxied: proxy.map(|p| p.scheme),
        ..ConnInfo::default()
    };
    let t0 = net.now_ms();
    let tcp = clock
        .run(
            net,
            Deadline::Connect,
            d.connect,
            pin!(net.connect(first_host, first_port)),
        )
        .await?
        .map_err(|e| Error::from_io(e, Error::Connect))?;
    let t1 = net.now_ms();
    info.timings.connect = t1.saturating_sub(t0);
    let hop = match proxy {
        None => Hop::tcp(tcp),
        Some(p) => {
            let hop = clock
                .run(
                    net,
                    Deadline::Proxy,
                    d.proxy,
                    pin!(proxy_handshake(
                        net, config, p, origin, purpose, tcp, &mut info
                    )),
                )
                .await??;
            info.timings.proxy = net.now_ms().saturating_sub(t1);
            hop
        }
    };
    let stream = if origin.https {
        let h1_only;
        let settings = if config.http1_only || purpose.http1_only {
            let mut s = config.tls.clone();
            s.alpn.retain(|p| p.as_slice() != b"h2");
            h1_only = s;
            &h1_only
        } else {
            &config.tls
        };
        let t2 = net.now_ms();
        let tls = clock
            .run(
                net,
                Deadline::Tls,
                d.tls,
                pin!(TlsStream::connect_resuming(
                    hop,
                    &origin.host,
                    settings,
                    net.now_ms(),
                    sessions.slot(scope, proxy, origin),
                )),
            )
            .await??;
        info.timings.tls = net.now_ms().saturating_sub(t2);
        info.tls = Some(tls.info().clone());
        Transport::Tls(Box::new(tls))
    } else {
        Transport::Plain(hop)
    };
    Ok(Connected { stream, info })
}

async fn proxy_handshake<N: Net>(
    net: &N,
    config: &ClientConfig,
    p: &Proxy,
    origin: &Origin,
    purpose: Purpose,
    mut tcp: N::Stream,
    info: &mut ConnInfo,
) -> Result<Hop<N::Stream>, Error> {
    let creds = p.credentials.as_ref();
    let pc = config.proxy_connection;
    let ua = config.user_agent.as_deref();
    match p.scheme {
        ProxyScheme::Http if !origin.https && !purpose.tunnel => {
            info.absolute_form = Some(p.clone());
            Ok(Hop::tcp(tcp))
        }
        ProxyScheme::Http => {
            let early = http_connect(&mut tcp, &origin.host, origin.port, creds, pc, ua).await?;
            Ok(Hop {
                early,
                early_pos: 0,
                kind: HopKind::Tcp(tcp),
            })
        }
        ProxyScheme::Https => {
            let mut tls = TlsStream::connect(tcp, &p.host, &config.proxy_tls, net.now_ms())
                .await
                .map_err(Error::at_proxy)?;
            info.proxy_tls = Some(tls.info().clone());
            let early = if origin.https || purpose.tunnel {
                http_connect(&mut tls, &origin.host, origin.port, creds, pc, ua)
                    .await
                    .map_err(|e| match e {
                        // In TLS 1.3 the client's side of the handshake ends before the
                        // server has judged its certificate: the proxy's refusal
                        // (certificate_required, ...) comes with the first read, the CONNECT
                        // answer's, and is the proxy hop's failure.
                        e @ Error::Tls(_) => e.at_proxy(),
                        e => e,
                    })?
            } else {
                info.absolute_form = Some(p.clone());
                Vec::new()
            };
            Ok(Hop {
                early,
                early_pos: 0,
                kind: HopKind::Tls(Box::new(tls)),
            })
        }
        ProxyScheme::Socks5 | ProxyScheme::Socks5h => {
            // Without name lookup on this platform, socks5:// never fails for want of DNS: the
            // proxy resolves, as the URL's `h` would have asked.
            let remote_dns = p.scheme == ProxyScheme::Socks5h || !net.resolves_names();
            if remote_dns {
                info.proxied = Some(ProxyScheme::Socks5h);
            }
            let early =
                socks5_connect(net, &mut tcp, &origin.host, origin.port, creds, remote_dns).await?;
            Ok(Hop {
                early,
                early_pos: 0,
                kind: HopKind::Tcp(tcp),
            })
        }
    }
}
