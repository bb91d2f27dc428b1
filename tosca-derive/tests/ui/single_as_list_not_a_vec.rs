use tosca_core::yaml::Node;
use tosca_derive::Entity;

#[derive(Entity)]
#[tosca(entity = "thing")]
struct Thing {
    #[tosca(single_as_list)]
    dependencies: Option<Node>,
}

fn main() {}
