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

/// The TOSCA 2.0 built-in functions, as cs01 10.2 lists them: a `$name` that is none of these
/// and not defined under `functions:` (10.4) is unknown.
pub const BUILT_IN_2_0: &[&str] = &[
    // 10.2.1 Representation graph query functions.
    "get_input",
    "get_property",
    "get_attribute",
    "get_artifact",
    "value",
    "node_index",
    "relationship_index",
    "available_allocation",
    // 10.2.2.1 Boolean logic functions.
    "and",
    "or",
    "not",
    "xor",
    // 10.2.2.2 Comparison functions.
    "equal",
    "greater_than",
    "greater_or_equal",
    "less_than",
    "less_or_equal",
    "valid_values",
    "matches",
    // 10.2.2.3 Boolean list, map and string functions.
    "has_suffix",
    "has_prefix",
    "contains",
    "has_entry",
    "has_key",
    "has_all_entries",
    "has_all_keys",
    "has_any_entry",
    "has_any_key",
    // 10.2.3 String, list and map functions.
    "length",
    "concat",
    "join",
    "token",
    // 10.2.4 Set functions.
    "union",
    "intersection",
    // 10.2.5 Arithmetic functions.
    "sum",
    "difference",
    "product",
    "quotient",
    "remainder",
    "round",
    "floor",
    "ceil",
];

/// Functions of the pre-csd06 TOSCA 2.0 drafts that cs01 does not have: `$in_range` (a 1.x
/// constraint operator the drafts' examples still call), and `$get_operation_output` and
/// `$get_nodes_of_type` (removed by csd06, its change log says). They are known, and evaluated,
/// only with `--dialect tosca-2.0-draft`; otherwise a call of one is an `unknown-function`.
pub const DRAFT_2_0_EXTENSIONS: &[&str] = &["in_range", "get_operation_output", "get_nodes_of_type"];

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
