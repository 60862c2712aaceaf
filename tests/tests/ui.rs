//! The design linter's UI suite: every lint and every structural error of the macros, as the
//! compiler prints them. A `.stderr` file is the contract for a message: a change in wording,
//! span or help shows up here as a diff to review (`TRYBUILD=overwrite` to accept it).

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/fail/*.rs");
    t.pass("ui/pass/*.rs");
}
