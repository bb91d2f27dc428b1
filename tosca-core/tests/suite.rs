//! Every integration test of `tosca-core` as modules of one test binary: one link instead of
//! eight keeps `target/` small. Run one file's tests with its module name as the filter, e.g.
//! `cargo test -p tosca-core --test suite fetch::`.

#[cfg(feature = "network")]
mod fetch;
mod no_network;
mod option1;
mod option2;
mod report;
mod signature;
mod value_properties;
mod yaml;
