//! The data values of schema files: ytt's values phase reads a schema file holding data values
//! documents in its place among the values files.

use super::super::*;

/// A schema file's data values documents (each with whether code made it an empty collection),
/// or the error ytt's values phase meets reading the file.
pub(super) struct SchemaFileValues {
    /// The file's place among the inputs.
    pub(super) position: usize,
    pub(super) name: String,
    pub(super) values: Result<Vec<(Tree, bool)>, CheckError>,
    /// How many templates reading the file compiled: ytt's values phase templates the file
    /// again, and numbers the templates after it that many more.
    pub(super) templates: u32,
}

/// Adds the data values of the schema files that come before `position` among the inputs, as
/// ytt's values phase reads each in its place (templating it again: `star`'s templates count
/// it).
pub(super) fn take_schema_files_values(
    held: &mut Vec<SchemaFileValues>,
    position: usize,
    docs: &mut Documents,
    star: &Sources,
) -> Result<(), CheckError> {
    let count = held.iter().take_while(|h| h.position < position).count();
    for file in held.drain(..count) {
        star.compiled
            .fetch_add(file.templates, std::sync::atomic::Ordering::Relaxed);
        for (tree, from_code) in file.values? {
            if docs.values.is_empty() {
                docs.first_values_from_code = from_code;
            }
            docs.values.push(tree);
        }
        docs.values_files.push(file.name);
    }
    Ok(())
}
