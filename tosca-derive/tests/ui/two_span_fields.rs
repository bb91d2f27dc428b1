use tosca_core::source::Span;
use tosca_derive::Entity;

#[derive(Entity)]
#[tosca(entity = "thing")]
struct Thing {
    #[tosca(span)]
    span: Span,
    #[tosca(span)]
    position: Span,
}

fn main() {}
