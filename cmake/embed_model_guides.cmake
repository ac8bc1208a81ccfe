# Turns each preloaded model's ACCESS_PATTERNS.md (fixtures/<model>/) into a
# C++ source of byte arrays for mcp/model_guides.h, so `localdynamo mcp`
# serves them as resources with no files to install.
# Run as: cmake -DSOURCE_DIR=<fixtures> -DOUTPUT=<file.cc> -P embed_model_guides.cmake
file(GLOB guides RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/*/ACCESS_PATTERNS.md)
list(SORT guides)
set(arrays "")
set(entries "")
set(index 0)
foreach(guide IN LISTS guides)
  get_filename_component(model ${guide} DIRECTORY)
  file(READ ${SOURCE_DIR}/${guide} hex HEX)
  string(LENGTH "${hex}" hex_length)
  math(EXPR size "${hex_length} / 2")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(APPEND arrays "const unsigned char kGuide${index}[] = {${bytes}0};\n")
  string(APPEND entries "      {\"${model}\", Text(kGuide${index}, ${size})},\n")
  math(EXPR index "${index} + 1")
endforeach()

# A build without fixtures/ has no guides (and C++ has no empty arrays).
if(entries)
  set(body "std::span<const ModelGuide> ModelGuides() {
  static const ModelGuide kGuides[] = {
${entries}  };
  return kGuides;
}")
else()
  set(body "std::span<const ModelGuide> ModelGuides() { return {}; }")
endif()

file(WRITE ${OUTPUT}.tmp "// Generated from fixtures/*/ACCESS_PATTERNS.md by cmake/embed_model_guides.cmake; do not edit.
#include \"mcp/model_guides.h\"

namespace ddb::mcp {
namespace {

std::string_view Text(const unsigned char* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

${arrays}
}  // namespace

${body}

}  // namespace ddb::mcp
")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different ${OUTPUT}.tmp ${OUTPUT})
file(REMOVE ${OUTPUT}.tmp)
