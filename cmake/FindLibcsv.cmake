# FindLibcsv.cmake - libcsv ships no pkg-config file on Debian (libcsv-dev 3.0.3).
find_path(LIBCSV_INCLUDE_DIR csv.h)
find_library(LIBCSV_LIBRARY NAMES csv)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Libcsv DEFAULT_MSG LIBCSV_LIBRARY LIBCSV_INCLUDE_DIR)
if(Libcsv_FOUND AND NOT TARGET Libcsv::Libcsv)
  add_library(Libcsv::Libcsv UNKNOWN IMPORTED)
  set_target_properties(Libcsv::Libcsv PROPERTIES
    IMPORTED_LOCATION "${LIBCSV_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${LIBCSV_INCLUDE_DIR}")
endif()
