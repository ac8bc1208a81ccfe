# Fails when an #include of the project's sources names a path with "..":
# looked up next to the including file, or through a link of a layer's
# include path ("engine/.." is the source root), such a path would reach a
# folder of another layer past the include paths that keep upward includes
# out (cmake/layers.cmake).
# Run as: cmake -DSOURCE_DIR=<dir> -P check_includes.cmake
cmake_policy(VERSION 3.20)  # a script has no project's policies: GLOB_RECURSE skips links
# The C++ folders: the layers, bench/ and tests/ but for the node packages.
set(folders engine api emulator cli server bench)
file(GLOB test_folders LIST_DIRECTORIES true RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/tests/*)
foreach(folder IN LISTS test_folders)
  if(IS_DIRECTORY ${SOURCE_DIR}/${folder} AND NOT EXISTS ${SOURCE_DIR}/${folder}/package.json)
    list(APPEND folders ${folder})
  endif()
endforeach()
set(found "")
foreach(folder IN LISTS folders)
  file(GLOB_RECURSE sources ${SOURCE_DIR}/${folder}/*.h ${SOURCE_DIR}/${folder}/*.cc)
  foreach(source IN LISTS sources)
    file(STRINGS ${source} lines REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<][^\">]*\\.\\.")
    foreach(line IN LISTS lines)
      file(RELATIVE_PATH name ${SOURCE_DIR} ${source})
      string(APPEND found "  ${name}: ${line}\n")
    endforeach()
  endforeach()
endforeach()
if(found)
  message(FATAL_ERROR "#include paths must not contain \"..\" (name the folder from the "
                      "source root, e.g. \"engine/status.h\"):\n${found}")
endif()
