//! Certificate trust for burrow (client and native driver): answers the handshake's `NeedVerify` with
//! burrow-x509 (path validation, host name, pins, stapled OCSP) and maps x509 failures to the
//! TLS alert the handshake sends.

use burrow_handshake::{AlertDescription, Answer, CertRejection, VerifyRequest};
use burrow_x509::{
    format_pin, spki_sha256, ChainCache, CryptoVerifier, Outcome, Revocation, ServerCertificates,
    ServerName, SignatureVerifier, StapleStatus, UnixTime, Verifier,
};

/// How the server's certificate chain is judged.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Trust {
    /// Full X.509 validation against the Mozilla root store (`webpki-root-certs`). The default.
    System,
    /// Full X.509 validation against exactly the certificates in these PEM bundles (the
    /// contents of one or more `--cacert` files).
    AnchorsPem(Vec<Vec<u8>>),
    /// Accept any certificate for any name (the CertificateVerify signature is still checked
    /// against the leaf's key). Debugging only; the fetch result says `insecure`.
    InsecureAcceptAnyCertificate,
    /// Accept only this exact leaf certificate (DER), with no X.509 validation. Kept for
    /// handshake-only debugging; prefer [`Trust::AnchorsPem`] plus pins.
    PinnedLeaf(Vec<u8>),
    /// Older name of [`Trust::InsecureAcceptAnyCertificate`].
    AnyChain,
}

/// What the verifier concluded about the server's certificates (reported with a fetch). A
/// resumed (PSK) handshake carries no certificate: everything is empty and the staple is
/// `NotChecked` (the chain was validated when the ticket's session was made).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CertReport {
    /// Certificates the server presented (leaf first).
    pub presented: usize,
    /// Length of the validated path including leaf and anchor (0 when not validated).
    pub path_len: usize,
    /// The anchor's subject Name, DER (empty when not validated).
    pub anchor_subject: Vec<u8>,
    /// The leaf's SPKI pin, `sha256/BASE64` (empty if the leaf did not parse).
    pub leaf_pin: String,
    /// The stapled OCSP verdict.
    pub staple: StapleStatus,
    /// True when nothing was validated ([`Trust::InsecureAcceptAnyCertificate`], pinned leaf).
    pub insecure: bool,
}

/// A ready-to-use certificate judge for one connection.
#[derive(Clone, Debug)]
pub struct Judge {
    mode: Mode,
    name: ServerName,
}

#[derive(Clone, Debug)]
enum Mode {
    X509(Box<Verifier>),
    Leaf(Vec<u8>),
}

/// `trust: { ca }` parsed once per thread (an isolate, in a Worker) rather than per connection:
/// a Worker makes a client per request, and each connection's judge parsed every PEM again
/// (0.03 ms for one CA in `bench/RESULTS.md`'s profile, growing with the bundle). The parsed
/// anchors are immutable (`burrow_x509::Trust` shares them behind an `Arc`), so sharing them
/// across clients shares nothing else. A hit needs the same PEM bytes, compared whole.
mod anchors {
    use std::cell::RefCell;

    /// Bundles kept: a Worker has one or a few `ca` settings; each entry holds its PEM bytes
    /// and their parsed certificates.
    const KEPT: usize = 4;

    type Entry = (Vec<Vec<u8>>, burrow_x509::Trust);

    std::thread_local! {
        static PARSED: RefCell<Vec<Entry>> = const { RefCell::new(Vec::new()) };
        /// Bundles parsed on this thread (for the tests).
        #[cfg(test)]
        pub(super) static PARSES: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    }

    /// The anchors in `pems`, from this thread's memo or parsed (and kept, most recent last).
    /// A bundle that fails to parse is not kept: the error comes back each time.
    pub(super) fn parsed(pems: &[Vec<u8>]) -> Result<burrow_x509::Trust, burrow_x509::Error> {
        let hit = PARSED.with(|m| {
            let mut m = m.borrow_mut();
            let i = m.iter().position(|(p, _)| p.as_slice() == pems)?;
            let entry = m.remove(i);
            let trust = entry.1.clone();
            m.push(entry);
            Some(trust)
        });
        if let Some(trust) = hit {
            return Ok(trust);
        }
        let mut all = Vec::new();
        for pem in pems {
            all.extend_from_slice(pem);
            all.push(b'\n');
        }
        let trust = burrow_x509::Trust::anchors_pem(&all)?;
        #[cfg(test)]
        PARSES.with(|n| n.set(n.get().saturating_add(1)));
        PARSED.with(|m| {
            let mut m = m.borrow_mut();
            if m.len() >= KEPT {
                m.remove(0);
            }
            m.push((pems.to_vec(), trust.clone()));
        });
        Ok(trust)
    }
}

/// What judging produced: the handshake's answer plus, for the caller, either a report or
/// the x509 error behind a rejection.
pub struct Verdict {
    /// The answer for `Connection::complete`.
    pub answer: Answer,
    /// The report, or the x509 error behind a rejection.
    pub result: Result<CertReport, burrow_x509::Error>,
}

impl Judge {
    /// Builds the verifier. Fails on an unusable configuration (no anchors in a PEM file, a
    /// malformed pin, a host that is not a DNS name or IP literal) before any connection.
    pub fn new(
        trust: &Trust,
        pins: &[String],
        revocation: Revocation,
        host: &str,
    ) -> Result<Self, burrow_x509::Error> {
        let name = ServerName::parse(host)?;
        let base = match trust {
            Trust::System => burrow_x509::Trust::system(),
            Trust::AnchorsPem(pems) => anchors::parsed(pems)?,
            Trust::InsecureAcceptAnyCertificate | Trust::AnyChain => {
                burrow_x509::Trust::insecure_accept_any_certificate()
            }
            Trust::PinnedLeaf(der) => {
                return Ok(Self {
                    mode: Mode::Leaf(der.clone()),
                    name,
                })
            }
        };
        let trust = if pins.is_empty() {
            base
        } else {
            let refs: Vec<&str> = pins.iter().map(String::as_str).collect();
            base.pinned(&refs)?
        };
        Ok(Self {
            mode: Mode::X509(Box::new(Verifier::new(trust).revocation(revocation))),
            name,
        })
    }

    /// Answers later judgements of a chain this judge (or another sharing `cache`) validated
    /// from `cache`: no path building, no chain signatures; time, name and staple are still
    /// checked every time (see [`ChainCache`]). A pinned leaf is not validated, so not cached.
    pub fn chain_cache(self, cache: ChainCache) -> Self {
        let mode = match self.mode {
            Mode::X509(v) => Mode::X509(Box::new(v.chain_cache(cache))),
            leaf @ Mode::Leaf(_) => leaf,
        };
        Self { mode, ..self }
    }

    /// Judges the handshake's request at `now` (Unix seconds), checking signatures inline.
    pub fn judge(&self, req: &VerifyRequest, now: UnixTime) -> Verdict {
        self.judge_with(req, now, &CryptoVerifier)
    }

    /// [`Judge::judge`] with the chain's signatures answered by `signatures` (an
    /// `AnswerBook` when they are checked elsewhere: then the verdict is final only once the
    /// book has no pending requests).
    pub fn judge_with(
        &self,
        req: &VerifyRequest,
        now: UnixTime,
        signatures: &dyn SignatureVerifier,
    ) -> Verdict {
        let leaf_pin = req
            .chain
            .first()
            .and_then(|d| burrow_x509::Certificate::from_der(d).ok())
            .map(|c| format_pin(&spki_sha256(c.spki())))
            .unwrap_or_default();
        let verifier = match &self.mode {
            Mode::Leaf(der) => {
                return if req.chain.first() == Some(der) {
                    Verdict {
                        answer: Answer::Verified,
                        result: Ok(CertReport {
                            presented: req.chain.len(),
                            path_len: 0,
                            anchor_subject: Vec::new(),
                            leaf_pin,
                            staple: StapleStatus::NotChecked,
                            insecure: true,
                        }),
                    }
                } else {
                    reject(burrow_x509::Error::Untrusted)
                };
            }
            Mode::X509(v) => v,
        };
        let chain: Vec<&[u8]> = req.chain.iter().map(Vec::as_slice).collect();
        let certs = ServerCertificates {
            chain: &chain,
            ocsp_staple: req.ocsp_response.as_deref(),
            now,
        };
        match verifier.verify(&certs, &self.name, &signatures) {
            Ok(Outcome::Verified(ok)) => Verdict {
                answer: Answer::Verified,
                result: Ok(CertReport {
                    presented: req.chain.len(),
                    path_len: ok.path_len,
                    anchor_subject: ok.anchor_subject,
                    leaf_pin,
                    staple: ok.staple,
                    insecure: ok.insecure,
                }),
            },
            // Custom trust is never configured here; refuse rather than accept blindly.
            Ok(Outcome::Decide(_)) => reject(burrow_x509::Error::CustomDecisionRequired),
            Err(e) => reject(e),
        }
    }
}

fn reject(e: burrow_x509::Error) -> Verdict {
    Verdict {
        answer: Answer::Rejected(CertRejection {
            code: e.code(),
            alert: alert_for(&e),
        }),
        result: Err(e),
    }
}

/// The alert a client sends for an x509 failure (RFC 8446 §6.2, RFC 6066 §8).
pub fn alert_for(e: &burrow_x509::Error) -> AlertDescription {
    use burrow_x509::Error as E;
    match e {
        E::Expired | E::NotYetValid => AlertDescription::CERTIFICATE_EXPIRED,
        E::OcspRevoked => AlertDescription::CERTIFICATE_REVOKED,
        E::Untrusted | E::BadTrustAnchor(_) => AlertDescription::UNKNOWN_CA,
        E::UnsupportedSignatureAlgorithm
        | E::UnsupportedCriticalExtension
        | E::UnsupportedNameConstraint => AlertDescription::UNSUPPORTED_CERTIFICATE,
        E::OcspUnknown
        | E::OcspInvalid(_)
        | E::OcspMismatch
        | E::OcspStale
        | E::OcspStapleRequired => AlertDescription::BAD_CERTIFICATE_STATUS_RESPONSE,
        E::PinMismatch(_) | E::CustomRejected | E::CustomDecisionRequired => {
            AlertDescription::CERTIFICATE_UNKNOWN
        }
        _ => AlertDescription::BAD_CERTIFICATE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use burrow_x509::Error as E;

    #[test]
    fn alerts_follow_the_error() {
        assert_eq!(
            alert_for(&E::Expired),
            AlertDescription::CERTIFICATE_EXPIRED
        );
        assert_eq!(
            alert_for(&E::NotYetValid),
            AlertDescription::CERTIFICATE_EXPIRED
        );
        assert_eq!(
            alert_for(&E::OcspRevoked),
            AlertDescription::CERTIFICATE_REVOKED
        );
        assert_eq!(alert_for(&E::Untrusted), AlertDescription::UNKNOWN_CA);
        assert_eq!(
            alert_for(&E::NameMismatch),
            AlertDescription::BAD_CERTIFICATE
        );
        assert_eq!(
            alert_for(&E::OcspMismatch),
            AlertDescription::BAD_CERTIFICATE_STATUS_RESPONSE
        );
        assert_eq!(
            alert_for(&E::BadSignature),
            AlertDescription::BAD_CERTIFICATE
        );
    }

    #[test]
    fn bad_configuration_fails_before_connecting() {
        let bad_pin = Judge::new(
            &Trust::System,
            &["sha256/nope".into()],
            Revocation::CheckStaple,
            "localhost",
        );
        assert_eq!(bad_pin.unwrap_err().code(), "CERT_BAD_TRUST_ANCHOR");
        let no_anchors = Judge::new(
            &Trust::AnchorsPem(vec![b"not pem".to_vec()]),
            &[],
            Revocation::CheckStaple,
            "localhost",
        );
        assert!(no_anchors.is_err());
        let bad_host = Judge::new(&Trust::System, &[], Revocation::CheckStaple, "bücher.de");
        assert_eq!(bad_host.unwrap_err().code(), "CERT_HOSTNAME_IDNA");
    }

    #[test]
    fn the_same_ca_bundle_is_parsed_once_per_thread() {
        let Some(leaf) = rfc8448_leaf() else { return };
        let pem = |der: &[u8]| {
            use base64::Engine as _;
            let b64 = base64::engine::general_purpose::STANDARD.encode(der);
            format!("-----BEGIN CERTIFICATE-----\n{b64}\n-----END CERTIFICATE-----\n").into_bytes()
        };
        let one = vec![pem(&leaf)];
        let parses = || anchors::PARSES.with(std::cell::Cell::get);
        let start = parses();
        let judge = |pems: &Vec<Vec<u8>>| {
            Judge::new(
                &Trust::AnchorsPem(pems.clone()),
                &[],
                Revocation::CheckStaple,
                "server",
            )
        };
        assert!(judge(&one).is_ok());
        assert!(judge(&one).is_ok());
        assert_eq!(
            parses() - start,
            1,
            "a second judge of the same bundle parsed it again"
        );
        // Other bytes are another bundle, even when only the split into files differs.
        let mut two = one.clone();
        two.push(pem(&leaf));
        assert!(judge(&two).is_ok());
        assert_eq!(parses() - start, 2);
        // A bundle that does not parse is refused every time, never remembered.
        let bad = vec![b"not pem".to_vec()];
        assert!(judge(&bad).is_err());
        assert!(judge(&bad).is_err());
        assert_eq!(parses() - start, 2);
        // Past KEPT bundles the least recently used goes: `one` was used before `two`.
        let others: Vec<Vec<Vec<u8>>> = (0..3)
            .map(|i| vec![pem(&leaf), format!("# bundle {i}\n").into_bytes()])
            .collect();
        for o in &others {
            assert!(judge(o).is_ok());
        }
        assert_eq!(parses() - start, 5);
        assert!(judge(&two).is_ok(), "two was the most recent but three");
        assert_eq!(parses() - start, 5);
        assert!(judge(&one).is_ok());
        assert_eq!(
            parses() - start,
            6,
            "one was the least recently used and went"
        );
    }

    fn rfc8448_leaf() -> Option<Vec<u8>> {
        let pem = burrow_testkit::embedded::require(
            burrow_testkit::embedded::RFC8448_SERVER_CERT,
            "rfc8448 server certificate",
        )?;
        burrow_x509::certificates_from_pem(pem.as_bytes())
            .unwrap()
            .into_iter()
            .next()
    }

    fn request(chain: Vec<Vec<u8>>) -> VerifyRequest {
        VerifyRequest {
            server_name: Some("server".into()),
            chain,
            ocsp_response: None,
            scts: None,
            now_ms: 0,
            signed: None,
        }
    }

    fn judge(trust: Trust, chain: Vec<Vec<u8>>) -> Verdict {
        Judge::new(&trust, &[], Revocation::CheckStaple, "server")
            .unwrap()
            .judge(&request(chain), 1_700_000_000)
    }

    #[test]
    fn verdicts_offline() {
        let Some(leaf) = rfc8448_leaf() else { return };
        let v = judge(Trust::InsecureAcceptAnyCertificate, vec![leaf.clone()]);
        assert_eq!(v.answer, Answer::Verified);
        let report = v.result.unwrap();
        assert!(report.insecure);
        assert!(report.leaf_pin.starts_with("sha256/"));
        assert_eq!(report.staple, StapleStatus::NotChecked);

        // Not from a Mozilla root: refused, and the answer carries the x509 code and alert.
        let v = judge(Trust::System, vec![leaf.clone()]);
        let e = v.result.unwrap_err();
        assert_eq!(
            v.answer,
            Answer::Rejected(CertRejection {
                code: e.code(),
                alert: alert_for(&e),
            })
        );

        let v = judge(Trust::PinnedLeaf(leaf.clone()), vec![leaf.clone()]);
        assert_eq!(v.answer, Answer::Verified);
        let v = judge(Trust::PinnedLeaf(b"other".to_vec()), vec![leaf]);
        assert_eq!(
            v.answer,
            Answer::Rejected(CertRejection {
                code: "CERT_UNTRUSTED",
                alert: AlertDescription::UNKNOWN_CA,
            })
        );

        let v = judge(Trust::System, vec![]);
        assert_eq!(v.result.unwrap_err().code(), "CERT_INVALID");
        let v = judge(Trust::System, vec![b"junk".to_vec()]);
        assert!(matches!(v.answer, Answer::Rejected(_)));
    }
}
