use tosca_derive::Entity;

#[derive(Entity)]
#[tosca(entity = "thing")]
struct Thing {
    #[tosca(name)]
    name: String,
}

fn main() {}
