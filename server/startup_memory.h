// After start-up, gives back the memory only start-up needed, so an idle
// server's resident set is what serving uses.
#pragma once

namespace ddb::server {

// Unmaps the executable's read-only pages (its code and constants) from this
// process and returns the heap's free pages to the system. Start-up touches
// code all over the binary (option parsing, RocksDB's open, the models'
// JSON) and the kernel maps 64 KB around each touched page, so about 8 MB
// of code stays counted as resident though serving never runs it again.
// The pages stay in the page cache: whatever is run next maps again at the
// cost of a minor fault. Safe at any time and from any thread: nothing
// writable is touched. A no-op where the platform cannot do it.
void ReleaseStartupMemory();

}  // namespace ddb::server
