//! PEM (RFC 7468) certificate blocks.

use base64::Engine;

use crate::Error;

/// Most PEM blocks read from one bundle.
pub const MAX_PEM_BLOCKS: usize = 4096;

/// Decodes every `-----BEGIN CERTIFICATE-----` block in `pem` to DER. Text outside blocks is
/// ignored (bundles often carry comments).
pub fn certificates_from_pem(pem: &[u8]) -> Result<Vec<Vec<u8>>, Error> {
    const BEGIN: &str = "-----BEGIN CERTIFICATE-----";
    const END: &str = "-----END CERTIFICATE-----";
    let text = core::str::from_utf8(pem).map_err(|_| Error::BadTrustAnchor("PEM is not UTF-8"))?;
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(BEGIN) {
        let after = rest.get(start.saturating_add(BEGIN.len())..).unwrap_or("");
        let end = after
            .find(END)
            .ok_or(Error::BadTrustAnchor("PEM block without END line"))?;
        let body: String = after
            .get(..end)
            .unwrap_or("")
            .chars()
            .filter(|c| !c.is_ascii_whitespace())
            .collect();
        let der = base64::engine::general_purpose::STANDARD
            .decode(body.as_bytes())
            .map_err(|_| Error::BadTrustAnchor("PEM block is not valid base64"))?;
        if out.len() >= MAX_PEM_BLOCKS {
            return Err(Error::BadTrustAnchor("too many PEM blocks"));
        }
        out.push(der);
        rest = after.get(end.saturating_add(END.len())..).unwrap_or("");
    }
    Ok(out)
}
