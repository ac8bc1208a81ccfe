#pragma once

namespace ddb::server {

// The commit the binary was built from (short id, "-modified" when the tree
// had uncommitted changes, "unknown" without git): cmake/build_info.cmake.
const char* BuildCommit();

}  // namespace ddb::server
