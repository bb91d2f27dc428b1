//! What each built-in function means, in one line, after the TOSCA 2.0 specification (cs01,
//! section 10.2; `get_operation_output` and `get_nodes_of_type` after the Simple Profile 1.3,
//! sections 4.6.2 and 4.7.1, since 2.0 has neither).

/// Each built-in function (without `$`), the section defining it and what it gives.
const MEANINGS: &[(&str, &str, &str)] = &[
    ("get_input", "10.2.1.1", "the value of an input parameter of the service template"),
    ("get_property", "10.2.1.2", "the value of a property of a node, relationship, capability, group or policy"),
    ("get_attribute", "10.2.1.3", "the value of an attribute of a node or relationship, set by a running system"),
    ("get_artifact", "10.2.1.4", "the location of an artifact of a node, where the orchestrator puts it"),
    ("value", "10.2.1.5", "the value a validation clause checks"),
    ("node_index", "10.2.1.6", "the runtime index of this node among those created from its node template"),
    (
        "relationship_index",
        "10.2.1.7",
        "the runtime index of this relationship among those created from its requirement",
    ),
    ("available_allocation", "10.2.1.8", "what a capability's property has left to allocate to relationships"),
    ("and", "10.2.2.1.1", "true when all its Boolean arguments are true"),
    ("or", "10.2.2.1.2", "true when any of its Boolean arguments is true"),
    ("not", "10.2.2.1.3", "the negation of its Boolean argument"),
    ("xor", "10.2.2.1.4", "true when exactly one of its two Boolean arguments is true"),
    ("equal", "10.2.2.2.1", "true when its two arguments of one type are equal"),
    ("greater_than", "10.2.2.2.2", "true when the first argument is greater than the second"),
    ("greater_or_equal", "10.2.2.2.3", "true when the first argument is greater than or equal to the second"),
    ("less_than", "10.2.2.2.4", "true when the first argument is less than the second"),
    ("less_or_equal", "10.2.2.2.5", "true when the first argument is less than or equal to the second"),
    ("valid_values", "10.2.2.2.6", "true when the first argument is one of the list's values"),
    ("matches", "10.2.2.2.7", "true when the regular expression is found in the string (`^…$` for the whole string)"),
    ("has_suffix", "10.2.2.3.1", "true when the second argument (string or list) ends the first"),
    ("has_prefix", "10.2.2.3.2", "true when the second argument (string or list) starts the first"),
    ("contains", "10.2.2.3.3", "true when the second argument (string or list) is contained in the first"),
    ("has_entry", "10.2.2.3.4", "true when the list or map has the entry"),
    ("has_key", "10.2.2.3.5", "true when the map has the key"),
    ("has_all_entries", "10.2.2.3.6", "true when the list or map has every entry of the list"),
    ("has_all_keys", "10.2.2.3.7", "true when the map has every key of the list"),
    ("has_any_entry", "10.2.2.3.8", "true when the list or map has some entry of the list"),
    ("has_any_key", "10.2.2.3.9", "true when the map has some key of the list"),
    ("length", "10.2.3.1", "the number of characters of a string, of items of a list, or of entries of a map"),
    ("concat", "10.2.3.2", "its string arguments (or lists) one after the other"),
    ("join", "10.2.3.3", "the strings of a list joined, with an optional delimiter between them"),
    ("token", "10.2.3.4", "the substring at an index of a string split at any of the separator characters"),
    ("union", "10.2.4.1", "the entries of all its lists, each once"),
    ("intersection", "10.2.4.2", "the entries found in every one of its lists"),
    ("sum", "10.2.5.1", "the arithmetic sum of its arguments"),
    ("difference", "10.2.5.2", "the first argument minus the second"),
    ("product", "10.2.5.3", "the product of its arguments"),
    ("quotient", "10.2.5.4", "the first argument divided by the second"),
    ("remainder", "10.2.5.5", "the remainder of the first argument divided by the second"),
    ("round", "10.2.5.6", "the integer nearest a float (a half rounded down)"),
    ("floor", "10.2.5.7", "the greatest integer not above a float"),
    ("ceil", "10.2.5.8", "the least integer not below a float"),
    (
        "get_operation_output",
        "1.3 4.6.2",
        "an output an interface operation of a node or relationship produced, once run",
    ),
    ("get_nodes_of_type", "1.3 4.7.1", "the names of the node templates of a node type or of a type derived from it"),
];

/// What the built-in function `name` (without `$`) gives and the section of the specification
/// defining it (`10.2.3.2`, or `1.3 4.6.2` for a function of the Simple Profile 1.3 only), or
/// `None` for a function the service template defines itself.
pub fn function_meaning(name: &str) -> Option<(&'static str, &'static str)> {
    MEANINGS.iter().find(|(known, _, _)| *known == name).map(|(_, section, meaning)| (*meaning, *section))
}

/// The 1.x functions whose Simple Profile 1.3 text (section 4) differs from 2.0's, each with
/// that section and what it gives there: a 1.x file's hover cites its own version's text.
const MEANINGS_1_X: &[(&str, &str, &str)] = &[
    ("concat", "1.3 4.3.1", "its string arguments concatenated into one string"),
    ("join", "1.3 4.3.2", "the strings of a list joined into one, with an optional delimiter between them"),
    ("token", "1.3 4.3.3", "the substring at an index of a string split at any of the separator characters"),
    ("get_input", "1.3 4.4.1", "the value of an input declared in the `inputs` of the topology template"),
    (
        "get_property",
        "1.3 4.4.2",
        "the value of a property of a node or relationship template (or of its capability) in the same service template",
    ),
    ("get_attribute", "1.3 4.5.1", "the value of an attribute of a node or relationship template"),
];

/// [`function_meaning`] as a file of the given version reads `name`: a 1.x file (`version_2`
/// false) gets the Simple Profile 1.3 text of the functions 1.x defines differently, any other
/// function the text above.
pub fn function_meaning_in(name: &str, version_2: bool) -> Option<(&'static str, &'static str)> {
    let own = (!version_2).then(|| MEANINGS_1_X.iter().find(|(known, _, _)| *known == name)).flatten();
    own.map(|(_, section, meaning)| (*meaning, *section)).or_else(|| function_meaning(name))
}

/// Whether the compiler evaluates calls of `name` (without `$`) when their arguments are known:
/// a call of it left in the topology waits for a running system (an attribute without a value,
/// an operation's output), while a call of any other function is always left to the
/// orchestrator.
pub fn evaluated_at_compile_time(name: &str) -> bool {
    crate::render::EVALUATED.contains(&name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_intrinsic_function_has_a_meaning() {
        for name in crate::function_names::FUNCTIONS {
            assert!(function_meaning(name).is_some(), "{name}");
        }
        assert_eq!(function_meaning("concat").map(|found| found.1), Some("10.2.3.2"));
        assert!(function_meaning("my_function").is_none());
        assert!(evaluated_at_compile_time("get_attribute") && !evaluated_at_compile_time("sum"));
    }

    #[test]
    fn a_1_x_file_reads_the_1_x_text() {
        assert_eq!(function_meaning_in("get_input", false).map(|found| found.1), Some("1.3 4.4.1"));
        assert_eq!(function_meaning_in("get_input", true).map(|found| found.1), Some("10.2.1.1"));
        assert_eq!(function_meaning_in("get_nodes_of_type", false).map(|found| found.1), Some("1.3 4.7.1"));
        for (name, _, _) in MEANINGS_1_X {
            assert!(crate::function_names::FUNCTIONS.contains(name), "{name}");
        }
    }

    #[test]
    fn the_2_0_built_ins_are_exactly_those_of_cs01_10_2() {
        let of_cs01: Vec<&str> =
            MEANINGS.iter().filter(|(_, section, _)| section.starts_with("10.2")).map(|(name, _, _)| *name).collect();
        assert_eq!(of_cs01, crate::function_names::BUILT_IN_2_0);
        for name in crate::function_names::DRAFT_2_0_EXTENSIONS {
            assert!(!of_cs01.contains(name), "{name} is no cs01 function");
        }
    }
}
