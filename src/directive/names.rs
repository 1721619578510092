//! The directives' names, which is all the expand pass's byte scan needs
//! to know of them.

/// The names of a run's directives: all the scanner needs to know of them.
#[derive(Debug, Clone, Default)]
pub struct DirectiveNames {
    brace: Vec<&'static str>,
    fence: Vec<&'static str>,
}

impl DirectiveNames {
    /// Adds a `{{#name}}` directive's name.
    pub fn add_brace(&mut self, name: &'static str) {
        self.brace.push(name);
    }

    /// Adds a fence directive's name.
    pub fn add_fence(&mut self, name: &'static str) {
        self.fence.push(name);
    }

    /// The `{{#name}}` directive `name`, spelled as the directive spells it.
    pub fn brace(&self, name: &str) -> Option<&'static str> {
        self.brace.iter().copied().find(|&n| n == name)
    }

    /// The fence directive `name`.
    pub fn fence(&self, name: &str) -> Option<&'static str> {
        self.fence.iter().copied().find(|&n| n == name)
    }

    /// Names of all `{{#name}}` directives.
    pub fn brace_names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.brace.iter().copied()
    }

    /// Names of all fence directives.
    pub fn fence_names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.fence.iter().copied()
    }
}
