//! `Client::fetch`: one hop after another until a response that is not a redirect to follow
//! (cookies sent and stored on each hop), and per hop the choice of connection (the origin's
//! HTTP/2 connection, a pooled or a new one) with one retry of an idempotent request that a
//! stale connection, a GOAWAY or a REFUSED_STREAM kept from being processed.

use burrow_cookies::redirect::{is_followed_status, next_request};

use super::response::Response;
use super::Client;
use crate::config::{ClientConfig, RedirectMode};
use crate::connect::{connect, Origin, Purpose};
use crate::deadline::Clock;
use crate::error::Error;
use crate::h2::H2Conn;
use crate::message::{Body, Request};
use crate::net::Net;
use crate::proxy::auth_required;

impl<N: Net> Client<N> {
    /// Sends `req`, follows redirects per the policy, and returns the final response once its
    /// head has arrived.
    pub async fn fetch(&self, req: Request) -> Result<Response<N>, Error> {
        let net = &self.inner.net;
        let cfg = &self.inner.config;
        let start = net.now_ms();
        let clock = Clock {
            total_ends_ms: cfg
                .deadlines
                .total
                .map(|d| start.saturating_add(u64::try_from(d.as_millis()).unwrap_or(u64::MAX))),
        };
        let mut req = req;
        let mut history: Vec<url::Url> = Vec::new();
        loop {
            history.push(req.url.clone());
            let now_s = i64::try_from(net.now_ms() / 1000).unwrap_or(i64::MAX);
            let mut resp = match self.jar_header(&req, now_s) {
                Some(cookie) => {
                    let mut with = req.clone();
                    with.headers.push(("Cookie".to_string(), cookie));
                    self.send(&with, &clock).await?
                }
                None => self.send(&req, &clock).await?,
            };
            self.store_cookies(&resp.url, &resp.headers, now_s);
            resp.meta.timings.total = net.now_ms().saturating_sub(start);
            resp.meta.redirects =
                u32::try_from(history.len().saturating_sub(1)).unwrap_or(u32::MAX);
            let location = resp.header("location").map(str::to_string);
            match redirect(&req, &history, resp.status, location.as_deref(), cfg)? {
                Some(next) => req = next,
                None => {
                    resp.decode_if_coded(&req, cfg)?;
                    return Ok(resp);
                }
            }
        }
    }

    /// The jar's `Cookie` value for `req`, unless cookies are off or the caller set one.
    pub(super) fn jar_header(&self, req: &Request, now_s: i64) -> Option<String> {
        let jar = self.inner.jar.as_ref()?;
        if req
            .headers
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case("cookie"))
        {
            return None;
        }
        jar.borrow_mut().cookie_header(&req.url, now_s)
    }

    pub(super) fn store_cookies(&self, url: &url::Url, headers: &[(String, String)], now_s: i64) {
        let Some(jar) = self.inner.jar.as_ref() else {
            return;
        };
        let mut jar = jar.borrow_mut();
        for (n, v) in headers {
            if n.eq_ignore_ascii_case("set-cookie") {
                // A refused cookie (bad domain, public suffix, prefix rules) is simply not kept.
                let _ = jar.store(url, v, now_s);
            }
        }
    }

    async fn send(&self, req: &Request, clock: &Clock) -> Result<Response<N>, Error> {
        // Held until this hop's response head is here (or it failed).
        let _slot = self.inner.heads.acquire().await;
        self.send_held(req, clock).await
    }

    async fn send_held(&self, req: &Request, clock: &Clock) -> Result<Response<N>, Error> {
        let origin = Origin::of(&req.url)?;
        let pool = &self.inner.pool;
        let mut retried = false;
        loop {
            if let Some((h2, info)) = pool.h2_for(&origin) {
                match self.send_h2(req, &h2, info, true, retried, clock).await {
                    Err(e) if !retried && req.retryable() && h2_retryable(&e) => {
                        pool.forget_h2(&origin);
                        retried = true;
                        continue;
                    }
                    other => return other,
                }
            }
            let pooled = pool.take_idle(&origin);
            let reused = pooled.is_some();
            let (stream, info) = match pooled {
                Some(idle) => (idle.stream, idle.info),
                None => {
                    let c = connect(
                        &self.inner.net,
                        &self.inner.config,
                        &origin,
                        clock,
                        &self.inner.sessions,
                        &self.inner.scope,
                        Purpose::default(),
                    )
                    .await?;
                    (c.stream, c.info)
                }
            };
            let alpn_h2 = info
                .tls
                .as_ref()
                .is_some_and(|t| t.alpn.as_deref() == Some("h2"));
            // h2c with prior knowledge: plain http origins reached without an absolute-form
            // proxy (which would speak HTTP/1.1 to the proxy).
            let prior_knowledge = self.inner.config.http2_prior_knowledge
                && !origin.https
                && info.absolute_form.is_none();
            if (alpn_h2 || prior_knowledge) && !reused {
                let (h2, driver) = H2Conn::start(stream, self.inner.config.http.h2.clone());
                self.inner.net.spawn(Box::pin(driver));
                pool.put_h2(origin.clone(), h2.clone(), info.clone());
                match self.send_h2(req, &h2, info, false, retried, clock).await {
                    // Refused before processing (GOAWAY, REFUSED_STREAM): once more, anew.
                    Err(e) if !retried && req.retryable() && h2_retryable(&e) => {
                        pool.forget_h2(&origin);
                        retried = true;
                        continue;
                    }
                    other => return other,
                }
            }
            match self.exchange(req, &origin, stream, &info, clock).await {
                // Absolute-form: the proxy's own refusal arrives as the response.
                Ok(ex) if ex.status == 407 && info.absolute_form.is_some() => {
                    let had = info
                        .absolute_form
                        .as_ref()
                        .is_some_and(|p| p.credentials.is_some());
                    return Err(auth_required(had));
                }
                Ok(ex) => {
                    let mut info = info;
                    if reused {
                        info.timings = Default::default();
                    }
                    return Ok(self.respond(req, origin, ex, info, reused, retried));
                }
                Err(a) if a.stale && reused && !retried && req.retryable() => retried = true,
                Err(a) => return Err(a.error),
            }
        }
    }
}

/// Whether an HTTP/2 failure on a shared connection means the request was not processed:
/// refused by GOAWAY or REFUSED_STREAM, or the connection had died before it was sent.
fn h2_retryable(e: &Error) -> bool {
    match e {
        Error::H2(h) => h.is_retryable(),
        // The server closed a connection it had kept open (stale), not a protocol failure.
        Error::ConnectionFailed(first) => matches!(**first, Error::Io(_)),
        _ => false,
    }
}

/// The request for a redirect's target (burrow-cookies decides; RFC 9110 §15.4), `None` when
/// the response is not a redirect to follow: per the request's redirect mode, or else the
/// client's.
fn redirect(
    req: &Request,
    history: &[url::Url],
    status: u16,
    location: Option<&str>,
    cfg: &ClientConfig,
) -> Result<Option<Request>, Error> {
    match req.redirect_mode.unwrap_or(cfg.redirect_mode) {
        RedirectMode::Follow => {}
        RedirectMode::Manual => return Ok(None),
        RedirectMode::Error if is_followed_status(status) => {
            return Err(Error::RedirectForbidden {
                status,
                location: location.unwrap_or_default().to_string(),
            })
        }
        RedirectMode::Error => return Ok(None),
    }
    let next = next_request(
        &cfg.redirect,
        history,
        &req.url,
        &req.method,
        status,
        location,
    )
    .map_err(Error::Redirect)?;
    let Some(r) = next else {
        return Ok(None);
    };
    let mut out = req.clone();
    out.url = r.url;
    out.method = r.method;
    if !r.keep_body {
        out.body = Body::Empty;
    }
    if matches!(&out.body, Body::Stream(s) if s.is_spent()) {
        return Err(Error::BodyNotReplayable);
    }
    out.headers.retain(|(n, _)| {
        let n = n.to_ascii_lowercase();
        let credential = n == "authorization" || n == "proxy-authorization";
        !((r.drop_authorization && credential)
            || (r.drop_cookie_header && n == "cookie")
            || (r.drop_body_headers && n.starts_with("content-"))
            || n == "host")
    });
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use super::*;

    fn req(method: &str, url: &str) -> Request {
        Request::new(method, url)
            .unwrap()
            .header("Authorization", "secret")
            .header("Content-Type", "text/plain")
            .body(b"x".to_vec())
    }

    #[test]
    fn redirects_follow_rfc9110() {
        let cfg = ClientConfig::default();
        let r = req("POST", "https://a.test/x");
        let h = [r.url.clone()];
        let n = redirect(&r, &h, 303, Some("/y"), &cfg).unwrap().unwrap();
        assert_eq!(
            (n.method.as_str(), n.url.as_str()),
            ("GET", "https://a.test/y")
        );
        assert_eq!(n.body, Body::Empty);
        assert!(n.headers.iter().any(|(k, _)| k == "Authorization"));
        assert!(!n.headers.iter().any(|(k, _)| k == "Content-Type"));
        let n = redirect(&r, &h, 307, Some("https://b.test/"), &cfg)
            .unwrap()
            .unwrap();
        assert_eq!(n.method, "POST");
        assert_eq!(n.body, Body::Bytes(Rc::new(b"x".to_vec())));
        assert!(!n.headers.iter().any(|(k, _)| k == "Authorization"));
        let e = redirect(&r, &h, 302, Some("http://a.test/"), &cfg).unwrap_err();
        assert_eq!(e.code(), "REDIRECT_INSECURE");
        assert!(redirect(&r, &h, 200, Some("/y"), &cfg).unwrap().is_none());
        assert!(redirect(&r, &h, 302, None, &cfg).unwrap().is_none());
        let mut off = cfg.clone();
        off.redirect_mode = RedirectMode::Manual;
        assert!(redirect(&r, &h, 302, Some("/y"), &off).unwrap().is_none());
    }

    #[test]
    fn a_requests_redirect_mode_overrides_the_clients() {
        let h = [url::Url::parse("https://a.test/x").unwrap()];
        let manual = ClientConfig {
            redirect_mode: RedirectMode::Manual,
            ..ClientConfig::default()
        };
        let follow = req("GET", "https://a.test/x").redirect(RedirectMode::Follow);
        let n = redirect(&follow, &h, 302, Some("/y"), &manual).unwrap();
        assert_eq!(n.unwrap().url.as_str(), "https://a.test/y");
        let stay = req("GET", "https://a.test/x").redirect(RedirectMode::Manual);
        let cfg = ClientConfig::default();
        assert!(redirect(&stay, &h, 302, Some("/y"), &cfg)
            .unwrap()
            .is_none());
        let refuse = req("GET", "https://a.test/x").redirect(RedirectMode::Error);
        for (status, location) in [(302, Some("/y")), (308, Some("/y")), (301, None)] {
            let e = redirect(&refuse, &h, status, location, &cfg).unwrap_err();
            assert_eq!(e.code(), "REDIRECT_FORBIDDEN");
            assert!(e.to_string().contains(&status.to_string()), "{e}");
        }
        // Not a redirect status: nothing to refuse.
        for status in [200, 304, 300] {
            assert!(redirect(&refuse, &h, status, Some("/y"), &cfg)
                .unwrap()
                .is_none());
        }
        // The client's own Error mode, for a request that says nothing.
        let erroring = ClientConfig {
            redirect_mode: RedirectMode::Error,
            ..ClientConfig::default()
        };
        let plain = req("GET", "https://a.test/x");
        assert!(redirect(&plain, &h, 303, Some("/y"), &erroring).is_err());
    }
}
