//! A size-scaling workload: a TOSCA 1.3 service template with exactly `n` node templates and
//! the types file it imports.
//!
//! The template is shaped like a real deployment rather than a list of copies:
//!
//! - `types.yaml` declares a constrained complex data type (`workload.datatypes.Endpoint`), a
//!   capability type, a relationship type with a property, and three node types: hosts (from
//!   `tosca.nodes.Compute`), services (from `tosca.nodes.SoftwareComponent`) and databases
//!   (from the service type, so a database can stand wherever a service is expected).
//! - `main.yaml` imports it and declares constrained inputs, then about a tenth of the nodes as
//!   hosts, about a tenth as databases and the rest as services. Every service has three
//!   requirements: its host, an upstream service (the previous one; the first one uses a
//!   database) and a database. Its port is a chain of `get_property` calls back to the first
//!   service, which takes it from `get_input`; names are built with `concat`; sizes and times
//!   are scalar units.
//! - Outputs read properties and attributes of the first and last nodes.
//!
//! The text depends only on `n`, so two calls give identical bytes.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The name of the service template file; it imports [`TYPES_FILE`].
pub const MAIN_FILE: &str = "main.yaml";

/// The name of the imported types file.
pub const TYPES_FILE: &str = "types.yaml";

/// A generated service template and the types file it imports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Workload {
    /// The service template, to be written as [`MAIN_FILE`].
    pub main: String,
    /// The imported types, to be written as [`TYPES_FILE`] beside it.
    pub types: String,
}

/// How the `n` node templates are split between hosts, databases and services.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mix {
    /// `workload.nodes.Host` templates, named `host_0`, `host_1`, ….
    pub hosts: usize,
    /// `workload.nodes.Database` templates, named `db_0`, ….
    pub databases: usize,
    /// `workload.nodes.Service` templates, named `svc_0`, ….
    pub services: usize,
}

impl Mix {
    /// The split for `n` nodes: a tenth hosts (at least one), a tenth databases (at least one
    /// from three nodes on), the rest services. The parts always add up to `n`.
    pub fn of(n: usize) -> Mix {
        let hosts = if n == 0 { 0 } else { (n / 10).max(1) };
        let databases = if n < 3 { 0 } else { (n / 10).max(1) };
        Mix { hosts, databases, services: n - hosts - databases }
    }
}

/// The imported types; they do not depend on the size.
const TYPES: &str = r#"tosca_definitions_version: tosca_simple_yaml_1_3

description: Types of the generated size-scaling workload.

metadata:
  template_name: workload-types
  template_version: '1.0'

data_types:
  workload.datatypes.Endpoint:
    derived_from: tosca.datatypes.Root
    description: Where a service listens.
    properties:
      protocol:
        type: string
        default: tcp
        constraints:
          - valid_values: [ tcp, udp, http, https ]
      port:
        type: integer
        constraints:
          - in_range: [ 1, 65535 ]
      path:
        type: string
        required: false
        constraints:
          - min_length: 1
          - max_length: 128
      timeout:
        type: scalar-unit.time
        default: 30 s
        constraints:
          - greater_than: 0 s

capability_types:
  workload.capabilities.Api:
    derived_from: tosca.capabilities.Endpoint
    description: An API that services call.

relationship_types:
  workload.relationships.Calls:
    derived_from: tosca.relationships.ConnectsTo
    valid_target_types: [ workload.capabilities.Api ]
    properties:
      weight:
        type: integer
        default: 1
        constraints:
          - greater_or_equal: 0

node_types:
  workload.nodes.Host:
    derived_from: tosca.nodes.Compute
    properties:
      zone:
        type: string
        default: zone-a
      rack:
        type: integer
        required: false
        constraints:
          - in_range: [ 0, 99 ]

  workload.nodes.Service:
    derived_from: tosca.nodes.SoftwareComponent
    properties:
      service_name:
        type: string
      port:
        type: integer
        constraints:
          - in_range: [ 1024, 65535 ]
      replicas:
        type: integer
        default: 1
        constraints:
          - greater_or_equal: 1
      memory:
        type: scalar-unit.size
        default: 256 MB
        constraints:
          - in_range: [ 64 MB, 64 GB ]
      environment:
        type: string
      endpoint:
        type: workload.datatypes.Endpoint
      labels:
        type: map
        required: false
        entry_schema:
          type: string
    attributes:
      url:
        type: string
    capabilities:
      api:
        type: workload.capabilities.Api
    requirements:
      - upstream:
          capability: workload.capabilities.Api
          node: workload.nodes.Service
          relationship: workload.relationships.Calls
          occurrences: [ 0, UNBOUNDED ]
      - database:
          capability: workload.capabilities.Api
          node: workload.nodes.Database
          relationship: tosca.relationships.ConnectsTo
          occurrences: [ 0, 1 ]

  workload.nodes.Database:
    derived_from: workload.nodes.Service
    properties:
      storage:
        type: scalar-unit.size
        default: 10 GB
        constraints:
          - greater_or_equal: 1 GB
      engine:
        type: string
        constraints:
          - valid_values: [ postgres, mysql, mariadb ]
"#;

/// Appends one formatted line; writing to a `String` cannot fail.
macro_rules! emit {
    ($out:expr) => {
        $out.push('\n')
    };
    ($out:expr, $($arg:tt)*) => {{
        let _ = writeln!($out, $($arg)*);
    }};
}

/// Generates the workload with exactly `n` node templates.
pub fn service_template(n: usize) -> Workload {
    Workload { main: main(n), types: TYPES.to_owned() }
}

/// Writes the workload with `n` node templates into `folder` (created if missing) as
/// [`MAIN_FILE`] and [`TYPES_FILE`], and returns the path of the main file.
pub fn write(n: usize, folder: &Path) -> std::io::Result<PathBuf> {
    let workload = service_template(n);
    std::fs::create_dir_all(folder)?;
    std::fs::write(folder.join(TYPES_FILE), &workload.types)?;
    let main = folder.join(MAIN_FILE);
    std::fs::write(&main, &workload.main)?;
    Ok(main)
}

/// Writes the workload of `n` node templates of the performance issue into `folder` with
/// `../shared/tools/gen_big.py` when `python3` can run it, else with [`write`](fn@write); returns the main
/// file and every file the workload consists of.
pub fn write_scaling_workload(n: usize, folder: &Path) -> (PathBuf, Vec<PathBuf>) {
    let script = crate::shared().join("tools/gen_big.py");
    let ran = std::process::Command::new("python3").arg(&script).arg(n.to_string()).arg(folder).output();
    if ran.is_ok_and(|output| output.status.success()) {
        let main = folder.join(format!("big_service_{n}.yaml"));
        return (main.clone(), vec![main, folder.join("big_types.yaml")]);
    }
    eprintln!("gen_big.py did not run; using tosca_tests::generate");
    let main = write(n, folder).expect("the workload is written");
    (main.clone(), vec![main, folder.join(TYPES_FILE)])
}

fn main(n: usize) -> String {
    let mix = Mix::of(n);
    // About 700 bytes per node; reserving avoids regrowing a multi-megabyte string.
    let mut out = String::with_capacity(1024 + n * 1024);
    emit!(out, "tosca_definitions_version: tosca_simple_yaml_1_3");
    emit!(out);
    emit!(out, "description: >-");
    emit!(
        out,
        "  Generated size-scaling workload: {n} node templates ({} hosts, {} databases,",
        mix.hosts,
        mix.databases
    );
    emit!(out, "  {} services).", mix.services);
    emit!(out);
    emit!(out, "metadata:");
    emit!(out, "  template_name: workload-{n}");
    emit!(out, "  template_author: tosca-tests");
    emit!(out, "  template_version: '1.0'");
    emit!(out);
    emit!(out, "imports:");
    emit!(out, "  - {TYPES_FILE}");
    emit!(out);
    emit!(out, "topology_template:");
    inputs(&mut out);
    emit!(out);
    if n == 0 {
        emit!(out, "  node_templates: {{}}");
    } else {
        emit!(out, "  node_templates:");
    }
    for index in 0..mix.hosts {
        host(&mut out, index);
    }
    for index in 0..mix.databases {
        database(&mut out, index, mix);
    }
    for index in 0..mix.services {
        service(&mut out, index, mix);
    }
    outputs(&mut out, mix);
    out
}

fn inputs(out: &mut String) {
    emit!(out, "  inputs:");
    emit!(out, "    base_port:");
    emit!(out, "      type: integer");
    emit!(out, "      default: 8000");
    emit!(out, "      constraints:");
    emit!(out, "        - in_range: [ 1024, 60000 ]");
    emit!(out, "    environment:");
    emit!(out, "      type: string");
    emit!(out, "      default: production");
    emit!(out, "      constraints:");
    emit!(out, "        - valid_values: [ development, staging, production ]");
    emit!(out, "    replicas:");
    emit!(out, "      type: integer");
    emit!(out, "      default: 2");
    emit!(out, "      constraints:");
    emit!(out, "        - greater_or_equal: 1");
    emit!(out, "    db_engine:");
    emit!(out, "      type: string");
    emit!(out, "      default: postgres");
    emit!(out, "    zone:");
    emit!(out, "      type: string");
    emit!(out, "      default: zone-b");
}

fn host(out: &mut String, index: usize) {
    emit!(out, "    host_{index}:");
    emit!(out, "      type: workload.nodes.Host");
    emit!(out, "      properties:");
    emit!(out, "        zone: {{ get_input: zone }}");
    emit!(out, "        rack: {}", index % 100);
    emit!(out, "      capabilities:");
    emit!(out, "        host:");
    emit!(out, "          properties:");
    emit!(out, "            num_cpus: {}", 1 << (index % 5));
    emit!(out, "            cpu_frequency: {:.1} GHz", 2.0 + (index % 8) as f64 / 4.0);
    emit!(out, "            mem_size: {} GB", 4 * (1 + index % 16));
    emit!(out, "            disk_size: {} GB", 20 + 10 * (index % 10));
    emit!(out, "        os:");
    emit!(out, "          properties:");
    emit!(out, "            type: linux");
    emit!(out, "            distribution: ubuntu");
    emit!(out, "            version: '22.04'");
}

fn database(out: &mut String, index: usize, mix: Mix) {
    emit!(out, "    db_{index}:");
    emit!(out, "      type: workload.nodes.Database");
    emit!(out, "      properties:");
    emit!(out, "        service_name: {{ concat: [ db-, '{index}' ] }}");
    emit!(out, "        port: 5432");
    emit!(out, "        environment: {{ get_input: environment }}");
    emit!(out, "        engine: {{ get_input: db_engine }}");
    emit!(out, "        memory: {} GB", 1 + index % 8);
    emit!(out, "        storage: {} GB", 10 + index % 90);
    emit!(out, "        endpoint:");
    emit!(out, "          protocol: tcp");
    emit!(out, "          port: 5432");
    emit!(out, "          timeout: {} s", 5 + index % 55);
    emit!(out, "      requirements:");
    emit!(out, "        - host: host_{}", index % mix.hosts);
}

fn service(out: &mut String, index: usize, mix: Mix) {
    emit!(out, "    svc_{index}:");
    emit!(out, "      type: workload.nodes.Service");
    emit!(out, "      properties:");
    emit!(out, "        service_name: {{ concat: [ svc-, '{index}', '-', {{ get_input: environment }} ] }}");
    if index == 0 {
        emit!(out, "        port: {{ get_input: base_port }}");
    } else {
        emit!(out, "        port: {{ get_property: [ svc_{}, port ] }}", index - 1);
    }
    emit!(out, "        replicas: {{ get_input: replicas }}");
    emit!(out, "        memory: {} MB", 128 * (1 + index % 8));
    emit!(out, "        environment: {{ get_input: environment }}");
    emit!(out, "        endpoint:");
    emit!(out, "          protocol: http");
    emit!(out, "          port: {}", 8000 + index % 50_000);
    emit!(out, "          path: /api/v{}", 1 + index % 3);
    emit!(out, "          timeout: {} ms", 500 * (1 + index % 20));
    emit!(out, "        labels:");
    emit!(out, "          tier: backend");
    emit!(out, "          index: '{index}'");
    emit!(out, "      requirements:");
    emit!(out, "        - host: host_{}", index % mix.hosts);
    if index > 0 {
        emit!(out, "        - upstream:");
        emit!(out, "            node: svc_{}", index - 1);
        emit!(out, "            relationship:");
        emit!(out, "              type: workload.relationships.Calls");
        emit!(out, "              properties:");
        emit!(out, "                weight: {}", index % 10);
    } else if mix.databases > 0 {
        // A database is a service too, so the first service calls one.
        emit!(out, "        - upstream: db_{}", mix.databases - 1);
    }
    if mix.databases > 0 {
        emit!(out, "        - database: db_{}", index % mix.databases);
    }
}

fn outputs(out: &mut String, mix: Mix) {
    if mix.hosts == 0 {
        return;
    }
    emit!(out);
    emit!(out, "  outputs:");
    emit!(out, "    first_host_address:");
    emit!(out, "      type: string");
    emit!(out, "      value: {{ get_attribute: [ host_0, private_address ] }}");
    emit!(out, "    last_host_zone:");
    emit!(out, "      type: string");
    emit!(out, "      value: {{ get_property: [ host_{}, zone ] }}", mix.hosts - 1);
    if mix.services > 0 {
        let last = mix.services - 1;
        emit!(out, "    first_service_port:");
        emit!(out, "      type: integer");
        emit!(out, "      value: {{ get_property: [ svc_0, port ] }}");
        emit!(out, "    last_service_name:");
        emit!(out, "      type: string");
        emit!(out, "      value: {{ get_property: [ svc_{last}, service_name ] }}");
        emit!(out, "    last_service_url:");
        emit!(out, "      type: string");
        emit!(out, "      value:");
        emit!(out, "        concat:");
        emit!(out, "          - 'http://'");
        emit!(out, "          - get_attribute: [ host_0, public_address ]");
        emit!(out, "          - ':'");
        emit!(out, "          - get_property: [ svc_{last}, port ]");
    }
}
