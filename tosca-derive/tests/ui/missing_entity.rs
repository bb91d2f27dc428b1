use tosca_core::source::Located;
use tosca_derive::Entity;

#[derive(Entity)]
struct Thing {
    description: Option<Located<String>>,
}

fn main() {}
