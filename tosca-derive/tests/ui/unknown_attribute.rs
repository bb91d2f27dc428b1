use tosca_core::source::Located;
use tosca_derive::Entity;

#[derive(Entity)]
#[tosca(entity = "thing")]
struct Thing {
    #[tosca(lookpu = "node_type")]
    node: Option<Located<String>>,
}

fn main() {}
