//! `maintainers_text`: the input as a plain-text MAINTAINERS file
//! (`Name <email> (@login)` lines), read as a build reads it and rendered
//! by the people directives; see `fuzz_support::fuzz_roster` for what is
//! checked.

#![no_main]

use fuzz_support::RosterFormat;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    fuzz_support::fuzz_roster(RosterFormat::MaintainersText, data);
});
