use tosca_core::source::Located;
use tosca_derive::{Entity, Inherit};

#[derive(Entity, Inherit)]
#[tosca(entity = "thing", short = "kind")]
struct Thing {
    #[tosca(lookup = "node")]
    node: Option<Located<String>>,
    #[tosca(since = "0.9")]
    description: Option<Located<String>>,
    #[tosca(inherit = "replace")]
    version: Option<Located<String>>,
}

fn main() {}
