# The layers' include paths. Every layer is a static library, and its own
# include directory is one of the build tree holding a single link, to the
# layer's own folder:
#
#   build/include/engine/engine -> <source>/engine
#   build/include/api/api       -> <source>/api
#
# A library gives its directory PUBLIC, so the layers above it inherit the
# directories of every layer below along with the link, and
# `#include "engine/x.h"` keeps working everywhere, while a folder above the
# layer is simply not on its path: an upward include fails to compile, not
# merely to link. A layer's subfolders (engine/tables/, api/items/, ...) are
# inside its one link, so they are checked with it:
# `#include "engine/tables/table_registry.h"` from api/ compiles, one of
# "emulator/..." from any engine/ subfolder does not.
#
# Nothing else may put the source root on an include path. A quoted include
# is also looked up next to the including file, where no folder of another
# layer lies. Only a path with ".." could climb out, next to the including
# file or through a link ("engine/.." is the source root):
# cmake/check_includes.cmake, run before any layer compiles, refuses those.

set(LOCALDYNAMO_INCLUDE_ROOT ${CMAKE_BINARY_DIR}/include)

# localdynamo_layer_include_dir(<name> <folder>...): makes the directory
# ${LOCALDYNAMO_INCLUDE_ROOT}/<name> with a link to each <folder> of the
# source tree, and removes links to any other folder (left by an older
# configuration).
function(localdynamo_layer_include_dir name)
  set(dir ${LOCALDYNAMO_INCLUDE_ROOT}/${name})
  file(MAKE_DIRECTORY ${dir})
  file(GLOB existing LIST_DIRECTORIES true RELATIVE ${dir} ${dir}/*)
  foreach(entry IN LISTS existing)
    if(NOT entry IN_LIST ARGN AND IS_SYMLINK ${dir}/${entry})
      file(REMOVE ${dir}/${entry})  # the link only: REMOVE never descends
    endif()
  endforeach()
  foreach(folder IN LISTS ARGN)
    set(link ${dir}/${folder})
    set(target ${CMAKE_SOURCE_DIR}/${folder})
    set(current "")
    if(IS_SYMLINK ${link})
      file(READ_SYMLINK ${link} current)
    endif()
    if(NOT current STREQUAL target)
      file(CREATE_LINK ${target} ${link} SYMBOLIC)
    endif()
  endforeach()
endfunction()

localdynamo_layer_include_dir(engine engine)
localdynamo_layer_include_dir(api api)
localdynamo_layer_include_dir(emulator emulator)
localdynamo_layer_include_dir(cli cli)
localdynamo_layer_include_dir(mcp mcp)
localdynamo_layer_include_dir(server server)
# The test suites' own headers (tests/<suite>/...), for the test targets only.
localdynamo_layer_include_dir(tests tests)

add_custom_target(check_includes
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${CMAKE_SOURCE_DIR}
          -P ${CMAKE_SOURCE_DIR}/cmake/check_includes.cmake
  COMMENT "Checking that no #include climbs out of its folder")
