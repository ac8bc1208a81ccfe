#include "api/tables/schema_change.h"

namespace ddb::api {

ApiResult<bool> ChangeSchema(Context& ctx, const std::string& table, const SchemaChange& change) {
  std::optional<ApiError> refused;
  auto updated = ctx.db.UpdateTable(ctx.caller.ns, table, [&](engine::TableSchema& schema) {
    refused = change(schema);
    return refused ? engine::Status::InvalidArgument("refused") : engine::Status::Ok();
  });
  if (refused) return *refused;
  if (!updated.ok()) {
    if (updated.status().code() == engine::Status::Code::kNotFound) {
      return engine::TableNotFound(table);
    }
    return updated.status();
  }
  return true;
}

}  // namespace ddb::api
