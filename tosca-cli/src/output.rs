//! Topology renderers: JSON and YAML, Clout (as JSON or YAML) and Graphviz DOT.

use saphyr::{Scalar, Yaml, YamlEmitter};
use serde_json::Value;
use tosca_core::export::clout::CloutOptions;
use tosca_core::topology::Topology;

use crate::args::OutputFormat;

/// The topology in an output format. `clout_timestamp` adds the compilation time to a Clout's
/// history.
pub(crate) fn render(topology: &Topology, format: OutputFormat, clout_timestamp: bool) -> anyhow::Result<String> {
    let clout = || {
        let options = CloutOptions { timestamp: clout_timestamp.then(|| jiff::Timestamp::now().to_string()) };
        tosca_core::export::clout::clout(topology, &options)
    };
    match format {
        OutputFormat::Json => json(topology),
        OutputFormat::Yaml => yaml(&serde_json::to_value(topology)?),
        OutputFormat::Clout => json(&clout()),
        OutputFormat::CloutYaml => yaml(&clout()),
        OutputFormat::Dot => Ok(tosca_core::export::dot::dot(topology)),
    }
}

/// Pretty JSON with a final newline.
pub(crate) fn json(value: &impl serde::Serialize) -> anyhow::Result<String> {
    let mut text = serde_json::to_string_pretty(value)?;
    text.push('\n');
    Ok(text)
}

/// YAML of a JSON value (the topology's, or a Clout's), so both formats say the same thing.
pub(crate) fn yaml(value: &Value) -> anyhow::Result<String> {
    let mut text = String::new();
    let mut emitter = YamlEmitter::new(&mut text);
    emitter.multiline(true);
    emitter.dump(&to_yaml(value)).map_err(|error| anyhow::anyhow!("cannot write YAML: {error:?}"))?;
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
