#include "engine/expression/document_path.h"

#include <map>
#include <optional>
#include <string>

namespace ddb::engine::expr {
namespace {

// The union of the projected paths as a tree.
struct ProjectionNode {
  bool whole = false;  // a path ends here: take the whole value
  std::map<std::string, ProjectionNode, std::less<>> names;
  std::map<uint32_t, ProjectionNode> indexes;
};

std::optional<AttributeValue> ProjectValue(const AttributeValue& value,
                                           const ProjectionNode& node) {
  if (node.whole) return value;
  if (value.is<Map>() && !node.names.empty()) {
    Map out;
    const Map& map = value.as<Map>();
    for (const auto& [name, child] : node.names) {
      auto it = map.find(name);
      if (it == map.end()) continue;
      if (auto part = ProjectValue(it->second, child)) out.emplace(name, std::move(*part));
    }
    if (!out.empty()) return AttributeValue(std::move(out));
  } else if (value.is<List>() && !node.indexes.empty()) {
    List out;
    const List& list = value.as<List>();
    for (const auto& [index, child] : node.indexes) {
      if (index >= list.size()) break;
      if (auto part = ProjectValue(list[index], child)) out.push_back(std::move(*part));
    }
    if (!out.empty()) return AttributeValue(std::move(out));
  }
  return std::nullopt;
}

}  // namespace

std::string PathToString(const Path& path) {
  std::string out = "[";
  for (size_t i = 0; i < path.elements.size(); ++i) {
    if (i > 0) out += ", ";
    const PathElement& e = path.elements[i];
    out += e.is_index ? "[" + std::to_string(e.index) + "]" : e.name;
  }
  return out + "]";
}

std::string_view ComparatorText(Comparator op) {
  static constexpr std::string_view kTexts[] = {"=", "<>", "<", "<=", ">", ">="};
  return kTexts[static_cast<int>(op)];
}

const AttributeValue* FindPath(const Item& item, const Path& path) {
  auto top = item.find(path.elements.front().name);
  if (top == item.end()) return nullptr;
  const AttributeValue* value = &top->second;
  for (size_t i = 1; i < path.elements.size(); ++i) {
    const PathElement& step = path.elements[i];
    if (step.is_index) {
      if (!value->is<List>() || step.index >= value->as<List>().size()) return nullptr;
      value = &value->as<List>()[step.index];
    } else {
      if (!value->is<Map>()) return nullptr;
      auto it = value->as<Map>().find(step.name);
      if (it == value->as<Map>().end()) return nullptr;
      value = &it->second;
    }
  }
  return value;
}

Status CheckPathsDisjoint(const std::vector<const Path*>& paths, std::string_view parameter) {
  for (size_t i = 0; i < paths.size(); ++i) {
    for (size_t j = i + 1; j < paths.size(); ++j) {
      const auto& a = paths[i]->elements;
      const auto& b = paths[j]->elements;
      size_t common = std::min(a.size(), b.size());
      size_t k = 0;
      while (k < common && a[k] == b[k]) ++k;
      std::string what;
      if (k == common) {
        what = "overlap";
      } else if (a[k].is_index != b[k].is_index) {
        what = "conflict";
      } else {
        continue;
      }
      return Status::InvalidArgument(
          "Invalid " + std::string(parameter) + ": Two document paths " + what +
          " with each other; must remove or rewrite one of these paths; path one: " +
          PathToString(*paths[i]) + ", path two: " + PathToString(*paths[j]));
    }
  }
  return Status::Ok();
}

Item Project(const Item& item, const std::vector<const Path*>& paths) {
  ProjectionNode root;
  for (const Path* path : paths) {
    ProjectionNode* node = &root;
    for (const PathElement& step : path->elements) {
      node = step.is_index ? &node->indexes[step.index] : &node->names[step.name];
    }
    node->whole = true;
  }
  Item out;
  for (const auto& [name, child] : root.names) {
    auto it = item.find(name);
    if (it == item.end()) continue;
    if (auto part = ProjectValue(it->second, child)) out.emplace(name, std::move(*part));
  }
  return out;
}

}  // namespace ddb::engine::expr

namespace ddb::engine::expr {

Item Project(const Item& item, const Projection& projection) {
  std::vector<const Path*> paths;
  for (const Path& path : projection.paths) paths.push_back(&path);
  return Project(item, paths);
}

namespace {

void CollectOperandNames(const Operand& operand, std::set<std::string>* names) {
  if (operand.kind == Operand::Kind::kPath) names->insert(operand.path.elements.front().name);
  for (const auto& arg : operand.args) CollectOperandNames(arg, names);
}

}  // namespace

std::set<std::string> AttributesRead(const Condition& condition) {
  std::set<std::string> names;
  std::vector<const Condition*> pending{&condition};
  while (!pending.empty()) {
    const Condition* c = pending.back();
    pending.pop_back();
    for (const auto& operand : c->operands) CollectOperandNames(operand, &names);
    for (const auto& child : c->children) pending.push_back(&child);
  }
  return names;
}

}  // namespace ddb::engine::expr
