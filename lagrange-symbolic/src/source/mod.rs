//! Models read from files, for the command and the derive alike: a model file's `[model]`
//! table with its `[[draw]]` entries (`model_file`), a URDF robot ([`urdf`]), the bounded
//! reading of such a file, and where in a file's text an error is (`located`).

mod located;
mod model_file;
pub mod urdf;

use std::io::Read as _;
use std::path::Path;

use crate::syntax::print::escape_text;
pub use located::{item_location, item_subject, key_location, location};
pub use model_file::model_of;

/// The largest model file or URDF read, in bytes.
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// The text of the file at `path`, refused past [`MAX_FILE_BYTES`] (counted while reading,
/// so a device or a growing file cannot make it allocate without end).
pub fn read_file(path: &Path) -> Result<String, String> {
    let shown = escape_text(&path.display().to_string());
    let cannot = |e: std::io::Error| format!("cannot read `{shown}`: {e}");
    let file = std::fs::File::open(path).map_err(cannot)?;
    let mut text = String::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(cannot)?;
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(format!(
            "`{shown}` is larger than {MAX_FILE_BYTES} bytes, the limit"
        ));
    }
    Ok(text)
}
