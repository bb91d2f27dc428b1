//! Unit tests of reading and checking constraint clauses.

use std::time::{Duration, Instant};

use super::*;
use crate::problem::{Code, Problems};
use crate::source::SourceId;
use crate::value::Typed;
use crate::yaml::{Limits, Plain, Value, parse};

/// Reads the clauses of a YAML list.
fn read(text: &str) -> (Vec<Constraint>, Problems) {
    let mut problems = Problems::new();
    let root = parse(SourceId(0), text, &Limits::default(), &mut problems).expect("the YAML parses");
    assert!(problems.is_empty(), "YAML problems: {:?}", problems.iter().collect::<Vec<_>>());
    let constraints = read_constraints(root.as_sequence().expect("a list of clauses"), &mut problems);
    (constraints, problems)
}

/// Reads one well-formed clause.
fn clause(text: &str) -> Constraint {
    let (mut constraints, problems) = read(text);
    assert!(problems.is_empty(), "problems: {:?}", problems.iter().collect::<Vec<_>>());
    assert_eq!(constraints.len(), 1);
    constraints.remove(0)
}

/// Types by YAML's core schema; a single-entry map `get_*: argument` is a call.
fn plain(node: &Node) -> Option<Typed> {
    Some(match &node.value {
        Value::Scalar(scalar) => match scalar.resolve() {
            Plain::Null => Typed::Null,
            Plain::Bool(value) => Typed::Boolean(value),
            Plain::Integer(value) => Typed::Integer(value),
            Plain::Float(value) => Typed::Float(value),
            Plain::String(text) => Typed::String(text.to_owned()),
        },
        Value::Sequence(items) => Typed::List(items.iter().map(plain).collect::<Option<_>>()?),
        Value::Mapping(entries) => match entries.as_slice() {
            [entry] if entry.key.as_str().is_some_and(|key| key.starts_with("get_")) => {
                call(entry.key.as_str()?, vec![plain(&entry.value)?])
            }
            _ => Typed::Map(
                entries
                    .iter()
                    .map(|entry| Some((entry.key.as_str()?.to_owned(), plain(&entry.value)?)))
                    .collect::<Option<_>>()?,
            ),
        },
    })
}

/// Types as `integer` only, like a declared `integer` property would.
fn integer(node: &Node) -> Option<Typed> {
    match node.as_scalar()?.resolve() {
        Plain::Integer(value) => Some(Typed::Integer(value)),
        _ => None,
    }
}

fn check(text: &str, value: Typed) -> Result<(), String> {
    clause(text).check(&value, &mut plain)
}

fn call(name: &str, arguments: Vec<Typed>) -> Typed {
    Typed::Call(crate::value::Call { name: name.to_owned(), arguments, span: Span::default() })
}

fn string(text: &str) -> Typed {
    Typed::String(text.to_owned())
}

#[test]
fn comparisons() {
    assert_eq!(check("- equal: 5", Typed::Integer(5)), Ok(()));
    assert_eq!(check("- equal: 5", Typed::Integer(6)), Err("must be equal to 5".to_owned()));
    assert_eq!(check("- equal: 5", Typed::Float(5.0)), Ok(()));
    assert_eq!(check("- greater_than: 5", Typed::Integer(6)), Ok(()));
    assert_eq!(check("- greater_than: 5", Typed::Integer(5)), Err("must be greater than 5".to_owned()));
    assert_eq!(check("- greater_or_equal: 5", Typed::Integer(5)), Ok(()));
    assert_eq!(check("- greater_or_equal: 5", Typed::Integer(4)), Err("must be greater than or equal to 5".to_owned()));
    assert_eq!(check("- less_than: 5", Typed::Integer(4)), Ok(()));
    assert_eq!(check("- less_than: 5", Typed::Integer(5)), Err("must be less than 5".to_owned()));
    assert_eq!(check("- less_or_equal: 5", Typed::Integer(5)), Ok(()));
    assert_eq!(check("- less_or_equal: 5", Typed::Integer(6)), Err("must be less than or equal to 5".to_owned()));
    assert_eq!(check("- less_than: b", string("a")), Ok(()));
    assert_eq!(check("- greater_than: 2.5", Typed::Integer(3)), Ok(()));
}

#[test]
fn incomparable_values_fail_with_a_reason() {
    let list = Typed::List(vec![Typed::Integer(1)]);
    assert_eq!(check("- greater_than: 5", list.clone()), Err("cannot be compared with 5".to_owned()));
    assert_eq!(check("- in_range: [1, 2]", list), Err("cannot be compared with 1".to_owned()));
    assert_eq!(check("- less_than: 5", string("a")), Err("cannot be compared with 5".to_owned()));
}

#[test]
fn in_range_is_inclusive() {
    for value in [1, 3, 10] {
        assert_eq!(check("- in_range: [1, 10]", Typed::Integer(value)), Ok(()));
    }
    for value in [0, 11] {
        assert_eq!(check("- in_range: [1, 10]", Typed::Integer(value)), Err("must be between 1 and 10".to_owned()));
    }
}

#[test]
fn arguments_are_typed_like_the_value() {
    // A stand-in for `scalar-unit.size`: sizes as megabytes.
    let mut size = |node: &Node| {
        let text = node.as_str()?;
        let (number, unit) = text.split_once(' ')?;
        let number: i64 = number.parse().ok()?;
        Some(Typed::Integer(if unit == "GB" { number * 1000 } else { number }))
    };
    let constraint = clause("- in_range: [1 GB, 4 GB]");
    assert_eq!(constraint.check(&Typed::Integer(2000), &mut size), Ok(()));
    assert_eq!(constraint.check(&Typed::Integer(500), &mut size), Err("must be between 1 GB and 4 GB".to_owned()));
}

#[test]
fn in_range_on_a_range_value_contains_the_whole_range() {
    let constraint = clause("- in_range: [1, 65535]");
    let mut never = |_: &Node| -> Option<Typed> { panic!("range bounds are not typed") };
    assert_eq!(constraint.check(&Typed::Range(1, Some(65535)), &mut never), Ok(()));
    assert_eq!(constraint.check(&Typed::Range(80, Some(90)), &mut never), Ok(()));
    let reason = Err("must lie between 1 and 65535".to_owned());
    assert_eq!(constraint.check(&Typed::Range(0, Some(90)), &mut never), reason);
    assert_eq!(constraint.check(&Typed::Range(80, Some(70000)), &mut never), reason);
    assert_eq!(constraint.check(&Typed::Range(80, None), &mut never), reason);

    let unbounded = clause("- in_range: [1, UNBOUNDED]");
    assert_eq!(unbounded.check(&Typed::Range(5, None), &mut never), Ok(()));
    assert_eq!(unbounded.check(&Typed::Range(5, Some(7)), &mut never), Ok(()));
    assert_eq!(unbounded.check(&Typed::Range(0, None), &mut never), Err("must lie between 1 and UNBOUNDED".to_owned()));
    let nonsense = clause("- in_range: [low, 5]");
    assert_eq!(nonsense.check(&Typed::Range(5, None), &mut never), Err("cannot be compared with low".to_owned()));
    // Other values have no `UNBOUNDED`: the bound does not type as an integer, so the
    // caller's typing reports it and the check does not.
    assert_eq!(unbounded.check(&Typed::Integer(0), &mut integer), Ok(()));
}

#[test]
fn valid_values() {
    assert_eq!(check("- valid_values: [tcp, udp]", string("udp")), Ok(()));
    assert_eq!(check("- valid_values: [tcp, udp]", string("icmp")), Err("must be one of [tcp, udp]".to_owned()));
    assert_eq!(check("- valid_values: [1, 2]", Typed::Float(2.0)), Ok(()));
    assert_eq!(check("- valid_values: []", string("tcp")), Err("must be one of []".to_owned()));
    let list = Typed::List(vec![Typed::Integer(1), Typed::Integer(2)]);
    assert_eq!(check("- valid_values: [[1, 2], [3]]", list), Ok(()));
}

#[test]
fn long_arguments_are_cut_short_in_reasons() {
    let items: Vec<String> = (0..100).map(|n| format!("value{n}")).collect();
    let text = format!("- valid_values: [{}]", items.join(", "));
    let reason = check(&text, string("other")).expect_err("not a valid value");
    assert!(reason.starts_with("must be one of [value0, value1, "), "{reason}");
    assert!(reason.ends_with('…'), "{reason}");
    assert!(reason.chars().count() < 100, "{reason}");
}

#[test]
fn lengths_of_strings_lists_and_maps() {
    // Characters, not bytes.
    assert_eq!(check("- length: 5", string("héllo")), Ok(()));
    assert_eq!(check("- length: 3", string("hello")), Err("must have length 3 (has 5)".to_owned()));
    let list = Typed::List(vec![Typed::Integer(1), Typed::Integer(2)]);
    assert_eq!(check("- min_length: 2", list.clone()), Ok(()));
    assert_eq!(check("- min_length: 3", list.clone()), Err("must have length at least 3 (has 2)".to_owned()));
    assert_eq!(check("- max_length: 2", list.clone()), Ok(()));
    assert_eq!(check("- max_length: 1", list), Err("must have length at most 1 (has 2)".to_owned()));
    let map = Typed::Map(vec![("a".to_owned(), Typed::Null)]);
    assert_eq!(check("- length: 1", map), Ok(()));
    assert_eq!(check("- min_length: 0", string("")), Ok(()));
    assert_eq!(
        check("- length: 1", Typed::Integer(7)),
        Err("must be a string, list or map to have a length".to_owned())
    );
}

#[test]
fn pattern_matches_the_whole_value() {
    assert_eq!(check("- pattern: ab", string("ab")), Ok(()));
    assert_eq!(check("- pattern: ab", string("abc")), Err("must match pattern `ab`".to_owned()));
    assert_eq!(check("- pattern: ab", string("xab")), Err("must match pattern `ab`".to_owned()));
    // `^ab` alone would find `ab` at the start of `abc`; the whole value must match.
    assert_eq!(check("- pattern: ^ab", string("abc")), Err("must match pattern `^ab`".to_owned()));
    assert_eq!(check("- pattern: '^[a-z]+$'", string("abc")), Ok(()));
    // The whole value, even where leftmost-first search would stop at a shorter branch.
    assert_eq!(check("- pattern: a|ab", string("ab")), Ok(()));
    // Anchoring is not undone by a trailing newline in the value.
    assert_eq!(check("- pattern: ab", string("ab\n")), Err("must match pattern `ab`".to_owned()));
    assert_eq!(check("- pattern: ab", Typed::Integer(1)), Err("must be a string to match pattern `ab`".to_owned()));
}

#[test]
fn pattern_ending_in_a_verbose_comment() {
    let constraint = clause("- pattern: \"(?x) [a-z]+ # letters only\"");
    assert_eq!(constraint.check(&string("abc"), &mut plain), Ok(()));
    assert!(constraint.check(&string("abc1"), &mut plain).is_err());
}

#[test]
fn pattern_with_unbalanced_parentheses_is_rejected() {
    // Wrapped without care, `a)|(b` would become the valid `\A(?:a)|(b)\z`.
    let (constraints, problems) = read("- pattern: a)|(b");
    assert!(constraints.is_empty());
    let problem = problems.iter().next().expect("a problem");
    assert_eq!(problem.code, Code::InvalidValue);
    assert_eq!(problem.message, "`pattern` is not a valid regular expression: `a)|(b`");
}

#[test]
fn linear_patterns_cannot_be_catastrophic() {
    // Exponential for a backtracking engine; linear for the `regex` crate.
    let constraint = clause("- pattern: (a+)+$");
    let Operator::Pattern(pattern) = &constraint.operator else { panic!("a pattern") };
    assert!(!pattern.is_backtracking());
    let start = Instant::now();
    let value = string("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!");
    assert_eq!(constraint.check(&value, &mut plain), Err("must match pattern `(a+)+$`".to_owned()));
    assert_eq!(constraint.check(&string(&"a".repeat(10_000)), &mut plain), Ok(()));
    assert!(start.elapsed() < Duration::from_secs(5));
}

#[test]
fn look_around_falls_back_to_fancy_regex() {
    let constraint = clause(r"- pattern: '(?=.*\d)[a-z\d]+'");
    let Operator::Pattern(pattern) = &constraint.operator else { panic!("a pattern") };
    assert!(pattern.is_backtracking());
    assert_eq!(constraint.check(&string("abc1"), &mut plain), Ok(()));
    assert!(constraint.check(&string("abc"), &mut plain).is_err());
    assert!(constraint.check(&string("abc1!"), &mut plain).is_err());
    let behind = clause(r"- pattern: '[a-z]+(?<!x)'");
    assert_eq!(behind.check(&string("abc"), &mut plain), Ok(()));
    assert!(behind.check(&string("abx"), &mut plain).is_err());
}

#[test]
fn backreferences_fall_back_to_fancy_regex() {
    let constraint = clause(r"- pattern: '(\w+) \1'");
    assert_eq!(constraint.check(&string("hey hey"), &mut plain), Ok(()));
    assert_eq!(constraint.check(&string("hey you"), &mut plain), Err(r"must match pattern `(\w+) \1`".to_owned()));
    // Whole value: a repeated word inside a longer text is not enough.
    assert!(constraint.check(&string("hey hey you"), &mut plain).is_err());
}

#[test]
fn costly_backtracking_is_cut_off() {
    // The backreference forces the backtracking engine, which tries every way of splitting
    // the `a`s into `a` and `aa` before failing on the `!`.
    let constraint = clause(r"- pattern: '(a|aa)+\1'");
    let start = Instant::now();
    let value = string("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!");
    assert_eq!(constraint.check(&value, &mut plain), Err("pattern too costly to evaluate".to_owned()));
    assert!(start.elapsed() < Duration::from_secs(5));
}

#[test]
fn calls_are_not_checked() {
    let call = call("get_input", vec![string("port")]);
    for text in
        ["- equal: 5", "- greater_than: 5", "- in_range: [1, 2]", "- valid_values: [1]", "- length: 1", "- pattern: x"]
    {
        assert_eq!(check(text, call.clone()), Ok(()), "{text}");
    }
    let in_list = Typed::List(vec![call]);
    assert_eq!(check("- length: 5", in_list), Ok(()));
    assert_eq!(check("- greater_than: {get_input: low}", Typed::Integer(1)), Ok(()));
    assert_eq!(check("- in_range: [{get_input: low}, 5]", Typed::Integer(9)), Ok(()));
    assert_eq!(check("- valid_values: [{get_input: a}, 2]", Typed::Integer(9)), Ok(()));
}

#[test]
fn untyped_arguments_are_left_to_the_caller() {
    let mut typer = integer;
    assert_eq!(clause("- equal: five").check(&Typed::Integer(4), &mut typer), Ok(()));
    assert_eq!(clause("- greater_than: five").check(&Typed::Integer(4), &mut typer), Ok(()));
    assert_eq!(clause("- in_range: [1, ten]").check(&Typed::Integer(40), &mut typer), Ok(()));
    assert_eq!(clause("- valid_values: [1, two]").check(&Typed::Integer(4), &mut typer), Ok(()));
    assert_eq!(
        clause("- valid_values: [1, 2]").check(&Typed::Integer(4), &mut typer),
        Err("must be one of [1, 2]".to_owned())
    );
}

#[test]
fn schema_is_kept_and_not_checked() {
    let constraint = clause("- schema: '{\"type\": \"string\"}'");
    assert_eq!(constraint.operator, Operator::Schema("{\"type\": \"string\"}".to_owned()));
    assert_eq!(constraint.check(&Typed::Integer(1), &mut plain), Ok(()));
}

#[test]
fn names_spans_and_typed_arguments() {
    let (constraints, problems) = read("- equal: 1\n- in_range: [1, 2]\n- valid_values: [a, b, c]\n- length: 2\n");
    assert!(problems.is_empty());
    let names: Vec<&str> = constraints.iter().map(Constraint::name).collect();
    assert_eq!(names, ["equal", "in_range", "valid_values", "length"]);
    assert_eq!((constraints[1].span.line, constraints[1].span.column), (2, 3));
    let counts: Vec<usize> = constraints.iter().map(|c| c.typed_arguments().len()).collect();
    assert_eq!(counts, [1, 2, 3, 0]);
}

#[test]
fn malformed_clauses_are_reported_where_written() {
    let text = "\
- greater_than: 5
- 7
- {}
- {less_than: 1, equal: 2}
- in_range: [1, 2, 3]
- in_range: 5
- in_range: [10, 1]
- valid_values: tcp
- length: -1
- min_length: abc
- max_length: 1.5
- pattern: '(unclosed'
- pattern: 42
- schema: [a]
- greater_then: 5
- frobnicate: 1
- ? [a]
  : 1
- less_or_equal: 9
";
    let (constraints, problems) = read(text);
    let names: Vec<&str> = constraints.iter().map(Constraint::name).collect();
    assert_eq!(names, ["greater_than", "less_or_equal"]);
    let found: Vec<(Code, u32, u32, &str)> = problems
        .iter()
        .map(|problem| (problem.code, problem.span.line, problem.span.column, problem.message.as_str()))
        .collect();
    let expected = [
        (
            Code::InvalidValue,
            2,
            3,
            "a constraint clause must be a map of one operator, like `greater_than: 5`, not an integer",
        ),
        (Code::InvalidValue, 3, 3, "a constraint clause must have one operator, this one has none"),
        (
            Code::InvalidValue,
            4,
            18,
            "a constraint clause must have exactly one operator; write each operator as its own list item",
        ),
        (Code::InvalidValue, 5, 13, "`in_range` needs exactly two bounds, not 3"),
        (Code::InvalidValue, 6, 13, "`in_range` needs a list of two bounds, like [1, 10], not an integer"),
        (Code::InvalidValue, 7, 13, "`in_range` lower bound 10 is greater than its upper bound 1"),
        (Code::InvalidValue, 8, 17, "`valid_values` needs a list of values, not a string"),
        (Code::InvalidValue, 9, 11, "`length` needs a non-negative integer, not -1"),
        (Code::InvalidValue, 10, 15, "`min_length` needs a non-negative integer, not a string"),
        (Code::InvalidValue, 11, 15, "`max_length` needs a non-negative integer, not a float"),
        (Code::InvalidValue, 12, 12, "`pattern` is not a valid regular expression: `(unclosed`"),
        (Code::InvalidValue, 13, 12, "`pattern` needs a regular expression as a string, not an integer"),
        (Code::InvalidValue, 14, 11, "`schema` needs a string, not a list"),
        (Code::UnknownKey, 15, 3, "unknown constraint operator `greater_then`"),
        (Code::UnknownKey, 16, 3, "unknown constraint operator `frobnicate`"),
        (Code::InvalidValue, 17, 5, "a constraint operator must be a string"),
    ];
    assert_eq!(found, expected);
    let helps: Vec<Option<&str>> = problems.iter().map(|problem| problem.help.as_deref()).collect();
    assert_eq!(helps[13], Some("did you mean `greater_than`?"));
    assert!(helps[14].is_some_and(|help| help.starts_with("known operators: equal, greater_than")));
    assert!(helps[10].is_some_and(|help| help.contains("unclosed group")), "{:?}", helps[10]);
}

#[test]
fn hostile_patterns_are_reported_not_fatal() {
    // Too big for the `regex` crate's size limit.
    let (constraints, problems) = read(r"- pattern: '\w{1000}{1000}'");
    assert!(constraints.is_empty());
    assert_eq!(problems.len(), 1);
    let deep = format!("- pattern: '{}a{}'", "(".repeat(1000), ")".repeat(1000));
    let (constraints, problems) = read(&deep);
    assert!(constraints.is_empty());
    assert_eq!(problems.len(), 1);
}

#[test]
fn a_pattern_matches_the_whole_value_and_a_search_anywhere_in_it() {
    // 1.x `pattern`: the whole value. 2.0 `$matches`: a search (cs01 10.2.2.2.7), `^…$` for all.
    let whole = Pattern::new("^https?://").expect("compiles");
    let search = Pattern::search("^https?://").expect("compiles");
    assert_eq!(whole.matches("https://x.example/a"), Ok(false));
    assert_eq!(search.matches("https://x.example/a"), Ok(true));
    assert_eq!(Pattern::search("prod").expect("compiles").matches("eu-prod-1"), Ok(true));
    assert_eq!(Pattern::search("^[a-z]+$").expect("compiles").matches("abc1"), Ok(false));
    // A backtracking search too (look-ahead needs fancy-regex).
    let look_ahead = Pattern::search("(?=b)\\w").expect("compiles");
    assert!(look_ahead.is_backtracking() && look_ahead.is_search());
    assert_eq!(look_ahead.matches("abc"), Ok(true));
    assert_eq!(Pattern::new("(?=b)\\w").expect("compiles").matches("abc"), Ok(false));
    // The same text as a whole pattern and as a search are two patterns.
    assert_ne!(whole, search);
}
