// DatabaseOptions: how a Database is opened and the behaviours a test can
// turn on.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "engine/object_store.h"

namespace ddb::engine {

struct DatabaseOptions {
  bool in_memory = false;
  std::string data_dir;  // ignored when in_memory
  // false for bulk loads (`localdynamo import`): writes skip the write-ahead
  // log and are flushed when the database closes, so a crash mid-way loses
  // the writes not flushed yet (the import is run again).
  bool write_ahead_log = true;
  // Tables pass through CREATING / DELETING for this long (DynamoDB Local's
  // -delayTransientStatuses); 0: ACTIVE at once, gone at once.
  int64_t transient_status_millis = 0;
  // How long a transaction keeps its items claimed between deciding and
  // committing. 0: it decides and commits under the tables' locks at once,
  // so nothing ever conflicts. Above 0, requests that touch a claimed item
  // meet DynamoDB's transaction conflicts (TransactionConflictException for
  // single-item writes; cancellation reason TransactionConflict for other
  // transactions), which lets tests exercise their retry logic.
  int64_t transaction_hold_millis = 0;
  // How long a strongly consistent global table's write keeps its item
  // claimed in every member between deciding and committing. 0: it decides,
  // commits and replicates at once, so writes never conflict. Above 0, a
  // write to the item from another region meets DynamoDB's
  // ReplicatedWriteConflictException (one from the same region waits).
  int64_t replication_hold_millis = 0;
  // The open shard of a stream closes, and a child shard opens, once it is
  // this old (DynamoDB rolls shards over about every four hours).
  int64_t shard_rollover_millis = 4LL * 3600 * 1000;
  // Stream records older than this are trimmed; a disabled stream stays
  // readable this long.
  int64_t stream_retention_millis = 24LL * 3600 * 1000;
  // Where exports go and imports come from (object_store.h). Null: a
  // folder per bucket under <data_dir>/s3, or memory for an in-memory database.
  std::shared_ptr<ObjectStore> object_store;
  // Where the storage reports what it did unasked: writes stopping after a
  // disk fault and resuming, what start-up recovery dropped. Null: nowhere.
  std::function<void(const std::string&)> log;
};

}  // namespace ddb::engine
