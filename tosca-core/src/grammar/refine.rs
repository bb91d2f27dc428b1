//! The refinement checks `#[tosca(refine = "…")]` asks for, and how and where they report.
//!
//! TOSCA 1.3 and 2.0 state refinement rules: a refinement's `type` (`node`, `capability`,
//! `relationship`) "must be derived from (or the same as)" the refined one, and `required`
//! "if defined to "false" in the property definition parent entity type it may be redefined to
//! "true"" (cs01 §9.3, §9.4, §9.6, §9.8, §8.2.1, §8.4.1, §11.2, and §6.4.2 for any typed
//! entity; 1.3 §3.6.10, §3.6.12, §3.7.2, §3.7.3, §3.6.20). The Simple Profile 1.0, 1.1 and 1.2 state
//! none: their definitions only say what a definition means, never what a derived type may do
//! to an inherited one. So a refinement written in a 1.0–1.2 file that breaks a later rule is
//! a warning (`incompatible-override-before-1-3`) saying the later versions forbid it, and an
//! error (`incompatible-override`) in a 1.3 or 2.0 file. The version that counts is the one of
//! the file the refinement is written in (a 1.0 file refining a definition of the embedded 1.0
//! profile is read by 1.0's rules), or of the file of [`InheritContext::anchor`] when one is set.

use super::Kind;
use super::inherit::InheritContext;
use crate::problem::{Code, Problem};
use crate::source::{Located, Span};
use crate::version::Version;

/// Which later rule a refinement breaks, for the help of the 1.0–1.2 warning.
#[derive(Clone, Copy)]
enum Rule {
    /// A type named by `field` that does not derive from the refined one.
    Derived(Kind, &'static str),
    /// `required: false` refining a required definition.
    Required,
    /// A `value` (1.3 and later only) changed by a refinement.
    Fixed,
}

impl Rule {
    /// Where TOSCA 1.3 and 2.0 say it, and what they say.
    fn later_texts(self) -> String {
        let (sections, verb) = match self {
            Rule::Derived(Kind::DataType, _) | Rule::Required => {
                ("1.3 (§3.6.10, §3.6.12: property and attribute definitions) and 2.0 (§9.3 to §9.8)", "forbid")
            }
            Rule::Derived(Kind::CapabilityType, "type") => {
                ("1.3 (§3.7.2, capability definition) and 2.0 (§8.2.1)", "forbid")
            }
            Rule::Derived(Kind::CapabilityType | Kind::NodeType | Kind::RelationshipType, _) => {
                ("1.3 (§3.7.3, requirement definition) and 2.0 (§8.4.1)", "forbid")
            }
            Rule::Derived(Kind::InterfaceType, _) => ("1.3 (§3.6.20, interface definition) and 2.0 (§11.2)", "forbid"),
            Rule::Derived(..) | Rule::Fixed => ("2.0 (§6.4.2)", "forbids"),
        };
        match self {
            Rule::Derived(_, field) => format!(
                "TOSCA {sections} {verb} it: a refinement's `{field}` \"must be derived from (or the same as)\" \
                 the refined one"
            ),
            Rule::Required => format!(
                "TOSCA {sections} {verb} it: `required` \"if defined to 'false' in the property definition \
                 parent entity type it may be redefined to 'true'\", never the reverse"
            ),
            Rule::Fixed => format!("TOSCA {sections} {verb} it"),
        }
    }
}

/// A refinement problem: at the refining definition (or at [`InheritContext::anchor`], with the
/// refining definition as a label), an error where the file's version states the rule, a
/// warning where it states none.
struct Refinement {
    span: Span,
    message: String,
    labels: Vec<(Span, String)>,
    help: Option<String>,
    rule: Rule,
}

impl Refinement {
    fn report(self, cx: &mut InheritContext<'_>) {
        let (at, moved_from) = match cx.anchor {
            Some(anchor) if anchor != self.span => (anchor, Some(self.span)),
            _ => (self.span, None),
        };
        let before_rules = !matches!(self.rule, Rule::Fixed)
            && cx.relations.version_of(at.source).is_some_and(|version| version < Version::V1_3);
        let code = if before_rules { Code::IncompatibleOverrideBefore13 } else { Code::IncompatibleOverride };
        let message = match moved_from {
            Some(_) => format!("with this type, an inherited refinement breaks a rule: {}", self.message),
            None => self.message,
        };
        let mut problem = Problem::new(code, at, message);
        if let Some(from) = moved_from {
            problem = problem.with_label(from, "in the inherited definition written here");
        }
        for (span, message) in self.labels {
            problem = problem.with_label(span, message);
        }
        let help = if before_rules {
            let version = cx.relations.version_of(at.source).map_or("1.x", Version::number);
            let rules = format!(
                "TOSCA {version} states no rule for refining an inherited definition, so it is read as written; {}",
                self.rule.later_texts()
            );
            Some(match self.help {
                Some(help) => format!("{help}; {rules}"),
                None => rules,
            })
        } else {
            self.help
        };
        if let Some(help) = help {
            problem = problem.with_help(help);
        }
        cx.problems.push(problem);
    }
}

/// `#[tosca(refine = "fixed")]`: a value fixed by the parent (a property's `value`) may not be
/// changed by a refinement; writing it again is allowed, writing another one is not.
pub fn refine_fixed(
    child: &Option<crate::yaml::Node>,
    parent: &Option<crate::yaml::Node>,
    field: &str,
    cx: &mut InheritContext<'_>,
) {
    if let (Some(child), Some(parent)) = (child, parent)
        && child.span != parent.span
        && child.value != parent.value
    {
        Refinement {
            span: child.span,
            message: format!("`{field}` is fixed by the refined definition and cannot change"),
            labels: vec![(parent.span, "fixed here".to_owned())],
            help: None,
            rule: Rule::Fixed,
        }
        .report(cx);
    }
}

/// `#[tosca(refine = "derived")]`: a type named in a refinement must be the parent's type or
/// derive from it.
pub fn refine_derived<F: super::NameField>(
    kind: Kind,
    child: &F,
    parent: &F,
    field: &'static str,
    cx: &mut InheritContext<'_>,
) {
    let mut child_names = Vec::new();
    child.visit_names(kind, &mut |_, name| child_names.push(name));
    let mut parent_names = Vec::new();
    parent.visit_names(kind, &mut |_, name| parent_names.push(name));
    if let ([child], [parent]) = (child_names.as_slice(), parent_names.as_slice())
        && cx.relations.is_derived_from(kind, child, parent) == Some(false)
    {
        Refinement {
            span: child.span,
            message: format!(
                "`{field}` is `{}`, which does not derive from the refined `{}`",
                child.value, parent.value
            ),
            labels: vec![(parent.span, format!("the parent's {kind} is declared here"))],
            help: None,
            rule: Rule::Derived(kind, field),
        }
        .report(cx);
    }
}

/// `#[tosca(refine = "required")]`: a required definition (an unset flag counts as required)
/// may not be refined into an optional one.
pub fn refine_required(child: &Option<Located<bool>>, parent: &Option<Located<bool>>, cx: &mut InheritContext<'_>) {
    let parent_required = parent.as_ref().is_none_or(|flag| flag.value);
    if let Some(flag) = child
        && parent_required
        && !flag.value
    {
        let (labels, help) = match parent {
            Some(parent) => (vec![(parent.span, "the parent requires it here".to_owned())], None),
            None => (Vec::new(), Some("the parent definition leaves `required` unset, which means `true`".to_owned())),
        };
        Refinement {
            span: flag.span,
            message: "a required definition cannot be refined to `required: false`".to_owned(),
            labels,
            help,
            rule: Rule::Required,
        }
        .report(cx);
    }
}
