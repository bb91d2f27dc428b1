use tosca_core::source::Located;
use tosca_derive::Inherit;

#[derive(Inherit)]
struct Thing {
    #[tosca(inherit = "deep")]
    description: Located<String>,
}

fn main() {}
