//! The generators of the large hostile shapes: small templates that cost gigabytes or minutes
//! without the limits of ARCHITECTURE.md's "Limits" section. Shared by the tests
//! (`tests/tests/hostile*.rs`, which check each shape's problems and count its work) and the
//! benchmark (`tests/benches/hostile.rs`, which times the large ones).

use std::fmt::Write as _;

/// The first line of every generated 1.3 template.
pub const HEADER: &str = "tosca_definitions_version: tosca_simple_yaml_1_3\n";

/// A node type with `count` string properties and a template of it whose property `p{i}` gets
/// `p{i+1}`; the last one gets `last`.
pub fn property_chain(count: usize, last: &str) -> String {
    let mut text = format!("{HEADER}node_types:\n  Chain:\n    properties:\n");
    for index in 0..count {
        let _ = writeln!(text, "      p{index}:\n        type: string");
    }
    text.push_str("topology_template:\n  node_templates:\n    chain:\n      type: Chain\n      properties:\n");
    for index in 0..count {
        let value =
            if index + 1 < count { format!("{{ get_property: [ SELF, p{} ] }}", index + 1) } else { last.to_owned() };
        let _ = writeln!(text, "        p{index}: {value}");
    }
    text
}

/// `count` data types, `D0` with a property `next` of type `D1`, and so on, each with `default`
/// when given; the last, `D{count}`, has an integer property `port` with `last_default`.
pub fn data_type_chain(count: usize, default: Option<&str>, last_default: &str) -> String {
    let mut text = format!("{HEADER}data_types:\n");
    let default = default.map(|default| format!("\n        default: {default}")).unwrap_or_default();
    for index in 0..count {
        let _ = writeln!(
            text,
            "  D{index}:\n    derived_from: tosca.datatypes.Root\n    properties:\n      next:\n        type: D{}{default}",
            index + 1
        );
    }
    let _ = writeln!(
        text,
        "  D{count}:\n    derived_from: tosca.datatypes.Root\n    properties:\n      port:\n        type: integer\n        default: {last_default}"
    );
    text
}

/// `count` node templates, `n0` copying `n1` and so on; the last is written out as `last`.
pub fn copy_chain(count: usize, last: &str) -> String {
    let mut text = format!("{HEADER}topology_template:\n  node_templates:\n");
    for index in 0..count - 1 {
        let _ = writeln!(text, "    n{index}:\n      copy: n{}", index + 1);
    }
    let _ = writeln!(text, "    n{}:\n{last}", count - 1);
    text
}

/// A node type with properties `p0` … `p{steps}` and a template whose `p{i}` is `step` of
/// `p{i+1}` (with `NEXT` standing for a `get_property` of it); the last is `last`.
pub fn doubling(steps: usize, property_type: &str, step: &str, last: &str) -> String {
    let mut text = format!("{HEADER}node_types:\n  Doubler:\n    derived_from: tosca.nodes.Root\n    properties:\n");
    for index in 0..=steps {
        let _ = writeln!(text, "      p{index}:\n        type: {property_type}");
    }
    text.push_str("topology_template:\n  node_templates:\n    doubler:\n      type: Doubler\n      properties:\n");
    for index in 0..steps {
        let next = format!("{{ get_property: [ SELF, p{} ] }}", index + 1);
        let _ = writeln!(text, "        p{index}: {}", step.replace("NEXT", &next));
    }
    let _ = writeln!(text, "        p{steps}: {last}");
    text
}

/// `count` node templates of one type, each listing every node of the type.
pub fn nodes_of_type(count: usize) -> String {
    let mut text = format!(
        "{HEADER}node_types:\n  Member:\n    derived_from: tosca.nodes.Root\n    properties:\n      all:\n        type: list\n        entry_schema: string\n"
    );
    text.push_str("topology_template:\n  node_templates:\n");
    for index in 0..count {
        let _ = writeln!(
            text,
            "    n{index}:\n      type: Member\n      properties:\n        all: {{ get_nodes_of_type: Member }}"
        );
    }
    text
}

/// `count` node types, `T0` derived from `T1` and so on up to `tosca.nodes.Root`, each adding
/// one property.
pub fn chain_adding_properties(count: usize) -> String {
    let mut text = format!("{HEADER}node_types:\n");
    for index in 0..count {
        let parent = if index + 1 < count { format!("T{}", index + 1) } else { "tosca.nodes.Root".to_owned() };
        let _ = writeln!(
            text,
            "  T{index}:\n    derived_from: {parent}\n    properties:\n      p{index}: {{ type: string, required: false }}"
        );
    }
    text
}

/// A 1 MiB scalar anchored once and aliased 1,000 times, in a list under `section`: about 1 GiB
/// of copies, few nodes.
pub fn aliased_megabyte(section: &str) -> String {
    let mut text = format!("{HEADER}dsl_definitions:\n  big: &big {}\n{section}", "x".repeat(1 << 20));
    for _ in 0..1_000 {
        text.push_str("          - *big\n");
    }
    text
}

/// A node type whose `port` must be under 10, declared above `filler` lines of data types,
/// and `count` templates of it with port 99.
pub fn far_violations(count: usize, filler: usize) -> String {
    let mut text = format!(
        "{HEADER}node_types:\n  Box:\n    derived_from: tosca.nodes.Root\n    properties:\n      port:\n        type: \
         integer\n        constraints:\n          - less_than: 10\ndata_types:\n"
    );
    for index in 0..filler {
        let _ = writeln!(text, "  Filler{index}:\n    derived_from: tosca.datatypes.Root");
    }
    text.push_str("topology_template:\n  node_templates:\n");
    for index in 0..count {
        let _ = writeln!(text, "    b{index}:\n      type: Box\n      properties:\n        port: 99");
    }
    text
}

/// A chain of `levels` data types, each with `width` properties defaulting to `{}` of the next,
/// and a node template whose property defaults to the first.
pub fn chain_of_defaults(levels: usize, width: usize) -> String {
    let mut text = format!("{HEADER}data_types:\n");
    for level in 0..levels {
        let _ = write!(text, "  T{level}:\n    derived_from: tosca.datatypes.Root\n    properties:\n");
        if level + 1 < levels {
            for property in 0..width {
                let _ = writeln!(text, "      p{property}: {{ type: T{}, default: {{}} }}", level + 1);
            }
        } else {
            text.push_str("      leaf: { type: string, default: x }\n");
        }
    }
    text.push_str("node_types:\n  N:\n    derived_from: tosca.nodes.Root\n    properties:\n");
    text.push_str("      settings: { type: T0, default: {} }\n");
    text.push_str("topology_template:\n  node_templates:\n    n: { type: N }\n");
    text
}

/// [`chain_of_defaults`] with `templates` node templates instead of one: each within the
/// bound a value's defaults have, all of them together far past a compilation's.
pub fn templates_with_chained_defaults(templates: usize, levels: usize) -> String {
    let one = chain_of_defaults(levels, 2);
    let mut text = one.strip_suffix("    n: { type: N }\n").expect("one template at the end").to_owned();
    for template in 0..templates {
        let _ = writeln!(text, "    n{template}: {{ type: N }}");
    }
    text
}

/// `servers` templates each offering one capability with room for one relationship, and as
/// many clients each requiring one; `capability` is what the clients ask for.
pub fn servers_and_clients(servers: usize, clients: usize, capability: &str) -> String {
    let mut text = format!(
        "{HEADER}capability_types:\n  Slot: {{ derived_from: tosca.capabilities.Node }}\n  Other: {{ derived_from: tosca.capabilities.Root }}\n\
         node_types:\n  Server:\n    derived_from: tosca.nodes.Root\n    capabilities:\n      slot: {{ type: Slot, occurrences: [0, 1] }}\n\
         \x20 Client:\n    derived_from: tosca.nodes.Root\n    requirements:\n      - use: {{ capability: {capability}, node: Server, relationship: tosca.relationships.DependsOn }}\n\
         topology_template:\n  node_templates:\n"
    );
    for server in 0..servers {
        let _ = writeln!(text, "    s{server}: {{ type: Server }}");
    }
    for client in 0..clients {
        let _ = writeln!(text, "    c{client}: {{ type: Client, requirements: [ {{ use: {{ node: Server }} }} ] }}");
    }
    text
}

/// `values` node templates each with a distinct value for a backtracking pattern that gives
/// up on every one of them.
pub fn catastrophic_pattern(values: usize) -> String {
    let mut text = format!(
        "{HEADER}node_types:\n  Box:\n    derived_from: tosca.nodes.Root\n    properties:\n      \
         word: {{ type: string, constraints: [ pattern: '(a|aa)+\\1' ] }}\n\
         topology_template:\n  node_templates:\n"
    );
    for value in 0..values {
        let _ = writeln!(text, "    b{value}: {{ type: Box, properties: {{ word: {}{value}! }} }}", "a".repeat(40));
    }
    text
}

/// `count` servers, each offering one capability with room for one relationship and holding a
/// distinct `word`, and as many clients whose requirement's node filter checks the word
/// against `pattern`.
fn filtered_by(count: usize, pattern: &str, word: impl Fn(usize) -> String) -> String {
    let mut text = format!(
        "{HEADER}capability_types:\n  Slot: {{ derived_from: tosca.capabilities.Node }}\n\
         node_types:\n  Server:\n    derived_from: tosca.nodes.Root\n    properties:\n      word: {{ type: string }}\n    \
         capabilities:\n      slot: {{ type: Slot, occurrences: [0, 1] }}\n\
         \x20 Client:\n    derived_from: tosca.nodes.Root\n    requirements:\n      - use:\n          capability: Slot\n          \
         node: Server\n          relationship: tosca.relationships.DependsOn\n          node_filter:\n            \
         properties:\n              - word: {{ pattern: '{pattern}' }}\n\
         topology_template:\n  node_templates:\n"
    );
    for server in 0..count {
        let _ = writeln!(text, "    s{server}: {{ type: Server, properties: {{ word: {} }} }}", word(server));
    }
    for client in 0..count {
        let _ = writeln!(text, "    c{client}: {{ type: Client }}");
    }
    text
}

/// `count` capacity-1 servers and clients whose node filter holds a backtracking pattern that
/// gives up on every server's word.
pub fn filtered_by_catastrophic_pattern(count: usize) -> String {
    filtered_by(count, "(a|aa)+\\1", |server| format!("{}{server}!", "a".repeat(40)))
}

/// `count` capacity-1 servers, the even ones with a word passing a look-ahead and the odd
/// ones not, and as many clients filtering by it.
pub fn filtered_by_look_ahead(count: usize) -> String {
    filtered_by(
        count,
        "(?=abc)\\w+",
        |server| if server % 2 == 0 { format!("abc{server}") } else { format!("xyz{server}") },
    )
}

/// `count` capacity-1 servers and as many clients whose node filter (a linear pattern) every
/// server passes.
pub fn filtered_servers_and_clients(count: usize) -> String {
    filtered_by(count, "w[0-9]+", |server| format!("w{server}"))
}

/// A 2.0 node type whose `word` must `$matches` `pattern`, and `count` templates with the
/// words `word` gives.
fn validated_by(count: usize, pattern: &str, word: impl Fn(usize) -> String) -> String {
    let mut text = format!(
        "tosca_definitions_version: tosca_2_0\nnode_types:\n  Box:\n    properties:\n      word:\n        type: string\n        \
         validation: {{ $matches: [ $value, '{pattern}' ] }}\nservice_template:\n  node_templates:\n"
    );
    for value in 0..count {
        let _ = writeln!(text, "    b{value}: {{ type: Box, properties: {{ word: {} }} }}", word(value));
    }
    text
}

/// `count` 2.0 templates each with a distinct word a backtracking `$matches` gives up on
/// (anchored at both ends: `$matches` searches, so an unanchored pattern would find `aa` at once).
pub fn validated_by_catastrophic_matches(count: usize) -> String {
    validated_by(count, "^(a|aa)+\\1$", |value| format!("{}{value}!", "a".repeat(40)))
}

/// `count` 2.0 templates whose words alternate between one passing a look-ahead `$matches`
/// and one failing it.
pub fn validated_by_look_ahead(count: usize) -> String {
    validated_by(count, "(?=a)\\w+", |value| if value % 2 == 0 { "abc".to_owned() } else { "xyz".to_owned() })
}

/// Where [`aliased_megabyte`] puts its aliases to be typed: a list property of a template.
pub const ALIASED_PROPERTY: &str = "node_types:\n  Box:\n    derived_from: tosca.nodes.Root\n    properties:\n      \
     copies:\n        type: list\ntopology_template:\n  node_templates:\n    box:\n      type: Box\n      \
     properties:\n        copies:\n";

/// The large hostile shapes, each at the size its test generates, named for the benchmark.
pub fn large_shapes() -> Vec<(&'static str, String)> {
    vec![
        ("derivation-chain-20k", crate::derivation_chain(HEADER, 20_000, "tosca.nodes.Root")),
        ("derivation-loop-100k", crate::derivation_chain(HEADER, 100_000, "T0")),
        ("inherited-properties-3k", chain_adding_properties(3_000)),
        ("function-cycle-10k", property_chain(10_000, "{ get_property: [ SELF, p0 ] }")),
        ("function-chain-20k", property_chain(20_000, "end")),
        ("data-type-defaults-10k", data_type_chain(10_000, Some("{}"), "80")),
        ("copy-chain-10k", copy_chain(10_000, "      type: tosca.nodes.Compute")),
        ("lists-doubling-40", doubling(40, "list", "[ NEXT, NEXT ]", "[ x ]")),
        ("strings-doubling-64", doubling(64, "string", "{ concat: [ NEXT, NEXT ] }", "x")),
        ("nodes-of-type-4500", nodes_of_type(4_500)),
        ("aliased-megabyte-1000", aliased_megabyte(ALIASED_PROPERTY)),
        ("far-violations-20k", far_violations(20_000, 2_000)),
        ("defaults-doubling-40", chain_of_defaults(40, 2)),
        ("chained-defaults-2k-templates", templates_with_chained_defaults(2_000, 13)),
        ("capacity-one-8k", servers_and_clients(8_000, 8_000, "Slot")),
        ("dangling-8k", servers_and_clients(8_000, 8_000, "Other")),
        ("capacity-exhausted-8k", servers_and_clients(4_000, 8_000, "Slot")),
        ("filtered-capacity-one-8k", filtered_servers_and_clients(8_000)),
        ("catastrophic-pattern-2k", catastrophic_pattern(2_000)),
        ("filter-catastrophic-pattern-2k", filtered_by_catastrophic_pattern(2_000)),
        ("matches-catastrophic-2k", validated_by_catastrophic_matches(2_000)),
    ]
}
