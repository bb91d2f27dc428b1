//! Levels per code: whether a problem is hidden (`allow`), reported (`warn`) or fails the run
//! (`deny`).
//!
//! A [`Levels`] is an ordered list of directives, each a [`Selector`] (a code, or the group
//! `warnings`), a [`Level`] and possibly a [`FileSet`] the directive is limited to. For each
//! problem the last directive naming its code wins; with none, the last `warnings` directive
//! applies to a warning. Callers add the layers in precedence order (the configuration file,
//! its matching `[[overrides]]`, then the command line), so a later layer wins among directives
//! equally specific.
//!
//! Errors are not lowered: an error means the input is wrong and the output cannot be trusted
//! (like a rustc error, unlike a clippy lint). [`Levels::set`] refuses `allow` or `warn` for a
//! code whose severity is error, and [`Levels::apply`] leaves every problem that is an error
//! when levels are applied as it is. A known real-world deviation is accepted by a quirk
//! instead, and the existing problems of a repository by a baseline.

use crate::problem::{Code, Problem, Quirk, Severity, nearest};
use crate::source::SourceMap;

use super::files::FileSet;

/// What happens to a problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// Not printed and not counted (the summary says how many were allowed).
    Allow,
    /// Reported as a warning; the run still passes.
    Warn,
    /// Reported as an error: the run fails.
    Deny,
}

impl Level {
    /// Every level, mildest first.
    pub const ALL: [Level; 3] = [Level::Allow, Level::Warn, Level::Deny];

    /// The name used on the command line (`--allow`) and in the configuration file (`allow = […]`).
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Allow => "allow",
            Level::Warn => "warn",
            Level::Deny => "deny",
        }
    }

    /// The level a code has when nothing is configured: `deny` for errors, `warn` for warnings.
    pub fn default_of(code: Code) -> Level {
        match code.severity() {
            Severity::Error => Level::Deny,
            Severity::Warning => Level::Warn,
        }
    }
}

/// What a directive applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Selector {
    /// The problems of one code.
    Code(Code),
    /// Every problem that is a warning when levels are applied (after the quirks).
    Warnings,
}

impl Selector {
    /// The name of the group of every warning.
    pub const WARNINGS: &'static str = "warnings";

    /// The selector `name` stands for: `warnings` or a problem code.
    pub fn from_name(name: &str) -> Result<Selector, LevelError> {
        if name == Selector::WARNINGS {
            return Ok(Selector::Warnings);
        }
        Code::from_name(name).map(Selector::Code).ok_or_else(|| {
            let names = Code::ALL.iter().map(|code| code.as_str()).chain([Selector::WARNINGS]);
            LevelError::UnknownCode { name: name.to_owned(), suggestion: nearest(name, names).map(str::to_owned) }
        })
    }

    /// The name as written.
    pub fn as_str(self) -> &'static str {
        match self {
            Selector::Code(code) => code.as_str(),
            Selector::Warnings => Selector::WARNINGS,
        }
    }
}

/// Why a level cannot be set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LevelError {
    /// The name is neither a problem code nor `warnings`.
    #[error("unknown problem code `{name}`{}", suggestion.as_ref().map(|nearest| format!(" (did you mean `{nearest}`?)")).unwrap_or_default())]
    UnknownCode {
        /// The name as written.
        name: String,
        /// The nearest known name, when one is close.
        suggestion: Option<String>,
    },
    /// `allow` or `warn` for a code whose problems are errors.
    #[error("{}", lowering_refused(*code, *level))]
    ErrorNotLowered {
        /// The code, an error.
        code: Code,
        /// The level refused.
        level: Level,
    },
}

/// Why `level` is refused for the error `code`, and what to do instead.
fn lowering_refused(code: Code, level: Level) -> String {
    let mut text = format!(
        "`{}` is an error and cannot be set to `{}`: an error means the input is wrong and the output cannot be \
         trusted, so levels only ever deny it",
        code.as_str(),
        level.as_str()
    );
    let quirks: Vec<String> =
        Quirk::ALL.iter().filter(|quirk| quirk.code == code).map(|quirk| format!("`{}`", quirk.name)).collect();
    text.push_str("; to accept a known real-world deviation, choose a quirk (`--quirk help` lists them");
    if !quirks.is_empty() {
        text.push_str(&format!("; of this code: {}", quirks.join(", ")));
    }
    text.push_str("), or record the problems a repository already has in a baseline");
    text
}

/// One directive: `selector` at `level`, for the files of `files` only when set.
#[derive(Clone, Debug)]
struct Directive {
    selector: Selector,
    level: Level,
    files: Option<FileSet>,
}

/// The levels chosen, in precedence order (see the module's documentation). The default
/// changes nothing.
#[derive(Clone, Debug, Default)]
pub struct Levels {
    directives: Vec<Directive>,
}

impl Levels {
    /// No directive: every problem keeps its severity.
    pub fn new() -> Levels {
        Levels::default()
    }

    /// Whether nothing is chosen.
    pub fn is_empty(&self) -> bool {
        self.directives.is_empty()
    }

    /// Sets `name` (a code or `warnings`) to `level`, after every directive already set.
    pub fn set(&mut self, name: &str, level: Level) -> Result<(), LevelError> {
        self.push(name, level, None)
    }

    /// Sets `name` to `level` for the problems located in `files` only.
    pub fn set_for_files(&mut self, files: FileSet, name: &str, level: Level) -> Result<(), LevelError> {
        self.push(name, level, Some(files))
    }

    fn push(&mut self, name: &str, level: Level, files: Option<FileSet>) -> Result<(), LevelError> {
        let selector = Selector::from_name(name)?;
        if let Selector::Code(code) = selector
            && code.severity() == Severity::Error
            && level != Level::Deny
        {
            return Err(LevelError::ErrorNotLowered { code, level });
        }
        self.directives.push(Directive { selector, level, files });
        Ok(())
    }

    /// These levels followed by `later`'s, which win over them among directives equally specific.
    pub fn then(&self, later: &Levels) -> Levels {
        let mut directives = self.directives.clone();
        directives.extend(later.directives.iter().cloned());
        Levels { directives }
    }

    /// The level of a problem of `code` and `severity` located in the file named `file`, or
    /// `None` when no directive applies. A directive naming the code beats the `warnings` group;
    /// among those of equal specificity the last wins. An error is never lowered.
    pub fn level_of(&self, code: Code, severity: Severity, file: &str) -> Option<Level> {
        if severity == Severity::Error {
            return None;
        }
        let applies = |directive: &Directive, selector: Selector| {
            directive.selector == selector && directive.files.as_ref().is_none_or(|files| files.contains(file))
        };
        let by_code = self.directives.iter().rfind(|directive| applies(directive, Selector::Code(code)));
        let by_group = || self.directives.iter().rfind(|directive| applies(directive, Selector::Warnings));
        by_code.or_else(by_group).map(|directive| directive.level)
    }

    /// Applies the levels to `problems` (their files named by `sources`): an allowed problem is
    /// removed, a denied one becomes an error. Returns how many were allowed.
    pub fn apply(&self, problems: &mut Vec<Problem>, sources: &SourceMap) -> usize {
        if self.directives.is_empty() {
            return 0;
        }
        let before = problems.len();
        problems.retain_mut(|problem| {
            let file = sources.name(problem.span.source);
            match self.level_of(problem.code, problem.severity, &file) {
                Some(Level::Allow) => false,
                Some(Level::Deny) => {
                    problem.severity = Severity::Error;
                    true
                }
                Some(Level::Warn) | None => true,
            }
        });
        before - problems.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn warning_code() -> Code {
        Code::ALL.iter().copied().find(|code| code.severity() == Severity::Warning).expect("a warning code")
    }

    fn error_code() -> Code {
        Code::ALL.iter().copied().find(|code| code.severity() == Severity::Error).expect("an error code")
    }

    #[test]
    fn a_code_beats_the_group_and_the_later_directive_wins() {
        let code = warning_code();
        let mut levels = Levels::new();
        levels.set(code.as_str(), Level::Allow).unwrap();
        levels.set("warnings", Level::Deny).unwrap();
        assert_eq!(levels.level_of(code, Severity::Warning, "a.yaml"), Some(Level::Allow));
        levels.set(code.as_str(), Level::Warn).unwrap();
        assert_eq!(levels.level_of(code, Severity::Warning, "a.yaml"), Some(Level::Warn));
        let other = Code::ALL.iter().copied().find(|other| *other != code && other.severity() == Severity::Warning);
        assert_eq!(levels.level_of(other.unwrap(), Severity::Warning, "a.yaml"), Some(Level::Deny));
    }

    #[test]
    fn errors_are_never_lowered() {
        let code = error_code();
        let mut levels = Levels::new();
        assert!(matches!(levels.set(code.as_str(), Level::Allow), Err(LevelError::ErrorNotLowered { .. })));
        assert!(matches!(levels.set(code.as_str(), Level::Warn), Err(LevelError::ErrorNotLowered { .. })));
        levels.set(code.as_str(), Level::Deny).unwrap();
        levels.set("warnings", Level::Allow).unwrap();
        assert_eq!(levels.level_of(code, Severity::Error, "a.yaml"), None);
        // A warning-severity code raised to an error (a required input, for `compile`) stays one.
        assert_eq!(levels.level_of(warning_code(), Severity::Error, "a.yaml"), None);
    }

    #[test]
    fn an_unknown_name_suggests_the_nearest() {
        let error = Levels::new().set("warnigns", Level::Deny).unwrap_err();
        assert_eq!(error.to_string(), "unknown problem code `warnigns` (did you mean `warnings`?)");
    }
}
