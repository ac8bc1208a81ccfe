// Host names as the security rules see them (docs/security.md): which names
// and addresses are this machine's loopback, and the host part of the
// authorities found in Host and Origin headers and in trigger URLs.
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ddb::emulator {

// "localhost" and its subdomains (browsers resolve every *.localhost to
// loopback themselves, RFC 6761), 127.0.0.0/8 and ::1, case-insensitive;
// `host` without a port, IPv6 with or without its brackets.
bool IsLoopbackName(std::string_view host);

// The host of "host", "host:port", "[v6]" or "[v6]:port", brackets kept off.
std::string_view HostOf(std::string_view authority);

// The authority of "scheme://authority[/path]", or empty if there is none.
std::string_view AuthorityOf(std::string_view url);

// Lowercased ASCII, for comparing host names and origins.
std::string Lowercase(std::string_view text);

// "a, b,c" -> {"a", "b", "c"}: the comma-separated lists of the command line.
std::vector<std::string> SplitList(std::string_view list);

}  // namespace ddb::emulator
