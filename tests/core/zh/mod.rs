//! The Chinese page: the extracted catalogue against the compiled-in texts, the translated
//! templates' argument order, and every Chinese text against the reviewers' glossary.

mod catalogue;
mod glossary;
mod templates;
