use tosca_core::source::Located;
use tosca_derive::Entity;

#[derive(Entity)]
#[tosca(entity = "thing")]
struct Thing {
    #[tosca(name)]
    name: Located<String>,
    #[tosca(name)]
    id: Located<String>,
}

fn main() {}
