//! Byte sizes: the units the limits are written in, and how messages show a size.

pub(super) const KIB: u64 = 1024;
pub(super) const MIB: u64 = 1024 * KIB;
pub(super) const GIB: u64 = 1024 * MIB;

/// A byte count for messages: `64 MiB`, `1 KiB`, `100 bytes`.
pub(super) fn size_text(bytes: u64) -> String {
    for (unit, name) in [(GIB, "GiB"), (MIB, "MiB"), (KIB, "KiB")] {
        if bytes >= unit && bytes.is_multiple_of(unit) {
            return format!("{} {name}", bytes / unit);
        }
    }
    if bytes == 1 { "1 byte".to_owned() } else { format!("{bytes} bytes") }
}
