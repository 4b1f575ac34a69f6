//! Addresses to frames, inlined functions included.
//!
//! Each address is resolved with the DWARF of the running binary (`backtrace`'s symbolizer,
//! which is `addr2line` over `gimli`): one address gives the function it is in plus one frame
//! per inlined call it lies inside (`DW_TAG_inlined_subroutine`), as `addr2line -i` prints them.
//! Needs the release profile's debug info (`debug = "line-tables-only"` keeps the inline tree).

use std::collections::HashMap;
use std::ffi::c_void;
use std::rc::Rc;

/// One frame of a resolved stack.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Frame {
    /// Demangled function name without the hash suffix (`tengen::board::...::play`), or
    /// `[libc.so.6]` when only the mapping is known.
    pub name: String,
    /// Source file of the frame's current line, if known.
    pub file: Option<String>,
    /// Line in `file`: the sampled line for the innermost frame, the call site for the others.
    pub line: Option<u32>,
}

/// Resolves addresses of this process, caching every answer.
#[derive(Default)]
pub struct Symbolizer {
    cache: HashMap<usize, Rc<[Frame]>>,
    mappings: Vec<(usize, usize, String)>,
}

impl Symbolizer {
    #[must_use]
    pub fn new() -> Self {
        Self {
            cache: HashMap::new(),
            mappings: mappings(),
        }
    }

    /// The frames at instruction address `addr`, innermost (the inlined leaf) first.
    pub fn frames(&mut self, addr: usize) -> Rc<[Frame]> {
        if let Some(f) = self.cache.get(&addr) {
            return Rc::clone(f);
        }
        let mut frames = Vec::new();
        // `backtrace::resolve` looks up `addr - 1` (it expects return addresses): pass one more.
        backtrace::resolve((addr + 1) as *mut c_void, |sym| {
            let Some(name) = sym.name() else { return };
            frames.push(Frame {
                name: clean(&format!("{name:#}")),
                file: sym.filename().map(|p| p.display().to_string()),
                line: sym.lineno(),
            });
        });
        if frames.is_empty() {
            frames.push(Frame {
                name: self.mapping_name(addr),
                file: None,
                line: None,
            });
        }
        let frames: Rc<[Frame]> = frames.into();
        self.cache.insert(addr, Rc::clone(&frames));
        frames
    }

    /// The frames of a sampled address stack (the interrupted instruction, then return
    /// addresses), innermost first.
    pub fn stack(&mut self, addrs: &[usize]) -> Vec<Frame> {
        let mut out = Vec::new();
        for (i, &a) in addrs.iter().enumerate() {
            // A return address points after its call: look up the call instruction itself.
            let at = if i == 0 { a } else { a.saturating_sub(1) };
            out.extend(self.frames(at).iter().cloned());
        }
        out
    }

    /// `[file]`: the base name of the file mapped at `addr`.
    pub fn mapping_name(&self, addr: usize) -> String {
        self.mappings
            .iter()
            .find(|(lo, hi, _)| (*lo..*hi).contains(&addr))
            .map_or_else(
                || "[unknown]".to_string(),
                |(_, _, path)| {
                    let base = path.rsplit('/').next().unwrap_or(path);
                    format!("[{base}]")
                },
            )
    }
}

/// Frame names go into `;`-separated folded stacks: no `;`, no line breaks.
fn clean(name: &str) -> String {
    name.replace(';', ",").replace(['\n', '\r'], " ")
}

/// Executable mappings of this process with their file paths (or `[vdso]`-style names).
fn mappings() -> Vec<(usize, usize, String)> {
    let maps = std::fs::read_to_string("/proc/self/maps").unwrap_or_default();
    maps.lines()
        .filter_map(|line| {
            let mut f = line.split_whitespace();
            let (lo, hi) = f.next()?.split_once('-')?;
            let perms = f.next()?;
            let path = f.nth(3)?;
            perms.contains('x').then_some(())?;
            Some((
                usize::from_str_radix(lo, 16).ok()?,
                usize::from_str_radix(hi, 16).ok()?,
                path.to_string(),
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[inline(never)]
    fn marker_function_for_symbols() -> usize {
        std::hint::black_box(marker_function_for_symbols as *const () as usize)
    }

    #[test]
    fn resolves_a_function_of_this_binary() {
        let addr = marker_function_for_symbols();
        let mut s = Symbolizer::new();
        let frames = s.frames(addr);
        assert!(
            frames
                .iter()
                .any(|f| f.name.ends_with("marker_function_for_symbols")),
            "{frames:?}"
        );
        assert!(Rc::ptr_eq(&frames, &s.frames(addr)));
    }

    #[test]
    fn names_never_break_the_folded_format() {
        assert_eq!(clean("f<[u8; 4]>\n"), "f<[u8, 4]> ");
    }
}
