//! A Worker in Rust (workers-rs) that fetches through one of its configured proxies with
//! burrow and streams the body back: `GET /?url=URL&proxy=NAME` answers with the origin's
//! status, headers and body (decoded, as it arrives), plus `x-burrow-*` headers saying what
//! burrow negotiated. A burrow failure answers 502 with JSON `{ error, phase, message }`.
//!
//! `PROXIES` (JSON: name -> proxy URL, credentials included) and `CA_PEM` (PEM trust anchors
//! replacing the system roots; unset: system trust) are secrets.

use std::collections::HashMap;

use burrow_worker::burrow_client::{ClientConfig, Proxy, Trust};
use burrow_worker::Client;
use worker::{event, Context, Env, Request, Response, Result};

#[event(fetch)]
async fn fetch(req: Request, env: Env, _ctx: Context) -> Result<Response> {
    let params: HashMap<String, String> = req.url()?.query_pairs().into_owned().collect();
    let proxies: HashMap<String, String> = match env.var("PROXIES") {
        Ok(v) => serde_json::from_str(&v.to_string())?,
        Err(_) => HashMap::new(),
    };
    let proxy = params.get("proxy").map(|name| proxies.get(name));
    let (Some(target), None | Some(Some(_))) = (params.get("url"), proxy) else {
        let names: Vec<&String> = proxies.keys().collect();
        return Ok(Response::from_json(&serde_json::json!({
            "error": "usage: /?url=URL&proxy=NAME",
            "proxies": names,
        }))?
        .with_status(400));
    };

    let mut config = ClientConfig::default();
    if let Some(Some(url)) = proxy {
        config.proxy = Some(Proxy::parse(url).map_err(|e| e.to_string())?);
    }
    if let Ok(pem) = env.var("CA_PEM") {
        config.tls.trust = Trust::AnchorsPem(vec![pem.to_string().into_bytes()]);
    }
    // One client per request: Workers do not let sockets cross requests.
    let client = Client::new(config)?;
    let got = match client.fetch(target.as_str()).await {
        Ok(got) => got,
        Err(e) => {
            return Ok(Response::from_json(&serde_json::json!({
                "error": e.code(),
                "phase": e.phase().name(),
                "message": e.to_string(),
            }))?
            .with_status(502));
        }
    };
    let meta = got.meta();
    let facts = [
        ("x-burrow-http-version", meta.http_version.to_string()),
        ("x-burrow-proxied", format!("{:?}", meta.proxied)),
        (
            "x-burrow-decoded",
            meta.content_encoding.clone().unwrap_or_default(),
        ),
        (
            "x-burrow-tls",
            got.tls()
                .map_or("none".to_string(), |t| format!("{:#06x}", t.version)),
        ),
    ];
    let mut resp = got.into_worker_response()?;
    for (name, value) in facts {
        resp.headers_mut().set(name, &value)?;
    }
    Ok(resp)
}
