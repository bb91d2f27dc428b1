//! Entry names: normalized lexically (never above the archive root, never absolute), and made
//! safe to print in messages.

use super::error::ArchiveError;

/// A normalized entry name.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Normalized {
    /// Components joined by `/`; empty for the root.
    pub(super) path: String,
    /// Whether the name ends in a separator, `.` or `..` (or is empty): it names no file.
    pub(super) is_dir: bool,
}

/// Why a name could not be normalized.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum NameError {
    Nul,
    Absolute,
    Outside,
}

/// Normalizes an entry name lexically: backslashes are separators, empty and `.` components
/// vanish, `..` removes the previous component but may never leave the root.
pub(super) fn normalize(name: &str) -> Result<Normalized, NameError> {
    if name.contains('\0') {
        return Err(NameError::Nul);
    }
    let bytes = name.as_bytes();
    let drive = bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':';
    if name.starts_with(['/', '\\']) || drive {
        return Err(NameError::Absolute);
    }
    let mut components: Vec<&str> = Vec::new();
    let mut last = "";
    for component in name.split(['/', '\\']) {
        last = component;
        match component {
            "" | "." => {}
            ".." => {
                if components.pop().is_none() {
                    return Err(NameError::Outside);
                }
            }
            _ => components.push(component),
        }
    }
    Ok(Normalized { path: components.join("/"), is_dir: matches!(last, "" | "." | "..") })
}

/// Normalizes an entry's name, or says why it cannot be.
pub(super) fn check_name(name: &str) -> Result<Normalized, ArchiveError> {
    normalize(name).map_err(|error| {
        let entry = display_name(name);
        match error {
            NameError::Nul => ArchiveError::InvalidName { entry, reason: "it holds a NUL byte" },
            NameError::Absolute => ArchiveError::AbsolutePath { entry },
            NameError::Outside => ArchiveError::OutsideRoot { entry },
        }
    })
}

/// Decodes a raw entry name as UTF-8.
pub(super) fn utf8_name(raw: &[u8]) -> Result<&str, ArchiveError> {
    std::str::from_utf8(raw).map_err(|_| ArchiveError::InvalidName {
        entry: display_name(&String::from_utf8_lossy(raw)),
        reason: "it is not UTF-8",
    })
}

/// A name made safe to print: control, invisible and bidirectional characters escaped.
pub(super) fn display_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        let hidden = c.is_control()
            || matches!(c, '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2060}'..='\u{206f}' | '\u{feff}');
        if hidden {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}
