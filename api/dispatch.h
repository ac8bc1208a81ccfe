// Dispatch: one DynamoDB request in, one response out — the api layer's
// entry point, free of sockets so tests and fixtures call it directly.
//
// Parses the body, routes "DynamoDB_20120810.<Operation>" to its handler and
// renders the result or the error (errors.h). Never throws for bad input.
//
// Thread safety: safe for concurrent calls; the Engine must outlive them.
#pragma once

#include <string>
#include <string_view>

#include "api/context.h"

namespace ddb::api {

struct Response {
  int http_status = 200;
  std::string body;
};

struct AccessRecord;

// `target` is the X-Amz-Target header's value. With a `record`, a request
// that succeeds also says in it what it read and wrote (access_record.h).
Response Dispatch(engine::Engine& engine, const Caller& caller, std::string_view target,
                  std::string_view body, AccessRecord* record = nullptr);

// The answers to requests that never reach an operation.
Response UnknownOperationResponse();
Response MissingAuthenticationTokenResponse();

// Whether `target` names an operation this server implements.
bool IsKnownTarget(std::string_view target);

}  // namespace ddb::api
