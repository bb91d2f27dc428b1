//! Topology renderers: JSON and YAML.

use std::io::Write;

use saphyr::{Scalar, Yaml, YamlEmitter};
use serde_json::Value;
use tosca_core::topology::Topology;

/// Pretty JSON with a final newline, written as it is produced (the output of a large topology
/// is tens of megabytes; it is never held in memory whole).
pub(crate) fn write_json(topology: &Topology, out: &mut impl Write) -> anyhow::Result<()> {
    serde_json::to_writer_pretty(&mut *out, topology).map_err(|error| match error.io_error_kind() {
        Some(_) => anyhow::Error::from(std::io::Error::from(error)),
        None => anyhow::Error::from(error),
    })?;
    out.write_all(b"\n")?;
    Ok(())
}

/// YAML, converted from the same JSON value so both formats say the same thing.
pub(crate) fn yaml(topology: &Topology) -> anyhow::Result<String> {
    let value = serde_json::to_value(topology)?;
    let mut text = String::new();
    let mut emitter = YamlEmitter::new(&mut text);
    emitter.multiline(true);
    emitter.dump(&to_yaml(&value)).map_err(|error| anyhow::anyhow!("cannot write YAML: {error:?}"))?;
    text.push('\n');
    Ok(text)
}

fn to_yaml(value: &Value) -> Yaml<'static> {
    match value {
        Value::Null => Yaml::Value(Scalar::Null),
        Value::Bool(boolean) => Yaml::Value(Scalar::Boolean(*boolean)),
        Value::Number(number) => match number.as_i64() {
            Some(integer) => Yaml::Value(Scalar::Integer(integer)),
            None => Yaml::Value(Scalar::FloatingPoint(number.as_f64().unwrap_or(f64::NAN).into())),
        },
        Value::String(text) => Yaml::Value(Scalar::String(text.clone().into())),
        Value::Array(items) => Yaml::Sequence(items.iter().map(to_yaml).collect()),
        Value::Object(entries) => Yaml::Mapping(
            entries
                .iter()
                .map(|(key, value)| (Yaml::Value(Scalar::String(key.clone().into())), to_yaml(value)))
                .collect(),
        ),
    }
}
