//! Third-party readers may panic on a corrupt file (the Parquet reader does): the panic is
//! caught and becomes an input error naming the reader, so that the command line and the
//! Python package print a clear message instead of crashing. (In the browser a panic aborts
//! the WebAssembly instance: the page's worker reports that it stopped.)

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};

use pseudolens_core::{Error, Result};

thread_local! {
    /// Whether this thread is inside [`contain`].
    static INSIDE: Cell<u32> = const { Cell::new(0) };
}

/// Runs `read`; a panic inside it becomes the input error `code`, its message naming the
/// `reader` and what it said.
pub fn contain<T>(reader: &str, code: &'static str, read: impl FnOnce() -> Result<T>) -> Result<T> {
    INSIDE.with(|c| c.set(c.get() + 1));
    let r = catch_unwind(AssertUnwindSafe(read));
    INSIDE.with(|c| c.set(c.get() - 1));
    r.unwrap_or_else(|payload| {
        let said = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "no reason given".into());
        Err(Error::input(code, format!("the {reader} reader stopped on this file, which may be corrupt or cut short ({said})")))
    })
}

/// Keeps the default panic message off standard error for the panics [`contain`] turns into
/// errors (any other panic is printed as before). For a program: call it once at its start.
pub fn quiet_contained_panics() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if INSIDE.with(Cell::get) == 0 {
            previous(info);
        }
    }));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_an_error_naming_the_reader() {
        let e = contain("Parquet", "unreadable_parquet", || -> Result<()> { panic!("index out of bounds") }).unwrap_err();
        assert_eq!(e.code, "unreadable_parquet");
        assert!(e.message.contains("Parquet reader") && e.message.contains("index out of bounds"), "{}", e.message);
        assert_eq!(contain("Parquet", "unreadable_parquet", || Ok(3)).unwrap(), 3);
    }
}
