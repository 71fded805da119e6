//! Keeping glslang initialized in the emulation layers, so that its
//! built-in symbol tables are built once per process instead of once per
//! shader.
//!
//! The ML emulation layer (0.11) compiles GLSL with a static copy of glslang
//! at every pipeline creation, and wraps every compile in
//! `glslang_initialize_process()` / `glslang_finalize_process()`. glslang's
//! process initialization is reference counted: the shared built-in symbol
//! tables (every built-in declaration parsed) are freed when the count drops
//! back to zero, so each compile parses them all again, which is most of the
//! layer's time on lavapipe. One extra `glslang_initialize_process()` that
//! is never finalized keeps the count above zero and the tables alive; the
//! compiled shaders are the same.
//!
//! The function is local to each layer library (`t` in `nm`, not exported),
//! so it is found in the library file's ELF symbol table and called at the
//! library's load base plus the symbol's value. Only a `STT_FUNC` symbol
//! defined in an executable section, inside an executable segment of the
//! loaded copy, is called.
//!
//! Two ways in: [`keep_initialized_here`] for a process that has the
//! libraries loaded already (the `vulkan` worker, after its device is
//! created), and [`Preload`] for a process started by someone else's code
//! (scenario-runner): the `spvgraph-glslang-keep` shim is preloaded into it
//! and calls the function when the Vulkan loader `dlopen`s a library this
//! process named, at the offset computed here. [`KEEP_VARIABLE`]`=0` turns
//! both off.

use object::elf;
use object::read::elf::{FileHeader, ProgramHeader as _, SectionHeader as _, Sym as _};
use object::read::{ReadCache, ReadRef};
use object::{Endianness, FileKind};
use std::ffi::{c_int, c_void, CStr, OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The function that keeps glslang's process state alive while its count
/// of clients is above zero.
pub const INITIALIZE: &str = "glslang_initialize_process";

/// `SPVGRAPH_KEEP_GLSLANG=0` turns keeping glslang initialized off (for a
/// side-by-side measurement of the layer's own behaviour); anything else, or
/// nothing, leaves it on.
pub const KEEP_VARIABLE: &str = "SPVGRAPH_KEEP_GLSLANG";

/// The shim's file name (`cargo build --release --workspace` puts it next to
/// `spvgraph`).
pub const SHIM_FILE: &str = "libspvgraph_glslang_keep.so";

/// Names the shim explicitly, instead of looking beside the running executable.
pub const SHIM_VARIABLE: &str = "SPVGRAPH_GLSLANG_KEEP_SHIM";

/// What the shim reads: one line per library, the offset of
/// [`INITIALIZE`] from the load base in hexadecimal, one space, the
/// library's path.
pub const TARGETS_VARIABLE: &str = "SPVGRAPH_GLSLANG_KEEP_AT";

/// When set, the shim appends a line per library it initialized (`kept
/// PATH`) or refused (`refused PATH: why`) to this file.
pub const LOG_VARIABLE: &str = "SPVGRAPH_GLSLANG_KEEP_LOG";

/// Whether [`KEEP_VARIABLE`] leaves keeping glslang initialized on (the default).
pub fn enabled_by_env() -> bool {
    !matches!(
        std::env::var(KEEP_VARIABLE).map(|v| v.trim().to_ascii_lowercase()).as_deref(),
        Ok("0" | "false" | "off" | "no")
    )
}

/// A `PT_LOAD` program header: where a piece of the file is mapped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    /// `p_offset`.
    pub offset: u64,
    /// `p_vaddr`, relative to the load base.
    pub vaddr: u64,
    /// `p_memsz`.
    pub memsz: u64,
    /// `p_flags` (`PF_X` = 1, `PF_W` = 2, `PF_R` = 4).
    pub flags: u32,
}

impl Segment {
    /// Whether `address` (relative to the load base) is inside this segment
    /// and the segment is executable.
    pub fn runs(&self, address: u64) -> bool {
        self.flags & elf::PF_X != 0 && address >= self.vaddr && address - self.vaddr < self.memsz
    }
}

/// A function found in an ELF file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    /// The symbol's value: its address relative to the load base.
    pub offset: u64,
    /// The file's `PT_LOAD` segments, to compare with a loaded copy.
    pub loads: Vec<Segment>,
}

/// What an ELF file says about a symbol name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// A function defined in an executable section.
    Function(Function),
    /// No definition of that name.
    Absent,
    /// A definition that must not be called, and why.
    Refused(String),
}

/// Looks `name` up in the ELF file at `path`: its `.symtab` (local and
/// global symbols), or its `.dynsym` when it has no `.symtab` (a stripped
/// library). Reads only the headers and the symbol and string tables. `Err`
/// when the file cannot be read or is not ELF.
pub fn find_function(path: &Path, name: &str) -> Result<Lookup, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let cache = ReadCache::new(file);
    find_in(&cache, name).map_err(|e| format!("{}: {e}", path.display()))
}

/// [`find_function`] on an ELF image in `data`.
pub fn find_in<'d, R: ReadRef<'d>>(data: R, name: &str) -> Result<Lookup, String> {
    match FileKind::parse(data).map_err(|e| e.to_string())? {
        FileKind::Elf64 => find_elf::<elf::FileHeader64<Endianness>, R>(data, name.as_bytes()),
        FileKind::Elf32 => find_elf::<elf::FileHeader32<Endianness>, R>(data, name.as_bytes()),
        other => Err(format!("not an ELF file ({other:?})")),
    }
}

fn find_elf<'d, Elf: FileHeader<Endian = Endianness>, R: ReadRef<'d>>(data: R, name: &[u8]) -> Result<Lookup, String> {
    let bad = |what: &str, e: object::Error| format!("{what}: {e}");
    let header = Elf::parse(data).map_err(|e| bad("ELF header", e))?;
    let endian = header.endian().map_err(|e| bad("ELF header", e))?;
    let sections = header.section_headers(endian, data).map_err(|e| bad("section headers", e))?;
    let loads: Vec<Segment> = header
        .program_headers(endian, data)
        .map_err(|e| bad("program headers", e))?
        .iter()
        .filter(|p| p.p_type(endian) == elf::PT_LOAD)
        .map(|p| Segment {
            offset: p.p_offset(endian).into(),
            vaddr: p.p_vaddr(endian).into(),
            memsz: p.p_memsz(endian).into(),
            flags: p.p_flags(endian),
        })
        .collect();
    let mut refused = None;
    // `.dynsym` holds a subset of `.symtab`: it is read only when the file
    // was stripped of `.symtab`.
    for kind in [elf::SHT_SYMTAB, elf::SHT_DYNSYM] {
        let tables: Vec<&Elf::SectionHeader> = sections.iter().filter(|s| s.sh_type(endian) == kind).collect();
        for table in &tables {
            let symbols: &[Elf::Sym] = table.data_as_array(endian, data).map_err(|_| "a symbol table".to_string())?;
            let strings = sections
                .get(table.sh_link(endian) as usize)
                .ok_or_else(|| {
                    format!("a symbol table links to section {}, which is not there", table.sh_link(endian))
                })?
                .data(endian, data)
                .map_err(|_| "a string table".to_string())?;
            for sym in symbols {
                if !named(strings, sym.st_name(endian), name) || sym.st_shndx(endian) == elf::SHN_UNDEF {
                    continue;
                }
                match callable::<Elf>(sym, endian, sections, &loads, name) {
                    Ok(offset) => return Ok(Lookup::Function(Function { offset, loads })),
                    Err(why) => refused = Some(why),
                }
            }
        }
        if !tables.is_empty() {
            break;
        }
    }
    Ok(refused.map_or(Lookup::Absent, Lookup::Refused))
}

/// Whether the NUL-terminated string at `at` in `strings` is `name`.
fn named(strings: &[u8], at: u32, name: &[u8]) -> bool {
    let at = at as usize;
    let Some(end) = at.checked_add(name.len()) else { return false };
    strings.get(at..end) == Some(name) && strings.get(end) == Some(&0)
}

/// The symbol's value when it is a function defined in an executable
/// section and inside an executable segment; else why not.
fn callable<Elf: FileHeader<Endian = Endianness>>(
    sym: &Elf::Sym,
    endian: Endianness,
    sections: &[Elf::SectionHeader],
    loads: &[Segment],
    name: &[u8],
) -> Result<u64, String> {
    let name = String::from_utf8_lossy(name);
    let kind = sym.st_type();
    if kind != elf::STT_FUNC {
        let what = match kind {
            elf::STT_NOTYPE => "an untyped symbol",
            elf::STT_OBJECT => "a data object",
            elf::STT_GNU_IFUNC => "an indirect function (its value is a resolver)",
            elf::STT_TLS => "a thread-local variable",
            _ => "not a function",
        };
        return Err(format!("{name} is {what} (symbol type {kind}), not a function"));
    }
    let index = sym.st_shndx(endian);
    if index >= elf::SHN_LORESERVE {
        return Err(format!("{name} is in the reserved section index {index:#x}"));
    }
    let section =
        sections.get(usize::from(index)).ok_or_else(|| format!("{name} is in section {index}, which is not there"))?;
    let flags: u64 = section.sh_flags(endian).into();
    if flags & u64::from(elf::SHF_EXECINSTR) == 0 {
        return Err(format!("{name} is in section {index}, which is not executable"));
    }
    let value: u64 = sym.st_value(endian).into();
    if !loads.iter().any(|s| s.runs(value)) {
        return Err(format!("{name} at {value:#x} is outside every executable segment"));
    }
    Ok(value)
}

/// A shared object loaded in this process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadedObject {
    /// The path it was loaded from (as the dynamic linker names it).
    pub path: PathBuf,
    /// The load base: what a symbol's value is relative to.
    pub base: u64,
    /// Its `PT_LOAD` segments as loaded.
    pub loads: Vec<Segment>,
}

/// Every shared object loaded in this process that has a path (not the
/// executable itself, not the vDSO).
pub fn loaded_objects() -> Vec<LoadedObject> {
    let mut out: Vec<LoadedObject> = Vec::new();
    // SAFETY: the callback only reads what the dynamic linker hands it for
    // the duration of the call, and `out` outlives the iteration.
    unsafe { libc::dl_iterate_phdr(Some(visit), (&mut out as *mut Vec<LoadedObject>).cast::<c_void>()) };
    out
}

unsafe extern "C" fn visit(info: *mut libc::dl_phdr_info, _size: libc::size_t, data: *mut c_void) -> c_int {
    // SAFETY: `data` is the vector `loaded_objects` passed; `info` is valid
    // for this call, with `dlpi_phnum` headers at `dlpi_phdr`.
    let (out, info) = unsafe { (&mut *data.cast::<Vec<LoadedObject>>(), &*info) };
    if info.dlpi_name.is_null() {
        return 0;
    }
    // SAFETY: a NUL-terminated name owned by the dynamic linker.
    let name = unsafe { CStr::from_ptr(info.dlpi_name) }.to_bytes();
    if !name.starts_with(b"/") {
        return 0;
    }
    let headers = if info.dlpi_phdr.is_null() {
        &[][..]
    } else {
        // SAFETY: as above.
        unsafe { std::slice::from_raw_parts(info.dlpi_phdr, usize::from(info.dlpi_phnum)) }
    };
    let loads = headers
        .iter()
        .filter(|p| p.p_type == elf::PT_LOAD)
        .map(|p| Segment { offset: p.p_offset, vaddr: p.p_vaddr, memsz: p.p_memsz, flags: p.p_flags })
        .collect();
    out.push(LoadedObject { path: PathBuf::from(OsStr::from_bytes(name)), base: info.dlpi_addr, loads });
    0
}

/// What [`keep_initialized_here`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Kept {
    /// The libraries whose glslang is now kept initialized.
    pub kept: Vec<PathBuf>,
    /// Libraries that have the symbol but were not called, and why.
    pub refused: Vec<String>,
}

/// Calls [`INITIALIZE`] once in every loaded shared object whose file
/// defines it as a function (see the module documentation), and never
/// finalizes: glslang's built-in symbol tables then survive from one compile
/// to the next. Objects without it are skipped.
///
/// # Safety
///
/// Runs code of the loaded libraries: call it only where initializing their
/// glslang is safe (after they are loaded and initialized, while no thread
/// unloads libraries or compiles a shader).
pub unsafe fn keep_initialized_here() -> Kept {
    let mut kept = Kept::default();
    for object in loaded_objects() {
        let function = match find_function(&object.path, INITIALIZE) {
            Ok(Lookup::Function(f)) => f,
            Ok(Lookup::Refused(why)) => {
                kept.refused.push(format!("{}: {why}", object.path.display()));
                continue;
            }
            // A file that is gone or unreadable holds nothing to call.
            Ok(Lookup::Absent) | Err(_) => continue,
        };
        if function.loads != object.loads {
            kept.refused.push(format!(
                "{}: the file's segments differ from the loaded copy's (replaced since it was loaded?)",
                object.path.display()
            ));
            continue;
        }
        if !object.loads.iter().any(|s| s.runs(function.offset)) {
            kept.refused.push(format!("{}: {INITIALIZE} is outside the loaded code", object.path.display()));
            continue;
        }
        let Some(address) = object.base.checked_add(function.offset).and_then(|a| usize::try_from(a).ok()) else {
            kept.refused.push(format!("{}: the address overflows", object.path.display()));
            continue;
        };
        // SAFETY: `address` is a function symbol's value in an executable
        // segment of this loaded copy (whose segments match the file's);
        // glslang's C interface declares it `int glslang_initialize_process(void)`.
        let initialize = unsafe { std::mem::transmute::<usize, unsafe extern "C" fn() -> c_int>(address) };
        // SAFETY: the caller promised that initializing glslang is safe here.
        if unsafe { initialize() } == 0 {
            kept.refused.push(format!("{}: {INITIALIZE} returned 0", object.path.display()));
        } else {
            kept.kept.push(object.path);
        }
    }
    kept
}

/// File names of `paths`, sorted (load order varies), for a version line.
pub fn file_names(paths: &[PathBuf]) -> String {
    let mut names: Vec<String> = paths
        .iter()
        .map(|p| p.file_name().map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned()))
        .collect();
    names.sort();
    names.join(", ")
}

/// The shim preloaded into a consumer process that loads the layers itself,
/// and the libraries (with [`INITIALIZE`]'s offset in each) it initializes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preload {
    /// `libspvgraph_glslang_keep.so`.
    pub shim: PathBuf,
    /// Each library and the offset of its [`INITIALIZE`].
    pub targets: Vec<(PathBuf, u64)>,
    /// Where the shim reports what it did ([`LOG_VARIABLE`]); `None`: where
    /// the inherited environment says, if anywhere.
    pub log: Option<PathBuf>,
}

impl Preload {
    /// The shim ([`find_shim`]) for `libraries`: each must define
    /// [`INITIALIZE`] as a function; `Err` says which does not, or where the
    /// shim was looked for.
    pub fn for_libraries(libraries: &[PathBuf]) -> Result<Preload, String> {
        let shim = find_shim()?;
        let mut targets = Vec::new();
        for lib in libraries {
            if lib.as_os_str().as_bytes().contains(&b'\n') {
                return Err(format!("{}: a path with a newline cannot be passed to the shim", lib.display()));
            }
            match find_function(lib, INITIALIZE)? {
                Lookup::Function(f) => targets.push((lib.clone(), f.offset)),
                Lookup::Absent => return Err(format!("{}: no {INITIALIZE}", lib.display())),
                Lookup::Refused(why) => return Err(format!("{}: {why}", lib.display())),
            }
        }
        Ok(Preload { shim, targets, log: None })
    }

    /// [`TARGETS_VARIABLE`]'s value.
    pub fn targets_text(&self) -> OsString {
        let mut text = OsString::new();
        for (lib, offset) in &self.targets {
            text.push(format!("{offset:x} "));
            text.push(lib);
            text.push("\n");
        }
        text
    }

    /// Preloads the shim into `cmd` (after any `LD_PRELOAD` it inherits) and
    /// tells it the targets and the log.
    pub fn apply(&self, cmd: &mut Command) {
        let mut preload = OsString::from(self.shim.as_os_str());
        let inherited = cmd
            .get_envs()
            .find(|(k, _)| *k == "LD_PRELOAD")
            .map(|(_, v)| v.map(OsStr::to_os_string))
            .unwrap_or_else(|| std::env::var_os("LD_PRELOAD"));
        if let Some(before) = inherited.filter(|v| !v.is_empty()) {
            let mut joined = before;
            joined.push(":");
            joined.push(&preload);
            preload = joined;
        }
        cmd.env("LD_PRELOAD", preload).env(TARGETS_VARIABLE, self.targets_text());
        // Without a log of its own, one the user set is inherited.
        if let Some(log) = &self.log {
            cmd.env(LOG_VARIABLE, log);
        }
    }
}

/// The shim: `$SPVGRAPH_GLSLANG_KEEP_SHIM`, else [`SHIM_FILE`] beside the
/// running executable or in the directory above it (a test or an example
/// in `target/<profile>/deps` or `target/<profile>/examples`).
pub fn find_shim() -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os(SHIM_VARIABLE) {
        let p = PathBuf::from(p);
        return if p.is_file() { Ok(p) } else { Err(format!("{SHIM_VARIABLE}={}: no such file", p.display())) };
    }
    let exe = std::env::current_exe().map_err(|e| format!("cannot find the running executable: {e}"))?;
    shim_beside(&exe).ok_or_else(|| {
        format!("no {SHIM_FILE} beside {} (build it: cargo build --release -p spvgraph-glslang-keep)", exe.display())
    })
}

fn shim_beside(exe: &Path) -> Option<PathBuf> {
    let dir = exe.parent()?;
    [Some(dir), dir.parent()].into_iter().flatten().map(|d| d.join(SHIM_FILE)).find(|p| p.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tiny ELF64 shared object: `.text` (executable) at 0x1000, `.data`
    /// at 0x2000, symbols given as (name, type, section index, value), in
    /// `.symtab` or `.dynsym`.
    fn elf(symbols: &[(&str, u8, u16, u64)], table: u32) -> Vec<u8> {
        const EHSIZE: usize = 64;
        const PHSIZE: usize = 56;
        const SHSIZE: usize = 64;
        let shstr = b"\0.text\0.data\0.symtab\0.strtab\0.shstrtab\0";
        let (n_text, n_data, n_sym, n_str, n_shstr) = (1u32, 7u32, 13u32, 21u32, 29u32);
        let mut strtab = vec![0u8];
        let mut syms = vec![0u8; 24];
        for (name, kind, shndx, value) in symbols {
            let at = strtab.len() as u32;
            strtab.extend_from_slice(name.as_bytes());
            strtab.push(0);
            syms.extend_from_slice(&at.to_le_bytes());
            syms.push(*kind); // STB_LOCAL << 4 | type
            syms.push(0);
            syms.extend_from_slice(&shndx.to_le_bytes());
            syms.extend_from_slice(&value.to_le_bytes());
            syms.extend_from_slice(&16u64.to_le_bytes());
        }
        // Layout: header, 2 program headers, text, data, symtab, strtab, shstrtab, section headers.
        let text_off = 0x1000usize;
        let data_off = 0x2000usize;
        let sym_off = 0x3000usize;
        let str_off = sym_off + syms.len();
        let shstr_off = str_off + strtab.len();
        let sh_off = (shstr_off + shstr.len() + 7) & !7;
        let mut f = vec![0u8; sh_off + 6 * SHSIZE];
        f[..4].copy_from_slice(b"\x7fELF");
        f[4] = 2; // 64-bit
        f[5] = 1; // little-endian
        f[6] = 1;
        let put16 = |f: &mut Vec<u8>, at: usize, v: u16| f[at..at + 2].copy_from_slice(&v.to_le_bytes());
        let put32 = |f: &mut Vec<u8>, at: usize, v: u32| f[at..at + 4].copy_from_slice(&v.to_le_bytes());
        let put64 = |f: &mut Vec<u8>, at: usize, v: u64| f[at..at + 8].copy_from_slice(&v.to_le_bytes());
        put16(&mut f, 16, 3); // ET_DYN
        put16(&mut f, 18, 62); // EM_X86_64
        put32(&mut f, 20, 1);
        put64(&mut f, 32, EHSIZE as u64); // e_phoff
        put64(&mut f, 40, sh_off as u64); // e_shoff
        put16(&mut f, 52, EHSIZE as u16);
        put16(&mut f, 54, PHSIZE as u16);
        put16(&mut f, 56, 2);
        put16(&mut f, 58, SHSIZE as u16);
        put16(&mut f, 60, 6);
        put16(&mut f, 62, 5); // e_shstrndx
        for (i, (off, flags)) in
            [(text_off, elf::PF_R | elf::PF_X), (data_off, elf::PF_R | elf::PF_W)].iter().enumerate()
        {
            let p = EHSIZE + i * PHSIZE;
            put32(&mut f, p, elf::PT_LOAD);
            put32(&mut f, p + 4, *flags);
            put64(&mut f, p + 8, *off as u64);
            put64(&mut f, p + 16, *off as u64);
            put64(&mut f, p + 24, *off as u64);
            put64(&mut f, p + 32, 0x100);
            put64(&mut f, p + 40, 0x100);
        }
        f[sym_off..sym_off + syms.len()].copy_from_slice(&syms);
        f[str_off..str_off + strtab.len()].copy_from_slice(&strtab);
        f[shstr_off..shstr_off + shstr.len()].copy_from_slice(shstr);
        // (name, type, flags, offset/address, size, link, entsize)
        let headers: [(u32, u32, u64, usize, usize, u32, u64); 5] = [
            (n_text, elf::SHT_PROGBITS, u64::from(elf::SHF_ALLOC | elf::SHF_EXECINSTR), text_off, 0x100, 0, 0),
            (n_data, elf::SHT_PROGBITS, u64::from(elf::SHF_ALLOC | elf::SHF_WRITE), data_off, 0x100, 0, 0),
            (n_sym, table, 0, sym_off, syms.len(), 4, 24),
            (n_str, elf::SHT_STRTAB, 0, str_off, strtab.len(), 0, 0),
            (n_shstr, elf::SHT_STRTAB, 0, shstr_off, shstr.len(), 0, 0),
        ];
        for (i, (name, kind, flags, off, size, link, entsize)) in headers.iter().enumerate() {
            let s = sh_off + (i + 1) * SHSIZE;
            put32(&mut f, s, *name);
            put32(&mut f, s + 4, *kind);
            put64(&mut f, s + 8, *flags);
            put64(&mut f, s + 16, if *flags & u64::from(elf::SHF_ALLOC) != 0 { *off as u64 } else { 0 });
            put64(&mut f, s + 24, *off as u64);
            put64(&mut f, s + 32, *size as u64);
            put32(&mut f, s + 40, *link);
            put64(&mut f, s + 48, 8);
            put64(&mut f, s + 56, *entsize);
        }
        f
    }

    const TEXT: u16 = 1;
    const DATA: u16 = 2;

    #[test]
    fn a_local_function_is_found_at_its_value() {
        let image = elf(
            &[
                ("glslang_initialize_process_not", elf::STT_FUNC, TEXT, 0x1010),
                (INITIALIZE, elf::STT_FUNC, TEXT, 0x1040),
            ],
            elf::SHT_SYMTAB,
        );
        match find_in(image.as_slice(), INITIALIZE).expect("an ELF file") {
            Lookup::Function(f) => {
                assert_eq!(f.offset, 0x1040);
                assert_eq!(f.loads.len(), 2);
                assert!(f.loads[0].runs(0x1040) && !f.loads[1].runs(0x2000));
            }
            other => panic!("expected the function, got {other:?}"),
        }
        // A prefix of another name is not the name.
        assert_eq!(find_in(image.as_slice(), "glslang_initialize").expect("ELF"), Lookup::Absent);
        // .dynsym is read when there is no .symtab.
        let stripped = elf(&[(INITIALIZE, elf::STT_FUNC, TEXT, 0x1080)], elf::SHT_DYNSYM);
        assert!(matches!(
            find_in(stripped.as_slice(), INITIALIZE),
            Ok(Lookup::Function(Function { offset: 0x1080, .. }))
        ));
    }

    #[test]
    fn what_is_not_a_function_in_code_is_refused() {
        let cases = [
            (elf::STT_OBJECT, TEXT, 0x1040, "a data object"),
            (elf::STT_GNU_IFUNC, TEXT, 0x1040, "an indirect function"),
            (elf::STT_FUNC, DATA, 0x2040, "not executable"),
            (elf::STT_FUNC, TEXT, 0x1800, "outside every executable segment"),
            (elf::STT_FUNC, elf::SHN_ABS, 0x1040, "reserved section index"),
        ];
        for (kind, section, value, why) in cases {
            let image = elf(&[(INITIALIZE, kind, section, value)], elf::SHT_SYMTAB);
            match find_in(image.as_slice(), INITIALIZE) {
                Ok(Lookup::Refused(r)) => assert!(r.contains(why), "{r}"),
                other => panic!("type {kind} in section {section}: expected a refusal, got {other:?}"),
            }
        }
        // An undefined reference is no definition.
        let image = elf(&[(INITIALIZE, elf::STT_FUNC, elf::SHN_UNDEF, 0)], elf::SHT_SYMTAB);
        assert_eq!(find_in(image.as_slice(), INITIALIZE).expect("ELF"), Lookup::Absent);
    }

    #[test]
    fn what_is_not_elf_is_an_error_and_never_a_crash() {
        assert!(find_in(&b"#!/bin/sh\n"[..], INITIALIZE).is_err());
        let image = elf(&[(INITIALIZE, elf::STT_FUNC, TEXT, 0x1040)], elf::SHT_SYMTAB);
        for cut in [0, 16, 63, 64 + 56, 0x3000, image.len() - 1] {
            // Truncated images: an error or nothing, never a panic.
            let _ = find_in(&image[..cut], INITIALIZE);
        }
        assert!(find_function(Path::new("/nonexistent/lib.so"), INITIALIZE).is_err());
    }

    #[test]
    fn loaded_libraries_are_found_with_their_base_and_a_symbol_lands_on_its_address() {
        let objects = loaded_objects();
        let libc_object = objects
            .iter()
            .find(|o| o.path.file_name().is_some_and(|n| n.to_string_lossy().starts_with("libc.so")))
            .expect("libc is loaded");
        assert!(libc_object.loads.iter().any(|s| s.flags & elf::PF_X != 0), "{libc_object:?}");
        // Where the file says `getpid` is, relative to the base, is where
        // the dynamic linker resolves it.
        let f = match find_function(&libc_object.path, "getpid").expect("libc is ELF") {
            Lookup::Function(f) => f,
            other => panic!("expected getpid, got {other:?}"),
        };
        assert_eq!(f.loads, libc_object.loads);
        // SAFETY: a NUL-terminated name; the default scope.
        let resolved = unsafe { libc::dlsym(libc::RTLD_DEFAULT, c"getpid".as_ptr()) } as u64;
        assert_eq!(libc_object.base + f.offset, resolved);
    }

    #[test]
    fn the_real_layer_libraries_have_it_as_a_local_function() {
        let tools = crate::tools::Tools::discover();
        let Ok(layers) = crate::external::consumer::env::provisioned_layers(&tools) else {
            eprintln!("skipping: the emulation layers are not provisioned");
            return;
        };
        for lib in &layers.libraries {
            match find_function(lib, INITIALIZE).expect("readable") {
                Lookup::Function(f) => assert!(f.offset > 0 && f.loads.iter().any(|s| s.runs(f.offset))),
                other => panic!("{}: {other:?}", lib.display()),
            }
        }
    }

    #[test]
    fn the_shim_gets_one_line_per_library_and_keeps_an_inherited_preload() {
        let p = Preload {
            shim: PathBuf::from("/x/libspvgraph_glslang_keep.so"),
            targets: vec![(PathBuf::from("/a/libG.so"), 0x12b7d0), (PathBuf::from("/b c/libT.so"), 0xb3250)],
            log: None,
        };
        assert_eq!(p.targets_text(), OsString::from("12b7d0 /a/libG.so\nb3250 /b c/libT.so\n"));
        let mut cmd = Command::new("true");
        cmd.env("LD_PRELOAD", "/y/other.so");
        p.apply(&mut cmd);
        let preload = cmd.get_envs().find(|(k, _)| *k == "LD_PRELOAD").and_then(|(_, v)| v);
        assert_eq!(preload, Some(OsStr::new("/y/other.so:/x/libspvgraph_glslang_keep.so")));
    }

    #[test]
    fn the_shim_is_found_beside_the_executable_or_one_level_up() {
        let dir = crate::external::process::ScratchDir::new("glslang-shim-test").expect("scratch");
        let deps = dir.join("deps");
        std::fs::create_dir_all(&deps).expect("mkdir");
        assert_eq!(shim_beside(&deps.join("it-abc")), None);
        std::fs::write(dir.join(SHIM_FILE), b"").expect("w");
        assert_eq!(shim_beside(&deps.join("it-abc")), Some(dir.join(SHIM_FILE)));
        assert_eq!(shim_beside(&dir.join("spvgraph")), Some(dir.join(SHIM_FILE)));
    }
}
