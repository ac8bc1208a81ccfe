# Turns the web console's files into a C++ source of byte arrays, so the
# binary serves them itself (no files to install, works offline).
# Run as: cmake -DSOURCE_DIR=<dir> -DOUTPUT=<file.cc> -P embed_files.cmake
# Every file directly in SOURCE_DIR is embedded under its file name.
file(GLOB files RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/*)
list(SORT files)
set(arrays "")
set(entries "")
set(index 0)
foreach(name IN LISTS files)
  if(IS_DIRECTORY ${SOURCE_DIR}/${name} OR name MATCHES "^\\.|\\.md$")
    continue()
  endif()
  file(READ ${SOURCE_DIR}/${name} hex HEX)
  string(LENGTH "${hex}" hex_length)
  math(EXPR size "${hex_length} / 2")
  # One "0x.." per byte; an extra trailing zero keeps empty files valid C++.
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  if(name MATCHES "\\.html$")
    set(type "text/html; charset=utf-8")
  elseif(name MATCHES "\\.css$")
    set(type "text/css; charset=utf-8")
  elseif(name MATCHES "\\.js$")
    set(type "text/javascript; charset=utf-8")
  elseif(name MATCHES "\\.svg$")
    set(type "image/svg+xml")
  elseif(name MATCHES "\\.png$")
    set(type "image/png")
  else()
    set(type "application/octet-stream")
  endif()
  string(APPEND arrays "const unsigned char kFile${index}[] = {${bytes}0};\n")
  string(APPEND entries "      {\"${name}\", \"${type}\", Bytes(kFile${index}, ${size})},\n")
  math(EXPR index "${index} + 1")
endforeach()

file(WRITE ${OUTPUT}.tmp "// Generated from console/ by cmake/embed_files.cmake; do not edit.
#include \"server/console_assets.h\"

namespace ddb::server {
namespace {

std::string_view Bytes(const unsigned char* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

${arrays}
}  // namespace

std::span<const ConsoleAsset> ConsoleAssets() {
  static const ConsoleAsset kAssets[] = {
${entries}  };
  return kAssets;
}

}  // namespace ddb::server
")
# Rewrite only on change, so an unchanged console does not recompile.
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different ${OUTPUT}.tmp ${OUTPUT})
file(REMOVE ${OUTPUT}.tmp)
