// WritePath: the parts every writer of items goes through — the store, the
// engine's clock, the live tables and the item writer. The capabilities that
// write items (the data plane, replication) are built over one.
//
// Thread safety: references to thread-safe parts.
#pragma once

#include "engine/clock.h"
#include "engine/items/item_writer.h"
#include "engine/storage/store.h"
#include "engine/tables/table_registry.h"

namespace ddb::engine {

struct WritePath {
  Store& store;
  const Clock& clock;
  TableRegistry& tables;
  ItemWriter& writer;
};

}  // namespace ddb::engine
