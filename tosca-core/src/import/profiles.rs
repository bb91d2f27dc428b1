//! A profile imported by name from the profile folders (`--profile-path`): cs01 6.8.2.1, "If
//! `<profile_name>` represents the name of a profile that is known to the TOSCA processor, then
//! it SHOULD cause that profile's type definitions to be imported. If `<profile_name>` is not
//! known, the import SHOULD be considered a failure."
//!
//! The name is matched whole, version and all (cs01 6.7.3: "service template designers must use
//! the proper string name to make sure they import the desired versions of these profiles"):
//!
//! - one profile offers it: imported, from a file, a package folder or a CSAR (the
//!   [index](crate::loader::profiles));
//! - several do: the spec is silent, so the first in search order (the first profile folder,
//!   then path order) is imported, and an `ambiguous-profile` warning names the others;
//! - none does: an `import-failed` error, which says which versions of the name exist when
//!   some do (the name split at its last `:`, cs01's convention), and which candidates could
//!   not be read.

use crate::loader::Loader;
use crate::loader::profiles::split_version;
use crate::location::Location;
use crate::problem::{Code, Problem, Problems};
use crate::source::Located;

/// How many other candidates an `ambiguous-profile` warning names, and how many unreadable
/// files a failed import names.
const MAX_NAMED: usize = 5;

/// The profile `profile` names, from the profile folders, reporting what is wrong; `None` when
/// no usable one offers it.
pub(super) fn from_profile_folders(
    loader: &Loader,
    profile: &Located<String>,
    problems: &mut Problems,
) -> Option<Location> {
    let index = loader.profile_index();
    let offered = index.named(&profile.value);
    let Some(first) = offered.first() else {
        problems.push(not_found(loader, profile));
        return None;
    };
    if offered.len() > 1 {
        let others: Vec<String> = offered.iter().skip(1).take(MAX_NAMED).map(|other| other.source.display()).collect();
        problems.push(
            Problem::new(
                Code::AmbiguousProfile,
                profile.span,
                format!(
                    "{} candidates in the profile folders declare profile `{}`; {} is imported",
                    offered.len(),
                    profile.value,
                    first.source.display()
                ),
            )
            .with_help(format!(
                "the others: {}; keep one copy, or put the folder of the one to use first with --profile-path",
                others.join(", ")
            )),
        );
    }
    let (location, found) = loader.open_profile(first, profile.span);
    for problem in found {
        problems.push(problem);
    }
    location
}

/// The `import-failed` problem of a profile nothing offers: with the versions of its name that
/// exist (in the profile folders or embedded), and the candidates that could not be read.
fn not_found(loader: &Loader, profile: &Located<String>) -> Problem {
    let index = loader.profile_index();
    let (unversioned, _) = split_version(&profile.value);
    let mut versions: Vec<String> = index
        .versions_of(&profile.value)
        .into_iter()
        .map(|(version, source)| format!("`{unversioned}:{version}` ({source})"))
        .collect();
    versions.extend(
        tosca_profiles::NAMED
            .iter()
            .filter(|(name, _)| split_version(name).0 == unversioned)
            .map(|(name, _)| format!("`{name}` (embedded)")),
    );
    let folders = loader.options().profile_paths.len();
    let mut message = if versions.is_empty() {
        format!(
            "profile `{}` is neither embedded in puccini-rs nor declared by a file next to this one or in a profile folder",
            profile.value
        )
    } else {
        format!("profile `{}` is not known in this version; there are {}", profile.value, versions.join(", "))
    };
    if !index.unreadable.is_empty() {
        let unreadable: Vec<String> = index
            .unreadable
            .iter()
            .take(MAX_NAMED)
            .map(|(path, reason)| format!("{} ({reason})", Location::File(path.clone()).display()))
            .collect();
        message.push_str(&format!("; in the profile folders, could not read: {}", unreadable.join(", ")));
    }
    if index.truncated {
        message.push_str(&format!(
            "; the profile folders were searched only up to {} entries",
            crate::loader::profiles::MAX_INDEXED_ENTRIES
        ));
    }
    let problem = Problem::new(Code::ImportFailed, profile.span, message);
    if !versions.is_empty() {
        return problem
            .with_help("import one of those versions, or give a folder holding this one with --profile-path DIR");
    }
    let known = tosca_profiles::NAMED.iter().map(|(name, _)| format!("`{name}`")).collect::<Vec<_>>();
    let hint =
        if folders == 0 { "give a folder of profiles with --profile-path DIR" } else { "check its name and version" };
    problem.with_help(format!("embedded profiles: {}; {hint}", known.join(", ")))
}
