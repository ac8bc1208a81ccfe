// Base64 (RFC 4648, standard alphabet, padded), the wire form of DynamoDB's
// B and BS values. The encoder is OpenSSL's (EVP_EncodeBlock). The decoder is
// our own rather than EVP_DecodeBlock: DynamoDB refuses any text that is not
// exactly padded base64 (a SerializationException for the request), while
// OpenSSL's decoder skips leading and trailing whitespace, takes '=' inside
// the text, and cannot say how much padding it saw.
//
// Thread safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ddb::api {

std::string Base64Encode(std::string_view bytes);

// nullopt if `text` is not valid padded base64.
std::optional<std::string> Base64Decode(std::string_view text);

}  // namespace ddb::api
