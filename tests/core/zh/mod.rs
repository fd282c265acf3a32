//! The Chinese page: the extracted catalogue against the compiled-in texts, and the translated
//! templates' argument order.

mod catalogue;
mod templates;
