use tosca_core::source::Located;
use tosca_derive::Inherit;

#[derive(Inherit)]
struct Thing {
    #[tosca(lookup = "data_type", refine = "same")]
    r#type: Option<Located<String>>,
}

fn main() {}
