#include "emulator/snapshots.h"

#include <rapidjson/document.h>

#include <chrono>

#include "api/json_reader.h"
#include "emulator/admin_body.h"

namespace ddb::emulator {

using api::ApiError;
using api::ApiResult;
using api::JsonWriter;
using api::RenderObject;
using api::WriteString;

namespace {

constexpr size_t kMaxNameLength = 255;

double MillisSince(std::chrono::steady_clock::time_point started) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
      .count();
}

void WriteNamespace(JsonWriter& w, const std::optional<std::string>& ns) {
  if (!ns) return;
  w.Key("Namespace");
  WriteString(w, *ns);
}

}  // namespace

ApiResult<std::string> Snapshots::Save(std::string_view body) {
  auto doc = ParseAdminBody(body);
  if (!doc.ok()) return doc.take_error();
  api::RequestReader r(*doc);
  auto name = r.String("Name");
  auto ns = r.String("Namespace");
  if (r.failed()) return r.error();
  if (!name || name->empty() || name->size() > kMaxNameLength ||
      name->find('/') != std::string_view::npos) {
    return ApiError::Validation("Give a Name of 1 to 255 characters without '/'");
  }
  auto started = std::chrono::steady_clock::now();
  auto saved = std::make_shared<Saved>();
  saved->created_millis = clock_.NowMillis();
  // Read before the data: a database that gets its models meanwhile is then
  // counted as not loaded, and loads them again on its next use.
  if (ns) {
    // The database as its owner sees it: one not used yet has the models.
    auto loaded = preloader_.EnsureLoaded(CallerOfNamespace(*ns));
    if (!loaded.ok()) return loaded.take_error();
  } else {
    saved->loaded = preloader_.Loaded();
  }
  auto data = engine_.snapshots().Take(ns);
  if (!data.ok()) return data.status();
  saved->data = std::move(data).value();
  const engine::DataSnapshot& snapshot = *saved->data;
  {
    std::lock_guard lock(mu_);
    saved_.insert_or_assign(std::string(*name), saved);
  }
  double millis = MillisSince(started);
  return RenderObject([&](JsonWriter& w) {
    w.Key("Name");
    WriteString(w, *name);
    WriteNamespace(w, snapshot.ns);
    w.Key("Tables");
    w.Uint64(snapshot.tables.size());
    w.Key("Items");
    w.Int64(snapshot.item_count);
    w.Key("Bytes");
    w.Int64(snapshot.bytes);
    w.Key("Millis");
    w.Double(millis);
  });
}

ApiResult<std::string> Snapshots::Restore(std::string_view name, std::string_view body) {
  std::shared_ptr<const Saved> saved;
  {
    std::lock_guard lock(mu_);
    auto it = saved_.find(name);
    if (it == saved_.end()) return ApiError::AdminNotFound("No such snapshot: " + std::string(name));
    saved = it->second;
  }
  auto doc = ParseAdminBody(body);
  if (!doc.ok()) return doc.take_error();
  api::RequestReader r(*doc);
  auto into = r.String("Namespace");
  if (r.failed()) return r.error();
  const engine::DataSnapshot& snapshot = *saved->data;
  if (!snapshot.ns && into) {
    return ApiError::Validation("Snapshot " + std::string(name) +
                                " holds every database and restores them all: give no Namespace");
  }
  auto started = std::chrono::steady_clock::now();
  std::optional<std::string> target = snapshot.ns;
  if (into) target = std::string(*into);
  // Before the tables change: a request arriving meanwhile must not load
  // the models into the database being restored.
  if (target) {
    preloader_.MarkLoaded(*target);
  } else {
    preloader_.SetLoaded(saved->loaded);
  }
  auto restored = engine_.snapshots().Restore(snapshot, into);
  if (!restored.ok()) return restored.status();
  double millis = MillisSince(started);
  return RenderObject([&](JsonWriter& w) {
    w.Key("Name");
    WriteString(w, name);
    WriteNamespace(w, target);
    w.Key("Tables");
    w.Int64(restored->tables);
    w.Key("Items");
    w.Int64(restored->items);
    w.Key("Millis");
    w.Double(millis);
  });
}

std::string Snapshots::ListJson() const {
  std::lock_guard lock(mu_);
  return RenderObject([&](JsonWriter& w) {
    w.Key("Snapshots");
    w.StartArray();
    for (const auto& [name, saved] : saved_) {
      w.StartObject();
      w.Key("Name");
      WriteString(w, name);
      WriteNamespace(w, saved->data->ns);
      w.Key("Tables");
      w.Uint64(saved->data->tables.size());
      w.Key("Items");
      w.Int64(saved->data->item_count);
      w.Key("Bytes");
      w.Int64(saved->data->bytes);
      w.Key("CreatedMillis");
      w.Int64(saved->created_millis);
      w.EndObject();
    }
    w.EndArray();
  });
}

ApiResult<std::string> Snapshots::Delete(std::string_view name) {
  std::lock_guard lock(mu_);
  auto it = saved_.find(name);
  if (it == saved_.end()) return ApiError::AdminNotFound("No such snapshot: " + std::string(name));
  saved_.erase(it);
  return RenderObject([&](JsonWriter& w) {
    w.Key("Name");
    WriteString(w, name);
  });
}

}  // namespace ddb::emulator
