//! Shared helpers for the data-driven suites.
