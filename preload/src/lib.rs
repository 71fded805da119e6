//! `LD_PRELOAD` shim that keeps glslang initialized in the libraries a
//! process `dlopen`s (the ML emulation layers under scenario-runner); see
//! `README.md` and `oracle/src/external/consumer/glslang.rs`.
//!
//! It interposes `dlopen`: the real one (`dlsym(RTLD_NEXT, "dlopen")`)
//! opens the file; when the object it returns is one that
//! `SPVGRAPH_GLSLANG_KEEP_AT` names, the shim calls the function at the
//! object's load base (`dlinfo(RTLD_DI_LINKMAP)`'s `l_addr`) plus the offset
//! given there, provided that address lies in an executable segment of the
//! object. Every other `dlopen` passes through untouched.
//!
//! A known cost of interposing `dlopen`: glibc resolves a bare library name
//! against the calling object's `RUNPATH`, and the caller is now this shim
//! (which has none). The Vulkan loader opens layers and drivers by absolute
//! path, and neither scenario-runner nor the loader has a `RUNPATH`, so
//! nothing is found differently there.
//!
//! Nothing here may unwind into C or allocate much: it runs inside another
//! program's `dlopen` calls.

use std::ffi::{c_char, c_int, c_void, CStr};
use std::sync::atomic::{AtomicUsize, Ordering};

/// One library per line: the offset in hexadecimal, a space, the path.
const TARGETS_VARIABLE: &CStr = c"SPVGRAPH_GLSLANG_KEEP_AT";
/// A file to append what was done to.
const LOG_VARIABLE: &CStr = c"SPVGRAPH_GLSLANG_KEEP_LOG";

type DlOpen = unsafe extern "C" fn(*const c_char, c_int) -> *mut c_void;

/// The real `dlopen`, once looked up (0: not yet).
static REAL_DLOPEN: AtomicUsize = AtomicUsize::new(0);

fn real_dlopen() -> Option<DlOpen> {
    let mut address = REAL_DLOPEN.load(Ordering::Acquire);
    if address == 0 {
        // SAFETY: a NUL-terminated name; RTLD_NEXT finds the definition
        // after this object's (the C library's).
        address = unsafe { libc::dlsym(libc::RTLD_NEXT, c"dlopen".as_ptr()) } as usize;
        if address == 0 {
            return None;
        }
        REAL_DLOPEN.store(address, Ordering::Release);
    }
    // SAFETY: a non-null address of the C library's `dlopen`, whose type this is.
    Some(unsafe { std::mem::transmute::<usize, DlOpen>(address) })
}

/// `dlopen`, with glslang kept initialized in the libraries the oracle named.
///
/// # Safety
///
/// As `dlopen(3)`: `filename` is null or a NUL-terminated path.
#[no_mangle]
pub unsafe extern "C" fn dlopen(filename: *const c_char, flags: c_int) -> *mut c_void {
    let Some(real) = real_dlopen() else {
        return std::ptr::null_mut();
    };
    // SAFETY: the caller's arguments, passed on unchanged.
    let handle = unsafe { real(filename, flags) };
    if !handle.is_null() && !filename.is_null() {
        // SAFETY: a handle the real dlopen just returned.
        unsafe { keep(handle) };
    }
    handle
}

/// The leading part of glibc's `struct link_map` (the public part, `<link.h>`).
#[repr(C)]
struct LinkMap {
    l_addr: usize,
    l_name: *const c_char,
    l_ld: *mut c_void,
    l_next: *mut LinkMap,
    l_prev: *mut LinkMap,
}

/// Calls the initializer of `handle`'s object if the oracle named it.
///
/// # Safety
///
/// `handle` is a live handle from `dlopen`.
unsafe fn keep(handle: *mut c_void) {
    // SAFETY: a NUL-terminated name; the value is read before anything
    // could change the environment.
    let targets = unsafe { libc::getenv(TARGETS_VARIABLE.as_ptr()) };
    if targets.is_null() {
        return;
    }
    // SAFETY: getenv returns a NUL-terminated string.
    let targets = unsafe { CStr::from_ptr(targets) }.to_bytes();
    let mut map: *mut LinkMap = std::ptr::null_mut();
    // SAFETY: RTLD_DI_LINKMAP stores a `struct link_map *` where it is told.
    let asked = unsafe { libc::dlinfo(handle, libc::RTLD_DI_LINKMAP, (&mut map as *mut *mut LinkMap).cast()) };
    if asked != 0 || map.is_null() {
        return;
    }
    // SAFETY: the dynamic linker's record of a loaded object.
    let (base, name) = unsafe { ((*map).l_addr, (*map).l_name) };
    if name.is_null() {
        return;
    }
    // SAFETY: the object's NUL-terminated path.
    let path = unsafe { CStr::from_ptr(name) };
    let Some(loaded) = identity(path) else { return };
    let Some(offset) = parse_targets(targets).find_map(|(offset, target)| {
        let target = std::ffi::CString::new(target).ok()?;
        (identity(&target) == Some(loaded)).then_some(offset)
    }) else {
        return;
    };
    let Some(address) = usize::try_from(offset).ok().and_then(|o| base.checked_add(o)) else {
        log(path, Err("the address overflows"));
        return;
    };
    if !in_executable_segment(base, address) {
        log(path, Err("the offset is outside the object's executable segments"));
        return;
    }
    // SAFETY: `address` lies in an executable segment of this object, at the
    // value the oracle read for `glslang_initialize_process`, whose C
    // interface is `int glslang_initialize_process(void)`.
    let initialize = unsafe { std::mem::transmute::<usize, unsafe extern "C" fn() -> c_int>(address) };
    // SAFETY: the library is loaded and its constructors have run.
    if unsafe { initialize() } == 0 {
        log(path, Err("glslang_initialize_process returned 0"));
    } else {
        log(path, Ok(()));
    }
}

/// The lines of `SPVGRAPH_GLSLANG_KEEP_AT`: (offset, path); malformed lines
/// are skipped.
fn parse_targets(text: &[u8]) -> impl Iterator<Item = (u64, &[u8])> {
    text.split(|&b| b == b'\n').filter_map(|line| {
        let space = line.iter().position(|&b| b == b' ')?;
        let hex = std::str::from_utf8(&line[..space]).ok()?;
        let offset = u64::from_str_radix(hex, 16).ok()?;
        let path = &line[space + 1..];
        (!path.is_empty()).then_some((offset, path))
    })
}

/// A file's device and inode, if it exists.
fn identity(path: &CStr) -> Option<(u64, u64)> {
    let mut st = std::mem::MaybeUninit::<libc::stat>::uninit();
    // SAFETY: a NUL-terminated path and room for the result.
    if unsafe { libc::stat(path.as_ptr(), st.as_mut_ptr()) } != 0 {
        return None;
    }
    // SAFETY: stat succeeded, so it filled the structure.
    let st = unsafe { st.assume_init() };
    Some((st.st_dev, st.st_ino))
}

/// Whether `address` is inside an executable `PT_LOAD` segment of the
/// object loaded at `base`.
fn in_executable_segment(base: usize, address: usize) -> bool {
    struct Query {
        base: usize,
        address: usize,
        found: bool,
    }
    unsafe extern "C" fn visit(info: *mut libc::dl_phdr_info, _size: libc::size_t, data: *mut c_void) -> c_int {
        // SAFETY: `data` is the query; `info` is valid for this call, with
        // `dlpi_phnum` headers at `dlpi_phdr`.
        let (query, info) = unsafe { (&mut *data.cast::<Query>(), &*info) };
        if info.dlpi_addr as usize != query.base || info.dlpi_phdr.is_null() {
            return 0;
        }
        // SAFETY: as above.
        let headers = unsafe { std::slice::from_raw_parts(info.dlpi_phdr, usize::from(info.dlpi_phnum)) };
        query.found = headers.iter().any(|p| {
            let start = query.base.wrapping_add(p.p_vaddr as usize);
            p.p_type == libc::PT_LOAD
                && p.p_flags & libc::PF_X != 0
                && query.address >= start
                && query.address - start < p.p_memsz as usize
        });
        // Stop at the object: one object per base.
        1
    }
    let mut query = Query { base, address, found: false };
    // SAFETY: the callback only reads what it is handed, during the call.
    unsafe { libc::dl_iterate_phdr(Some(visit), (&mut query as *mut Query).cast()) };
    query.found
}

/// Appends `kept PATH` or `refused PATH: why` to the log file, if one is named.
fn log(path: &CStr, outcome: Result<(), &str>) {
    // SAFETY: a NUL-terminated name.
    let file = unsafe { libc::getenv(LOG_VARIABLE.as_ptr()) };
    if file.is_null() {
        return;
    }
    let mut line: Vec<u8> = Vec::with_capacity(path.to_bytes().len() + 64);
    match outcome {
        Ok(()) => line.extend_from_slice(b"kept "),
        Err(_) => line.extend_from_slice(b"refused "),
    }
    line.extend_from_slice(path.to_bytes());
    if let Err(why) = outcome {
        line.extend_from_slice(b": ");
        line.extend_from_slice(why.as_bytes());
    }
    line.push(b'\n');
    // SAFETY: a NUL-terminated path from the environment; the descriptor is
    // written once (O_APPEND: whole lines from concurrent processes) and closed.
    unsafe {
        let fd = libc::open(file, libc::O_WRONLY | libc::O_APPEND | libc::O_CREAT | libc::O_CLOEXEC, 0o644);
        if fd >= 0 {
            let _ = libc::write(fd, line.as_ptr().cast(), line.len());
            libc::close(fd);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn target_lines_are_offset_space_path_and_bad_lines_are_skipped() {
        let text = b"12b7d0 /a/libVkLayer_Graph.so\nb3250 /b c/libVkLayer_Tensor.so\nzz /x\n12\n 1 /y\n\n";
        let got: Vec<(u64, &[u8])> = parse_targets(text).collect();
        assert_eq!(got, vec![(0x12b7d0, &b"/a/libVkLayer_Graph.so"[..]), (0xb3250, &b"/b c/libVkLayer_Tensor.so"[..])]);
    }

    #[test]
    fn a_library_is_known_by_its_file_not_its_name() {
        // A symbolic link to the running executable is the executable.
        let itself = identity(c"/proc/self/exe").expect("the test executable exists");
        let exe = std::env::current_exe().expect("exe");
        let exe = std::ffi::CString::new(exe.as_os_str().as_encoded_bytes()).expect("no NUL");
        assert_eq!(identity(&exe), Some(itself));
        assert_eq!(identity(c"/nonexistent/lib.so"), None);
    }

    #[test]
    fn only_addresses_in_code_pass() {
        // This test's own code is in an executable segment of the
        // executable (base: its load bias); its data is not.
        let exe_base = {
            struct First(usize);
            unsafe extern "C" fn first(info: *mut libc::dl_phdr_info, _: libc::size_t, data: *mut c_void) -> c_int {
                // SAFETY: as in `in_executable_segment`.
                unsafe { (*data.cast::<First>()).0 = (*info).dlpi_addr as usize };
                1
            }
            let mut f = First(0);
            // SAFETY: the callback writes the first object's (the executable's) base.
            unsafe { libc::dl_iterate_phdr(Some(first), (&mut f as *mut First).cast()) };
            f.0
        };
        let code = only_addresses_in_code_pass as *const () as usize;
        assert!(in_executable_segment(exe_base, code));
        static DATA: [u8; 4] = [1, 2, 3, 4];
        assert!(!in_executable_segment(exe_base, DATA.as_ptr() as usize));
        assert!(!in_executable_segment(exe_base.wrapping_add(1), code));
    }
}
