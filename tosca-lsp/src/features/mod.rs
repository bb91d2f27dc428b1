//! The language features, each a function from a request's parameters and the open document
//! (with its latest compilation) to the response. Two leaves serve them all: `context` (what a
//! feature is given, [`Context`]) and `tree` (where things are in the document as written);
//! this file only declares and re-exports.

mod allow_here;
mod code_action;
mod completion;
mod context;
mod definition;
mod function_hover;
mod hover;
mod keyname;
mod name_completion;
mod references;
mod resolve;
mod symbols;
mod tree;
mod type_completion;

pub(crate) use code_action::{ACCEPT_QUIRK, code_action};
pub(crate) use completion::completion;
pub(crate) use context::{Context, HasUri};
pub(crate) use definition::definition;
pub(crate) use hover::hover;
pub(crate) use symbols::symbols;
