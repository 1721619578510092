//! The directives this plugin ships, one module each.

use crate::directive::Registry;

/// Adds every shipped directive to `registry`.
pub fn register_all(registry: Registry) -> Registry {
    registry
}
