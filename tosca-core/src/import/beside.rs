//! The file an unresolvable 1.x import names, found beside the importing file the way
//! OpenStack tosca-parser finds it (`toscaparser/imports.py`): when `folder/name.yaml` is not
//! found relative to the importing file, and the importing file's own folder ends in `folder`,
//! tosca-parser reads `name.yaml` from the importing file's folder. Its test templates import
//! `custom_types/kibana.yaml` from inside `custom_types/` so. The compiler reads that file too,
//! so the types it defines are found, and reports the import as an `import-failed` error that
//! `--quirk tosca-parser-import-paths` accepts as a warning.

use crate::loader::{Loader, Location};
use crate::problem::quirk::READ_BESIDE;
use crate::problem::{Code, Problem};
use crate::source::Located;

/// When `target`, where `reference` (written in `importer`) resolves, cannot be read: the file
/// of the same name beside `importer`, if `importer`'s folder ends in `reference`'s folder and
/// that file can be read, with the problem to report.
pub(super) fn beside_importer(
    loader: &Loader,
    importer: &Location,
    target: &Location,
    reference: &Located<String>,
) -> Option<(Location, Problem)> {
    if !matches!(target, Location::File(_) | Location::Entry { .. }) || loader.load(target).is_ok() {
        return None;
    }
    let (folder, name) = reference.value.rsplit_once('/')?;
    let wanted: Vec<&str> = folder.split('/').filter(|part| !part.is_empty() && *part != ".").collect();
    if wanted.is_empty() || wanted.contains(&"..") || name.is_empty() {
        return None;
    }
    let own = match importer {
        Location::File(path) => {
            path.parent()?.components().map(|part| part.as_os_str().to_string_lossy().into_owned()).collect()
        }
        Location::Entry { path, .. } => {
            let folder = path.rsplit_once('/').map_or("", |(folder, _)| folder);
            folder.split('/').filter(|part| !part.is_empty()).map(str::to_owned).collect::<Vec<_>>()
        }
        _ => return None,
    };
    if own.len() < wanted.len() || !own[own.len() - wanted.len()..].iter().zip(&wanted).all(|(a, b)| a == b) {
        return None;
    }
    let beside = importer.join(&format!("./{name}"), None).ok()?;
    loader.load(&beside).ok()?;
    let problem = Problem::new(
        Code::ImportFailed,
        reference.span,
        format!(
            "`{}` is not at {}; read {} instead: this file's folder ends in `{folder}`, {READ_BESIDE}",
            reference.value,
            target.display(),
            beside.display()
        ),
    )
    .with_help("write the path relative to this file (`--quirk tosca-parser-import-paths` accepts it as a warning)");
    Some((beside, problem))
}
