//! The catalogue of problem codes: one entry per defect, with its default severity, a one-line
//! summary, an explanation (its doc comment: what the defect is and why it matters) and a wrong
//! and a right example as YAML. `puccini-rs explain CODE` and `docs/src/problems.md` are generated
//! from this table, so a code cannot exist without its page.

use super::Severity;

macro_rules! catalogue {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident = $name:literal, $severity:ident, $summary:literal {
            wrong: $wrong:literal,
            right: $right:literal $(,)?
        }
    )*) => {
        /// A stable, kebab-case problem code. Codes are never renamed or reused.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code {
            $(
                $(#[doc = $doc])*
                $variant,
            )*
        }

        impl Code {
            /// Every code, in catalogue order.
            pub const ALL: &'static [Code] = &[$(Code::$variant),*];

            /// The kebab-case name users see and can pass to `explain`.
            pub fn as_str(self) -> &'static str {
                match self { $(Code::$variant => $name,)* }
            }

            /// The severity problems with this code get unless a caller says otherwise.
            pub fn severity(self) -> Severity {
                match self { $(Code::$variant => Severity::$severity,)* }
            }

            /// A one-line summary.
            pub fn summary(self) -> &'static str {
                match self { $(Code::$variant => $summary,)* }
            }

            /// What the defect is and why it matters, in Markdown (the entry's doc comment).
            pub fn explanation(self) -> &'static str {
                match self { $(Code::$variant => concat!($($doc, "\n"),*),)* }
            }

            /// A YAML fragment that has this problem.
            pub fn wrong_example(self) -> &'static str {
                match self { $(Code::$variant => $wrong,)* }
            }

            /// The same fragment, corrected.
            pub fn right_example(self) -> &'static str {
                match self { $(Code::$variant => $right,)* }
            }

            /// Looks a code up by its kebab-case name.
            pub fn from_name(name: &str) -> Option<Code> {
                match name { $($name => Some(Code::$variant),)* _ => None }
            }
        }

        impl serde::Serialize for Code {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }
    };
}

// Each example is a whole file where one is enough to show the defect; a test compiles every
// wrong example to check it reports its code and every right example to check it does not.
catalogue! {
    /// The file is not well-formed YAML, so nothing in it past the error can be read.
    YamlSyntax = "yaml-syntax", Error, "the file is not well-formed YAML" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_3
metadata: { author: me
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
metadata: { author: me }
",
    }

    /// A continuation line of a flow collection (`[ … ]`, `{ … }`) or a quoted scalar is indented
    /// no further than the block collection that holds the value. YAML 1.2 forbids it, but
    /// libyaml (PyYAML, tosca-parser, Tacker) and go-yaml (Puccini) never check the indentation
    /// inside flow collections and quoted scalars, and files written for them rely on it: the
    /// ETSI NFV SOL001 v2.6.1 types file shipped in nearly every Tacker package continues a
    /// `valid_values` list at column 1. The line is read as libyaml reads it (the leading white
    /// space of such a line is never part of the value) and reported once, as a warning.
    YamlUnderIndented = "yaml-under-indented", Warning, "a continuation line is indented less than YAML 1.2 requires" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  inputs:
    zone:
      type: string
      constraints:
        - valid_values: [ north, south,
east, west ]
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  inputs:
    zone:
      type: string
      constraints:
        - valid_values: [ north, south,
            east, west ]
",
    }

    /// The file holds more than one YAML document: a `---` line (or a `...` line and more text)
    /// after the first document starts another. A TOSCA file is one document, and PyYAML's
    /// `safe_load` (and so tosca-parser) refuses such a file, so the second document is
    /// reported where it starts and nothing from there on is read: text is never dropped
    /// silently. A `---` before the first document, and a `...` with nothing but comments after
    /// it, are fine.
    YamlExtraDocument = "yaml-extra-document", Error, "the file holds a second YAML document" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_3
description: the service
---
metadata: { author: me }
",
        right: "\
---
tosca_definitions_version: tosca_simple_yaml_1_3
description: the service
metadata: { author: me }
...
",
    }

    /// A mapping has the same key twice. YAML forbids it, and readers disagree on which value
    /// counts; like PyYAML (and so tosca-parser), the last one is used, so the rest of the file
    /// compiles as those tools read it (`--quirk duplicate-keys` makes it a warning).
    DuplicateKey = "duplicate-key", Error, "a mapping has the same key twice" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_3
metadata: { author: me, author: you }
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
metadata: { author: me, reviewer: you }
",
    }

    /// An entity that TOSCA writes as a map (or a short notation) is written as an empty list,
    /// as ETSI NFV SOL001 packages write an operation they have nothing to say about
    /// (`instantiate: []`). It is read as the empty entity; the warning says the form is not
    /// TOSCA, since other tools may read a list differently.
    EmptyListEntity = "empty-list-entity", Warning, "an empty list where a map is expected, read as an empty entity" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_2
node_types:
  my.nodes.Vnf:
    derived_from: tosca.nodes.Root
    interfaces:
      Standard:
        type: tosca.interfaces.node.lifecycle.Standard
        create: []
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_2
node_types:
  my.nodes.Vnf:
    derived_from: tosca.nodes.Root
    interfaces:
      Standard:
        type: tosca.interfaces.node.lifecycle.Standard
        create: {}
",
    }

    /// A type is declared in the section of another kind: a capability type under `node_types`,
    /// as templates written for OpenStack tosca-parser do (tosca-parser finds a type by name
    /// whatever section declares it). A 1.x `node_types` entry that derives from a capability
    /// type and has nothing only a node type has is read as the capability type it declares.
    MisplacedType = "misplaced-type", Error, "a type is declared in the section of another kind" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_0
node_types:
  my.capabilities.Feature:
    derived_from: tosca.capabilities.Root
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_0
capability_types:
  my.capabilities.Feature:
    derived_from: tosca.capabilities.Root
",
    }

    /// Aliases expand into more than the reader allows: more than a million nodes (a "billion
    /// laughs" document) or more than 16 MiB of text (a large scalar aliased many times), in one
    /// file. Every alias is a copy of the node it names, so without the limits a small hostile
    /// file could exhaust memory. The problem is reported at the alias whose expansion passed
    /// the limit; that alias and every later one in the file read as null.
    AliasLimit = "alias-limit", Error, "aliases expand into too many nodes or too much text" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_3
metadata:
  a: &a [x, x, x, x, x, x, x, x, x]
  b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
  # ... seven more levels, each repeating the previous nine times
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
metadata:
  a: &a [x, x, x]
  b: [*a, *a]
",
    }

    /// The document nests deeper than the compiler follows: 256 collections in the YAML, 10,000
    /// functions each reading the next (a `get_property` of a `get_property` of …), defaults of
    /// data types expanded 100 deep inside each other, or 100 templates each copying the next.
    /// The limits keep a hostile file from exhausting the stack or the time of every tool that
    /// reads it.
    NestingTooDeep = "nesting-too-deep", Error, "the document nests too deeply" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_3
metadata: [[[[[[[[[[ ... ten thousand levels ... ]]]]]]]]]]
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
metadata: { level: deep }
",
    }

    /// The values that function calls yield would pass what one compilation may build
    /// (`Options::evaluation`, 64 MiB by default): a property whose calls copy another twice,
    /// itself copying the next twice, and so on, doubles with every step; `get_nodes_of_type`
    /// in each of thousands of node templates lists them all in each. Each value is counted
    /// every time a call copies or builds it: 64 bytes per value plus the bytes of its strings
    /// and keys, about the memory it takes. The call where the budget runs out and every
    /// call after it are left as written.
    ValueTooLarge = "value-too-large", Error, "function calls build values larger than the limit" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    doubling:
      type: Doubler
      properties:
        p0: [ { get_property: [ SELF, p1 ] }, { get_property: [ SELF, p1 ] } ]
        p1: [ { get_property: [ SELF, p2 ] }, { get_property: [ SELF, p2 ] } ]
        # ... forty levels, each twice the next: a trillion strings
        p40: x
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    doubling:
      type: Doubler
      properties:
        p0: [ { get_property: [ SELF, p1 ] }, { get_property: [ SELF, p1 ] } ]
        p1: x
",
    }

    /// A value has the wrong YAML kind for its place: a list where a map is expected, and so on.
    /// Nothing inside such a value can be read.
    WrongKind = "wrong-kind", Error, "a value has the wrong YAML kind" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  App:
    properties: [port, host]
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  App:
    properties:
      port: { type: integer }
      host: { type: string }
",
    }

    /// A keyname that the grammar of this entity does not define, or that this version of TOSCA
    /// does not have. Usually a typo; the help line suggests the nearest keyname.
    UnknownKey = "unknown-key", Error, "a keyname the grammar does not define" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  App:
    propreties:
      port: { type: integer }
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  App:
    properties:
      port: { type: integer }
",
    }

    /// A keyname the grammar requires is absent, so the entity cannot be understood.
    MissingKey = "missing-key", Error, "a required keyname is missing" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    web: {}
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    web: { type: tosca.nodes.WebServer }
",
    }

    /// A keyword value is not one the grammar allows (a bad range, a negative bound, an unknown
    /// enumeration value).
    InvalidValue = "invalid-value", Error, "a grammar value is not allowed here" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  App:
    requirements:
      - host: { capability: tosca.capabilities.Compute, occurrences: [2, 1] }
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  App:
    requirements:
      - host: { capability: tosca.capabilities.Compute, occurrences: [1, 2] }
",
    }

    /// `tosca_definitions_version` is missing or names a version this compiler does not know,
    /// so the file cannot be read with any grammar.
    UnsupportedVersion = "unsupported-version", Error, "missing or unknown tosca_definitions_version" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_9
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
",
    }

    /// A file or import could not be read: it does not exist, it is larger than the file-size
    /// limit, it is not a regular file (a named pipe, a device or a folder, which could block or
    /// never end), the network refused it or did not answer before `--timeout` or the
    /// compile-wide `--network-deadline`, a `--map-url` rewrite would leave its target folder
    /// (or the package, for a `csar:PATH` target) or names the package being compiled when the
    /// template is in none, or an archive entry is missing. Everything the file would have
    /// defined is missing too.
    ImportFailed = "import-failed", Error, "an imported file could not be read" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_3
imports:
  - no-such-file.yaml
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
imports: []
",
    }

    /// Files import each other in a loop. The loop is broken where it closes, so the result is
    /// sound, but the layout is confusing.
    ImportLoop = "import-loop", Warning, "files import each other in a loop" {
        wrong: "\
# a.yaml
tosca_definitions_version: tosca_simple_yaml_1_3
imports: [b.yaml]
# b.yaml
tosca_definitions_version: tosca_simple_yaml_1_3
imports: [a.yaml]
",
        right: "\
# a.yaml and b.yaml both import common.yaml, which imports neither
tosca_definitions_version: tosca_simple_yaml_1_3
imports: [common.yaml]
",
    }

    /// A file imports a file of the other TOSCA grammar family: TOSCA 2.0 and the Simple Profile
    /// 1.x versions share no types and read keynames differently, so they cannot be mixed. Files
    /// of different 1.x versions may import each other; each is read with its own grammar.
    ImportVersionMismatch = "import-version-mismatch", Error, "an import mixes TOSCA 1.x and 2.0" {
        wrong: "\
# main.yaml
tosca_definitions_version: tosca_2_0
imports: [types-1.3.yaml]   # a tosca_simple_yaml_1_3 file
",
        right: "\
# main.yaml
tosca_definitions_version: tosca_2_0
imports: [types-2.0.yaml]   # the same definitions written for tosca_2_0
",
    }

    /// A type name that is not defined in this file or anything it imports. Usually a typo or a
    /// missing import; the help line suggests the nearest known name. When an import of the
    /// file (or of a file it imports) failed, the message names that import as the likely
    /// cause (`the import at line 3 failed`), with a label there, and guesses no near name.
    TypeNotFound = "type-not-found", Error, "a referenced type does not exist" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    server: { type: tosca.nodes.Compte }
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    server: { type: tosca.nodes.Compute }
",
    }

    /// A reference to a template, input or other named entity that does not exist.
    NameNotFound = "name-not-found", Error, "a referenced name does not exist" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    server: { type: tosca.nodes.Compute }
  groups:
    servers: { type: tosca.groups.Root, members: [missing_node] }
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    server: { type: tosca.nodes.Compute }
  groups:
    servers: { type: tosca.groups.Root, members: [server] }
",
    }

    /// Two entities of the same kind have the same name, so references to it are ambiguous.
    /// A type defined in two files with equal definitions (the same YAML, positions aside, in
    /// 1.x files of the same version and `namespace` URI) is not a duplicate but one type: TOSCA
    /// 1.3 3.1.3.1 requires "Imported type definitions with the same Namespace URI, local name
    /// and version" to "be equivalent", as when a package's types are reached through the
    /// package and a mapped copy. A user's type named like a built-in type (`string`: cs01
    /// 9.1, these names "are reserved and cannot be used for custom data types") or like a type
    /// of the normative profile is a duplicate too, reported once at the user's definition with
    /// the normative one as a related location; the normative definition keeps the name, so
    /// the rest of the template reads as the specification means it.
    DuplicateName = "duplicate-name", Error, "two definitions have the same name" {
        wrong: "\
# main.yaml: both imports define my.nodes.Server, differently
tosca_definitions_version: tosca_simple_yaml_1_3
imports: [vendor-a.yaml, vendor-b.yaml]
",
        right: "\
# main.yaml: each vendor's names get a prefix (a:my.nodes.Server, b:my.nodes.Server)
tosca_definitions_version: tosca_simple_yaml_1_3
imports:
  - { file: vendor-a.yaml, namespace_prefix: a }
  - { file: vendor-b.yaml, namespace_prefix: b }
",
    }

    /// A TOSCA 2.0 file defines a type with the same name as one it imports into its root
    /// namespace (6.8.4). The file's own definition is used; the imported one is hidden.
    ShadowedImport = "shadowed-import", Warning, "a definition hides an imported one of the same name" {
        wrong: "\
# main.yaml; types.yaml defines node type Server too
tosca_definitions_version: tosca_2_0
imports: [types.yaml]
node_types:
  Server: {}
",
        right: "\
# main.yaml; lib:Server is the imported one, Server the local one
tosca_definitions_version: tosca_2_0
imports:
  - url: types.yaml
    namespace: lib
node_types:
  Server: {}
",
    }

    /// The resolved types would hold more definitions than the compile allows
    /// (`MAX_INHERITED_DEFINITIONS`, 200,000). Every type holds a copy of each definition it
    /// inherits, so long derivation chains whose types each add definitions grow with the
    /// square of their length. The type reported and the ones completed after it are left as
    /// written, so later problems about them may follow from this one.
    InheritanceTooLarge = "inheritance-too-large", Error, "the types would hold too many inherited definitions" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  T0: { derived_from: T1, properties: { p0: { type: string } } }
  T1: { derived_from: T2, properties: { p1: { type: string } } }
  # ... seven hundred types, each derived from the next and adding a property
  T700: { properties: { p700: { type: string } } }
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  T0: { derived_from: T1, properties: { p0: { type: string } } }
  T1: { properties: { p1: { type: string } } }
",
    }

    /// A type derives from itself, directly or through its ancestors, so it has no root and
    /// nothing can be inherited.
    DerivationLoop = "derivation-loop", Error, "a type derives from itself" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  A: { derived_from: B }
  B: { derived_from: A }
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  A: { derived_from: tosca.nodes.Root }
  B: { derived_from: A }
",
    }

    /// Values depend on each other in a way that cannot be completed: a data type whose
    /// property has a default of its own type (the default needs itself), or functions that
    /// read each other's results in a loop.
    DependencyCycle = "dependency-cycle", Error, "values depend on each other in a cycle" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_3
data_types:
  Chain:
    derived_from: tosca.datatypes.Root
    properties:
      next: { type: Chain, default: {} }
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
data_types:
  Chain:
    derived_from: tosca.datatypes.Root
    properties:
      next: { type: Chain, required: false }
",
    }

    /// The defaults applied while typing one value build more than 10,000 values: data types
    /// whose properties default to `{}` of another data type with defaults of its own multiply
    /// at each level (two such properties per level double the value: 40 levels would be a
    /// trillion values). The default that would pass the bound is not applied.
    DefaultTooLarge = "default-too-large", Error, "defaults expand into too many values" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_3
data_types:
  T0:
    derived_from: tosca.datatypes.Root
    properties:
      a: { type: T1, default: {} }
      b: { type: T1, default: {} }
      c: { type: T1, default: {} }
  T1:
    derived_from: tosca.datatypes.Root
    properties:
      a: { type: T2, default: {} }
      b: { type: T2, default: {} }
      c: { type: T2, default: {} }
  T2:
    derived_from: tosca.datatypes.Root
    properties:
      a: { type: T3, default: {} }
      b: { type: T3, default: {} }
      c: { type: T3, default: {} }
  T3:
    derived_from: tosca.datatypes.Root
    properties:
      a: { type: T4, default: {} }
      b: { type: T4, default: {} }
      c: { type: T4, default: {} }
  T4:
    derived_from: tosca.datatypes.Root
    properties:
      a: { type: T5, default: {} }
      b: { type: T5, default: {} }
      c: { type: T5, default: {} }
  T5:
    derived_from: tosca.datatypes.Root
    properties:
      a: { type: T6, default: {} }
      b: { type: T6, default: {} }
      c: { type: T6, default: {} }
  T6:
    derived_from: tosca.datatypes.Root
    properties:
      a: { type: T7, default: {} }
      b: { type: T7, default: {} }
      c: { type: T7, default: {} }
  T7:
    derived_from: tosca.datatypes.Root
    properties:
      a: { type: T8, default: {} }
      b: { type: T8, default: {} }
      c: { type: T8, default: {} }
  T8:
    derived_from: tosca.datatypes.Root
    properties:
      a: { type: T9, default: {} }
      b: { type: T9, default: {} }
      c: { type: T9, default: {} }
  T9:
    derived_from: tosca.datatypes.Root
    properties:
      leaf: { type: string, default: x }
node_types:
  App:
    derived_from: tosca.nodes.Root
    properties:
      settings: { type: T0, default: {} }
topology_template:
  node_templates:
    app: { type: App }
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
data_types:
  T0:
    derived_from: tosca.datatypes.Root
    properties:
      a: { type: string, default: x }
node_types:
  App:
    derived_from: tosca.nodes.Root
    properties:
      settings: { type: T0, default: {} }
topology_template:
  node_templates:
    app: { type: App }
",
    }

    /// A `pattern` clause that needs the backtracking engine (look-around, backreferences) gave
    /// up on a value: matching it would take more than 1,000,000 backtracking steps, or the
    /// compile's budget for such patterns (16,000,000 steps) is spent. The value is neither
    /// accepted nor refused by the clause; the warning says it was not checked.
    PatternUnchecked = "pattern-unchecked", Warning, "a pattern could not be checked against a value" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  Box:
    derived_from: tosca.nodes.Root
    properties:
      word: { type: string, constraints: [ pattern: '(a|aa)+\\1' ] }
topology_template:
  node_templates:
    box: { type: Box, properties: { word: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa! } }
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  Box:
    derived_from: tosca.nodes.Root
    properties:
      word: { type: string, constraints: [ pattern: '(a|aa)+' ] }
topology_template:
  node_templates:
    box: { type: Box, properties: { word: aaaa } }
",
    }

    /// A definition in a derived type breaks the contract of the definition it refines (an
    /// incompatible type, a required property made optional, a different entity kind), so
    /// templates of the child could not be used where the parent is expected. TOSCA 1.3 and 2.0
    /// state these rules; in a 1.0–1.2 file, whose texts state none, the same refinement is the
    /// warning `incompatible-override-before-1-3`. A refinement that comes from an inherited
    /// definition is reported where the derived type made the change (such as naming another
    /// capability type), with the inherited definition as a related location.
    IncompatibleOverride = "incompatible-override", Error, "a refinement breaks its parent's contract" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  Base: { derived_from: tosca.nodes.Root, properties: { port: { type: integer } } }
  Child: { derived_from: Base, properties: { port: { type: string } } }
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  Base: { derived_from: tosca.nodes.Root, properties: { port: { type: integer } } }
  Child: { derived_from: Base, properties: { port: { type: integer, default: 8080 } } }
",
    }

    /// A definition in a derived type, written in a TOSCA 1.0, 1.1 or 1.2 file, refines an
    /// inherited one in a way TOSCA 1.3 and 2.0 forbid (`incompatible-override` there): a `type`,
    /// `node`, `capability` or `relationship` that does not derive from the refined one, or
    /// `required: false` on a required definition. The Simple Profile 1.0 to 1.2 state no
    /// refinement rules (their property, attribute, capability and requirement definitions say
    /// what a definition means, never what a derived type may change), so the refinement is
    /// read as written, as tosca-parser and the 1.x type files of INDIGO, ONAP and others read
    /// it; 1.3 (§3.6.10, §3.6.12, §3.7.2, §3.7.3) and 2.0 (§9.4, §9.6, §8.2.1, §8.4.1) forbid
    /// it, since a template of the derived type could not be used where the parent is
    /// expected. The version that counts is the one of the file the refinement is written in.
    IncompatibleOverrideBefore13 = "incompatible-override-before-1-3", Warning, "a 1.0–1.2 refinement that TOSCA 1.3 and later forbid" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_0
node_types:
  Base: { derived_from: tosca.nodes.Root, properties: { port: { type: integer } } }
  Child: { derived_from: Base, properties: { port: { type: integer, required: false } } }
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_0
node_types:
  Base: { derived_from: tosca.nodes.Root, properties: { port: { type: integer, required: false } } }
  Child: { derived_from: Base, properties: { port: { type: integer, default: 8080 } } }
",
    }

    /// A template assigns something its type does not declare, so nothing would ever read it.
    UndeclaredAssignment = "undeclared-assignment", Error, "an assignment the type does not declare" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    app: { type: tosca.nodes.SoftwareComponent, properties: { colour: red } }
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    app: { type: tosca.nodes.SoftwareComponent, properties: { component_version: '1.0' } }
",
    }

    /// A TOSCA 1.x template assigns an input that its interface or operation does not define.
    /// TOSCA 2.0 allows this outright (cs01 11.3: "Template authors MAY provide parameter
    /// assignments for interface inputs that are not defined in their corresponding interface
    /// type"; 11.5: "equivalent to an ad-hoc definition of a parameter, where the type is
    /// inferred from the assigned value"). The Simple Profile 1.0 to 1.3 describe the `inputs`
    /// of an interface or operation assignment only as the assignments of the template and say
    /// nothing of undefined names, and the processors we checked pass them on: tosca-parser keeps
    /// them, Puccini renders them ("we allow ad-hoc input assignments"), and templates written
    /// for Turandot and xOpera rely on it. So the input is kept, typed by its value, the
    /// calls in it evaluated, and this warning says that no definition checks it. The inputs of
    /// a workflow's `call_operation` activity are still held to the operation called.
    AdHocInput = "ad-hoc-input", Warning, "a 1.x input its interface or operation does not define, kept as an ad-hoc parameter" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    app:
      type: tosca.nodes.Root
      interfaces:
        Standard:
          operations:
            create:
              implementation: create.sh
              inputs: { verbose: true }
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
interface_types:
  Lifecycle:
    derived_from: tosca.interfaces.node.lifecycle.Standard
    operations:
      create:
        inputs: { verbose: { type: boolean } }
node_types:
  App:
    derived_from: tosca.nodes.Root
    interfaces:
      Standard: { type: Lifecycle }
topology_template:
  node_templates:
    app:
      type: App
      interfaces:
        Standard:
          operations:
            create:
              implementation: create.sh
              inputs: { verbose: true }
",
    }

    /// A required property, input or other value has no value and no default.
    MissingValue = "missing-value", Error, "a required value is missing" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  App: { derived_from: tosca.nodes.Root, properties: { port: { type: integer } } }
topology_template:
  node_templates:
    app: { type: App }
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  App: { derived_from: tosca.nodes.Root, properties: { port: { type: integer } } }
topology_template:
  node_templates:
    app: { type: App, properties: { port: 80 } }
",
    }

    /// A required input of the service has no value and no default. The template itself is
    /// valid, so `validate` reports a warning; an orchestrator must supply the value when it
    /// deploys (`--input port=8080`), and the topology shows the input as null until then.
    /// `compile` makes it an error (exit 1): the topology it prints cannot be complete.
    MissingInput = "missing-input", Warning, "a required input has no value" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  inputs:
    port: { type: integer }
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  inputs:
    port: { type: integer, default: 8080 }
",
    }

    /// A value does not fit its declared data type.
    WrongValueType = "wrong-value-type", Error, "a value does not fit its declared type" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  App: { derived_from: tosca.nodes.Root, properties: { port: { type: integer } } }
topology_template:
  node_templates:
    app: { type: App, properties: { port: eighty } }
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  App: { derived_from: tosca.nodes.Root, properties: { port: { type: integer } } }
topology_template:
  node_templates:
    app: { type: App, properties: { port: 80 } }
",
    }

    /// A template is used where its type is not allowed: a group member whose node type is not
    /// in the group type's `members`, a policy target not in the policy type's `targets`, a
    /// node template hosted on a `tosca.nodes.Compute` whose `host` capability's
    /// `valid_source_types` do not list its type (reported, and the requirement still resolved,
    /// only where tosca-parser's copy of the normative types has no such list).
    TypeNotAllowed = "type-not-allowed", Error, "a template's type is not allowed here" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_3
group_types:
  WebServers: { derived_from: tosca.groups.Root, members: [tosca.nodes.WebServer] }
topology_template:
  node_templates:
    db: { type: tosca.nodes.DBMS }
  groups:
    web: { type: WebServers, members: [db] }
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
group_types:
  WebServers: { derived_from: tosca.groups.Root, members: [tosca.nodes.WebServer] }
topology_template:
  node_templates:
    www: { type: tosca.nodes.WebServer }
  groups:
    web: { type: WebServers, members: [www] }
",
    }

    /// A value breaks a constraint clause of its definition or of its data type. Patterns differ
    /// by version: a 1.x `pattern` clause must match the whole value, while TOSCA 2.0's
    /// `$matches` searches it (cs01 10.2.2.2.7: "if one means that the whole string is to be
    /// matched, the regular expression must start with a caret `^` and end with a `$`").
    ConstraintViolated = "constraint-violated", Error, "a value breaks a constraint" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  App:
    derived_from: tosca.nodes.Root
    properties:
      port: { type: integer, constraints: [ in_range: [ 1, 65535 ] ] }
topology_template:
  node_templates:
    app: { type: App, properties: { port: 70000 } }
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  App:
    derived_from: tosca.nodes.Root
    properties:
      port: { type: integer, constraints: [ in_range: [ 1, 65535 ] ] }
topology_template:
  node_templates:
    app: { type: App, properties: { port: 8080 } }
",
    }

    /// A requirement is assigned fewer or more times than its `occurrences` allow.
    RequirementOccurrences = "requirement-occurrences", Error, "a requirement is assigned too few or too many times" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    one: { type: tosca.nodes.Compute }
    two: { type: tosca.nodes.Compute }
    app:
      type: tosca.nodes.SoftwareComponent
      requirements: [ host: one, host: two ]   # a software component has one host
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    one: { type: tosca.nodes.Compute }
    two: { type: tosca.nodes.Compute }
    app:
      type: tosca.nodes.SoftwareComponent
      requirements: [ host: one ]
",
    }

    /// A requirement assignment that names its target node template cannot use it: the
    /// template is not of the node type asked for, offers no fitting capability, fails the
    /// node filter, or its capability has no room left under `occurrences`. Also a 2.0
    /// requirement whose `directives` ask for an `internal` target that nothing fits. The
    /// message lists why each candidate was rejected.
    UnsatisfiedRequirement = "unsatisfied-requirement", Error, "a requirement has no target" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    server:
      type: tosca.nodes.Compute
      capabilities: { host: { properties: { num_cpus: 2 } } }
    app:
      type: tosca.nodes.SoftwareComponent
      requirements:
        - host:
            node: server
            node_filter:
              capabilities:
                - host: { properties: [ num_cpus: { greater_or_equal: 4 } ] }
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    server:
      type: tosca.nodes.Compute
      capabilities: { host: { properties: { num_cpus: 4 } } }
    app:
      type: tosca.nodes.SoftwareComponent
      requirements:
        - host:
            node: server
            node_filter:
              capabilities:
                - host: { properties: [ num_cpus: { greater_or_equal: 4 } ] }
",
    }

    /// A requirement that names no node template (only a node type, a capability or a node
    /// filter, or nothing because the node type's `occurrences` add it) and that no node
    /// template of this topology fits. It stays open: an orchestrator may fulfil it from its
    /// inventory, or a substituting service may. The message lists why each candidate was
    /// rejected, so a template meant to be self-contained can fix it.
    DanglingRequirement = "dangling-requirement", Warning, "a requirement is left for the orchestrator" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    app:
      type: tosca.nodes.SoftwareComponent   # needs a host; there is none
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    server: { type: tosca.nodes.Compute }
    app:
      type: tosca.nodes.SoftwareComponent   # hosted on `server`, found by capability type
",
    }

    /// A 2.0 requirement assignment's `allocation` names a property its target capability does
    /// not have, or one that is not an integer, float or scalar, or gives an amount that does
    /// not fit the property's type or is negative. TOSCA 2.0 (cs01 8.5.5) calls such a statement
    /// invalid; the entry is left out, so it limits nothing, and the rest of the allocation
    /// still applies. Usually a misspelt property name.
    InvalidAllocation = "invalid-allocation", Warning, "an allocation entry cannot be taken from its capability" {
        wrong: "\
tosca_definitions_version: tosca_2_0
capability_types:
  Host:
    properties:
      num_cpus: { type: integer }
node_types:
  Server:
    capabilities:
      host: Host
  App:
    requirements:
      - host: { capability: Host }
service_template:
  node_templates:
    server:
      type: Server
      capabilities: { host: { properties: { num_cpus: 4 } } }
    app:
      type: App
      requirements:
        - host: { node: server, allocation: { num_cpu: 2 } }   # the property is `num_cpus`
",
        right: "\
tosca_definitions_version: tosca_2_0
capability_types:
  Host:
    properties:
      num_cpus: { type: integer }
node_types:
  Server:
    capabilities:
      host: Host
  App:
    requirements:
      - host: { capability: Host }
service_template:
  node_templates:
    server:
      type: Server
      capabilities: { host: { properties: { num_cpus: 4 } } }
    app:
      type: App
      requirements:
        - host: { node: server, allocation: { num_cpus: 2 } }
",
    }

    /// A node template without the `substitute` directive that several compiled files can
    /// substitute (their
    /// `substitution_mappings` name its type, and neither their `substitution_filter` nor their
    /// value mappings rule it out), while `compile` renders one topology for it: the node is
    /// left as written. (With the directive, the candidates are listed in `substitutable_by`
    /// for the orchestrator to choose, as cs01 §15 says, without a problem.) In a VNF package
    /// each deployment flavour is such a file, chosen by the VNF node's `flavour_id` (ETSI NFV
    /// SOL001 §6.8); when that comes from an input with no value, nothing chooses. `validate`
    /// checks every candidate instead and does not report this. Give the selecting property a
    /// value (`--input selected_flavour=simple`), or choose with `--flavour ID`.
    AmbiguousSubstitution = "ambiguous-substitution", Warning, "several files can substitute a node template and none is chosen" {
        wrong: "\
# main.yaml imports df_simple.yaml and df_complex.yaml, each with
#   substitution_mappings: { node_type: my.VNF, properties: { flavour_id: <its id> } }
tosca_definitions_version: tosca_simple_yaml_1_3
imports: [ types.yaml, df_simple.yaml, df_complex.yaml ]
topology_template:
  inputs:
    selected_flavour: { type: string }
  node_templates:
    vnf:
      type: my.VNF
      properties: { flavour_id: { get_input: selected_flavour } }
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
imports: [ types.yaml, df_simple.yaml, df_complex.yaml ]
topology_template:
  node_templates:
    vnf:
      type: my.VNF
      properties: { flavour_id: simple }
",
    }

    /// Substitution that would render too much: files substituting nodes nested more than 16
    /// deep, or more than 100,000 node templates rendered in substituting topologies in one
    /// compilation (each nested topology is rendered once per node it substitutes, so a few
    /// small files can multiply). The node is left as written.
    SubstitutionTooLarge = "substitution-too-large", Error, "substitutions nest too deep or render too many node templates" {
        wrong: "\
# a.yaml substitutes my.A with a topology of 1,000 nodes of type my.B,
# b.yaml substitutes my.B with a topology of 1,000 nodes of type my.C, and so on
tosca_definitions_version: tosca_simple_yaml_1_3
imports: [ a.yaml, b.yaml, c.yaml ]
topology_template:
  node_templates:
    top: { type: my.A }
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
imports: [ a.yaml ]
topology_template:
  node_templates:
    top: { type: my.A }
",
    }

    /// A keyname that the spec deprecates in this version. It still works, but a later version
    /// drops it.
    Deprecated = "deprecated", Warning, "a deprecated or ignored construct" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_3
imports:
  - { file: types.yaml, namespace_uri: http://example.org/types }
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
imports:
  - { file: types.yaml, namespace_prefix: types }
",
    }

    /// A `float` written with digits lies beyond the range of a 64-bit float (about 1.8e308 in
    /// magnitude), so it reads as an infinity, as IEEE 754 rounds it and PyYAML reads it. The
    /// text says a finite number and the value is not one, which is seldom what was meant; it
    /// stays a warning because infinity is a valid float (2.0 section 9.1.1.3), and the OASIS
    /// suite holds `1.8e+308` valid. An `integer` beyond 64 bits, or a scalar-unit value beyond
    /// its range, is an error (`wrong-value-type`): neither has an infinity.
    FloatOverflow = "float-overflow", Warning, "a float beyond the 64-bit range, read as infinity" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  Probe:
    derived_from: tosca.nodes.Root
    properties:
      ceiling: { type: float }
topology_template:
  node_templates:
    probe:
      type: Probe
      properties:
        ceiling: 1e400
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  Probe:
    derived_from: tosca.nodes.Root
    properties:
      ceiling: { type: float }
topology_template:
  node_templates:
    probe:
      type: Probe
      properties:
        ceiling: .inf
",
    }

    /// A TOSCA 2.0 construct that puccini-rs reads as written although the standard's text
    /// (cs01) does not settle it, so another processor may refuse it: `status` on a property
    /// definition (the keyname table of 9.4 leaves it out, while the grammar block of 9.4 writes
    /// `status:` and the refinement rules of 9.8 refine it). Write the portable form where there
    /// is one.
    NotPortable = "not-portable", Warning, "a construct the TOSCA 2.0 text leaves unsettled, read as written" {
        wrong: "\
tosca_definitions_version: tosca_2_0
node_types:
  Probe:
    properties:
      level:
        type: integer
        status: experimental
",
        right: "\
tosca_definitions_version: tosca_2_0
node_types:
  Probe:
    properties:
      level:
        type: integer
",
    }

    /// A TOSCA 2.0 `$name` call of a function that is neither built in (cs01 10.2 lists them:
    /// `$get_input` … `$ceil`) nor defined under `functions:` in the file, an import or a
    /// profile it reaches (10.4: "TOSCA allows for the use of custom functions that extend the
    /// set of built-in functions … Function signatures can be defined in TOSCA profiles or TOSCA
    /// service templates"). `$in_range` is not a 2.0 function (use `$greater_or_equal` and
    /// `$less_or_equal`, or define it); it, `$get_operation_output` and `$get_nodes_of_type`
    /// (removed by csd06) are known only with `--dialect tosca-2.0-draft`. A function defined
    /// under `functions:` always wins over a built-in of the same name: its calls are left for
    /// the orchestrator. Calls written as map keys (`"$keygen: [ UUID ]": 34`, cs01 10.1) are
    /// not checked.
    UnknownFunction = "unknown-function", Error, "a `$name` call of a function neither built in nor defined under `functions:`" {
        wrong: "\
tosca_definitions_version: tosca_2_0
data_types:
  Port:
    derived_from: integer
    validation: { $in_range: [ $value, [ 1, 65535 ] ] }
",
        right: "\
tosca_definitions_version: tosca_2_0
data_types:
  Port:
    derived_from: integer
    validation: { $and: [ { $greater_or_equal: [ $value, 1 ] }, { $less_or_equal: [ $value, 65535 ] } ] }
",
    }

    /// A call of a function defined under `functions:` that fits none of its signatures (cs01
    /// 10.4: signatures "allow for validation of function return values and function arguments
    /// at design time"; "the signatures are tested in the order of their definition. The first
    /// matching implementation is used"). A signature fits when the call gives all its
    /// `arguments`, then at most its `optional_arguments`, in order (with `variadic: true` the
    /// last one may repeat; with no arguments and `variadic: true` anything goes), each literal
    /// argument is a value of its schema's type (a nested call whose result type is known counts
    /// as that type), and its `result` type fits the definition the call is assigned to. One
    /// problem at the call says why each signature does not fit.
    FunctionSignatureMismatch = "function-signature-mismatch", Error, "a custom function call fits none of the function's signatures" {
        wrong: "\
tosca_definitions_version: tosca_2_0
functions:
  twice:
    signatures:
      - arguments: [ { type: integer } ]
        result: { type: integer }
node_types:
  Box:
    properties:
      size: { type: integer }
service_template:
  node_templates:
    box:
      type: Box
      properties:
        size: { $twice: [ not-a-number ] }
",
        right: "\
tosca_definitions_version: tosca_2_0
functions:
  twice:
    signatures:
      - arguments: [ { type: integer } ]
        result: { type: integer }
node_types:
  Box:
    properties:
      size: { type: integer }
service_template:
  node_templates:
    box:
      type: Box
      properties:
        size: { $twice: [ 21 ] }
",
    }

    /// An artifact's `file` is a URI of a scheme puccini-rs does not read (`git+https://…`, or
    /// a container image written `ubuntu:16.04`, whose name reads as the scheme). TOSCA asks
    /// only for a URI (1.3 3.6.7: "the required URI string (relative or absolute) which can
    /// be used to locate the artifact's file"; 2.0 cs01 12.2) and leaves fetching it to the
    /// orchestrator, so the file is kept as written; the warning says it is not checked.
    UnknownUrlScheme = "unknown-url-scheme", Warning, "an artifact's file has a URL scheme that is kept as written, unchecked" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    app:
      type: tosca.nodes.SoftwareComponent
      artifacts:
        source:
          type: tosca.artifacts.File
          file: git+https://example.org/app.git
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    app:
      type: tosca.nodes.SoftwareComponent
      artifacts:
        source:
          type: tosca.artifacts.File
          file: https://example.org/app.tar.gz
",
    }

    /// A service template inside a CSAR (a zip, tar or tar.gz archive) names, by a relative path, an
    /// artifact's `file` or an operation's implementation (`primary`, `dependencies`) that the
    /// package does not hold. TOSCA 2.0 §17.1: a CSAR is "a package of files containing at least
    /// TOSCA definitions as well as accompanying artifacts (e.g. scripts, binaries,
    /// configuration files) that can be delivered together as a single unit", and §17.2: the
    /// artifact files "included in the CSAR are fully described and referred via relative path
    /// names in artifact definitions". A relative path is resolved against the file that
    /// writes it, as an import is, so one missing from the archive names nothing an
    /// orchestrator can deploy (tosca-parser rejects such a CSAR too). A package folder is
    /// `folder-artifact-missing`, a warning; a file outside any package is not checked (it may
    /// be provided with the template), nor is a URL, nor an implementation naming an artifact.
    ArtifactFileMissing = "artifact-file-missing", Error, "a package names an artifact or script file it lacks" {
        wrong: "\
# Definitions/main.yaml, in a CSAR without Scripts/install.sh
tosca_definitions_version: tosca_simple_yaml_1_2
topology_template:
  node_templates:
    app:
      type: tosca.nodes.SoftwareComponent
      interfaces:
        Standard:
          create: ../Scripts/install.sh
",
        right: "\
# Definitions/main.yaml, in a CSAR holding Scripts/install.sh
tosca_definitions_version: tosca_simple_yaml_1_2
topology_template:
  node_templates:
    app:
      type: tosca.nodes.SoftwareComponent
      interfaces:
        Standard:
          create: ../Scripts/install.sh
",
    }

    /// A service template inside a package folder (a folder with `TOSCA-Metadata/TOSCA.meta`,
    /// read as its archive) names, by a relative path, an artifact's `file` or an operation's
    /// implementation that the folder does not hold. In an archive this is the error
    /// `artifact-file-missing` (TOSCA 2.0 §17.1: a CSAR is delivered with its artifacts). A
    /// folder is a package's source, not a CSAR, and the TOSCA texts say nothing of it; the
    /// sources of real packages (OpenStack Tacker's samples) leave large files such as VM images
    /// out and add them when they pack the folder. So a warning: the folder packed as it is
    /// would be a CSAR with this error.
    FolderArtifactMissing = "folder-artifact-missing", Warning, "a package folder lacks an artifact or script file it names" {
        wrong: "\
# pkg/Definitions/main.yaml, in a package folder without pkg/Files/image.img
tosca_definitions_version: tosca_simple_yaml_1_2
topology_template:
  node_templates:
    vm:
      type: tosca.nodes.Compute
      artifacts:
        image:
          type: tosca.artifacts.Deployment.Image.VM
          file: ../Files/image.img
",
        right: "\
# pkg/Definitions/main.yaml, in a package folder holding pkg/Files/image.img
tosca_definitions_version: tosca_simple_yaml_1_2
topology_template:
  node_templates:
    vm:
      type: tosca.nodes.Compute
      artifacts:
        image:
          type: tosca.artifacts.Deployment.Image.VM
          file: ../Files/image.img
",
    }

    /// A 1.x import written under a name (`- my_types: types.yaml`) where the name reads as a
    /// deviation: TOSCA 1.2 and 1.3 define the import definition without a name (3.6.8), and
    /// in 1.0 and 1.1, where naming imports is the grammar, a name spelt like a keyname
    /// (`- fiel: types.yaml`) is most likely a typo. The import is followed either way; in
    /// TOSCA 2.0 a named import is an `unknown-key` error.
    NamedImport = "named-import", Warning, "an import is written under a name" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_3
imports:
  - my_types: types.yaml
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
imports:
  - file: types.yaml
",
    }

    /// A 1.x template uses a type that no OASIS profile defines but a tool adds to its copy of
    /// the normative types: OpenStack tosca-parser's `tosca.nodes.Container.Application.Docker`,
    /// `tosca.capabilities.Container.Docker` and `tosca.artifacts.Deployment.Image.Container.Docker`.
    /// puccini-rs knows them, so the rest of the template compiles as tosca-parser reads it,
    /// but another orchestrator need not: define the type in your own file (or import a profile
    /// that does), and your definition is used instead. `--quirk tosca-parser-docker-types`
    /// accepts the use as a warning.
    NonNormativeType = "non-normative-type", Error, "a type from a tool's extension of the normative types" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    image:
      type: tosca.nodes.Root
      artifacts:
        nginx: { file: nginx.tar, type: tosca.artifacts.Deployment.Image.Container.Docker }
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
artifact_types:
  tosca.artifacts.Deployment.Image.Container.Docker:
    derived_from: tosca.artifacts.Deployment.Image
topology_template:
  node_templates:
    image:
      type: tosca.nodes.Root
      artifacts:
        nginx: { file: nginx.tar, type: tosca.artifacts.Deployment.Image.Container.Docker }
",
    }

    /// A `default` on a TOSCA 2.0 property or parameter definition that says `required: false`.
    /// cs01 contradicts itself here. Its 9.4 keyname table says "The `default` keyname SHALL NOT
    /// be defined when property is not required" (and 9.8 for parameters), yet 9.5 calls such
    /// a default only "irrelevant" ("a non-required property that is not assigned stays
    /// undefined"), and its own example s84 (9.4), the Simple Profile 2.0 and six cases of the
    /// OASIS conformance suite write `required: false` with a `default`. As with `status`, the
    /// form is read as written with a warning that names the contradiction: the default is
    /// applied, as those authors intend, and a portable template writes one or the other.
    /// TOSCA 1.x allows the combination. The definitions of OASIS's own profiles are not
    /// reported (a user cannot change them), a template's are.
    DefaultNotRequired = "default-not-required", Warning, "a default on a definition that is not required, which cs01 both forbids and writes" {
        wrong: "\
tosca_definitions_version: tosca_2_0
data_types:
  Settings:
    properties:
      retries:
        type: integer
        required: false
        default: 3
",
        right: "\
tosca_definitions_version: tosca_2_0
data_types:
  Settings:
    properties:
      retries:
        type: integer
        default: 3
",
    }

    /// A TOSCA 1.x property definition written as a value alone (`network_name: PUBLIC`) where
    /// it refines an inherited definition. The 1.0–1.3 grammars of a property definition have
    /// no single-line form, yet the OASIS 1.x texts write their own normative
    /// `tosca.capabilities.Endpoint.Public` and `.Admin` this way, under the comment "Change the
    /// default network_name to use the first public network found": the value is the
    /// refinement's `default`, and it is read so, with this warning. TOSCA 2.0 (cs01 9.4) has
    /// the form: "The following single-line grammar is supported when only a fixed value or
    /// fixed value expression needs to be provided to a property … equivalent to … `value:`";
    /// there it is a fixed `value`, read without a warning. A portable 1.x file writes
    /// `default:` under the property's name.
    ShortNotationBeforeVersion = "short-notation-before-version", Warning, "a 1.x property refinement written as a value alone, read as its default" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_3
capability_types:
  Public:
    derived_from: tosca.capabilities.Endpoint
    properties:
      network_name: PUBLIC
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
capability_types:
  Public:
    derived_from: tosca.capabilities.Endpoint
    properties:
      network_name:
        default: PUBLIC
",
    }

    /// `default:` with no value, `default: null` or `default: ~` in a TOSCA 1.x property,
    /// attribute or parameter definition. YAML reads all three as null, and TOSCA 1.0–1.3 give
    /// null no meaning (1.x has no `nil` type: a `string` default of null is not a string, an
    /// `integer` one not an integer). Every other processor reads it as "no default"
    /// (OpenStack tosca-parser keeps `None`, which it treats as no default; SODALITE, INDIGO and
    /// ONAP write it on optional properties throughout), so it is read that way, with this
    /// warning. In TOSCA 2.0 null is the one value of the `nil` type (cs01 9.1.1.6), "distinct
    /// from an unassigned value", so there `default: null` is typed like any other default and
    /// is an error for any type but `nil`. A definition that declares our primitive type
    /// `"null"` keeps its null default, the one value of that type.
    NullAsUnset = "null-as-unset", Warning, "a 1.x `default: null`, read as no default" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  Server:
    derived_from: tosca.nodes.Root
    properties:
      flavor:
        type: string
        required: false
        default:
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  Server:
    derived_from: tosca.nodes.Root
    properties:
      flavor:
        type: string
        required: false
",
    }

    /// A 1.x `tosca_definitions_version` written with a patch number the specifications do not
    /// name: `tosca_simple_yaml_1_0_0` (ONAP SDC's vendor onboarding writes it). TOSCA 1.x
    /// (3.9.3.1) lists the exact keywords, `tosca_simple_yaml_1_0` … `_1_3`, and no patch
    /// versions; but the spelling names one of them beyond doubt, and every peer reads it so (ONAP's
    /// JTOSCA reports it as a non-critical issue and reads the file with its 1.0 definitions),
    /// so it is read as the version it spells, with this warning.
    VersionAlias = "version-alias", Warning, "a 1.x version keyword with a `_0` patch number, read as the version it names" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_0_0
topology_template:
  node_templates:
    server: { type: tosca.nodes.Compute }
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_0
topology_template:
  node_templates:
    server: { type: tosca.nodes.Compute }
",
    }

    /// An ETSI package's `TOSCA-Metadata/TOSCA.meta` lacks a keyname SOL004 requires. ETSI GS
    /// NFV-SOL 004 (v2.x–v4.x) §4.1.2, Table 4.1.2-1, makes `Entry-Definitions`,
    /// `ETSI-Entry-Manifest` and `ETSI-Entry-Change-Log` mandatory in `block_0` (ONAP's validator
    /// checks the same three, requirement R-293901). A package is ETSI's when TOSCA.meta has an
    /// `ETSI-Entry-*` keyname or the package has a manifest (`.mf`).
    PackageMetaKeyMissing = "package-meta-key-missing", Error, "an ETSI package's TOSCA.meta lacks a keyname SOL004 requires" {
        wrong: "\
TOSCA-Meta-File-Version: 1.0
CSAR-Version: 1.1
Created-By: Acme
Entry-Definitions: Definitions/main.yaml
ETSI-Entry-Manifest: main.mf
",
        right: "\
TOSCA-Meta-File-Version: 1.0
CSAR-Version: 1.1
Created-By: Acme
Entry-Definitions: Definitions/main.yaml
ETSI-Entry-Manifest: main.mf
ETSI-Entry-Change-Log: Files/ChangeLog.txt
",
    }

    /// An `ETSI-Entry-*` keyname of TOSCA.meta names a file the package does not have (SOL004
    /// §4.1.2, Table 4.1.2-1: each gives "the location" of the manifest, change log, tests,
    /// licenses or certificate in the package). `ETSI-Entry-Tests` and `ETSI-Entry-Licenses` may
    /// name a folder, present when a file is under it. The problem is at the value.
    PackageEntryMissing = "package-entry-missing", Error, "an ETSI-Entry-* keyname names a file the package lacks" {
        wrong: "\
Entry-Definitions: Definitions/main.yaml
ETSI-Entry-Manifest: main.mf
ETSI-Entry-Change-Log: Files/ChangeLog.txt   # not in the package
",
        right: "\
Entry-Definitions: Definitions/main.yaml
ETSI-Entry-Manifest: main.mf
ETSI-Entry-Change-Log: Files/ChangeLog.txt   # in the package
",
    }

    /// A line of the manifest is not written as SOL004 writes it (§4.3.2–§4.3.3, §4.3.7): a key
    /// in another case (`source:` for `Source:`), an indentation by tabs, a `#` comment (SOL004
    /// defines none), a line without `name: value`, an `Algorithm` or `Hash` with no `Source`
    /// before it, text after the CMS block. Manifests are read as they are written in the field:
    /// the line is read as meant, or skipped when it cannot be, and reported as a warning.
    ManifestSyntax = "manifest-syntax", Warning, "a manifest line departs from SOL004's form" {
        wrong: "\
metadata:
\tpnfd_name: myPnf
source: Definitions/main.yaml
",
        right: "\
metadata:
    pnfd_name: myPnf
Source: Definitions/main.yaml
",
    }

    /// The manifest's `metadata:` block is missing, lacks a name, has an empty value or a name
    /// SOL004 does not define. SOL004 §4.3.2: a VNF package's manifest starts with
    /// `vnf_provider_id`, `vnf_product_name`, `vnf_release_date_time` and
    /// `vnf_package_version` (later versions add `compatible_specification_versions` and
    /// `vnfm_info`); a PNF archive's with `pnfd_provider`, `pnfd_name`,
    /// `pnfd_release_date_time` and `pnfd_archive_version` (ONAP R-57019).
    ManifestMetadata = "manifest-metadata", Error, "the manifest's metadata is missing a name or has an unknown one" {
        wrong: "\
metadata:
    pnfd_name: myPnf
    pnfd_provider: Acme
    pnfd_archivee_version: 1.0
",
        right: "\
metadata:
    pnfd_name: myPnf
    pnfd_provider: Acme
    pnfd_archive_version: 1.0
    pnfd_release_date_time: 2019-03-11T11:25:00+00:00
",
    }

    /// The manifest's `vnf_release_date_time` (or `pnfd_release_date_time`) is not an IETF RFC
    /// 3339 date and time, the format SOL004 §4.3.2 gives. The value is informative, so it is a
    /// warning.
    ManifestDateTime = "manifest-date-time", Warning, "the release date and time is not RFC 3339" {
        wrong: "\
metadata:
    vnf_release_date_time: 2017.01.01T10:00+03:00
",
        right: "\
metadata:
    vnf_release_date_time: 2017-01-01T10:00:00+03:00
",
    }

    /// A `Source` of the manifest (or the `Name` of a TOSCA.meta block carrying a digest, as
    /// Tacker writes them) names a file the package does not have. SOL004 §4.3.3: each entry
    /// gives the location of a file "contained in or referenced from" the package; a URI
    /// (an external artifact) is not looked for.
    PackageFileMissing = "package-file-missing", Error, "the manifest lists a file the package lacks" {
        wrong: "\
Source: Definitions/a.yaml   # not in the package
Algorithm: SHA-256
Hash: 8a041578eefd22c10418600e4c3cb8c5d1ff5703ae2785ed53540263f4030703
",
        right: "\
Source: Definitions/main.yaml   # in the package
Algorithm: SHA-256
Hash: 8a041578eefd22c10418600e4c3cb8c5d1ff5703ae2785ed53540263f4030703
",
    }

    /// A manifest entry has no `Algorithm` and `Hash` (or one without the other), so the file's
    /// integrity cannot be checked. SOL004 §4.3.3 writes each entry with both; ONAP's own valid
    /// samples list files without them, so it is a warning. (A `Hash` without an `Algorithm` is
    /// `package-hash-algorithm`: it cannot be checked at all.)
    PackageHashMissing = "package-hash-missing", Warning, "a listed file has no digest" {
        wrong: "\
Source: Definitions/main.yaml
",
        right: "\
Source: Definitions/main.yaml
Algorithm: SHA-256
Hash: 8a041578eefd22c10418600e4c3cb8c5d1ff5703ae2785ed53540263f4030703
",
    }

    /// A digest's `Algorithm` is missing, empty or not one SOL004 names: `SHA-224`, `SHA-256`,
    /// `SHA-384` or `SHA-512` (SOL004 §4.3.3, the algorithms of the SOL005 `Checksum` type).
    /// The hash cannot be checked; Tacker refuses such a package at upload.
    PackageHashAlgorithm = "package-hash-algorithm", Error, "a digest's algorithm is missing or unknown" {
        wrong: "\
Source: Scripts/install.sh
Algorithm: SHA-255
Hash: 27bbdb25d8f4ed6d07d6f6581b86515e8b2f0059b236ef7b6f50d6674b34f02a
",
        right: "\
Source: Scripts/install.sh
Algorithm: SHA-256
Hash: 27bbdb25d8f4ed6d07d6f6581b86515e8b2f0059b236ef7b6f50d6674b34f02a
",
    }

    /// A file's digest does not match its `Hash`: the file changed after the manifest (or
    /// TOSCA.meta block) was written, or the hash was miscopied. SOL004 §4.3.3 and §5.1: a
    /// consumer computes the digest and compares it with the one listed, and refuses the package
    /// when they differ (Tacker does at upload). The message gives the digest found.
    PackageHashMismatch = "package-hash-mismatch", Error, "a file's digest does not match its listed hash" {
        wrong: "\
Source: Scripts/install.sh
Algorithm: SHA-256
Hash: 27bbdb25d8f4ed6d07d6f6581b86515e8b2f0059b236ef7b6f50d6674b34f02   # one digit short
",
        right: "\
Source: Scripts/install.sh
Algorithm: SHA-256
Hash: 27bbdb25d8f4ed6d07d6f6581b86515e8b2f0059b236ef7b6f50d6674b34f02a
",
    }

    /// A file of the package is not listed in the manifest. SOL004 §4.3.3: the manifest lists
    /// "all files contained in or referenced from" the package, so an unlisted file is not
    /// covered by the package's integrity. The manifest itself need not be listed (it cannot
    /// hold its own digest), as ONAP's validator reads it (R-01123). The problem is at the
    /// manifest's start and names the file.
    PackageFileUnlisted = "package-file-unlisted", Error, "a file of the package is not in the manifest" {
        wrong: "\
Source: Definitions/main.yaml
# Files/ChangeLog.txt is in the package but not listed
",
        right: "\
Source: Definitions/main.yaml
Source: Files/ChangeLog.txt
",
    }

    /// A set of the manifest's `non_mano_artifact_sets` has no `Source`, or names a file the
    /// package does not have. SOL004 §4.3.7: each set lists the paths of its artifacts with
    /// `Source`, and each is a file of the package.
    NonManoArtifactMissing = "non-mano-artifact-missing", Error, "a non-MANO artifact set is empty or names a missing file" {
        wrong: "\
non_mano_artifact_sets:
    onap_ves_events:
        Source: Files/Events/MyPnf_Pnf_v1.yaml   # not in the package
",
        right: "\
non_mano_artifact_sets:
    onap_ves_events:
        Source: Files/Events/MyPnf_Pnf_v1.yaml   # in the package
",
    }

    /// In a package without TOSCA-Metadata (SOL004 §4.1.3), the manifest and the certificate
    /// are named after the root template (`main.yaml` → `main.mf`, `main.cert`), and there is
    /// one manifest. Here one is named otherwise, or there are several.
    PackageManifestName = "package-manifest-name", Error, "the manifest or certificate is not named after the root template" {
        wrong: "\
main.yaml
MainServiceTemplate.mf
",
        right: "\
main.yaml
main.mf
",
    }

    /// In a package without TOSCA-Metadata (SOL004 §4.1.3), the root template's `metadata`
    /// names the package with `template_name`, `template_author` and `template_version`; one is
    /// missing or empty.
    PackageTemplateMetadata = "package-template-metadata", Error, "the root template lacks the metadata a package without TOSCA-Metadata needs" {
        wrong: "\
tosca_definitions_version: tosca_simple_yaml_1_3
metadata:
  template_name: vRouter
",
        right: "\
tosca_definitions_version: tosca_simple_yaml_1_3
metadata:
  template_name: vRouter
  template_author: Acme
  template_version: 1.0.0
",
    }

    /// TOSCA.meta names an ETSI entry as SOL004 v2.4.1 did, without `ETSI-` (`Entry-Manifest`,
    /// `Entry-Change-Log`, `Entry-Tests`, `Entry-Licenses`, `Entry-Certificate`); SOL004 v2.5.1
    /// and later (§4.1.2, Table 4.1.2-1) write `ETSI-Entry-…`. ONAP's validator still reads the
    /// old names for tests and licenses. The keyname is read as its `ETSI-` form, with a warning.
    PackageMetaLegacyKey = "package-meta-legacy-key", Warning, "TOSCA.meta uses SOL004 v2.4.1's name for an ETSI entry" {
        wrong: "\
Entry-Tests: Artifacts/Tests
",
        right: "\
ETSI-Entry-Tests: Artifacts/Tests
",
    }

    // Package signatures (ETSI GS NFV-SOL 004 §5, CMS: RFC 5652). Their examples are sketches of
    // package files, not TOSCA: `tosca-core/src/package/signature.rs` and its tests cover them.

    /// A signature of the package (the manifest's `-----BEGIN CMS-----` block, an artifact's
    /// `Signature` file, or the `.cms` of security option 2) cannot be read as CMS SignedData
    /// (RFC 5652 §5.1): not DER (`der` reads DER only; BER with indefinite lengths is refused),
    /// a broken PEM block, or a SignedData missing what RFC 5652 §5.3 requires (with signed
    /// attributes, `contentType` and `messageDigest`). SOL004 §5.1 requires the signature to be
    /// CMS, so a package whose signature cannot be read is not signed.
    SignatureMalformed = "signature-malformed", Error, "a package signature is not readable CMS SignedData" {
        wrong: "\
# MainServiceTemplate.mf, at its end
-----BEGIN CMS-----
not base64 at all
-----END CMS-----
",
        right: "\
# MainServiceTemplate.mf, at its end (openssl cms -sign -binary -outform PEM ...)
-----BEGIN CMS-----
MIIGpwYJKoZIhvcNAQcCoIIGmDCCBpQCAQExDTALBglghkgBZQMEAgEwCwYJKoZI
...
-----END CMS-----
",
    }

    /// A package signature uses an algorithm, key or content type this checker does not
    /// support: digests other than SHA-256/384/512 (SHA-1 and MD5 are broken for signatures),
    /// keys other than RSA and ECDSA on P-256/P-384, or CMS content other than SignedData (a
    /// CompressedData stub, say). SOL004 §5.1 leaves the algorithm to the signer; RFC 5754 and
    /// RFC 8551 name these as the ones to use, and they are what the field signs with.
    SignatureUnsupported = "signature-unsupported", Error, "a package signature uses an algorithm that is not supported" {
        wrong: "\
openssl cms -sign -binary -md sha1 -in MainServiceTemplate.mf -signer signer.pem -inkey key.pem -outform PEM
",
        right: "\
openssl cms -sign -binary -md sha256 -in MainServiceTemplate.mf -signer signer.pem -inkey key.pem -outform PEM
",
    }

    /// The signed content (the manifest without its signature, an artifact, the CSAR of
    /// security option 2) does not have the digest its signature's `messageDigest` attribute
    /// records (RFC 5652 §5.4, §11.2): the content was changed after it was signed. SOL004 §5.1:
    /// the signature lets the consumer check the package's integrity; this one fails.
    SignatureContentMismatch = "signature-content-mismatch", Error, "the signed content changed since it was signed" {
        wrong: "\
# the manifest was edited after `openssl cms -sign` ran over it
vnf_package_version: 1.1   # was 1.0 when signed
",
        right: "\
# sign the manifest again after editing it
vnf_package_version: 1.1
",
    }

    /// The signature value does not verify with the public key of the certificate that names
    /// itself as the signer (RFC 5652 §5.6): the signature was made with another key, or the
    /// signed attributes were altered.
    SignatureInvalid = "signature-invalid", Error, "a package signature does not verify with the signer's key" {
        wrong: "\
openssl cms -sign -binary -in MainServiceTemplate.mf -signer alice.pem -inkey bobs-key.pem
",
        right: "\
openssl cms -sign -binary -in MainServiceTemplate.mf -signer alice.pem -inkey alices-key.pem
",
    }

    /// No certificate matches the signer a signature names (RFC 5652 §5.3, `sid`): the CMS
    /// carries none and the package gives none beside it (SOL004 §5.1: the signer's
    /// certificate is in the CMS, or in the file `ETSI-Entry-Certificate` names, or, for an
    /// artifact, its `Certificate` entry).
    SignatureCertificateMissing = "signature-certificate-missing", Error, "no certificate of a signature's signer" {
        wrong: "\
openssl cms -sign -binary -nocerts -in MainServiceTemplate.mf -signer signer.pem -inkey key.pem
# and no ETSI-Entry-Certificate in TOSCA.meta
",
        right: "\
openssl cms -sign -binary -in MainServiceTemplate.mf -signer signer.pem -inkey key.pem
",
    }

    /// A certificate of the signer (or of its chain) was not valid when the package was signed:
    /// expired, or not yet valid, at the CMS `signingTime` (RFC 5652 §11.3; without it, now).
    /// RFC 5280 §4.1.2.5: outside its validity a certificate vouches for nothing. A certificate
    /// that expired after the package was signed is fine: the signature was sound when made.
    SignatureCertificateNotValid = "signature-certificate-not-valid", Error, "a signer's certificate was not valid when it signed" {
        wrong: "\
# signer.pem: notAfter 2020-01-01; the CMS signingTime: 2024-05-01
",
        right: "\
# signer.pem: notAfter 2030-01-01; the CMS signingTime: 2024-05-01
",
    }

    /// Trust roots were given (`--trust-root`) and the signer's certificate does not chain to
    /// any of them (RFC 5280 §6: issuer names matched, each issuer's signature verified, every
    /// certificate valid at signing time). SOL004 §5.1: the consumer checks the signer against
    /// its trusted certificate authorities; this one is not among them.
    SignatureUntrusted = "signature-untrusted", Error, "the signer does not chain to a trust root" {
        wrong: "\
puccini-rs csar validate package.csar --trust-root some-other-ca.pem
",
        right: "\
puccini-rs csar validate package.csar --trust-root vendor-ca.pem
",
    }

    /// A signature verified against the certificate the package carries, and no trust roots
    /// were given (`--trust-root`): the package is intact, but anyone can make a certificate,
    /// so who signed it is not established (SOL004 §5.1 leaves trust to the consumer's CAs).
    /// A note, not an error.
    SignerNotTrusted = "signer-not-trusted", Warning, "a signature verified, but no trust root was given to check its signer" {
        wrong: "\
puccini-rs csar validate package.csar
",
        right: "\
puccini-rs csar validate package.csar --trust-root vendor-ca.pem
",
    }

    /// The private key given to sign a package (`csar create --sign-key`) cannot be used: not a
    /// PEM private key (PKCS#8, PKCS#1 or SEC1), encrypted, or not the key of the certificate
    /// given with `--sign-cert` (a signature it made would not verify with that certificate).
    SigningKeyInvalid = "signing-key-invalid", Error, "the signing key cannot sign as the given certificate" {
        wrong: "\
puccini-rs csar create pkg -o pkg.csar --sign-key bob.key --sign-cert alice.pem
",
        right: "\
puccini-rs csar create pkg -o pkg.csar --sign-key alice.key --sign-cert alice.pem
",
    }

    /// A zip of security option 2 (SOL004 §5.1: the CSAR, a CMS signature of it named like it
    /// with `.cms`, and the signer's certificate with `.cert`) lacks its signature or its
    /// certificate, so the CSAR inside cannot be verified. SOL004 §5.1 requires both beside
    /// the CSAR.
    SignedPackageIncomplete = "signed-package-incomplete", Error, "a signed package zip lacks its signature or certificate" {
        wrong: "\
package.zip: package.csar, package.cert
",
        right: "\
package.zip: package.csar, package.cms, package.cert
",
    }

    /// A package carries signing material without the signature it belongs to: a manifest
    /// entry's `Certificate` without a `Signature`, or, in a manifest without a
    /// `-----BEGIN CMS-----` block, an `ETSI-Entry-Certificate` in TOSCA.meta or artifacts with
    /// their own `Signature`. SOL004 §5.1 option 1 signs the manifest (the certificate is the
    /// manifest signature's, §5.2; artifact signatures come in addition, §5.3), so such a package
    /// is neither signed nor plainly unsigned; ONAP's validator refuses it (R-130206, "Unable to
    /// find cms signature!").
    SignatureMissing = "signature-missing", Error, "a package has signing material but not the signature it belongs to" {
        wrong: "\
# TOSCA.meta: ETSI-Entry-Certificate: Files/vnf.cert
# vnf.mf: no -----BEGIN CMS----- block at its end
",
        right: "\
# vnf.mf ends with the CMS signature of the text before it
-----BEGIN CMS-----
...
-----END CMS-----
",
    }

    /// Several candidates in the profile folders (`--profile-path`) declare the profile an
    /// import names, version and all: two copies of one release (a CSAR beside its unpacked
    /// folder), or two different files that claim one name. cs01 6.8.2.1 says a known profile is
    /// imported and leaves open what to do with two; the first in search order is imported (the
    /// first profile folder, then path order) and the others are named, so the choice is
    /// deterministic but visible.
    AmbiguousProfile = "ambiguous-profile", Warning, "several files in the profile folders declare the imported profile" {
        wrong: "\
# profiles/core.csar and profiles/core/ (unpacked) both declare community.tosca.core:0.1
tosca_definitions_version: tosca_2_0
imports:
  - profile: community.tosca.core:0.1
",
        right: "\
# only profiles/core.csar declares community.tosca.core:0.1
tosca_definitions_version: tosca_2_0
imports:
  - profile: community.tosca.core:0.1
",
    }

    /// An inline allow (`# puccini-rs: allow(code, …)`, see the guide's "Inline allows and
    /// baselines") that suppresses nothing: no warning of its code has its primary location on
    /// the allow's line (after a value) or inside the entry of the key right below it (on its
    /// own line). Also reported, at the code as written: a name that is no problem code (with
    /// the nearest one), a code whose problems are errors (an error means the template is
    /// wrong; `--quirk` accepts a known real-world deviation as a warning and `--baseline` keeps
    /// existing problems out of a report, but an allow never hides one), and a `# puccini-rs:`
    /// comment that cannot be read. As with clippy's and ruff's unused allows, an allow left
    /// behind once its problem is fixed would otherwise hide the next one.
    UnusedAllow = "unused-allow", Warning, "an inline allow that suppresses nothing" {
        wrong: "\
tosca_definitions_version: tosca_2_0
data_types:
  Settings:
    properties:
      # puccini-rs: allow(default-not-required)
      retries:
        type: integer
        default: 3
",
        right: "\
tosca_definitions_version: tosca_2_0
data_types:
  Settings:
    properties:
      # puccini-rs: allow(default-not-required)
      retries:
        type: integer
        required: false
        default: 3
",
    }

    /// A state document (`puccini-rs evaluate --state`, day 2) names a node template,
    /// capability, requirement, attribute, interface or operation that the compiled topology
    /// does not have: the running system reports something the service does not describe, or a
    /// name is misspelt. The entry is left out and the help names the nearest existing name.
    /// (TOSCA defines no state document; an attribute is "the actual state of some property of
    /// a running instance", 1.3 3.6.12, so only names the template declares can hold one.) The
    /// examples are state documents for a topology whose node template `server` is a
    /// `tosca.nodes.Compute`.
    UnknownStateEntry = "unknown-state-entry", Error, "a state document names something the topology does not have" {
        wrong: "\
nodes:
  server:
    attributes:
      public_adress: 10.0.0.5
",
        right: "\
nodes:
  server:
    attributes:
      public_address: 10.0.0.5
",
    }
}
