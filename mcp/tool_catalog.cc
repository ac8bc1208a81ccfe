#include "mcp/tool_catalog.h"

namespace ddb::mcp {
namespace {

// Schemas name the members an agent needs most; every other member of the
// operation's request is accepted as DynamoDB documents it.
constexpr std::string_view kTableOnly =
    R"({"type":"object","properties":{"TableName":{"type":"string"}},"required":["TableName"]})";
constexpr std::string_view kAnyObject = R"({"type":"object","properties":{}})";
constexpr std::string_view kKeyRequest =
    R"({"type":"object","properties":{"TableName":{"type":"string"},"Key":{"type":"object","description":"the primary key in DynamoDB JSON, e.g. {\"pk\":{\"S\":\"a\"}}"}},"required":["TableName","Key"]})";
constexpr std::string_view kQuery =
    R"({"type":"object","properties":{"TableName":{"type":"string"},"IndexName":{"type":"string"},"KeyConditionExpression":{"type":"string"},"FilterExpression":{"type":"string"},"ProjectionExpression":{"type":"string"},"ExpressionAttributeNames":{"type":"object"},"ExpressionAttributeValues":{"type":"object"},"ScanIndexForward":{"type":"boolean"},"Limit":{"type":"integer"},"ExclusiveStartKey":{"type":"object","description":"the previous page's LastEvaluatedKey"}},"required":["TableName","KeyConditionExpression"]})";
constexpr std::string_view kScan =
    R"({"type":"object","properties":{"TableName":{"type":"string"},"IndexName":{"type":"string"},"FilterExpression":{"type":"string"},"ProjectionExpression":{"type":"string"},"ExpressionAttributeNames":{"type":"object"},"ExpressionAttributeValues":{"type":"object"},"Limit":{"type":"integer"},"ExclusiveStartKey":{"type":"object","description":"the previous page's LastEvaluatedKey"}},"required":["TableName"]})";
constexpr std::string_view kRequestItems =
    R"({"type":"object","properties":{"RequestItems":{"type":"object"}},"required":["RequestItems"]})";
constexpr std::string_view kTransactItems =
    R"({"type":"object","properties":{"TransactItems":{"type":"array","items":{"type":"object"}}},"required":["TransactItems"]})";
constexpr std::string_view kStatement =
    R"({"type":"object","properties":{"Statement":{"type":"string","description":"PartiQL, e.g. SELECT * FROM \"ecommerce\" WHERE PK = 'USER#junior'"},"Parameters":{"type":"array","items":{"type":"object"}},"Limit":{"type":"integer"},"NextToken":{"type":"string"}},"required":["Statement"]})";
constexpr std::string_view kSearchVectors =
    R"({"type":"object","properties":{"TableName":{"type":"string"},"IndexName":{"type":"string"},"SearchVector":{"type":"array","items":{"type":"object"},"description":"the query vector as numbers in DynamoDB JSON: [{\"N\":\"0.1\"}, ...]"},"TopK":{"type":"integer"}},"required":["TableName","IndexName","SearchVector"]})";
constexpr std::string_view kStreamArn =
    R"({"type":"object","properties":{"StreamArn":{"type":"string"}},"required":["StreamArn"]})";
constexpr std::string_view kShardIterator =
    R"({"type":"object","properties":{"StreamArn":{"type":"string"},"ShardId":{"type":"string"},"ShardIteratorType":{"type":"string","enum":["TRIM_HORIZON","LATEST","AT_SEQUENCE_NUMBER","AFTER_SEQUENCE_NUMBER"]},"SequenceNumber":{"type":"string"}},"required":["StreamArn","ShardId","ShardIteratorType"]})";
constexpr std::string_view kGetRecords =
    R"({"type":"object","properties":{"ShardIterator":{"type":"string"},"Limit":{"type":"integer"}},"required":["ShardIterator"]})";
constexpr std::string_view kItemWrite =
    R"({"type":"object","properties":{"TableName":{"type":"string"},"Item":{"type":"object","description":"the item in DynamoDB JSON"},"ConditionExpression":{"type":"string"}},"required":["TableName","Item"]})";
constexpr std::string_view kUpdate =
    R"({"type":"object","properties":{"TableName":{"type":"string"},"Key":{"type":"object"},"UpdateExpression":{"type":"string"},"ConditionExpression":{"type":"string"},"ExpressionAttributeNames":{"type":"object"},"ExpressionAttributeValues":{"type":"object"},"ReturnValues":{"type":"string"}},"required":["TableName","Key"]})";

constexpr std::string_view kMoveClock =
    R"({"type":"object","properties":{"AdvanceSeconds":{"type":"number"},"AdvanceMillis":{"type":"integer"},"SetMillis":{"type":"integer","description":"epoch milliseconds"},"Reset":{"type":"boolean","description":"back to the system's time"},"Freeze":{"type":"boolean","description":"a frozen clock moves only when told"}}})";
constexpr std::string_view kReset =
    R"({"type":"object","properties":{"Namespace":{"type":"string","description":"one database: \"\" us-east-1 (everyone with --shared-db), \"<region>\" another region, \"<access key>/<region>\" under --per-key-databases; absent: every database"},"Models":{"type":"boolean","description":"false: leave the database empty instead of loading the preloaded models"}}})";
constexpr std::string_view kSaveSnapshot =
    R"({"type":"object","properties":{"Name":{"type":"string"},"Namespace":{"type":"string","description":"one database only; absent: every database"}},"required":["Name"]})";
constexpr std::string_view kRestoreSnapshot =
    R"({"type":"object","properties":{"Name":{"type":"string"},"Namespace":{"type":"string","description":"restore a one-database snapshot into this other database"}},"required":["Name"]})";
constexpr std::string_view kSnapshotName =
    R"({"type":"object","properties":{"Name":{"type":"string"}},"required":["Name"]})";

constexpr ToolSpec kTools[] = {
    // Reads.
    {"ListTables", ToolKind::kDynamo, false,
     "DynamoDB ListTables: the table names (arguments: DynamoDB's ListTables request, e.g. {}).",
     kAnyObject},
    {"DescribeTable", ToolKind::kDynamo, false,
     "DynamoDB DescribeTable: a table's key schema, indexes, stream and item count.", kTableOnly},
    {"DescribeTimeToLive", ToolKind::kDynamo, false,
     "DynamoDB DescribeTimeToLive: a table's TTL attribute and status.", kTableOnly},
    {"GetItem", ToolKind::kDynamo, false,
     "DynamoDB GetItem: one item by its full primary key (DynamoDB JSON values).", kKeyRequest},
    {"Query", ToolKind::kDynamo, false,
     "DynamoDB Query: items of one partition of a table or index, sorted by sort key. Pages: "
     "pass the answer's LastEvaluatedKey as ExclusiveStartKey.",
     kQuery},
    {"Scan", ToolKind::kDynamo, false,
     "DynamoDB Scan: every item of a table or index, a page at a time. Pages: pass the answer's "
     "LastEvaluatedKey as ExclusiveStartKey.",
     kScan},
    {"BatchGetItem", ToolKind::kDynamo, false,
     "DynamoDB BatchGetItem: up to 100 items by key from one or more tables.", kRequestItems},
    {"TransactGetItems", ToolKind::kDynamo, false,
     "DynamoDB TransactGetItems: up to 100 items read as one consistent snapshot.",
     kTransactItems},
    {"ExecuteStatement", ToolKind::kDynamo, false,
     "DynamoDB ExecuteStatement: one PartiQL statement. SELECT always; INSERT, UPDATE and DELETE "
     "only when the server allows writes.",
     kStatement},
    {"SearchVectors", ToolKind::kDynamo, false,
     "SearchVectors: the TopK items nearest a vector in a table's vector index.", kSearchVectors},
    {"ListStreams", ToolKind::kStreams, false,
     "DynamoDB Streams ListStreams: the streams (optionally of one TableName).", kAnyObject},
    {"DescribeStream", ToolKind::kStreams, false,
     "DynamoDB Streams DescribeStream: a stream's shards and their sequence number ranges.",
     kStreamArn},
    {"GetShardIterator", ToolKind::kStreams, false,
     "DynamoDB Streams GetShardIterator: where to start reading a shard (then GetRecords).",
     kShardIterator},
    {"GetRecords", ToolKind::kStreams, false,
     "DynamoDB Streams GetRecords: change records from a shard iterator; NextShardIterator "
     "continues.",
     kGetRecords},
    {"GetClock", ToolKind::kAdmin, false,
     "localdynamo's clock (the time TTL and streams see): NowMillis, Now, OffsetMillis.",
     kAnyObject},
    {"ListSnapshots", ToolKind::kAdmin, false,
     "localdynamo's named snapshots held by the server: name, database, tables, items, bytes.",
     kAnyObject},
    // Writes: listed and run only with --allow-writes.
    {"PutItem", ToolKind::kDynamo, true, "DynamoDB PutItem: creates or replaces one item.",
     kItemWrite},
    {"UpdateItem", ToolKind::kDynamo, true,
     "DynamoDB UpdateItem: changes one item's attributes with an UpdateExpression.", kUpdate},
    {"DeleteItem", ToolKind::kDynamo, true, "DynamoDB DeleteItem: deletes one item by key.",
     kKeyRequest},
    {"BatchWriteItem", ToolKind::kDynamo, true,
     "DynamoDB BatchWriteItem: up to 25 PutRequest/DeleteRequest over one or more tables.",
     kRequestItems},
    {"TransactWriteItems", ToolKind::kDynamo, true,
     "DynamoDB TransactWriteItems: up to 100 Put/Update/Delete/ConditionCheck, all or none.",
     kTransactItems},
    {"CreateTable", ToolKind::kDynamo, true, "DynamoDB CreateTable.", kTableOnly},
    {"UpdateTable", ToolKind::kDynamo, true,
     "DynamoDB UpdateTable: indexes, streams, throughput.", kTableOnly},
    {"DeleteTable", ToolKind::kDynamo, true, "DynamoDB DeleteTable.", kTableOnly},
    {"UpdateTimeToLive", ToolKind::kDynamo, true,
     "DynamoDB UpdateTimeToLive: turns a table's TTL on or off.", kTableOnly},
    {"MoveClock", ToolKind::kAdmin, true,
     "Moves localdynamo's clock (TTL expiry, stream retention): AdvanceSeconds, AdvanceMillis, "
     "SetMillis or Reset, with or without Freeze. Then Sweep deletes what expired.",
     kMoveClock},
    {"Sweep", ToolKind::kAdmin, true,
     "Runs localdynamo's TTL sweep and stream maintenance now; answers the items it deleted.",
     kAnyObject},
    {"ResetDatabase", ToolKind::kAdmin, true,
     "Drops the tables of one database (Namespace) or of every database, and loads the "
     "preloaded models again (Models: false leaves it empty).",
     kReset},
    {"SaveSnapshot", ToolKind::kAdmin, true,
     "Saves every database, or one (Namespace), as a named snapshot in the server's memory "
     "(gone at restart); a name already taken is replaced.",
     kSaveSnapshot},
    {"RestoreSnapshot", ToolKind::kAdmin, true,
     "Restores a named snapshot: the database's tables become the snapshot's. A one-database "
     "snapshot can be restored into another database (Namespace).",
     kRestoreSnapshot},
    {"DeleteSnapshot", ToolKind::kAdmin, true, "Deletes a named snapshot.", kSnapshotName},
};

}  // namespace

std::span<const ToolSpec> Tools() { return kTools; }

const ToolSpec* FindTool(std::string_view name) {
  for (const ToolSpec& tool : kTools) {
    if (tool.name == name) return &tool;
  }
  return nullptr;
}

}  // namespace ddb::mcp
