//! Options → `ClientConfig` and `Request` (local files read here; failures are usage errors).

use burrow_client::{ClientConfig, Decompress, NoProxy, Proxy, RedirectMode, Request, Trust};

use crate::args::{Data, HttpVersion, Options};
use crate::{exit, keylog, Failure, Route};

fn read(flag: &str, path: &str) -> Result<Vec<u8>, Failure> {
    std::fs::read(path).map_err(|e| Failure::new(exit::USAGE, format!("{flag} {path}: {e}")))
}

fn anchors(flag: &str, paths: &[String]) -> Result<Option<Trust>, Failure> {
    if paths.is_empty() {
        return Ok(None);
    }
    let pems = paths
        .iter()
        .map(|p| read(flag, p))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Some(Trust::AnchorsPem(pems)))
}

/// `-x URL`; as in curl, a proxy without a scheme is an HTTP proxy.
fn proxy(url: &str) -> Result<Proxy, Failure> {
    let url = match url.contains("://") {
        true => url.to_string(),
        false => format!("http://{url}"),
    };
    Proxy::parse(&url).map_err(|e| Failure::client(&burrow_client::Error::Proxy(e), Route::Proxy))
}

/// The client configuration the options describe.
pub(crate) fn config(o: &Options) -> Result<ClientConfig, Failure> {
    // --impersonate: that client's ClientHello, HTTP/2 first flight, fields and User-Agent
    // (the name was checked when parsed); a staple only if that client asks for one.
    let mut cfg = o
        .impersonate
        .as_deref()
        .and_then(ClientConfig::impersonating)
        .unwrap_or_default();
    if let Some(p) = &o.proxy {
        cfg.proxy = Some(proxy(p)?);
    }
    if let Some(list) = &o.noproxy {
        cfg.no_proxy = NoProxy::parse(list);
    }
    if let Some(t) = anchors("--cacert", &o.cacert)? {
        cfg.tls.trust = t;
    }
    if o.insecure {
        cfg.tls.trust = Trust::InsecureAcceptAnyCertificate;
    }
    cfg.tls.pins.clone_from(&o.pins);
    // The handshake offers the versions its cipher suites belong to.
    let tls13 = |s: &burrow_handshake::CipherSuite| (s.0 >> 8) == 0x13;
    if o.tls13_only {
        cfg.tls.profile.cipher_suites.retain(tls13);
    }
    if o.tls12_only {
        cfg.tls.profile.cipher_suites.retain(|s| !tls13(s));
    }
    cfg.tls.require_extended_master_secret = o.require_ems;
    if let Some(curves) = &o.curves {
        // curl's --curves: these groups in this order; the first gets a key share.
        let groups: Vec<_> = curves
            .iter()
            .map(|g| burrow_handshake::NamedGroup(*g))
            .collect();
        cfg.tls.profile.key_shares = groups.iter().take(1).copied().collect();
        cfg.tls.profile.groups = groups;
    }
    if let Some(t) = anchors("--proxy-cacert", &o.proxy_cacert)? {
        cfg.proxy_tls.trust = t;
    }
    cfg.http1_only = o.http == HttpVersion::Http11;
    cfg.http2_prior_knowledge = o.http == HttpVersion::Http2PriorKnowledge;
    // curl's default: a redirect is output as it is, unless -L.
    cfg.redirect_mode = match o.location {
        true => RedirectMode::Follow,
        false => RedirectMode::Manual,
    };
    if let Some(n) = o.max_redirs {
        cfg.redirect.max_redirects = n;
    }
    cfg.cookies = o.cookie_jar;
    cfg.allow_close_without_close_notify = o.allow_no_close_notify;
    cfg.decompress = match o.raw {
        true => Decompress::Passthrough,
        false => Decompress::Auto,
    };
    if let Some(cap) = o.max_filesize {
        cfg.max_body_bytes = cap;
    }
    if let Some(d) = o.connect_timeout {
        cfg.deadlines.connect = Some(d);
        cfg.deadlines.proxy = Some(d);
        cfg.deadlines.tls = Some(d);
    }
    if let Some(d) = o.max_time {
        cfg.deadlines.total = Some(d);
    }
    let sink = keylog::from_env().map_err(|m| Failure::new(exit::USAGE, m))?;
    cfg.tls.key_log.clone_from(&sink);
    cfg.proxy_tls.key_log = sink;
    Ok(cfg)
}

/// The request the options describe.
pub(crate) fn request(o: &Options) -> Result<Request, Failure> {
    let body = match &o.data {
        None => None,
        Some(Data::Inline(b)) => Some(b.clone()),
        Some(Data::File(path)) => Some(read("-d @FILE:", path)?),
    };
    let method = match (&o.method, &body) {
        (Some(m), _) => m.clone(),
        (None, Some(_)) => "POST".to_string(),
        (None, None) => "GET".to_string(),
    };
    let mut req = Request::new(&method, &o.url).map_err(|e| Failure::client(&e, Route::Direct))?;
    for (n, v) in &o.headers {
        req = req.header(n, v);
    }
    if let Some(b) = body {
        let typed = o
            .headers
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case("content-type"));
        if !typed {
            // As curl: -d data is a form unless the caller says otherwise.
            req = req.header("Content-Type", "application/x-www-form-urlencoded");
        }
        req = req.body(b);
    }
    Ok(req)
}

/// `scheme://host:port` of a proxy, without its credentials.
pub(crate) fn proxy_display(p: &Proxy) -> String {
    let auth = if p.credentials.is_some() {
        " (with credentials)"
    } else {
        ""
    };
    format!("{p}{auth}")
}
