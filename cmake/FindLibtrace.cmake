# FindLibtrace.cmake - libtrace 3 (Debian libtrace3-dev) has no pkg-config file.
find_path(LIBTRACE_INCLUDE_DIR libtrace.h)
find_library(LIBTRACE_LIBRARY NAMES trace)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Libtrace DEFAULT_MSG LIBTRACE_LIBRARY LIBTRACE_INCLUDE_DIR)
if(Libtrace_FOUND AND NOT TARGET Libtrace::Libtrace)
  add_library(Libtrace::Libtrace UNKNOWN IMPORTED)
  set_target_properties(Libtrace::Libtrace PROPERTIES
    IMPORTED_LOCATION "${LIBTRACE_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${LIBTRACE_INCLUDE_DIR}")
endif()
