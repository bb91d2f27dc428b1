use tosca_core::source::Located;
use tosca_derive::Inherit;

#[derive(Inherit)]
struct Thing {
    #[tosca(inherit = "merge")]
    description: Option<Located<String>>,
}

fn main() {}
