use tosca_derive::Entity;

#[derive(Entity)]
#[tosca(entity = "thing")]
enum Thing {
    One,
    Two,
}

fn main() {}
