//! The topology as plain Python objects: dicts (in document order), lists, str, int, float,
//! bool and None, the same tree `puccini-rs compile` prints as JSON.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use tosca_core::topology::Topology;

/// Converts `topology`, straight from its serde form (no JSON text in between).
pub(crate) fn to_python<'py>(py: Python<'py>, topology: &Topology) -> PyResult<Bound<'py, PyAny>> {
    match std::env::var("PUCCINI_RS_CONVERT").as_deref() {
        Ok("json") => {
            let text =
                py.detach(|| serde_json::to_string(topology)).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
            py.import("json")?.call_method1("loads", (text,))
        }
        Ok("value") => {
            let value =
                py.detach(|| serde_json::to_value(topology)).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
            value_to_python(py, &value)
        }
        _ => pythonize::pythonize(py, topology).map_err(|error| PyRuntimeError::new_err(error.to_string())),
    }
}

fn value_to_python<'py>(py: Python<'py>, value: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    use pyo3::IntoPyObjectExt;
    Ok(match value {
        serde_json::Value::Null => py.None().into_bound(py),
        serde_json::Value::Bool(b) => b.into_bound_py_any(py)?,
        serde_json::Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_bound_py_any(py)?
            } else if let Some(u) = n.as_u64() {
                u.into_bound_py_any(py)?
            } else {
                n.as_f64().unwrap_or(f64::NAN).into_bound_py_any(py)?
            }
        }
        serde_json::Value::String(s) => s.into_bound_py_any(py)?,
        serde_json::Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(value_to_python(py, item)?)?;
            }
            list.into_any()
        }
        serde_json::Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, v) in map {
                dict.set_item(k, value_to_python(py, v)?)?;
            }
            dict.into_any()
        }
    })
}
