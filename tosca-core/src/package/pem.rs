//! PEM blocks as package files write them: several to a file, CRLF, any line length, RFC 1421
//! headers, text around them.

use super::error::SignatureError;

/// Every PEM block in `bytes`, in order: its label and its decoded bytes, or why it could not
/// be decoded. Lenient about what surrounds the blocks, line endings (CRLF), trailing spaces
/// and line lengths, as manifests and certificate files are written in the field.
pub fn pem_blocks(bytes: &[u8]) -> Vec<Result<(String, Vec<u8>), SignatureError>> {
    let text = String::from_utf8_lossy(bytes);
    let mut blocks = Vec::new();
    let mut open: Option<(String, String)> = None;
    for line in text.lines().map(str::trim) {
        if let Some(label) = line.strip_prefix("-----BEGIN ").and_then(|rest| rest.strip_suffix("-----")) {
            open = Some((label.to_owned(), String::new()));
        } else if let Some(label) = line.strip_prefix("-----END ").and_then(|rest| rest.strip_suffix("-----")) {
            if let Some((begun, body)) = open.take() {
                blocks.push(if begun == label {
                    decode_base64(&begun, &body).map(|decoded| (begun, decoded))
                } else {
                    Err(SignatureError::Malformed(format!("PEM block `{begun}` ends with `{label}`")))
                });
            }
        } else if let Some((_, body)) = open.as_mut()
            && !line.contains(':')
        {
            // Lines with a `:` are RFC 1421 headers (`Proc-Type: ...`), not base64.
            body.push_str(line);
        }
    }
    if let Some((label, _)) = open {
        blocks.push(Err(SignatureError::Malformed(format!("PEM block `{label}` has no END line"))));
    }
    blocks
}

/// Decodes base64 by re-wrapping it as the strict PEM the `der` crate reads.
fn decode_base64(label: &str, body: &str) -> Result<Vec<u8>, SignatureError> {
    let mut canonical = format!("-----BEGIN {label}-----\n");
    let characters: Vec<char> = body.chars().filter(|character| !character.is_whitespace()).collect();
    for line in characters.chunks(64) {
        canonical.extend(line);
        canonical.push('\n');
    }
    canonical.push_str(&format!("-----END {label}-----\n"));
    der::pem::decode_vec(canonical.as_bytes())
        .map(|(_, decoded)| decoded)
        .map_err(|error| SignatureError::Malformed(format!("PEM block `{label}`: {error}")))
}
