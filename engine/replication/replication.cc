#include "engine/replication/replication.h"

#include <charconv>
#include <chrono>
#include <thread>
#include <tuple>

#include "engine/catalog/catalog_keys.h"
#include "engine/coding.h"
#include "engine/items/item_codec.h"
#include "engine/items/item_reads.h"
#include "engine/key_codec.h"
#include "engine/key_validation.h"
#include "engine/secondary_index.h"
#include "engine/tables/table_fill.h"

namespace ddb::engine {
namespace {

// Records read from a feed at a time.
constexpr size_t kReplicationBatch = 256;

std::string CheckpointSetting(uint64_t stream_id) {
  return "replication/" + std::to_string(stream_id);
}

}  // namespace

Result<TableDescription> Replication::AddReplica(std::string_view ns, std::string_view name,
                                                 const Replica& self, const Replica& added,
                                                 TableSchema target) {
  MutexLock lock(mu_);
  // The group as it is now: another change may have come first.
  auto source = path_.tables.Find(ns, name);
  if (!source) return TableNotFound(name);
  std::vector<Replica> group = source->schema()->replicas;
  if (group.empty()) group.push_back(self);
  for (const Replica& member : group) {
    if (member.region == added.region || member.ns == added.ns) {
      return Status::AlreadyExists("Table already exists: " + std::string(name));
    }
  }
  if (path_.tables.Find(added.ns, name)) {
    return Status::AlreadyExists("Table already exists: " + std::string(name));
  }
  group.push_back(added);
  // The members first: from here on every write to them is kept for the new
  // one too. None is applied before it exists (this lock), and those the
  // copy below already holds are skipped then by their write clocks.
  std::vector<Replica> members(group.begin(), group.end() - 1);
  DDB_RETURN_IF_ERROR(WriteGroup(name, members, group));
  std::map<std::string, std::string> items, clocks;
  Status read = path_.tables.WithTableLocked(ns, name, [&](TableState& state) -> Status {
    for (auto [family, prefix, out] :
         {std::tuple(Family::kItems, TablePrefix(state.table_id), &items),
          std::tuple(Family::kIndexes, WriteClockPrefix(state.table_id), &clocks)}) {
      auto it = path_.store.NewIterator(family, prefix, PrefixSuccessor(prefix));
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        out->emplace_hint(out->end(), std::string(it->key()), std::string(it->value()));
      }
      DDB_RETURN_IF_ERROR(it->status());
    }
    return Status::Ok();
  });
  target.replicas = group;
  TableRegistry::NewTable table{added.ns, std::move(target), {}, {}};
  auto fill = [&](uint64_t table_id, Store::Batch& batch, TableRegistry::NewTable& made) -> Status {
    DDB_RETURN_IF_ERROR(FillWithItems(path_.writer, items, table_id, batch, made));
    // The items' clocks as their own table has them (deletions' included),
    // over those the writes above gave them.
    const std::string clock_prefix = WriteClockPrefix(table_id);
    for (const auto& [source_key, value] : clocks) {
      batch.Put(Family::kIndexes, clock_prefix + source_key.substr(clock_prefix.size()), value);
    }
    return Status::Ok();
  };
  Result<TableDescription> created =
      read.ok() ? path_.tables.CreateFilled(std::move(table), fill)
                : Result<TableDescription>(read);
  if (!created.ok()) {
    // Take the replica back out of the group it never joined.
    std::vector<Replica> before = members;
    if (before.size() == 1) before.clear();
    (void)WriteGroup(name, members, before);
  }
  return created;
}

Result<TableDescription> Replication::RemoveReplica(std::string_view name,
                                                    std::string_view replica_ns) {
  MutexLock lock(mu_);
  auto deleted = path_.tables.Delete(replica_ns, name);
  if (!deleted.ok()) return deleted;
  std::vector<Replica> rest;
  for (const Replica& replica : deleted->schema.replicas) {
    if (replica.ns != replica_ns) rest.push_back(replica);
  }
  // One member left is a regional table again.
  std::vector<Replica> group = rest.size() > 1 ? rest : std::vector<Replica>();
  DDB_RETURN_IF_ERROR(WriteGroup(name, rest, group));
  return deleted;
}

Status Replication::SetReplicaGroup(std::string_view name, const std::vector<Replica>& group) {
  MutexLock lock(mu_);
  return WriteGroup(name, group, group);
}

Status Replication::WriteGroup(std::string_view name, const std::vector<Replica>& members,
                               const std::vector<Replica>& group) {
  for (const Replica& member : members) {
    auto updated = changes_.Update(member.ns, name, [&](TableSchema& schema) {
      schema.replicas = group;
      // A member left alone is a regional table again.
      if (group.empty()) {
        schema.strong_consistency = false;
        schema.witnesses.clear();
      }
      return Status::Ok();
    });
    if (!updated.ok() && updated.status().code() != Status::Code::kNotFound) {
      return updated.status();
    }
  }
  return Status::Ok();
}

Result<bool> Replication::ApplyReplicated(std::string_view ns, std::string_view name,
                                          const StreamRecord& record, const WriteClock& clock) {
  auto found = path_.tables.Find(ns, name);
  if (!found) return false;
  TableState& state = *found;
  MutexLock write_lock(state.write_mu);
  if (state.dropped) return false;
  auto current_schema = state.schema();
  const TableSchema& schema = *current_schema;
  DDB_RETURN_IF_ERROR(ValidateItemKey(schema, record.keys));
  std::string item_key = ItemKey(state.table_id, schema, record.keys);
  auto current = ReadWriteClock(path_.store, item_key);
  if (!current.ok()) return current.status();
  if (*current && !clock.Beats(**current)) return false;
  auto old_item = ReadItem(path_.store, item_key);
  if (!old_item.ok()) return old_item.status();
  Store::Batch batch(path_.store);
  PendingStats pending(state);
  Mutation mutation;
  mutation.replicated = &clock;
  if (record.new_image) {
    mutation.kind = Mutation::Kind::kPut;
    mutation.borrowed_item = &*record.new_image;
  } else {
    mutation.kind = Mutation::Kind::kDelete;
  }
  DDB_RETURN_IF_ERROR(path_.writer.AddMutation(state, schema, item_key, record.keys, *old_item,
                                               mutation, batch, pending));
  // AddMutation leaves the clock, but writes nothing for the deletion of an
  // item this replica does not have: that still leaves its clock.
  if (!record.new_image && !*old_item) {
    batch.Put(Family::kIndexes, WriteClockKey(item_key), EncodeWriteClock(clock));
  }
  DDB_RETURN_IF_ERROR(path_.writer.Commit(state, batch, pending));
  return true;
}

uint64_t Replication::KnownPosition(const StreamState& feed) const {
  auto known = replicated_through_.find(feed.id);
  if (known != replicated_through_.end()) return known->second;
  auto stored = settings_.Get(CheckpointSetting(feed.id));
  // A checkpoint that cannot be read starts over: applying a record twice
  // changes nothing (write clocks), and std::stoull would throw.
  uint64_t position = 1;
  if (stored.ok() && *stored) {
    const std::string& text = **stored;
    std::from_chars(text.data(), text.data() + text.size(), position);
  }
  return position;
}

uint64_t Replication::ReplicatedThrough(const StreamState& feed) {
  return replicated_through_[feed.id] = KnownPosition(feed);
}

Result<size_t> Replication::Replicate(const Delay& delay_of) {
  MutexLock lock(mu_);
  const int64_t now = path_.clock.NowMillis();
  size_t applied = 0;
  for (const auto& feed : streams_.EnabledOfKind(StreamKind::kReplicationFeed)) {
    DDB_RETURN_IF_ERROR(
        ReplicateFeed(*feed, delay_of(feed->ns, feed->table_name), now, &applied));
  }
  return applied;
}

Status Replication::ReplicateNow(TableState& state) {
  std::shared_ptr<StreamState> feed;
  {
    MutexLock write_lock(state.write_mu);
    feed = state.replication_feed;
  }
  if (!feed) return Status::Ok();
  size_t applied = 0;
  return ReplicateFeed(*feed, kEverythingDue, path_.clock.NowMillis(), &applied);
}

Result<std::optional<Item>> Replication::WriteStrong(const std::shared_ptr<TableState>& state,
                                                     const TableSchema& schema, const Item& key,
                                                     const Planner& planner) {
  std::vector<MemberItem> claimed;
  if (hold_millis_ > 0) {
    auto claim = ClaimInEveryMember(state, schema, key, planner);
    if (!claim.ok()) return claim.status();
    claimed = std::move(claim).value();
    if (!claimed.empty()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(hold_millis_));
    }
  }
  // Under the replication lock from writing to replicating, so no write to
  // the group decides on an item a committed write has not reached yet.
  MutexLock lock(mu_);
  auto written = path_.writer.Write(*state, schema, key, planner);
  Status replicated = written.ok() ? ReplicateNow(*state) : Status::Ok();
  for (MemberItem& member : claimed) {
    MutexLock write_lock(member.state->write_mu);
    member.state->replicated_claims.erase(member.item_key);
  }
  if (!replicated.ok()) return replicated;
  return written;
}

Result<std::vector<Replication::MemberItem>> Replication::ClaimInEveryMember(
    const std::shared_ptr<TableState>& state, const TableSchema& schema, const Item& key,
    const Planner& planner) {
  std::vector<MemberItem> members{{state, ItemKey(state->table_id, schema, key)}};
  std::vector<TableState*> states{state.get()};
  for (const Replica& replica : schema.replicas) {
    if (replica.ns == state->ns) continue;
    auto member = path_.tables.Find(replica.ns, schema.name);
    if (!member) continue;  // being removed
    states.push_back(member.get());
    members.push_back({member, ItemKey(member->table_id, schema, key)});
  }
  for (;;) {
    TableLocks locks(states);
    bool held_here = false;
    for (MemberItem& member : members) {
      member.state->write_mu.AssertHeld();
      auto holder = member.state->replicated_claims.find(member.item_key);
      if (holder == member.state->replicated_claims.end()) continue;
      if (holder->second != state->ns) {
        return Status::ReplicatedWriteConflict(std::string(kReplicatedWriteConflict));
      }
      held_here = true;
    }
    if (held_here) {
      // A write from this region holds the item: DynamoDB orders the two.
      locks.Release();
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      continue;
    }
    state->write_mu.AssertHeld();
    if (state->dropped) return ItemTableNotFound();
    auto old_item = ReadItem(path_.store, members.front().item_key);
    if (!old_item.ok()) return old_item.status();
    auto mutation = planner(*old_item ? &**old_item : nullptr);
    if (!mutation.ok()) return mutation.status();
    if (mutation->kind == Mutation::Kind::kNone ||
        (mutation->kind == Mutation::Kind::kDelete && !*old_item)) {
      return std::vector<MemberItem>{};  // nothing to hold
    }
    for (MemberItem& member : members) {
      member.state->write_mu.AssertHeld();
      member.state->replicated_claims.emplace(member.item_key, std::string(state->ns));
    }
    return members;
  }
}

Result<size_t> Replication::Settle() {
  return Replicate([](std::string_view, std::string_view) { return kEverythingDue; });
}

Status Replication::ReplicateFeed(const StreamState& feed, int64_t delay, int64_t now,
                                  size_t* applied) {
  auto source = path_.tables.FindById(feed.table_id);
  if (!source) return Status::Ok();
  auto schema = source->schema();
  const uint64_t start = ReplicatedThrough(feed);
  uint64_t position = start;
  bool waiting = false;
  while (!waiting) {
    auto read = streams_.Read(feed.ns, feed.table_name, feed.label, "", position,
                              kReplicationBatch, SIZE_MAX, StreamKind::kReplicationFeed);
    if (!read.ok() && read.status().code() == Status::Code::kTrimmedData) {
      // Past the retention period: what is left starts at the horizon.
      auto described =
          streams_.Describe(feed.ns, feed.table_name, feed.label, StreamKind::kReplicationFeed);
      if (!described.ok()) break;
      position = described->info.trim_horizon;
      continue;
    }
    if (!read.ok()) return read.status();
    for (const StreamRecord& record : read->records) {
      // A replication record is stamped with its write clock.
      WriteClock clock{record.created_millis, feed.ns};
      if (clock.millis() + delay > now) {
        waiting = true;
        break;
      }
      for (const Replica& replica : schema->replicas) {
        if (replica.ns == feed.ns) continue;
        auto done = ApplyReplicated(replica.ns, feed.table_name, record, clock);
        if (!done.ok()) return done.status();
      }
      position = record.sequence + 1;
      ++*applied;
    }
    if (read->records.size() < kReplicationBatch) break;
  }
  if (position != start) {
    replicated_through_[feed.id] = position;
    DDB_RETURN_IF_ERROR(settings_.Put(CheckpointSetting(feed.id), std::to_string(position)));
  }
  return Status::Ok();
}

bool Replication::HasFeeds() const {
  return !streams_.EnabledOfKind(StreamKind::kReplicationFeed).empty();
}

Result<std::vector<ReplicationBacklog>> Replication::Backlogs() const {
  MutexLock lock(mu_);
  std::vector<ReplicationBacklog> backlogs;
  for (const auto& feed : streams_.EnabledOfKind(StreamKind::kReplicationFeed)) {
    ReplicationBacklog backlog{feed->ns, feed->table_name};
    auto read = streams_.Read(feed->ns, feed->table_name, feed->label, "", KnownPosition(*feed),
                              1, SIZE_MAX, StreamKind::kReplicationFeed);
    if (read.ok() && !read->records.empty()) {
      backlog.oldest_pending_millis = WriteClock{read->records.front().created_millis, ""}.millis();
      backlog.pending = feed->next_sequence - read->records.front().sequence;
    }
    backlogs.push_back(std::move(backlog));
  }
  return backlogs;
}

}  // namespace ddb::engine
