//! Every integration test of `tosca-tests` but the two data-driven harnesses (`golden`, `cases`),
//! as modules of one test binary: one link instead of fifty keeps `target/` small and the
//! suite quick to build. Run one file's tests with its module name as the filter, e.g.
//! `cargo test -p tosca-tests --test suite realworld_corpora::`.

mod ad_hoc_inputs;
mod architecture;
mod catalogue;
mod conformance;
mod day2;
mod day2_tacker;
mod deferred;
mod determinism;
mod doc_links;
mod draft_2_0;
mod flavours;
mod follow_on;
mod functions_2_0;
mod generate;
mod hostile;
mod hostile_loader;
mod hostile_render;
mod hostile_report;
mod hostile_types;
mod hostile_yaml;
mod in_memory;
mod layers;
mod map_into_package;
mod normative_profile_itself;
mod onap_vnfsdk;
mod output_contract;
mod package;
mod package_artifacts;
mod package_folder;
mod profile_packages;
mod quirk_fixes;
mod quirk_shapes;
mod quirk_targets;
mod quirks_interfaces;
mod quirks_names_and_targets;
mod quirks_normative_types;
mod quirks_onap;
mod quirks_onap_values;
mod quirks_tosca_parser;
mod quirks_values;
mod read_cache;
mod realworld;
mod realworld_corpora;
mod realworld_flavours;
mod refinement_location;
mod refinement_values;
mod resolution;
mod sharing;
mod sources;
mod suggestions;
mod test_layout;
