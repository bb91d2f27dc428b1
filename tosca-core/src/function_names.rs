//! How a function call is spelt, known to every layer that reads values: the 1.x intrinsic
//! function names and the 2.0 `$name` syntax. A leaf: the grammar (which must tell a call from a
//! definition in short notation), the values and the render all take it from here.

/// The TOSCA 1.x intrinsic functions; a single-key map with one of these keys is a call.
pub const FUNCTIONS: &[&str] = &[
    "get_input",
    "get_property",
    "get_attribute",
    "get_operation_output",
    "get_nodes_of_type",
    "get_artifact",
    "concat",
    "join",
    "token",
];

/// Whether a string names a function in 2.0 syntax: starts with `$` but not `$$`; the name
/// without `$` and without a `$suffix` key variation (`keygen$1` is `keygen`).
pub fn function_name(text: &str) -> Option<&str> {
    let name = text.strip_prefix('$')?;
    if name.starts_with('$') || name.is_empty() {
        return None;
    }
    Some(name.split('$').next().unwrap_or(name))
}

#[cfg(test)]
mod tests {
    use super::function_name;

    #[test]
    fn a_dollar_name_is_a_function_and_a_double_dollar_an_escape() {
        assert_eq!(function_name("$get_input"), Some("get_input"));
        assert_eq!(function_name("$keygen$1"), Some("keygen"));
        assert_eq!(function_name("$$literal"), None);
        assert_eq!(function_name("$"), None);
        assert_eq!(function_name("plain"), None);
    }
}
