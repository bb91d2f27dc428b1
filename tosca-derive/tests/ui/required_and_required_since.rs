use tosca_core::source::Located;
use tosca_derive::Entity;

#[derive(Entity)]
#[tosca(entity = "thing")]
struct Thing {
    #[tosca(required, required_since = "2.0")]
    name: Option<Located<String>>,
    #[tosca(required_since = "4.0")]
    other: Option<Located<String>>,
}

fn main() {}
