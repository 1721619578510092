//! The directives this plugin ships, one module each.

pub mod maintainers;
pub mod people_md;
pub mod person;

use crate::directive::Registry;

/// Adds every shipped directive to `registry`.
pub fn register_all(registry: Registry) -> Registry {
    registry
        .with_brace(maintainers::Maintainers)
        .with_brace(person::PersonDirective)
}
