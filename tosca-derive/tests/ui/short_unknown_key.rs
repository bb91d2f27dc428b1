use tosca_core::source::Located;
use tosca_derive::Entity;

#[derive(Entity)]
#[tosca(entity = "thing", short = "r#type")]
struct Thing {
    r#type: Option<Located<String>>,
}

fn main() {}
