use tosca_core::source::Located;
use tosca_derive::Entity;

#[derive(Entity)]
#[tosca(entity = "thing")]
struct Thing {
    r#type: Option<Located<String>>,
    #[tosca(key = "type")]
    kind: Option<Located<String>>,
}

fn main() {}
