//! The derives' error messages, pinned: one case per attribute mistake in `tests/ui/*.rs`, each
//! with the `.stderr` the compiler prints, and one case using every attribute that must compile.
//! Refresh the `.stderr` files with `TRYBUILD=overwrite cargo test -p tosca-derive --test compile_fail`.

#[test]
fn attribute_mistakes_are_reported_at_their_span() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
    cases.pass("tests/ui/pass/*.rs");
}
