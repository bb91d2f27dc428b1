use tosca_core::grammar::{Read, ReadContext, References};
use tosca_core::grammar::Kind;
use tosca_core::source::Located;
use tosca_core::yaml::Node;
use tosca_derive::Entity;

/// Readable, but with no default to start from when its key is absent.
struct Port(u16);

impl Read for Port {
    fn read(_: &Node, _: Option<&Located<String>>, _: &mut ReadContext<'_>) -> Option<Self> {
        Some(Port(0))
    }
}

impl References for Port {
    fn visit_references<'a>(&'a self, _: &mut dyn FnMut(Kind, &'a Located<String>)) {}
}

#[derive(Entity)]
#[tosca(entity = "thing")]
struct Thing {
    port: Port,
}

fn main() {}
