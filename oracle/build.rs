//! Builds the C++ frame the `vulkan` worker calls pipeline creation through
//! (`cpp/exception_guard.cpp`): a Vulkan layer that throws out of a command
//! can only be caught from C++.

fn main() {
    println!("cargo:rerun-if-changed=cpp/exception_guard.cpp");
    cc::Build::new().cpp(true).file("cpp/exception_guard.cpp").warnings(true).compile("spvgraph_exception_guard");
}
