// One PartiQL statement of a request — ExecuteStatement's, or a member of
// BatchExecuteStatement or ExecuteTransaction — read, bound to its
// Parameters, and mapped onto the engine paths the item and Query/Scan
// operations use ("PartiQL - a SQL-compatible query language for Amazon
// DynamoDB" in the developer guide):
//   - SELECT whose WHERE fixes the partition key: a Query of that partition
//     (narrowed by a sort key condition), otherwise a Scan; the whole WHERE
//     then filters what was read, and the projection names each value by
//     the last name of its path, as PartiQL does.
//   - INSERT: a put that fails with DuplicateItemException on an existing
//     item. UPDATE: an update conditioned on the item existing and on the
//     rest of its WHERE. DELETE: a delete conditioned on the rest of its
//     WHERE, a no-op for an absent item.
//
// Thread safety: pure functions of the request; concurrency is the
// Database's.
#pragma once

#include <rapidjson/document.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/capacity.h"
#include "api/context.h"
#include "api/errors.h"
#include "api/items/transact_write.h"
#include "engine/partiql/statement.h"

namespace ddb::api {

// DynamoDB's limit on a statement's length.
inline constexpr size_t kMaxStatementLength = 8192;

// A statement's text and its Parameters, read and checked.
struct StatementRequest {
  std::string_view text;  // refers into the request document
  std::vector<engine::AttributeValue> parameters;
};

// Reads the Statement and Parameters members of `object`, with DynamoDB's
// checks (a parameter number BigDecimal cannot read: "The parameter cannot be
// converted to a numeric value: <text>"). `path` prefixes the members in
// constraint messages ("" for ExecuteStatement).
ApiResult<StatementRequest> ReadStatementRequest(const rapidjson::Value& object,
                                                 const std::string& path);

// Parses the statement of `request` with its parameters bound. A statement
// that does not parse but reads a multi-attribute index of a table of `ctx`
// gets DynamoDB's refusal of such indexes instead of the parse error.
ApiResult<engine::partiql::Statement> ParseStatementRequest(Context& ctx,
                                                            const StatementRequest& request);

// ReadStatementRequest, then ParseStatementRequest.
ApiResult<engine::partiql::Statement> ReadStatement(Context& ctx, const rapidjson::Value& object,
                                                    const std::string& path);

// Where a page of a SELECT resumes: the partition read (a SELECT may read
// several, one after the other) and the key after which it continues.
struct SelectPosition {
  size_t partition = 0;
  std::optional<engine::Item> exclusive_start_key;
};

struct SelectOptions {
  bool consistent = false;
  size_t limit = 0;  // items evaluated per page; 0: none
  SelectPosition start;
};

struct SelectResult {
  std::vector<engine::Item> items;
  std::optional<SelectPosition> next;  // set when the read stopped early
  Consumption consumption;
};

// Runs a SELECT as one page of Queries (one per partition its WHERE names)
// or of a Scan.
ApiResult<SelectResult> RunSelect(Context& ctx, const engine::partiql::SelectStatement& select,
                                  const SelectOptions& options);

// A SELECT that names one item by its whole key (BatchExecuteStatement and
// ExecuteTransaction reads): the key, and how to shape the item read.
struct KeyedSelect {
  std::shared_ptr<const engine::TableSchema> schema;
  engine::Item key;
  const engine::partiql::SelectStatement* select = nullptr;
};

// `missing_key` is the message when the WHERE does not fix the whole key or
// the SELECT names an index.
ApiResult<KeyedSelect> ReadByKey(Context& ctx, const engine::partiql::SelectStatement& select,
                                 std::string_view missing_key);

// The item a SELECT yields from `item`: nullopt when its WHERE rejects it,
// else the item projected onto the SELECT list.
std::optional<engine::Item> SelectFrom(const engine::partiql::SelectStatement& select,
                                       const engine::Item& item);

// A write statement (INSERT, UPDATE, DELETE) as a single-item action.
// `old_item_on_failure`: ReturnValuesOnConditionCheckFailure is ALL_OLD.
ApiResult<TransactAction> WriteAction(Context& ctx, const engine::partiql::Statement& statement,
                                      bool old_item_on_failure);

struct WriteResult {
  std::optional<engine::Item> returned;  // what RETURNING asked for, when not empty
  Consumption consumption;
};

// Runs one write action on its own (not transactionally), as PutItem,
// UpdateItem and DeleteItem would.
ApiResult<WriteResult> RunWrite(Context& ctx, const TransactAction& action);

}  // namespace ddb::api
