use tosca_core::source::Located;
use tosca_derive::Entity;

#[derive(Entity)]
#[tosca(entity = "thing")]
struct Thing {
    #[tosca(since = "1.3", until = "1.2")]
    description: Option<Located<String>>,
}

fn main() {}
