// The stored form of an Item (the value of an entry in the items column
// family).
//
// Layout, version 1 (persisted — do not reorder or change; add a version):
//   item      := 0x01 varint(count) attribute*
//   attribute := string(name) value
//   value     := type:u8 payload          (type is AttributeType's index)
//     S, B    := string(bytes)            N := string(canonical text)
//     BOOL    := u8 (0|1)                 NULL := (nothing)
//     M       := varint(count) (string(name) value)*
//     L       := varint(count) value*
//     SS, BS  := varint(count) string*    NS := varint(count) string(text)*
//   string    := varint(length) bytes
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "engine/attribute_value.h"
#include "engine/status.h"

namespace ddb::engine {

std::string EncodeItem(const Item& item);

// Returns kInternal if `bytes` is not an item this codec wrote.
Result<Item> DecodeItem(std::string_view bytes);

}  // namespace ddb::engine
