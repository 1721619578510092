//! `cncf_maintainers`: the input as CNCF's .project/maintainers.yaml
//! (YAML teams of GitHub handles), read as a build reads it and rendered
//! by the people directives; see `fuzz_support::fuzz_roster` for what is
//! checked.

#![no_main]

use fuzz_support::RosterFormat;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    fuzz_support::fuzz_roster(RosterFormat::CncfMaintainers, data);
});
