use tosca_core::source::Located;
use tosca_derive::Entity;

#[derive(Entity)]
#[tosca(entity = "thing")]
struct Thing {
    #[tosca(until = "tosca_simple_yaml_1_2")]
    description: Option<Located<String>>,
}

fn main() {}
