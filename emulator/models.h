// The preloaded models: model folders (fixtures/README.md) read once at
// start, then created in a database through api::Dispatch — CreateTable,
// UpdateTimeToLive, PutItem — exactly like client requests, so a bad
// fixture fails as a bad request would, named by file and line.
//
// Tables are created only where they do not exist yet: a restart over a
// persistent data directory keeps the user's data and duplicates nothing,
// and sample items go only into tables created just now.
//
// Thread safety: a Models is immutable after Read; LoadInto may be called
// concurrently (for different namespaces).
#pragma once

#include <mutex>
#include <set>
#include <shared_mutex>
#include <string>
#include <vector>

#include "api/context.h"
#include "api/errors.h"
#include "engine/engine.h"

namespace ddb::emulator {

// What one load created.
struct LoadSummary {
  int tables = 0;   // created now
  int indexes = 0;  // of the tables created now
  int items = 0;
  int existing = 0;  // tables that were there already
};

class Models {
 public:
  // Reads the model folders in `dirs`: each either a model (it has a
  // tables/ folder) or a folder of models. Items are read only when
  // `with_items`. Fails naming the file (and line) of the first problem.
  static api::ApiResult<Models> Read(const std::vector<std::string>& dirs, bool with_items);

  // Creates the missing tables (with TTL and items) for `caller`'s
  // database. Fails naming the file and line whose request failed.
  api::ApiResult<LoadSummary> LoadInto(engine::Engine& engine, const api::Caller& caller) const;

  size_t table_count() const { return tables_.size(); }

 private:
  struct Request {
    std::string source;  // "file" or "file:line", for errors
    std::string body;
  };
  struct Table {
    std::string name;
    Request create;
    std::vector<Request> ttl;    // zero or one
    std::vector<Request> items;  // PutItem bodies
  };
  std::vector<Table> tables_;
};

// The caller whose database `ns` is (api/database_scope.h), as far as
// loading models into it needs one.
api::Caller CallerOfNamespace(std::string_view ns);

// Keeps every database the server hands out preloaded: the shared one at
// start, and with per-key databases each new namespace on its first
// request. Reset empties the whole database and loads the models afresh.
class Preloader {
 public:
  Preloader(Models models, engine::Engine& engine) : models_(std::move(models)), engine_(engine) {}

  // Loads the models into `caller`'s database unless done before; the
  // summary of what it created, or nullopt when it had been done.
  api::ApiResult<std::optional<LoadSummary>> EnsureLoaded(const api::Caller& caller);

  // Drops everything (engine::DataSnapshots::Reset) and loads the models into the
  // shared database again; per-key databases get theirs on next use.
  api::ApiResult<LoadSummary> Reset();
  // Drops the tables of `caller`'s database alone and loads the models into
  // it again, or leaves it empty (`with_models` false).
  api::ApiResult<LoadSummary> ResetNamespace(const api::Caller& caller, bool with_models);

  // The namespaces that have had their models; a restored snapshot sets
  // them back (Snapshots), so a database it emptied stays empty.
  std::set<std::string, std::less<>> Loaded();
  void SetLoaded(std::set<std::string, std::less<>> namespaces);
  void MarkLoaded(std::string_view ns);

 private:
  const Models models_;
  engine::Engine& engine_;
  std::shared_mutex mu_;  // shared for the per-request check
  std::set<std::string, std::less<>> loaded_;  // namespaces; guarded by mu_
};

}  // namespace ddb::emulator
