use tosca_core::source::Located;
use tosca_derive::Inherit;

#[derive(Inherit)]
struct Thing {
    #[tosca(refine = "derived")]
    r#type: Option<Located<String>>,
}

fn main() {}
