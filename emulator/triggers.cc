#include "emulator/triggers.h"

#include <rapidjson/document.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <fstream>
#include <thread>

#include "api/json_reader.h"
#include "api/stream_json.h"

namespace ddb::emulator {

using api::ApiError;
using api::ApiResult;
using api::JsonWriter;
using api::ParseBounded;
using api::RecordShape;
using api::RenderObject;
using api::RequestReader;
using api::StreamArn;
using api::View;
using api::WriteStreamRecord;
using api::WriteString;

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// Settings keys (persisted in the catalog):
//   trigger/def/<name> -> the definition JSON (admin API triggers only)
//   trigger/pos/<name> -> "<stream label>\n<next sequence number>"
std::string DefinitionKey(std::string_view name) { return "trigger/def/" + std::string(name); }
std::string CheckpointKey(std::string_view name) { return "trigger/pos/" + std::string(name); }

constexpr milliseconds kPollInterval{10};
constexpr int64_t kIdleWaitMillis = 50;  // how soon an idle trigger notices it is stopped
constexpr milliseconds kNoStreamInterval{200};
constexpr milliseconds kFirstBackoff{200};
constexpr milliseconds kMaxBackoff{10'000};
constexpr size_t kMaxBatchBytes = 6 * 1024 * 1024;  // Lambda's payload limit
constexpr int kMaxDefinitionDepth = 40;  // filter patterns nest a record's depth, no more

ApiError Invalid(std::string message) { return ApiError::Validation(std::move(message)); }

bool ValidName(std::string_view name) {
  return !name.empty() && name.size() <= 128 && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
  });
}

ApiResult<std::vector<EventFilter>> ParseFilters(const rapidjson::Value& criteria) {
  std::vector<EventFilter> filters;
  if (!criteria.IsObject()) return Invalid("FilterCriteria must be an object");
  auto list = criteria.FindMember("Filters");
  if (list == criteria.MemberEnd()) return filters;
  if (!list->value.IsArray() || list->value.Size() > 5) {
    return Invalid("FilterCriteria.Filters must be a list of at most 5 filters");
  }
  for (const auto& filter : list->value.GetArray()) {
    auto pattern = filter.IsObject() ? filter.FindMember("Pattern") : filter.MemberEnd();
    if (!filter.IsObject() || pattern == filter.MemberEnd()) {
      return Invalid("Each filter needs a Pattern");
    }
    std::string text;
    if (pattern->value.IsString()) {
      text = std::string(View(pattern->value));
    } else {
      rapidjson::StringBuffer buffer;
      JsonWriter w(buffer);
      pattern->value.Accept(w);
      text = buffer.GetString();
    }
    auto parsed = EventFilter::Parse(text);
    if (!parsed.ok()) return parsed.take_error();
    filters.push_back(std::move(parsed).value());
  }
  return filters;
}

// {"Records": [...]} of the records `spec`'s filters let through, in
// Lambda's event shape; empty when none does.
std::string EventBody(const TriggerSpec& spec, const engine::StreamInfo& stream,
                      const std::string& label, const std::vector<engine::StreamRecord>& records,
                      size_t* count) {
  std::string arn = StreamArn(spec.region, "000000000000", spec.table, label);
  std::string body = "{\"Records\":[";
  size_t matched = 0;
  for (const auto& record : records) {
    rapidjson::StringBuffer buffer;
    JsonWriter w(buffer);
    WriteStreamRecord(w, record, stream, spec.region, arn, RecordShape::kLambdaEvent);
    rapidjson::Document doc;
    doc.Parse(buffer.GetString(), buffer.GetSize());
    if (!MatchesAny(spec.filters, doc)) continue;
    if (matched++) body += ",";
    body.append(buffer.GetString(), buffer.GetSize());
  }
  *count = matched;
  return matched == 0 ? std::string() : body + "]}";
}

}  // namespace

ApiResult<TriggerSpec> ParseTriggerSpec(std::string_view json) {
  rapidjson::Document doc;
  if (!ParseBounded(json, kMaxDefinitionDepth, &doc) || !doc.IsObject()) {
    return Invalid("A trigger is a JSON object");
  }
  RequestReader r(doc);
  TriggerSpec spec;
  auto name = r.String("Name");
  auto table = r.String("TableName");
  auto url = r.String("Url");
  auto command = r.String("Command");
  auto batch_size = r.Integer("BatchSize");
  auto window = r.Integer("MaximumBatchingWindowInSeconds");
  auto start = r.String("StartingPosition");
  const rapidjson::Value* criteria = r.Object("FilterCriteria");
  auto retries = r.Integer("MaximumRetryAttempts");
  auto on_failure = r.String("OnFailure");
  auto timeout = r.Integer("TimeoutSeconds");
  auto region = r.String("Region");
  auto access_key = r.String("AccessKeyId");
  if (r.failed()) return r.error();
  if (!name || !ValidName(*name)) {
    return Invalid("Name is required: 1 to 128 letters, digits, '_', '-' or '.'");
  }
  if (!table || table->empty()) return Invalid("TableName is required");
  if (url.has_value() == command.has_value()) {
    return Invalid("Exactly one of Url and Command is required");
  }
  if (url && !url->starts_with("http://")) return Invalid("Url must start with http://");
  if (start && *start != "LATEST" && *start != "TRIM_HORIZON") {
    return Invalid("StartingPosition must be LATEST or TRIM_HORIZON");
  }
  if (batch_size && (*batch_size < 1 || *batch_size > 10000)) {
    return Invalid("BatchSize must be between 1 and 10000");
  }
  if (window && (*window < 0 || *window > 300)) {
    return Invalid("MaximumBatchingWindowInSeconds must be between 0 and 300");
  }
  if (retries && (*retries < -1 || *retries > 10000)) {
    return Invalid("MaximumRetryAttempts must be between -1 and 10000");
  }
  if (timeout && (*timeout < 1 || *timeout > 900)) {
    return Invalid("TimeoutSeconds must be between 1 and 900");
  }
  if (criteria) {
    auto filters = ParseFilters(*criteria);
    if (!filters.ok()) return filters.take_error();
    spec.filters = std::move(filters).value();
  }
  spec.name = std::string(*name);
  spec.table = std::string(*table);
  spec.url = std::string(url.value_or(""));
  spec.command = std::string(command.value_or(""));
  spec.batch_size = static_cast<int>(batch_size.value_or(100));
  spec.batching_window_seconds = static_cast<int>(window.value_or(0));
  spec.from_trim_horizon = start && *start == "TRIM_HORIZON";
  spec.max_retry_attempts = static_cast<int>(retries.value_or(-1));
  spec.on_failure_file = std::string(on_failure.value_or(""));
  spec.timeout_seconds = static_cast<int>(timeout.value_or(30));
  if (region) spec.region = std::string(*region);
  if (access_key) spec.ns = std::string(*access_key) + "/" + spec.region;
  spec.definition = std::string(json);
  return spec;
}

struct TriggerManager::Trigger {
  explicit Trigger(TriggerSpec spec) : spec(std::move(spec)) {}

  const TriggerSpec spec;
  std::thread thread;

  std::mutex mu;
  std::condition_variable wake;
  bool stop = false;  // guarded by mu
  // Set with `stop`; a delivery in progress gives up when it sees it.
  std::atomic<bool> cancel{false};
  // Guarded by mu: what the admin API shows.
  std::string label;
  uint64_t position = 0;
  uint64_t next_sequence = 0;
  uint64_t batches = 0, records = 0, failures = 0, given_up = 0;
  std::string last_error;
  std::string state = "starting";

  // Sleeps up to `duration`; false if the trigger was stopped.
  bool Wait(milliseconds duration) {
    std::unique_lock lock(mu);
    wake.wait_for(lock, duration, [&] { return stop; });
    return !stop;
  }
  bool stopped() {
    std::lock_guard lock(mu);
    return stop;
  }
  void SetState(std::string s) {
    std::lock_guard lock(mu);
    state = std::move(s);
  }
};

TriggerManager::TriggerManager(engine::Database& db, TriggerTransport& transport, Log log,
                               bool allow_commands)
    : db_(db), transport_(transport), log_(std::move(log)), allow_commands_(allow_commands) {}

TriggerManager::~TriggerManager() {
  std::map<std::string, std::unique_ptr<Trigger>, std::less<>> triggers;
  {
    std::lock_guard lock(mu_);
    triggers.swap(triggers_);
  }
  for (auto& [name, trigger] : triggers) {
    {
      std::lock_guard lock(trigger->mu);
      trigger->stop = true;
    }
    trigger->cancel = true;
    trigger->wake.notify_all();
  }
  for (auto& [name, trigger] : triggers) trigger->thread.join();
}

ApiResult<std::string> TriggerManager::Add(std::string_view definition, TriggerSource source) {
  auto spec = ParseTriggerSpec(definition);
  if (!spec.ok()) return spec.take_error();
  // A command or a file path from the network runs or writes on this
  // machine: only from the --triggers file, unless the server allows it.
  if (source != TriggerSource::kFile && !allow_commands_ &&
      (!spec->command.empty() || !spec->on_failure_file.empty())) {
    return Invalid(
        "Command and OnFailure triggers come from the --triggers file; start the server with "
        "--allow-command-triggers to create them through the admin API");
  }
  bool persist = source == TriggerSource::kAdminApi;
  std::lock_guard lock(mu_);
  if (triggers_.count(spec->name)) {
    return ApiError::ResourceInUse("Trigger already exists: " + spec->name);
  }
  if (persist) {
    auto saved = db_.PutSetting(DefinitionKey(spec->name), spec->definition);
    if (!saved.ok()) return saved;
  }
  auto trigger = std::make_unique<Trigger>(std::move(spec).value());
  Trigger* raw = trigger.get();
  std::string name = raw->spec.name;
  triggers_.emplace(name, std::move(trigger));
  raw->thread = std::thread([this, raw] { Run(*raw); });
  log_("trigger " + name + ": started on table " + raw->spec.table);
  return Describe(*raw);
}

ApiResult<size_t> TriggerManager::AddFromFile(std::string_view json) {
  rapidjson::Document doc;
  if (!ParseBounded(json, kMaxDefinitionDepth + 2, &doc)) {
    return Invalid("The triggers file must hold a JSON list of trigger definitions");
  }
  const rapidjson::Value* list = &doc;
  if (doc.IsObject() && doc.HasMember("Triggers")) list = &doc["Triggers"];
  if (!list->IsArray()) {
    return Invalid("The triggers file must hold a JSON list of trigger definitions");
  }
  // Validate them all before starting any.
  std::vector<std::string> definitions;
  for (const auto& entry : list->GetArray()) {
    rapidjson::StringBuffer buffer;
    JsonWriter w(buffer);
    entry.Accept(w);
    definitions.emplace_back(buffer.GetString(), buffer.GetSize());
    auto spec = ParseTriggerSpec(definitions.back());
    if (!spec.ok()) {
      return Invalid("trigger " + std::to_string(definitions.size()) + ": " +
                     spec.error().message);
    }
  }
  for (const auto& definition : definitions) {
    auto added = Add(definition, TriggerSource::kFile);
    if (!added.ok()) return added.take_error();
  }
  return definitions.size();
}

bool TriggerManager::Remove(std::string_view name) {
  std::unique_ptr<Trigger> trigger;
  {
    std::lock_guard lock(mu_);
    auto it = triggers_.find(name);
    if (it == triggers_.end()) return false;
    trigger = std::move(it->second);
    triggers_.erase(it);
  }
  {
    std::lock_guard lock(trigger->mu);
    trigger->stop = true;
  }
  trigger->cancel = true;
  trigger->wake.notify_all();
  trigger->thread.join();
  (void)db_.DeleteSetting(DefinitionKey(name));
  (void)db_.DeleteSetting(CheckpointKey(name));
  log_("trigger " + std::string(name) + ": removed");
  return true;
}

engine::Status TriggerManager::StartPersisted() {
  auto saved = db_.ListSettings("trigger/def/");
  if (!saved.ok()) return saved.status();
  for (const auto& [key, definition] : *saved) {
    std::string name = key.substr(std::string_view("trigger/def/").size());
    {
      std::lock_guard lock(mu_);
      if (triggers_.count(name)) continue;  // the file defines it again
    }
    auto added = Add(definition, TriggerSource::kRestored);
    if (!added.ok()) log_("trigger " + name + ": not started: " + added.error().message);
  }
  return engine::Status::Ok();
}

void TriggerManager::Run(Trigger& trigger) {
  const TriggerSpec& spec = trigger.spec;
  // The checkpoint: the stream being read (its label; empty before the
  // first start) and the next sequence number to deliver from it.
  std::string label;
  uint64_t position = 0;
  if (auto saved = db_.GetSetting(CheckpointKey(spec.name)); saved.ok() && saved->has_value()) {
    // "<table>\n<label>\n<position>"; a checkpoint of another table (a
    // trigger name reused) does not count.
    std::string_view text = **saved;
    size_t first = text.find('\n');
    size_t second = first == std::string_view::npos ? first : text.find('\n', first + 1);
    if (second != std::string_view::npos && text.substr(0, first) == spec.table) {
      label = std::string(text.substr(first + 1, second - first - 1));
      position = std::strtoull(std::string(text.substr(second + 1)).c_str(), nullptr, 10);
    }
  }
  auto save_checkpoint = [&] {
    (void)db_.PutSetting(CheckpointKey(spec.name),
                         spec.table + "\n" + label + "\n" + std::to_string(position));
    std::lock_guard lock(trigger.mu);
    trigger.label = label;
    trigger.position = position;
  };
  // When the batch that is filling its batching window was first seen.
  Clock::time_point first_seen{};
  bool filling = false;
  while (!trigger.stopped()) {
    auto table = db_.DescribeTable(spec.ns, spec.table);
    std::string current =
        table.ok() && table->schema.stream.enabled ? table->schema.stream.label : "";
    if (label.empty()) {
      if (current.empty()) {
        trigger.SetState(table.ok() ? "waiting for a stream" : "waiting for the table");
        if (!trigger.Wait(kNoStreamInterval)) break;
        continue;
      }
      auto stream = db_.DescribeStream(spec.ns, spec.table, current);
      if (!stream.ok()) continue;
      label = current;
      position = spec.from_trim_horizon ? stream->info.trim_horizon : stream->next_sequence;
      save_checkpoint();
    }
    auto stream = db_.DescribeStream(spec.ns, spec.table, label);
    uint64_t writes_seen = db_.StreamWrites();
    auto read = stream.ok() ? db_.ReadShard(spec.ns, spec.table, label, "", position,
                                            static_cast<size_t>(spec.batch_size), kMaxBatchBytes)
                            : engine::Result<engine::ShardRead>(stream.status());
    if (!read.ok() && read.status().code() == engine::Status::Code::kTrimmedData) {
      // Trimmed past the checkpoint: what is gone is gone, as in Lambda.
      position = stream->info.trim_horizon;
      save_checkpoint();
      continue;
    }
    // The stream read is gone (trimmed away a day after it was disabled), or
    // disabled and read to its end: move on to the table's current stream,
    // from its start, so nothing written there is skipped.
    bool finished = !read.ok() ? read.status().code() == engine::Status::Code::kNotFound
                               : read->drained && read->records.empty();
    if (finished) {
      if (current == label) current.clear();  // cannot happen; never loop on it
      label.clear();
      if (!current.empty()) {
        if (auto next = db_.DescribeStream(spec.ns, spec.table, current); next.ok()) {
          label = current;
          position = next->info.trim_horizon;
          save_checkpoint();
          continue;
        }
      }
      trigger.SetState("waiting for a stream");
      if (!trigger.Wait(kNoStreamInterval)) break;
      continue;
    }
    if (!read.ok()) {
      if (!trigger.Wait(kNoStreamInterval)) break;
      continue;
    }
    {
      std::lock_guard lock(trigger.mu);
      trigger.next_sequence = stream->next_sequence;
      trigger.state = "running";
      trigger.label = label;
      trigger.position = position;
    }
    if (read->records.empty()) {
      // Woken by the next stream write (the count read before this read, so
      // a write in between is not missed), or after a while to check stop.
      db_.WaitForStreamWrites(writes_seen, kIdleWaitMillis);
      continue;
    }
    if (spec.batching_window_seconds > 0 && !read->drained &&
        read->records.size() < static_cast<size_t>(spec.batch_size)) {
      if (!filling) first_seen = Clock::now();
      filling = true;
      if (Clock::now() - first_seen < std::chrono::seconds(spec.batching_window_seconds)) {
        if (!trigger.Wait(kPollInterval)) break;
        continue;
      }
    }
    filling = false;
    size_t count = 0;
    std::string body = EventBody(spec, stream->info, label, read->records, &count);
    uint64_t first = read->records.front().sequence, last = read->records.back().sequence;
    if (count > 0 && !DeliverWithRetries(trigger, body, count, first, last)) break;
    position = read->next_position;
    save_checkpoint();
  }
  trigger.SetState("stopped");
}

bool TriggerManager::DeliverWithRetries(Trigger& trigger, const std::string& body, size_t count,
                                        uint64_t first, uint64_t last) {
  const TriggerSpec& spec = trigger.spec;
  std::string target = spec.url.empty() ? "command `" + spec.command + "`" : spec.url;
  std::string range = "sequence " + std::to_string(first) + ".." + std::to_string(last);
  for (int attempt = 1;; ++attempt) {
    auto started = Clock::now();
    DeliveryOutcome outcome =
        transport_.Deliver(spec.url, spec.command, body, spec.timeout_seconds, trigger.cancel);
    if (trigger.cancel) return false;  // stopped: the checkpoint stays
    auto took = std::chrono::duration_cast<milliseconds>(Clock::now() - started).count();
    if (outcome.ok) {
      log_("trigger " + spec.name + ": delivered " + std::to_string(count) + " record(s), " +
           range + ", to " + target + " in " + std::to_string(took) + " ms");
      std::lock_guard lock(trigger.mu);
      trigger.batches += 1;
      trigger.records += count;
      return true;
    }
    log_("trigger " + spec.name + ": delivery failed (attempt " + std::to_string(attempt) +
         ", " + range + "): " + outcome.error);
    {
      std::lock_guard lock(trigger.mu);
      trigger.failures += 1;
      trigger.last_error = outcome.error;
      trigger.state = "retrying";
    }
    // MaximumRetryAttempts counts the retries after the first attempt.
    if (spec.max_retry_attempts >= 0 && attempt > spec.max_retry_attempts) {
      WriteFailure(trigger, body, outcome.error, attempt, first, last);
      return true;
    }
    auto backoff = std::min(kMaxBackoff, kFirstBackoff * (1 << std::min(attempt - 1, 10)));
    if (!trigger.Wait(backoff)) return false;
  }
}

void TriggerManager::WriteFailure(Trigger& trigger, const std::string& body,
                                  const std::string& error, int attempts, uint64_t first,
                                  uint64_t last) {
  const TriggerSpec& spec = trigger.spec;
  {
    std::lock_guard lock(trigger.mu);
    trigger.given_up += 1;
  }
  log_("trigger " + spec.name + ": gave up after " + std::to_string(attempts) +
       " attempt(s) on sequence " + std::to_string(first) + ".." + std::to_string(last) +
       (spec.on_failure_file.empty() ? "" : "; batch written to " + spec.on_failure_file));
  if (spec.on_failure_file.empty()) return;
  std::string line = RenderObject([&](JsonWriter& w) {
    w.Key("trigger");
    WriteString(w, spec.name);
    w.Key("error");
    WriteString(w, error);
    w.Key("attempts");
    w.Int(attempts);
    w.Key("firstSequenceNumber");
    WriteString(w, engine::SequenceNumberText(first));
    w.Key("lastSequenceNumber");
    WriteString(w, engine::SequenceNumberText(last));
    w.Key("event");
    w.RawValue(body.data(), body.size(), rapidjson::kObjectType);
  });
  std::ofstream out(spec.on_failure_file, std::ios::app);
  out << line << "\n";
}

std::string TriggerManager::Describe(const Trigger& trigger) const {
  Trigger& t = const_cast<Trigger&>(trigger);
  std::string label;
  {
    std::lock_guard lock(t.mu);
    label = t.label;
  }
  // The lag is against the stream as it is now, also while a delivery is
  // being retried.
  uint64_t next_sequence = 0;
  if (auto stream = db_.DescribeStream(t.spec.ns, t.spec.table, label); stream.ok()) {
    next_sequence = stream->next_sequence;
  }
  std::lock_guard lock(t.mu);
  next_sequence = std::max(next_sequence, t.next_sequence);
  return RenderObject([&](JsonWriter& w) {
    w.Key("Definition");
    w.RawValue(t.spec.definition.data(), t.spec.definition.size(), rapidjson::kObjectType);
    w.Key("State");
    WriteString(w, t.state);
    w.Key("StreamLabel");
    WriteString(w, t.label);
    w.Key("Position");
    w.Uint64(t.position);
    w.Key("Lag");
    w.Uint64(next_sequence > t.position ? next_sequence - t.position : 0);
    w.Key("DeliveredBatches");
    w.Uint64(t.batches);
    w.Key("DeliveredRecords");
    w.Uint64(t.records);
    w.Key("FailedAttempts");
    w.Uint64(t.failures);
    w.Key("GivenUpBatches");
    w.Uint64(t.given_up);
    if (!t.last_error.empty()) {
      w.Key("LastError");
      WriteString(w, t.last_error);
    }
  });
}

std::string TriggerManager::DescribeJson(std::string_view name) const {
  std::lock_guard lock(mu_);
  auto it = triggers_.find(name);
  return it == triggers_.end() ? std::string() : Describe(*it->second);
}

std::string TriggerManager::ListJson() const {
  std::lock_guard lock(mu_);
  std::string body = "{\"Triggers\":[";
  bool first = true;
  for (const auto& [name, trigger] : triggers_) {
    if (!first) body += ",";
    first = false;
    body += Describe(*trigger);
  }
  return body + "]}";
}

}  // namespace ddb::emulator
