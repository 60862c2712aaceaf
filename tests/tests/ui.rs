//! The design linter's UI suite: every lint and every structural error of the macros, as the
//! compiler prints them. A `.stderr` file is the contract for a message: a change in wording,
//! span or help shows up here as a diff to review (`TRYBUILD=overwrite` to accept it).

#[test]
fn ui() {
    // trybuild builds the cases in a workspace of its own, which does not inherit this one's
    // profiles; without this its dependencies carry full debug info (2 GB of disk for nothing).
    // SAFETY: this binary's only test, so no other thread reads the environment meanwhile;
    // trybuild passes it on to the cargo it runs.
    unsafe { std::env::set_var("CARGO_PROFILE_DEV_DEBUG", "false") };
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/fail/*.rs");
    t.pass("ui/pass/*.rs");
}
