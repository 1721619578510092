//! The directives this plugin ships, one module each.

pub mod affiliations;
pub mod codeowners;
pub mod faq;
pub mod governance;
pub mod links;
pub mod maintainers;
pub mod owners_md;
pub mod people_md;
pub mod people_table;
pub mod person;
pub mod repository_file;
mod repository_text;

use crate::directive::Registry;

/// Every directive this plugin ships.
pub fn builtin() -> Registry {
    Registry::new()
        .with_brace(maintainers::Maintainers)
        .with_brace(person::PersonDirective)
        .with_brace(codeowners::CodeownersDirective)
        .with_brace(links::ContributingLink)
        .with_brace(links::Ref)
        .with_brace(repository_file::RepositoryFile)
        .with_brace(governance::GovernanceDirective)
        .with_brace(affiliations::AffiliationsDirective)
        .with_fence(faq::Faq)
}
