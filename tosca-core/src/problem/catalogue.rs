//! The catalogue of problem codes: one entry per defect, with its default severity, a one-line
//! summary and an explanation with a wrong and a right example. `puccini-rs explain CODE` and the
//! documentation are generated from this table, so a code cannot exist without its page.

use super::Severity;

macro_rules! catalogue {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident = $name:literal, $severity:ident, $summary:literal;
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

            /// The long explanation, in Markdown.
            pub fn explanation(self) -> &'static str {
                match self { $(Code::$variant => concat!($($doc, "\n"),*),)* }
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

catalogue! {
    /// The file is not well-formed YAML, so nothing in it past the error can be read.
    ///
    /// Wrong: `properties: { a: 1` (unclosed flow mapping). Right: `properties: { a: 1 }`.
    YamlSyntax = "yaml-syntax", Error, "the file is not well-formed YAML";

    /// A mapping has the same key twice. YAML forbids it and TOSCA would silently lose one value.
    ///
    /// Wrong: `properties: {a: 1, a: 2}`. Right: `properties: {a: 1, b: 2}`.
    DuplicateKey = "duplicate-key", Error, "a mapping has the same key twice";

    /// Aliases expand into more nodes than the reader allows (a "billion laughs" document).
    ///
    /// Wrong: nine levels of aliases each repeating the previous nine times. Right: write the
    /// values out, or use fewer aliases.
    AliasLimit = "alias-limit", Error, "aliases expand into too many nodes";

    /// The document nests deeper than the reader allows.
    ///
    /// Wrong: ten thousand nested `[`. Right: a flatter structure.
    NestingTooDeep = "nesting-too-deep", Error, "the document nests too deeply";

    /// A value has the wrong YAML kind for its place: a list where a map is expected, and so on.
    ///
    /// Wrong: `properties: [a, b]`. Right: `properties: {a: {type: string}}`.
    WrongKind = "wrong-kind", Error, "a value has the wrong YAML kind";

    /// A keyname that the grammar of this entity does not define.
    ///
    /// Wrong: `node_types: {A: {propreties: {}}}`. Right: `properties`.
    UnknownKey = "unknown-key", Error, "a keyname the grammar does not define";

    /// A keyname the grammar requires is absent.
    ///
    /// Wrong: a node template without `type`. Right: `web: {type: tosca.nodes.WebServer}`.
    MissingKey = "missing-key", Error, "a required keyname is missing";

    /// A keyword value is not one the grammar allows (a bad range, a negative bound, an unknown
    /// enumeration value).
    ///
    /// Wrong: `occurrences: [2, 1]`. Right: `occurrences: [1, 2]`.
    InvalidValue = "invalid-value", Error, "a grammar value is not allowed here";

    /// `tosca_definitions_version` is missing or names a version this compiler does not know.
    ///
    /// Wrong: `tosca_definitions_version: tosca_simple_yaml_1_9`. Right: `tosca_simple_yaml_1_3`.
    UnsupportedVersion = "unsupported-version", Error, "missing or unknown tosca_definitions_version";

    /// A file or import could not be read.
    ///
    /// Wrong: `imports: [missing.yaml]` with no such file. Right: a path relative to the
    /// importing file that exists.
    ImportFailed = "import-failed", Error, "an imported file could not be read";

    /// Files import each other in a loop. The loop is broken where it closes.
    ///
    /// Wrong: `a.yaml` imports `b.yaml`, which imports `a.yaml`. Right: move the shared types into
    /// a third file both import.
    ImportLoop = "import-loop", Warning, "files import each other in a loop";

    /// A file imports a file of the other TOSCA grammar family: TOSCA 2.0 and the Simple Profile
    /// 1.x versions share no types and read keynames differently, so they cannot be mixed. Files
    /// of different 1.x versions may import each other; each is read with its own grammar.
    ///
    /// Wrong: a `tosca_2_0` file importing a `tosca_simple_yaml_1_3` file. Right: import a 2.0
    /// version of the same definitions.
    ImportVersionMismatch = "import-version-mismatch", Error, "an import mixes TOSCA 1.x and 2.0";

    /// A type name that is not defined in this file or anything it imports.
    ///
    /// Wrong: `type: tosca.nodes.Compte`. Right: `type: tosca.nodes.Compute`.
    TypeNotFound = "type-not-found", Error, "a referenced type does not exist";

    /// A reference to a template, input or other named entity that does not exist.
    ///
    /// Wrong: `targets: [missing_node]`. Right: the name of a node template in the topology.
    NameNotFound = "name-not-found", Error, "a referenced name does not exist";

    /// Two entities of the same kind have the same name, so references to it are ambiguous.
    ///
    /// Wrong: two imported files both define `my.nodes.Server` differently. Right: import one
    /// of them with a `namespace_prefix`.
    DuplicateName = "duplicate-name", Error, "two definitions have the same name";

    /// A TOSCA 2.0 file defines a type with the same name as one it imports into its root
    /// namespace. The file's own definition is used; the imported one is hidden.
    ///
    /// Wrong: `imports: [types.yaml]` where `types.yaml` defines `Server`, and `node_types:
    /// { Server: … }` in the importing file. Right: `imports: [{url: types.yaml, namespace:
    /// lib}]`, then `lib:Server` names the imported one.
    ShadowedImport = "shadowed-import", Warning, "a definition hides an imported one of the same name";

    /// A type derives from itself, directly or through its ancestors.
    ///
    /// Wrong: `A: {derived_from: B}`, `B: {derived_from: A}`. Right: a chain that ends at a root.
    DerivationLoop = "derivation-loop", Error, "a type derives from itself";

    /// Types depend on each other in a way that cannot be completed (for example a data type
    /// whose property has a default of its own type).
    ///
    /// Wrong: `A: {derived_from: B}` where `B` needs `A` complete first. Right: break the cycle.
    DependencyCycle = "dependency-cycle", Error, "types depend on each other in a cycle";

    /// A definition in a derived type breaks the contract of the definition it refines (an
    /// incompatible type, a required property made optional, a different entity kind).
    ///
    /// Wrong: parent `port: {type: integer}`, child `port: {type: string}`. Right: the same type
    /// or one derived from it.
    IncompatibleOverride = "incompatible-override", Error, "a refinement breaks its parent's contract";

    /// A template assigns something its type does not declare.
    ///
    /// Wrong: `properties: {colour: red}` when the node type has no `colour` property.
    /// Right: declare the property in the type, or remove the assignment.
    UndeclaredAssignment = "undeclared-assignment", Error, "an assignment the type does not declare";

    /// A required property, input or other value has no value and no default.
    ///
    /// Wrong: a node template without the required property `port`. Right: `properties: {port: 80}`.
    MissingValue = "missing-value", Error, "a required value is missing";

    /// A required input of the service has no value and no default. The template itself is
    /// valid, so this is a warning; an orchestrator must supply the value when it deploys, and
    /// the topology shows the input as null until then.
    ///
    /// Wrong: compiling a template with `inputs: { port: { type: integer } }` and no `--input
    /// port=…`. Right: `puccini-rs compile service.yaml --input port=8080`, or a `default`.
    MissingInput = "missing-input", Warning, "a required input has no value";

    /// A value does not fit its declared data type.
    ///
    /// Wrong: `port: "eighty"` for an `integer`. Right: `port: 80`.
    WrongValueType = "wrong-value-type", Error, "a value does not fit its declared type";

    /// A template is used where its type is not allowed: a group member whose node type is not
    /// in the group type's `members`, a policy target not in the policy type's `targets`.
    ///
    /// Wrong: a group type with `members: [WebServer]` and a `Database` member. Right: a
    /// member whose type is or derives from `WebServer`.
    TypeNotAllowed = "type-not-allowed", Error, "a template's type is not allowed here";

    /// A value breaks a constraint clause of its definition or of its data type.
    ///
    /// Wrong: `port: 70000` for a property with `constraints: [ in_range: [ 1, 65535 ] ]`.
    /// Right: `port: 8080`.
    ConstraintViolated = "constraint-violated", Error, "a value breaks a constraint";

    /// A requirement is assigned fewer or more times than its `occurrences` allow.
    ///
    /// Wrong: a requirement with `occurrences: [2, 2]` assigned once. Right: assign it twice.
    RequirementOccurrences = "requirement-occurrences", Error, "a requirement is assigned too few or too many times";

    /// A keyname that the spec deprecates or that this version ignores.
    ///
    /// Wrong: `constraints` in TOSCA 2.0. Right: `validation`.
    Deprecated = "deprecated", Warning, "a deprecated or ignored construct";
}
