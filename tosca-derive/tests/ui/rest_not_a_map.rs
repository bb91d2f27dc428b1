use tosca_core::source::Located;
use tosca_derive::Entity;

#[derive(Entity)]
#[tosca(entity = "thing")]
struct Thing {
    #[tosca(rest(until = "1.2"))]
    operations: Vec<Located<String>>,
    #[tosca(rest)]
    others: tosca_core::IndexMap<String, Located<String>>,
}

fn main() {}
