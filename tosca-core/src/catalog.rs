//! The catalog: every type of every file, pooled per kind, addressed by [`TypeId`].
//!
//! Types are moved out of their files' [`ServiceTemplate`](crate::entity::ServiceTemplate)s
//! into one arena per kind, in unit order, so later phases can index them densely and process
//! each kind generically through [`TypeEntity`].

use crate::collections::IndexMap;

use crate::entity::{
    ArtifactType, CapabilityType, DataType, GroupType, InterfaceType, NodeType, PolicyType, RelationshipType,
};
use crate::grammar::{Inherit, Kind, Named, References};
use crate::source::Located;

/// Index of a type in its kind's arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeId(pub u32);

impl TypeId {
    /// The index as `usize`.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A type and the unit it was defined in.
#[derive(Clone, Debug)]
pub struct Defined<T> {
    /// Index of the defining unit.
    pub unit: usize,
    /// The type.
    pub entity: T,
}

/// A type entity of some kind: what the generic phases need to know about it.
pub trait TypeEntity: Clone + Send + Sync + Inherit + Named + References + 'static {
    /// Its kind.
    const KIND: Kind;
    /// Its `derived_from`.
    fn derived_from(&self) -> Option<&Located<String>>;
    /// Its arena in a catalog.
    fn arena(catalog: &Catalog) -> &Vec<Defined<Self>>;
    /// Its arena in a catalog, mutably.
    fn arena_mut(catalog: &mut Catalog) -> &mut Vec<Defined<Self>>;
    /// The map of such types in a file.
    fn in_file(template: &mut crate::entity::ServiceTemplate) -> &mut IndexMap<String, Self>;
}

macro_rules! catalog {
    ($($field:ident: $ty:ident = $kind:ident,)*) => {
        /// Every type of every unit, one arena per kind.
        #[derive(Clone, Debug, Default)]
        pub struct Catalog {
            $(
                #[doc = concat!("Every `", stringify!($ty), "`.")]
                pub $field: Vec<Defined<$ty>>,
            )*
        }

        $(
            impl TypeEntity for $ty {
                const KIND: Kind = Kind::$kind;
                fn derived_from(&self) -> Option<&Located<String>> {
                    self.derived_from.as_ref()
                }
                fn arena(catalog: &Catalog) -> &Vec<Defined<Self>> {
                    &catalog.$field
                }
                fn arena_mut(catalog: &mut Catalog) -> &mut Vec<Defined<Self>> {
                    &mut catalog.$field
                }
                fn in_file(template: &mut crate::entity::ServiceTemplate) -> &mut IndexMap<String, Self> {
                    &mut template.$field
                }
            }
        )*

        impl Catalog {
            /// The name of a type of a kind.
            pub fn name(&self, kind: Kind, id: TypeId) -> &Located<String> {
                match kind {
                    $(Kind::$kind => self.$field[id.index()].entity.name(),)*
                }
            }

            /// The `derived_from` of a type of a kind.
            pub fn derived_from(&self, kind: Kind, id: TypeId) -> Option<&Located<String>> {
                match kind {
                    $(Kind::$kind => self.$field[id.index()].entity.derived_from(),)*
                }
            }

            /// The unit a type of a kind was defined in.
            pub fn unit(&self, kind: Kind, id: TypeId) -> usize {
                match kind {
                    $(Kind::$kind => self.$field[id.index()].unit,)*
                }
            }

            /// How many types of a kind there are.
            pub fn len(&self, kind: Kind) -> usize {
                match kind {
                    $(Kind::$kind => self.$field.len(),)*
                }
            }

            /// How many types there are of every kind together.
            pub fn total(&self) -> usize {
                0 $(+ self.$field.len())*
            }

            /// Whether the catalog has no types at all.
            pub fn is_empty(&self) -> bool {
                true $(&& self.$field.is_empty())*
            }

            /// Makes the type `to` of a kind a copy of the type `from`, its unit included: for a
            /// definition no name leads to any more, which is then compiled as the one that won
            /// its name rather than checked again on its own.
            pub fn replace_with_copy(&mut self, kind: Kind, from: TypeId, to: TypeId) {
                match kind {
                    $(Kind::$kind => self.$field[to.index()] = self.$field[from.index()].clone(),)*
                }
            }

            /// Moves the types of `template` (unit `unit`) into the arenas.
            pub fn take_from(&mut self, unit: usize, template: &mut crate::entity::ServiceTemplate) {
                $(
                    self.$field.extend(
                        std::mem::take(&mut template.$field).into_values().map(|entity| Defined { unit, entity }),
                    );
                )*
            }
        }
    };
}

catalog! {
    data_types: DataType = DataType,
    artifact_types: ArtifactType = ArtifactType,
    capability_types: CapabilityType = CapabilityType,
    interface_types: InterfaceType = InterfaceType,
    relationship_types: RelationshipType = RelationshipType,
    node_types: NodeType = NodeType,
    group_types: GroupType = GroupType,
    policy_types: PolicyType = PolicyType,
}
