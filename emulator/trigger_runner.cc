#include "emulator/trigger_runner.h"

#include <rapidjson/document.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <vector>

#include "api/json_reader.h"
#include "api/streams/kinesis_record.h"
#include "api/streams/stream_json.h"
#include "emulator/trigger_settings.h"

namespace ddb::emulator {

using api::JsonWriter;
using api::RecordShape;
using api::RenderObject;
using api::StreamArn;
using api::WriteStreamRecord;
using api::WriteString;

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr milliseconds kPollInterval{10};
constexpr int64_t kIdleWaitMillis = 50;  // how soon an idle trigger notices it is stopped
constexpr milliseconds kNoStreamInterval{200};
constexpr milliseconds kFirstBackoff{200};
constexpr milliseconds kMaxBackoff{10'000};
constexpr size_t kMaxBatchBytes = 6 * 1024 * 1024;  // Lambda's payload limit

// The table's enabled Kinesis destination to `arn`, or null.
const engine::KinesisDestination* EnabledDestination(const engine::TableSchema& schema,
                                                     std::string_view arn) {
  for (const auto& d : schema.kinesis_destinations) {
    if (d.enabled && d.stream_arn == arn) return &d;
  }
  return nullptr;
}

// One record as the trigger's target gets it, and as its filters see it.
struct EventRecord {
  std::string json;
  rapidjson::Document filtered;
};

EventRecord StreamEventRecord(const TriggerSpec& spec, const engine::StreamInfo& stream,
                              const std::string& arn, const engine::StreamRecord& record) {
  EventRecord event;
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  WriteStreamRecord(w, record, stream, spec.region, arn, RecordShape::kLambdaEvent);
  event.json.assign(buffer.GetString(), buffer.GetSize());
  event.filtered.Parse(event.json.data(), event.json.size());
  return event;
}

EventRecord KinesisEventRecord(const TriggerSpec& spec, const api::KinesisRecordSource& source,
                               const engine::StreamRecord& record) {
  EventRecord event;
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  api::WriteKinesisLambdaRecord(w, source, record, spec.kinesis_stream_arn);
  event.json.assign(buffer.GetString(), buffer.GetSize());
  rapidjson::StringBuffer view;
  JsonWriter v(view);
  api::WriteKinesisFilterView(v, source, record);
  event.filtered.Parse(view.GetString(), view.GetSize());
  return event;
}

// {"Records": [...]} of the records `spec`'s filters let through, in
// Lambda's event shape for a DynamoDB stream or a Kinesis stream; empty
// when none does. `precision`: the Kinesis destination's.
std::string EventBody(const TriggerSpec& spec, const engine::StreamInfo& stream,
                      const std::string& label, const std::string& precision,
                      const std::vector<engine::StreamRecord>& records, size_t* count) {
  bool kinesis = !spec.kinesis_stream_arn.empty();
  std::string arn = StreamArn(spec.region, "000000000000", spec.table, label);
  api::KinesisRecordSource source{spec.region, spec.table, stream.stream_id, stream.key,
                                  precision};
  std::string body = "{\"Records\":[";
  size_t matched = 0;
  for (const auto& record : records) {
    EventRecord event = kinesis ? KinesisEventRecord(spec, source, record)
                                : StreamEventRecord(spec, stream, arn, record);
    if (!MatchesAny(spec.filters, event.filtered)) continue;
    if (matched++) body += ",";
    body += event.json;
  }
  *count = matched;
  return matched == 0 ? std::string() : body + "]}";
}

}  // namespace

TriggerRunner::TriggerRunner(TriggerSpec spec, engine::Engine& engine, TriggerTransport& transport,
                             const Log& log)
    : spec_(std::move(spec)), engine_(engine), transport_(transport), log_(log) {
  thread_ = std::thread([this] { Run(); });
}

TriggerRunner::~TriggerRunner() {
  RequestStop();
  thread_.join();
}

void TriggerRunner::RequestStop() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cancel_ = true;
  wake_.notify_all();
}

bool TriggerRunner::Wait(milliseconds duration) {
  std::unique_lock lock(mu_);
  wake_.wait_for(lock, duration, [&] { return stop_; });
  return !stop_;
}

bool TriggerRunner::stopped() const {
  std::lock_guard lock(mu_);
  return stop_;
}

void TriggerRunner::SetState(std::string state) {
  std::lock_guard lock(mu_);
  state_ = std::move(state);
}

void TriggerRunner::Run() {
  const TriggerSpec& spec = spec_;
  const std::string checkpoint_key = TriggerCheckpointKey(spec.name);
  // The checkpoint: the stream being read (its label; empty before the
  // first start) and the next sequence number to deliver from it.
  std::string label;
  uint64_t position = 0;
  if (auto saved = engine_.settings().Get(checkpoint_key); saved.ok() && saved->has_value()) {
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
    (void)engine_.settings().Put(checkpoint_key,
                                 spec.table + "\n" + label + "\n" + std::to_string(position));
    std::lock_guard lock(mu_);
    label_ = label;
    position_ = position;
  };
  // When the batch that is filling its batching window was first seen.
  Clock::time_point first_seen{};
  bool filling = false;
  const bool kinesis = !spec.kinesis_stream_arn.empty();
  const engine::StreamKind kind =
      kinesis ? engine::StreamKind::kKinesisFeed : engine::StreamKind::kDynamoDb;
  const std::string waiting =
      kinesis ? "waiting for the Kinesis destination" : "waiting for a stream";
  while (!stopped()) {
    auto table = engine_.database().DescribeTable(spec.ns, spec.table);
    // The stream to follow next: the table's DynamoDB stream, or the feed
    // of its Kinesis destination while that writes to this trigger's stream.
    std::string current, precision;
    if (table.ok() && !kinesis && table->schema.stream.enabled) {
      current = table->schema.stream.label;
    }
    if (table.ok() && kinesis) {
      if (auto d = EnabledDestination(table->schema, spec.kinesis_stream_arn)) {
        precision = d->precision;
        auto feed = engine_.streams().KinesisFeedLabel(spec.ns, spec.table);
        if (feed.ok()) current = *feed;
      }
    }
    if (label.empty()) {
      if (current.empty()) {
        SetState(table.ok() ? waiting : "waiting for the table");
        if (!Wait(kNoStreamInterval)) break;
        continue;
      }
      auto stream = engine_.streams().Describe(spec.ns, spec.table, current, kind);
      if (!stream.ok()) continue;
      label = current;
      position = spec.from_trim_horizon ? stream->info.trim_horizon : stream->next_sequence;
      save_checkpoint();
    }
    auto stream = engine_.streams().Describe(spec.ns, spec.table, label, kind);
    uint64_t writes_seen = engine_.streams().Writes();
    auto read = stream.ok() ? engine_.streams().Read(spec.ns, spec.table, label, "", position,
                                                     static_cast<size_t>(spec.batch_size),
                                                     kMaxBatchBytes, kind)
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
        if (auto next = engine_.streams().Describe(spec.ns, spec.table, current, kind); next.ok()) {
          label = current;
          position = next->info.trim_horizon;
          save_checkpoint();
          continue;
        }
      }
      SetState(waiting);
      if (!Wait(kNoStreamInterval)) break;
      continue;
    }
    if (!read.ok()) {
      if (!Wait(kNoStreamInterval)) break;
      continue;
    }
    {
      std::lock_guard lock(mu_);
      next_sequence_ = stream->next_sequence;
      state_ = "running";
      label_ = label;
      position_ = position;
    }
    if (read->records.empty()) {
      // Woken by the next stream write (the count read before this read, so
      // a write in between is not missed), or after a while to check stop.
      engine_.streams().WaitForWrites(writes_seen, kIdleWaitMillis);
      continue;
    }
    if (spec.batching_window_seconds > 0 && !read->drained &&
        read->records.size() < static_cast<size_t>(spec.batch_size)) {
      if (!filling) first_seen = Clock::now();
      filling = true;
      if (Clock::now() - first_seen < std::chrono::seconds(spec.batching_window_seconds)) {
        if (!Wait(kPollInterval)) break;
        continue;
      }
    }
    filling = false;
    size_t count = 0;
    std::string body = EventBody(spec, stream->info, label, precision, read->records, &count);
    uint64_t first = read->records.front().sequence, last = read->records.back().sequence;
    if (count > 0 && !DeliverWithRetries(body, count, first, last)) break;
    position = read->next_position;
    save_checkpoint();
  }
  SetState("stopped");
}

bool TriggerRunner::DeliverWithRetries(const std::string& body, size_t count, uint64_t first,
                                       uint64_t last) {
  const TriggerSpec& spec = spec_;
  std::string target = spec.url.empty() ? "command `" + spec.command + "`" : spec.url;
  std::string range = "sequence " + std::to_string(first) + ".." + std::to_string(last);
  for (int attempt = 1;; ++attempt) {
    auto started = Clock::now();
    DeliveryOutcome outcome =
        transport_.Deliver(spec.url, spec.command, body, spec.timeout_seconds, cancel_);
    if (cancel_) return false;  // stopped: the checkpoint stays
    auto took = std::chrono::duration_cast<milliseconds>(Clock::now() - started).count();
    if (outcome.ok) {
      log_("trigger " + spec.name + ": delivered " + std::to_string(count) + " record(s), " +
           range + ", to " + target + " in " + std::to_string(took) + " ms");
      std::lock_guard lock(mu_);
      batches_ += 1;
      records_ += count;
      return true;
    }
    log_("trigger " + spec.name + ": delivery failed (attempt " + std::to_string(attempt) +
         ", " + range + "): " + outcome.error);
    {
      std::lock_guard lock(mu_);
      failures_ += 1;
      last_error_ = outcome.error;
      state_ = "retrying";
    }
    // MaximumRetryAttempts counts the retries after the first attempt.
    if (spec.max_retry_attempts >= 0 && attempt > spec.max_retry_attempts) {
      WriteFailure(body, outcome.error, attempt, first, last);
      return true;
    }
    auto backoff = std::min(kMaxBackoff, kFirstBackoff * (1 << std::min(attempt - 1, 10)));
    if (!Wait(backoff)) return false;
  }
}

void TriggerRunner::WriteFailure(const std::string& body, const std::string& error, int attempts,
                                 uint64_t first, uint64_t last) {
  const TriggerSpec& spec = spec_;
  {
    std::lock_guard lock(mu_);
    given_up_ += 1;
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

std::string TriggerRunner::Describe() const {
  std::string label;
  {
    std::lock_guard lock(mu_);
    label = label_;
  }
  // The lag is against the stream as it is now, also while a delivery is
  // being retried.
  uint64_t next_sequence = 0;
  auto kind = spec_.kinesis_stream_arn.empty() ? engine::StreamKind::kDynamoDb
                                               : engine::StreamKind::kKinesisFeed;
  if (auto stream = engine_.streams().Describe(spec_.ns, spec_.table, label, kind); stream.ok()) {
    next_sequence = stream->next_sequence;
  }
  std::lock_guard lock(mu_);
  next_sequence = std::max(next_sequence, next_sequence_);
  return RenderObject([&](JsonWriter& w) {
    w.Key("Definition");
    w.RawValue(spec_.definition.data(), spec_.definition.size(), rapidjson::kObjectType);
    w.Key("State");
    WriteString(w, state_);
    w.Key("StreamLabel");
    WriteString(w, label_);
    w.Key("Position");
    w.Uint64(position_);
    w.Key("Lag");
    w.Uint64(next_sequence > position_ ? next_sequence - position_ : 0);
    w.Key("DeliveredBatches");
    w.Uint64(batches_);
    w.Key("DeliveredRecords");
    w.Uint64(records_);
    w.Key("FailedAttempts");
    w.Uint64(failures_);
    w.Key("GivenUpBatches");
    w.Uint64(given_up_);
    if (!last_error_.empty()) {
      w.Key("LastError");
      WriteString(w, last_error_);
    }
  });
}

}  // namespace ddb::emulator
