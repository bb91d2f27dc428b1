use tosca_core::source::Located;
use tosca_derive::Entity;

struct Opaque;

#[derive(Entity)]
#[tosca(entity = "thing")]
struct Thing {
    description: Option<Located<String>>,
    opaque: Option<Opaque>,
}

fn main() {}
