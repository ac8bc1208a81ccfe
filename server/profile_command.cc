#include "server/profile_command.h"

#include <utility>  // before Asio: Boost 1.74's awaitable.hpp needs std::exchange

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <rapidjson/document.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string_view>
#include <vector>

#include "emulator/profile/profile_report.h"
#include "server/healthcheck.h"
#include "server/sigv4.h"

namespace ddb::server {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
using tcp = boost::asio::ip::tcp;

constexpr char kUsage[] =
    "usage: localdynamo profile [--endpoint URL] [--region R] [--namespace NS] [--json] "
    "[--reset] [--admin-token T]\n"
    "       localdynamo profile --data-dir DIR [--json]\n";

struct Args {
  std::string endpoint = "http://127.0.0.1:8000";
  std::string data_dir;
  std::string region;
  std::string ns;
  bool has_ns = false;
  std::string admin_token;
  bool json = false;
  bool reset = false;
};

std::optional<Args> ReadArgs(int argc, char** argv) {
  Args args;
  if (const char* token = std::getenv("LOCALDYNAMO_ADMIN_TOKEN")) args.admin_token = token;
  for (int i = 2; i < argc; ++i) {
    std::string_view arg = argv[i];
    auto value = [&](std::string& into) {
      if (i + 1 >= argc) return false;
      into = argv[++i];
      return true;
    };
    bool ok = true;
    if (arg == "--endpoint" || arg == "--endpoint-url") {
      ok = value(args.endpoint);
    } else if (arg == "--data-dir") {
      ok = value(args.data_dir);
    } else if (arg == "--region") {
      ok = value(args.region);
    } else if (arg == "--namespace") {
      ok = args.has_ns = value(args.ns);
    } else if (arg == "--admin-token") {
      ok = value(args.admin_token);
    } else if (arg == "--json") {
      args.json = true;
    } else if (arg == "--reset") {
      args.reset = true;
    } else {
      ok = false;
    }
    if (!ok) return std::nullopt;
  }
  if (!args.data_dir.empty() && args.reset) return std::nullopt;
  return args;
}

// The admin API's answer to `method` on /_localdynamo/profile; sets `error`
// on failure.
std::string Fetch(const Args& args, http::verb method, std::string* error) {
  auto target = ParseHealthCheckUrl(args.endpoint);
  if (!target) {
    *error = "not an http:// endpoint: " + args.endpoint;
    return "";
  }
  std::string path = "/_localdynamo/profile";
  std::string query;
  if (!args.region.empty()) query += "region=" + sigv4::UriEncode(args.region, false);
  if (args.has_ns) query += (query.empty() ? "" : "&") + ("namespace=" + sigv4::UriEncode(args.ns, false));
  if (!query.empty()) path += "?" + query;
  try {
    boost::asio::io_context ioc;
    beast::tcp_stream stream(ioc);
    stream.expires_after(std::chrono::seconds(10));
    tcp::resolver resolver(ioc);
    stream.connect(resolver.resolve(target->host, target->port));
    http::request<http::string_body> request(method, path, 11);
    request.set(http::field::host, target->host + ":" + target->port);
    if (!args.admin_token.empty()) {
      request.set(http::field::authorization, "Bearer " + args.admin_token);
    }
    http::write(stream, request);
    beast::flat_buffer buffer;
    http::response<http::string_body> response;
    http::read(stream, buffer, response);
    if (response.result_int() != 200) {
      *error = "HTTP " + std::to_string(response.result_int()) + ": " + response.body();
      return "";
    }
    return response.body();
  } catch (const std::exception& e) {
    *error = std::string("cannot reach ") + args.endpoint + ": " + e.what();
    return "";
  }
}

double Number(const rapidjson::Value& object, const char* name) {
  auto it = object.FindMember(name);
  return it != object.MemberEnd() && it->value.IsNumber() ? it->value.GetDouble() : 0;
}

std::string Text(const rapidjson::Value& object, const char* name) {
  auto it = object.FindMember(name);
  return it != object.MemberEnd() && it->value.IsString() ? it->value.GetString() : "";
}

std::string Figure(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

std::string Dollars(const rapidjson::Value& object) {
  if (!object.HasMember("Cost")) return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, ", $%.8f", Number(object, "Cost"));
  return buf;
}

std::string Requests(const rapidjson::Value& object) {
  std::string out;
  auto it = object.FindMember("Requests");
  if (it == object.MemberEnd() || !it->value.IsObject()) return out;
  for (const auto& op : it->value.GetObject()) {
    out += (out.empty() ? "" : ", ") + std::string(op.name.GetString()) + " " +
           Figure(op.value.GetDouble());
  }
  return out;
}

// One line per fact a person looks for first.
void PrintSummary(const rapidjson::Document& doc) {
  std::cout << "access profile since " << Text(doc, "Since");
  if (doc.HasMember("Prices")) {
    const auto& prices = doc["Prices"];
    std::cout << ", at " << Text(prices, "Region") << " on-demand prices (read "
              << Text(prices, "Read") << ")";
  }
  std::cout << "\n"
            << Figure(Number(doc, "Requests")) << " requests, " << Figure(Number(doc, "ReadUnits"))
            << " read units, " << Figure(Number(doc, "WriteUnits")) << " write units"
            << Dollars(doc) << "\n";
  if (!doc.HasMember("Databases") || !doc["Databases"].IsArray()) return;
  for (const auto& database : doc["Databases"].GetArray()) {
    std::string ns = Text(database, "Namespace");
    for (const auto& table : database["Tables"].GetArray()) {
      std::cout << "\n" << (ns.empty() ? "" : ns + "/") << Text(table, "TableName") << ": "
                << Figure(Number(table, "ReadUnits")) << " RRU, "
                << Figure(Number(table, "WriteUnits")) << " WRU on the table, "
                << Figure(Number(table, "CapacityUnits")) << " units with its indexes"
                << Dollars(table) << "\n";
      if (std::string requests = Requests(table); !requests.empty()) {
        std::cout << "  requests: " << requests << "\n";
      }
      if (double read = Number(table, "ItemsRead"); read > 0) {
        std::cout << "  filter waste: " << Figure(Number(table, "FilterWaste") * 100) << "% ("
                  << Figure(read) << " items read, " << Figure(Number(table, "ItemsReturned"))
                  << " returned)\n";
      }
      const auto& scans = table["Scans"];
      if (Number(scans, "Count") > 0) {
        std::cout << "  SCANS: " << Figure(Number(scans, "Count")) << ", "
                  << Figure(Number(scans, "ItemsRead")) << " items read, "
                  << Figure(Number(scans, "MeanTableFraction") * 100)
                  << "% of the table each on average\n";
      }
      for (const auto& index : table["Indexes"].GetArray()) {
        std::cout << "  index " << Text(index, "IndexName") << " (" << Text(index, "Kind") << ", "
                  << Text(index, "Projection") << "): ";
        if (index["NeverRead"].GetBool()) std::cout << "NEVER READ; ";
        std::string requests = Requests(index);
        if (!requests.empty()) std::cout << requests << "; ";
        std::cout << Figure(Number(index, "ReadUnits")) << " RRU, "
                  << Figure(Number(index, "WriteUnits")) << " WRU\n";
      }
      const auto& shapes = table["Shapes"].GetArray();
      if (!shapes.Empty()) std::cout << "  most expensive shapes:\n";
      for (const auto& shape : shapes) {
        std::cout << "    " << Figure(Number(shape, "Count")) << " x " << Text(shape, "Operation");
        if (std::string index = Text(shape, "IndexName"); !index.empty()) {
          std::cout << " on " << index;
        }
        if (std::string key = Text(shape, "KeyCondition"); !key.empty()) {
          std::cout << "  key: " << key;
        }
        if (std::string filter = Text(shape, "Filter"); !filter.empty()) {
          std::cout << "  filter: " << filter;
        }
        if (std::string projection = Text(shape, "Projection"); !projection.empty()) {
          std::cout << "  projection: " << projection;
        }
        std::cout << "  (" << Figure(Number(shape, "ReadUnits")) << " RRU, "
                  << Figure(Number(shape, "WriteUnits")) << " WRU)\n";
      }
    }
  }
}

}  // namespace

void SaveProfile(const emulator::AccessProfile& profile, const engine::Database& db,
                 const std::string& data_dir) {
  emulator::ProfileQuery query{.prices = emulator::PricesOf("us-east-1")};
  std::string json = emulator::RenderProfile(profile, db, query);
  std::filesystem::path path = std::filesystem::path(data_dir) / kSavedProfileFile;
  std::filesystem::path partial = path;
  partial += ".partial";
  std::ofstream out(partial, std::ios::binary | std::ios::trunc);
  out << json;
  out.close();
  std::error_code error;
  if (out) std::filesystem::rename(partial, path, error);
  if (!out || error) {
    std::cerr << "localdynamo: cannot save the access profile to " << path.string() << "\n";
    std::filesystem::remove(partial, error);
  }
}

std::optional<int> RunProfileCommandIfAsked(int argc, char** argv) {
  if (argc < 2 || std::string_view(argv[1]) != "profile") return std::nullopt;
  auto args = ReadArgs(argc, argv);
  if (!args) {
    std::cerr << kUsage;
    return 2;
  }
  std::string json;
  std::string error;
  if (!args->data_dir.empty()) {
    std::filesystem::path path = std::filesystem::path(args->data_dir) / kSavedProfileFile;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      std::cerr << "localdynamo: no saved access profile in " << args->data_dir
                << " (a server writes " << kSavedProfileFile << " there when it stops)\n";
      return 1;
    }
    std::stringstream text;
    text << in.rdbuf();
    json = text.str();
  } else {
    json = Fetch(*args, args->reset ? http::verb::delete_ : http::verb::get, &error);
    if (!error.empty()) {
      std::cerr << "localdynamo: " << error << "\n";
      return 1;
    }
    if (args->reset) {
      std::cout << "access profile reset\n";
      return 0;
    }
  }
  if (args->json) {
    std::cout << json << "\n";
    return 0;
  }
  rapidjson::Document doc;
  doc.Parse(json.data(), json.size());
  if (doc.HasParseError() || !doc.IsObject()) {
    std::cerr << "localdynamo: the access profile is not valid JSON\n";
    return 1;
  }
  PrintSummary(doc);
  return 0;
}

}  // namespace ddb::server
