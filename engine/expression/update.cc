#include "engine/expression/update.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_set>
#include <utility>

#include "engine/expression/document_path.h"

namespace ddb::engine::expr {
namespace {

constexpr std::string_view kMissingAttribute =
    "The provided expression refers to an attribute that does not exist in the item";
constexpr std::string_view kWrongType =
    "An operand in the update expression has an incorrect data type";
constexpr std::string_view kInvalidPath =
    "The document path provided in the update expression is invalid for update";

Status Invalid(std::string_view message) { return Status::InvalidArgument(std::string(message)); }

// Where the last step of a path lives: a key of a map (the item itself for
// a top-level attribute) or a position in a list.
struct Slot {
  Map* map = nullptr;
  List* list = nullptr;
  std::string_view name;
  uint32_t index = 0;

  AttributeValue* Get() const {
    if (map) {
      auto it = map->find(name);
      return it == map->end() ? nullptr : &it->second;
    }
    return index < list->size() ? &(*list)[index] : nullptr;
  }
  void Set(AttributeValue value) const {
    if (map) {
      map->insert_or_assign(std::string(name), std::move(value));
    } else if (index < list->size()) {
      (*list)[index] = std::move(value);
    } else {
      list->push_back(std::move(value));  // beyond the end: append
    }
  }
  void Remove() const {
    if (map) {
      auto it = map->find(name);
      if (it != map->end()) map->erase(it);
    } else if (index < list->size()) {
      list->erase(list->begin() + index);
    }
  }
};

// The slot of `path` in *item; every step before the last must exist and be
// a map (before a name) or a list (before an index).
Result<Slot> Locate(Item* item, const Path& path) {
  Map* map = item;
  List* list = nullptr;
  for (size_t i = 0; i + 1 < path.elements.size(); ++i) {
    const PathElement& step = path.elements[i];
    AttributeValue* next = Slot{map, list, step.name, step.index}.Get();
    if (step.is_index != (list != nullptr) || next == nullptr) return Invalid(kInvalidPath);
    const PathElement& following = path.elements[i + 1];
    map = nullptr;
    list = nullptr;
    if (following.is_index && next->is<List>()) {
      list = &next->as<List>();
    } else if (!following.is_index && next->is<Map>()) {
      map = &next->as<Map>();
    } else {
      return Invalid(kInvalidPath);
    }
  }
  const PathElement& last = path.elements.back();
  if (last.is_index != (list != nullptr)) return Invalid(kInvalidPath);
  return Slot{map, list, last.name, last.index};
}

Result<AttributeValue> EvaluateTerm(const Operand& term, const Item& item);

Result<AttributeValue> EvaluateFunction(const Operand& call, const Item& item) {
  if (call.function == "if_not_exists") {
    if (const AttributeValue* present = FindPath(item, call.args[0].path)) return *present;
    return EvaluateTerm(call.args[1], item);
  }
  // list_append
  auto first = EvaluateTerm(call.args[0], item);
  if (!first.ok()) return first;
  auto second = EvaluateTerm(call.args[1], item);
  if (!second.ok()) return second;
  if (!first->is<List>() || !second->is<List>()) return Invalid(kWrongType);
  // Nested list_appends can double a list per call: stop as soon as the
  // result could not be stored anyway.
  if (AttributeSize(*first) + AttributeSize(*second) > kMaxItemBytes) {
    return Invalid("Item size to update has exceeded the maximum allowed size");
  }
  List joined = std::move(first->as<List>());
  for (auto& element : second->as<List>()) joined.push_back(std::move(element));
  return AttributeValue(std::move(joined));
}

Result<AttributeValue> EvaluateTerm(const Operand& term, const Item& item) {
  switch (term.kind) {
    case Operand::Kind::kValue:
      return term.value;
    case Operand::Kind::kPath: {
      const AttributeValue* value = FindPath(item, term.path);
      if (value == nullptr) return Invalid(kMissingAttribute);
      return *value;
    }
    case Operand::Kind::kFunction:
      return EvaluateFunction(term, item);
    case Operand::Kind::kPlus:
    case Operand::Kind::kMinus: {
      auto left = EvaluateTerm(term.args[0], item);
      if (!left.ok()) return left;
      auto right = EvaluateTerm(term.args[1], item);
      if (!right.ok()) return right;
      if (!left->is<Number>() || !right->is<Number>()) return Invalid(kWrongType);
      auto result = term.kind == Operand::Kind::kPlus
                        ? Number::Add(left->as<Number>(), right->as<Number>())
                        : Number::Subtract(left->as<Number>(), right->as<Number>());
      if (!result.ok()) return result.status();
      return AttributeValue(std::move(result).value());
    }
  }
  return Invalid(kWrongType);
}

// a ∪ b, keeping a's order and appending b's new elements; hashed, so a
// large operand costs linear time under the table's lock.
template <class Set>
AttributeValue Union(Set a, const Set& b) {
  std::unordered_set<std::string> seen;
  for (const auto& v : a.values) seen.insert(SetElementKey(v));
  for (const auto& v : b.values) {
    if (seen.insert(SetElementKey(v)).second) a.values.push_back(v);
  }
  return AttributeValue(std::move(a));
}

// a \ b; nullopt when nothing is left (an empty set cannot be stored).
template <class Set>
std::optional<AttributeValue> Difference(Set a, const Set& b) {
  std::unordered_set<std::string> removed;
  for (const auto& v : b.values) removed.insert(SetElementKey(v));
  std::erase_if(a.values, [&](const auto& v) { return removed.contains(SetElementKey(v)); });
  if (a.values.empty()) return std::nullopt;
  return AttributeValue(std::move(a));
}

Result<AttributeValue> Add(const AttributeValue* current, const AttributeValue& operand) {
  if (current == nullptr) return operand;  // numbers start from zero, sets from empty
  if (current->type() != operand.type()) return Invalid(kWrongType);
  switch (operand.type()) {
    case AttributeType::kN: {
      auto sum = Number::Add(current->as<Number>(), operand.as<Number>());
      if (!sum.ok()) return sum.status();
      return AttributeValue(std::move(sum).value());
    }
    case AttributeType::kSS: return Union(current->as<StringSet>(), operand.as<StringSet>());
    case AttributeType::kNS: return Union(current->as<NumberSet>(), operand.as<NumberSet>());
    case AttributeType::kBS: return Union(current->as<BinarySet>(), operand.as<BinarySet>());
    case AttributeType::kL: {  // legacy AttributeUpdates ADD appends to lists
      List joined = current->as<List>();
      for (const auto& v : operand.as<List>()) joined.push_back(v);
      return AttributeValue(std::move(joined));
    }
    default: return Invalid(kWrongType);
  }
}

// DELETE: nullopt when the set ends up empty (the attribute goes away).
Result<std::optional<AttributeValue>> Delete(const AttributeValue& current,
                                             const AttributeValue& operand) {
  if (current.type() != operand.type()) return Invalid(kWrongType);
  switch (operand.type()) {
    case AttributeType::kSS: return Difference(current.as<StringSet>(), operand.as<StringSet>());
    case AttributeType::kNS: return Difference(current.as<NumberSet>(), operand.as<NumberSet>());
    case AttributeType::kBS: return Difference(current.as<BinarySet>(), operand.as<BinarySet>());
    default: return Invalid(kWrongType);
  }
}

bool IsSet(const AttributeValue& v) {
  return v.is<StringSet>() || v.is<NumberSet>() || v.is<BinarySet>();
}

// Path order with list indexes compared as numbers.
bool PathLess(const Path* a, const Path* b) {
  return std::lexicographical_compare(
      a->elements.begin(), a->elements.end(), b->elements.begin(), b->elements.end(),
      [](const PathElement& x, const PathElement& y) {
        if (x.is_index != y.is_index) return x.is_index < y.is_index;
        return x.is_index ? x.index < y.index : x.name < y.name;
      });
}

}  // namespace

Status CheckUpdate(const Update& update, const std::vector<std::string>& key_attributes) {
  for (const UpdateAction& action : update.actions) {
    const std::string& top = action.path.elements.front().name;
    if (std::find(key_attributes.begin(), key_attributes.end(), top) != key_attributes.end()) {
      return Status::InvalidArgument("One or more parameter values were invalid: Cannot update attribute " +
                                     top + ". This attribute is part of the key");
    }
  }
  return Status::Ok();
}

Status ApplyUpdate(const Update& update, Item* item) {
  // Every SET value comes from the item as it was.
  std::vector<AttributeValue> set_values;
  std::map<const UpdateAction*, size_t> set_index;
  for (const UpdateAction& action : update.actions) {
    if (action.kind != UpdateAction::Kind::kSet) continue;
    auto value = EvaluateTerm(action.value, *item);
    if (!value.ok()) return value.status();
    set_index[&action] = set_values.size();
    set_values.push_back(std::move(value).value());
  }
  // SET, ADD and DELETE apply in path order, whatever order the expression
  // lists them in, so list positions beyond the end append in index order.
  std::vector<const UpdateAction*> writes;
  for (const UpdateAction& action : update.actions) {
    if (action.kind != UpdateAction::Kind::kRemove) writes.push_back(&action);
  }
  std::stable_sort(writes.begin(), writes.end(), [](const UpdateAction* a, const UpdateAction* b) {
    return PathLess(&a->path, &b->path);
  });
  std::vector<const Path*> removals;
  for (const UpdateAction& action : update.actions) {
    if (action.kind == UpdateAction::Kind::kRemove) removals.push_back(&action.path);
  }
  for (const UpdateAction* write : writes) {
    const UpdateAction& action = *write;
    auto slot = Locate(item, action.path);
    if (!slot.ok()) return slot.status();
    AttributeValue* current = slot->Get();
    if (action.kind == UpdateAction::Kind::kSet) {
      slot->Set(std::move(set_values[set_index.at(&action)]));
    } else if (action.kind == UpdateAction::Kind::kAdd) {
      auto sum = Add(current, action.value.value);
      if (!sum.ok()) return sum.status();
      slot->Set(std::move(sum).value());
    } else if (current != nullptr) {  // DELETE from a missing set does nothing
      auto rest = Delete(*current, action.value.value);
      if (!rest.ok()) return rest.status();
      if (*rest) {
        slot->Set(std::move(**rest));
      } else {
        slot->Remove();
      }
    } else if (!IsSet(action.value.value)) {
      return Invalid(kWrongType);
    }
  }
  // Descending, so removing several elements of one list uses the positions
  // they had before.
  std::sort(removals.begin(), removals.end(),
            [](const Path* a, const Path* b) { return PathLess(b, a); });
  for (const Path* path : removals) {
    auto slot = Locate(item, *path);
    if (!slot.ok()) return slot.status();
    slot->Remove();
  }
  return Status::Ok();
}

bool RemovesOnly(const Update& update) {
  return std::all_of(update.actions.begin(), update.actions.end(), [](const UpdateAction& a) {
    return a.kind == UpdateAction::Kind::kRemove || a.kind == UpdateAction::Kind::kDelete;
  });
}

std::vector<const Path*> UpdatedPaths(const Update& update) {
  std::vector<const Path*> paths;
  for (const UpdateAction& action : update.actions) paths.push_back(&action.path);
  return paths;
}

}  // namespace ddb::engine::expr
