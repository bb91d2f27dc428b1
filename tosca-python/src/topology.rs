//! The topology as plain Python objects: dicts (in document order), lists, str, int, float,
//! bool and None, the same tree `puccini-rs compile` prints as JSON.
//!
//! The topology is written as compact JSON with the interpreter's lock released, then read by
//! Python's own `json.loads` (C, with repeated keys made once). Measured on the generated 3,000
//! node template workload (1.15 million objects), this was the fastest of the ways tried:
//! pythonize (serde straight into Python objects) took about 1.5 times as long, and building
//! the objects from a `serde_json::Value`, even with every string made once, 1.1 to 1.5 times.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;

use tosca_core::topology::Topology;

/// Converts `topology` to Python objects; it is written and freed with the lock released.
pub(crate) fn to_python(py: Python<'_>, topology: Topology) -> PyResult<Bound<'_, PyAny>> {
    let text = py
        .detach(move || serde_json::to_string(&topology))
        .map_err(|error| PyRuntimeError::new_err(format!("the topology could not be written as JSON: {error}")))?;
    json_function(py, "loads")?.call1((text,))
}

/// A state document given as Python values, as JSON text indented by two spaces (so a problem
/// in it has a line and a column to point at in the same text `json.dumps(state, indent=2)`
/// gives).
pub(crate) fn to_json_document(value: &Bound<'_, PyAny>) -> PyResult<String> {
    let py = value.py();
    let keywords = pyo3::types::PyDict::new(py);
    keywords.set_item("allow_nan", false)?;
    keywords.set_item("indent", 2)?;
    json_function(py, "dumps")?.call((value,), Some(&keywords))?.extract()
}

/// JSON text as Python objects (`json.loads`).
pub(crate) fn from_json(py: Python<'_>, text: String) -> PyResult<Bound<'_, PyAny>> {
    json_function(py, "loads")?.call1((text,))
}

/// Python values as JSON text (`json.dumps`, refusing NaN and infinities, which JSON lacks):
/// YAML reads it back as the same values, typed as Python typed them. A value JSON cannot hold
/// raises `TypeError`.
pub(crate) fn to_json(value: &Bound<'_, PyAny>) -> PyResult<String> {
    let py = value.py();
    let keywords = pyo3::types::PyDict::new(py);
    keywords.set_item("allow_nan", false)?;
    json_function(py, "dumps")?.call((value,), Some(&keywords))?.extract()
}

/// `json.NAME`, looked up once per interpreter.
fn json_function<'py>(py: Python<'py>, name: &'static str) -> PyResult<Bound<'py, PyAny>> {
    static LOADS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    static DUMPS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let cell = if name == "loads" { &LOADS } else { &DUMPS };
    cell.get_or_try_init(py, || Ok::<_, PyErr>(py.import("json")?.getattr(name)?.unbind()))
        .map(|function| function.bind(py).clone())
}
