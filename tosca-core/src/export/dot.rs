//! The topology as a Graphviz graph (`dot -Tsvg` renders it).
//!
//! Node templates are boxes labelled with their name and node type; relationships are arrows
//! from the requirement's node template to the target, labelled with the requirement's name and
//! the relationship type. Each group is a dashed cluster around its members (a node template in
//! several groups is drawn in the first, and its label names the others); each policy is a note
//! with dotted lines to its targets. The graph runs top to bottom, so what a node template
//! depends on (its host, its database) is drawn below it.
//!
//! Graph ids are generated from positions (`n0`, `cluster_1`, `p0`), never from names, so no
//! name can break the syntax; names appear only in labels, escaped by [`escape`].

use std::fmt::Write;

use crate::collections::IndexMap;

use crate::topology::Topology;

/// The topology in the DOT language.
pub fn dot(topology: &Topology) -> String {
    let mut out = String::new();
    out.push_str("digraph topology {\n");
    out.push_str("  graph [rankdir=TB, compound=true, fontname=\"Helvetica\", nodesep=0.4, ranksep=0.7];\n");
    out.push_str(
        "  node [shape=box, style=\"rounded,filled\", fillcolor=\"#eef3fb\", color=\"#4a6fa5\", fontname=\"Helvetica\"];\n",
    );
    out.push_str("  edge [fontname=\"Helvetica\", fontsize=10, color=\"#555555\"];\n");
    if let Some(substitution) = &topology.substitution
        && let Some(node_type) = substitution.types.first()
    {
        let _ = writeln!(out, "  label=\"{}\";\n  labelloc=t;", escape(&format!("substitutes for {node_type}")));
    }

    let ids: IndexMap<&str, String> =
        topology.node_templates.keys().enumerate().map(|(index, name)| (name.as_str(), format!("n{index}"))).collect();

    // Each node template is drawn once, in the cluster of the first group that lists it.
    let mut home: IndexMap<&str, usize> = IndexMap::default();
    let mut groups_of: IndexMap<&str, Vec<&str>> = IndexMap::default();
    for (index, (group_name, group)) in topology.groups.iter().enumerate() {
        for member in &group.members {
            if ids.contains_key(member.as_str()) {
                home.entry(member.as_str()).or_insert(index);
                groups_of.entry(member.as_str()).or_default().push(group_name);
            }
        }
    }

    let node_line = |name: &str| -> String {
        let template = &topology.node_templates[name];
        let mut label = name.to_owned();
        if let Some(node_type) = template.types.first() {
            label.push('\n');
            label.push_str(node_type);
        }
        let others: Vec<&str> =
            groups_of.get(name).map(|groups| groups.iter().skip(1).copied().collect()).unwrap_or_default();
        if !others.is_empty() {
            label.push_str(&format!("\nalso in {}", others.join(", ")));
        }
        format!("{} [label=\"{}\"];", ids[name], escape(&label))
    };

    let mut cluster_of: IndexMap<usize, String> = IndexMap::default();
    for (index, (group_name, group)) in topology.groups.iter().enumerate() {
        let members: Vec<&str> = home.iter().filter(|(_, home)| **home == index).map(|(member, _)| *member).collect();
        if members.is_empty() {
            continue;
        }
        let cluster = format!("cluster_{index}");
        let mut label = format!("group {group_name}");
        if let Some(group_type) = group.types.first() {
            label.push('\n');
            label.push_str(group_type);
        }
        let _ = writeln!(out, "  subgraph {cluster} {{");
        let _ = writeln!(out, "    label=\"{}\";", escape(&label));
        out.push_str("    style=\"dashed,rounded\";\n    color=\"#888888\";\n    fontname=\"Helvetica\";\n");
        for member in &members {
            let _ = writeln!(out, "    {}", node_line(member));
        }
        out.push_str("  }\n");
        cluster_of.insert(index, cluster);
    }
    for name in topology.node_templates.keys() {
        if !home.contains_key(name.as_str()) {
            let _ = writeln!(out, "  {}", node_line(name));
        }
    }

    for edge in &topology.relationships {
        let (Some(source), Some(target)) = (ids.get(edge.source.as_str()), ids.get(edge.target.as_str())) else {
            continue;
        };
        let mut label = edge.requirement.clone();
        if let Some(relationship_type) = edge.relationship.types.first() {
            label.push('\n');
            label.push_str(relationship_type);
        }
        let _ = writeln!(out, "  {source} -> {target} [label=\"{}\"];", escape(&label));
    }

    for (index, (policy_name, policy)) in topology.policies.iter().enumerate() {
        let id = format!("p{index}");
        let mut label = format!("policy {policy_name}");
        if let Some(policy_type) = policy.types.first() {
            label.push('\n');
            label.push_str(policy_type);
        }
        let _ = writeln!(
            out,
            "  {id} [shape=note, fillcolor=\"#fff6d5\", color=\"#b08d2c\", label=\"{}\"];",
            escape(&label)
        );
        for target in &policy.targets {
            if let Some(node) = ids.get(target.as_str()) {
                let _ = writeln!(out, "  {id} -> {node} [style=dotted, arrowhead=odot];");
            } else if let Some((group_index, _, _)) = topology.groups.get_full(target)
                && let Some(cluster) = cluster_of.get(&group_index)
                && let Some((member, _)) = home.iter().find(|(_, home)| **home == group_index)
            {
                let _ = writeln!(out, "  {id} -> {} [style=dotted, arrowhead=odot, lhead={cluster}];", ids[member]);
            }
        }
    }
    out.push_str("}\n");
    out
}

/// Text for a double-quoted DOT label: backslashes and quotes are escaped, every line break
/// (`\n`, `\r\n`, `\r`) becomes DOT's centred line break `\n`, and other control characters
/// become spaces. Nothing else is special inside quotes, and the result never starts an
/// HTML-like label (those are written `<…>` without quotes).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => {
                if chars.peek() != Some(&'\n') {
                    out.push_str("\\n");
                }
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn escape_quotes_backslashes_and_line_breaks() {
        assert_eq!(escape(r#"a "b" \c"#), r#"a \"b\" \\c"#);
        assert_eq!(escape("one\ntwo\r\nthree\rfour"), r"one\ntwo\nthree\nfour");
        assert_eq!(escape("tab\there\u{7}"), "tab here ");
        assert_eq!(escape(r"\N\G"), r"\\N\\G", "DOT's own escapes stay literal");
    }
}
