// `localdynamo mcp`: the Model Context Protocol server over stdio.
//
//   localdynamo mcp [--endpoint URL | --data-dir DIR] [--access-key K] [--region R]
//                   [--allow-writes] [--max-items N] [--max-bytes N] [--models-dir D]
//
// Reads JSON-RPC messages, one per line, from standard input and writes the
// answers to standard output; everything else it says goes to standard
// error. Ends at the end of its input (the agent closed it).
//
// Thread safety: runs on the calling thread.
#pragma once

#include <string>

namespace ddb::mcp {

// argv[0] is "mcp". `default_models_dir` is where the binary's preloaded
// models are (a --data-dir reset loads them again), "" if none.
int RunMcpCommand(int argc, char** argv, const std::string& default_models_dir);

}  // namespace ddb::mcp
