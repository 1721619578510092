//! `owners_yaml`: the input as a people file of that format, read as a build
//! reads it and rendered by the people directives; see
//! `fuzz_support::fuzz_roster` for what is checked.

#![no_main]

use fuzz_support::RosterFormat;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    fuzz_support::fuzz_roster(RosterFormat::OwnersAliases, data);
    fuzz_support::fuzz_roster(RosterFormat::Owners, data);
});
