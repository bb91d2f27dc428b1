use tosca_core::yaml::Node;
use tosca_derive::Entity;

#[derive(Entity)]
#[tosca(entity = "thing", slipped_keys = "nodes")]
struct Thing {
    node: Option<Node>,
}

fn main() {}
