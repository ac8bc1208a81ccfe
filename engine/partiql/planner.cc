#include "engine/partiql/planner.h"

#include <algorithm>
#include <set>

#include "engine/expression/evaluate.h"
#include "engine/key_validation.h"

namespace ddb::engine::partiql {
namespace {

using expr::Comparator;
using expr::Condition;
using expr::Operand;
using Op = SortKeyCondition::Op;

// The conditions ANDed together at the top of `where`, in order.
void Conjuncts(const Condition& where, std::vector<const Condition*>* out) {
  if (where.kind == Condition::Kind::kAnd) {
    for (const Condition& child : where.children) Conjuncts(child, out);
    return;
  }
  out->push_back(&where);
}

// The top-level attribute an operand names, or nullptr (nested path, value).
const std::string* AttributeOf(const Operand& operand) {
  if (operand.kind != Operand::Kind::kPath || operand.path.elements.size() != 1) return nullptr;
  return &operand.path.elements.front().name;
}

// `attribute <op> value` or `value <op> attribute` (op mirrored), as a
// condition on one key attribute.
struct KeyTerm {
  const std::string* attribute = nullptr;
  Op op = Op::kNone;
  AttributeValue low;
  AttributeValue high;
};

Op ToOp(Comparator comparator, bool mirrored) {
  switch (comparator) {
    case Comparator::kEq:
      return Op::kEq;
    case Comparator::kLt:
      return mirrored ? Op::kGt : Op::kLt;
    case Comparator::kLe:
      return mirrored ? Op::kGe : Op::kLe;
    case Comparator::kGt:
      return mirrored ? Op::kLt : Op::kGt;
    case Comparator::kGe:
      return mirrored ? Op::kLe : Op::kGe;
    case Comparator::kNe:
      break;
  }
  return Op::kNone;
}

std::optional<KeyTerm> AsKeyTerm(const Condition& condition) {
  const auto& ops = condition.operands;
  KeyTerm term;
  switch (condition.kind) {
    case Condition::Kind::kCompare: {
      bool mirrored = AttributeOf(ops[0]) == nullptr;
      const Operand& path = mirrored ? ops[1] : ops[0];
      const Operand& value = mirrored ? ops[0] : ops[1];
      term.attribute = AttributeOf(path);
      if (!term.attribute || value.kind != Operand::Kind::kValue) return std::nullopt;
      term.op = ToOp(condition.op, mirrored);
      term.low = value.value;
      break;
    }
    case Condition::Kind::kBetween:
      term.attribute = AttributeOf(ops[0]);
      if (ops[1].kind != Operand::Kind::kValue || ops[2].kind != Operand::Kind::kValue) {
        return std::nullopt;
      }
      term.op = Op::kBetween;
      term.low = ops[1].value;
      term.high = ops[2].value;
      break;
    case Condition::Kind::kFunction:
      if (condition.function != "begins_with") return std::nullopt;
      term.attribute = AttributeOf(ops[0]);
      if (ops[1].kind != Operand::Kind::kValue) return std::nullopt;
      term.op = Op::kBeginsWith;
      term.low = ops[1].value;
      break;
    default:
      return std::nullopt;
  }
  if (!term.attribute || term.op == Op::kNone) return std::nullopt;
  return term;
}

// Whether `term` can bound a read of `element`: its values have the
// element's type, BETWEEN's bounds are in order, begins_with is on a string
// or binary.
bool Usable(const KeyTerm& term, const KeyElement& element) {
  if (!HasScalarType(term.low, element.type)) return false;
  if (term.op == Op::kBetween) {
    if (!HasScalarType(term.high, element.type)) return false;
    auto order = expr::CompareScalars(term.low, term.high);
    return order && *order <= 0;
  }
  return term.op != Op::kBeginsWith || element.type != ScalarType::kN;
}

const KeyTerm* FindTerm(const std::vector<KeyTerm>& terms, const KeyElement& element,
                        bool equality) {
  for (const KeyTerm& term : terms) {
    if (*term.attribute != element.name || !Usable(term, element)) continue;
    if ((term.op == Op::kEq) == equality) return &term;
  }
  return nullptr;
}

// The values `conjuncts` allow for `element`: an equality's value, or the
// values of an IN over constants, all of the element's type.
// The disjuncts ORed together at the top of `condition`, in order.
void Disjuncts(const Condition& condition, std::vector<const Condition*>* out) {
  if (condition.kind == Condition::Kind::kOr) {
    for (const Condition& child : condition.children) Disjuncts(child, out);
    return;
  }
  out->push_back(&condition);
}

// The constants `c` allows for `element`: `element IN (v, ...)` or
// `element = v OR element = w ...`; empty when `c` is neither, or a value
// has another type than the element's.
std::vector<AttributeValue> ListedValues(const Condition& c, const KeyElement& element) {
  std::vector<const Operand*> candidates;
  if (c.kind == Condition::Kind::kIn) {
    const std::string* attribute = AttributeOf(c.operands[0]);
    if (!attribute || *attribute != element.name) return {};
    for (size_t i = 1; i < c.operands.size(); ++i) candidates.push_back(&c.operands[i]);
  } else if (c.kind == Condition::Kind::kOr) {
    std::vector<const Condition*> branches;
    Disjuncts(c, &branches);
    for (const Condition* branch : branches) {
      auto term = AsKeyTerm(*branch);
      if (!term || term->op != Op::kEq || *term->attribute != element.name) return {};
      candidates.push_back(&branch->operands[AttributeOf(branch->operands[0]) ? 1 : 0]);
    }
  }
  std::vector<AttributeValue> values;
  for (const Operand* candidate : candidates) {
    if (candidate->kind != Operand::Kind::kValue ||
        !HasScalarType(candidate->value, element.type)) {
      return {};
    }
    if (std::find(values.begin(), values.end(), candidate->value) == values.end()) {
      values.push_back(candidate->value);
    }
  }
  return values;
}

// The values `conjuncts` allow for `element`: an equality's value, or the
// values an IN or an OR of equalities lists.
std::vector<AttributeValue> PartitionValues(const std::vector<const Condition*>& conjuncts,
                                            const std::vector<KeyTerm>& terms,
                                            const KeyElement& element) {
  if (const KeyTerm* equal = FindTerm(terms, element, true)) return {equal->low};
  for (const Condition* c : conjuncts) {
    std::vector<AttributeValue> values = ListedValues(*c, element);
    if (!values.empty()) return values;
  }
  return {};
}

// Ranges of the same partition read it whole, once.
std::vector<KeyRange> MergePartitions(std::vector<KeyRange> ranges) {
  std::vector<KeyRange> merged;
  for (KeyRange& range : ranges) {
    auto same = std::find_if(merged.begin(), merged.end(),
                             [&](const KeyRange& r) { return r.partition == range.partition; });
    if (same == merged.end()) {
      merged.push_back(std::move(range));
    } else {
      same->sort = SortKeyCondition{};
    }
  }
  return merged;
}

SortKeyCondition PlanSort(const std::vector<KeyTerm>& terms, const KeySchema& key) {
  SortKeyCondition sort;
  // Sort attributes left to right: equalities, then at most one range.
  for (const KeyElement& element : key.range) {
    if (const KeyTerm* equal = FindTerm(terms, element, true)) {
      sort.equal.push_back(equal->low);
      continue;
    }
    if (const KeyTerm* bound = FindTerm(terms, element, false)) {
      sort.op = bound->op;
      sort.low = bound->low;
      sort.high = bound->high;
    }
    break;
  }
  // The engine reads a final equality as the condition's operator.
  if (sort.op == Op::kNone && !sort.equal.empty()) {
    sort.op = Op::kEq;
    sort.low = std::move(sort.equal.back());
    sort.equal.pop_back();
  }
  return sort;
}

// The ranges of one conjunction (a WHERE without a top-level OR).
std::vector<KeyRange> PlanConjunction(const Condition& where, const KeySchema& key) {
  std::vector<const Condition*> conjuncts;
  Conjuncts(where, &conjuncts);
  std::vector<KeyTerm> terms;
  for (const Condition* c : conjuncts) {
    if (auto term = AsKeyTerm(*c)) terms.push_back(std::move(*term));
  }
  // Every combination of the partition attributes' values.
  std::vector<std::vector<AttributeValue>> partitions{{}};
  for (const KeyElement& element : key.hash) {
    std::vector<AttributeValue> values = PartitionValues(conjuncts, terms, element);
    if (values.empty() || partitions.size() * values.size() > kMaxPartitionReads) return {};
    std::vector<std::vector<AttributeValue>> extended;
    for (const auto& prefix : partitions) {
      for (const AttributeValue& value : values) {
        extended.push_back(prefix);
        extended.back().push_back(value);
      }
    }
    partitions = std::move(extended);
  }
  SortKeyCondition sort = PlanSort(terms, key);
  std::vector<KeyRange> ranges;
  for (auto& partition : partitions) ranges.push_back(KeyRange{std::move(partition), sort});
  return ranges;
}

bool IsElement(const std::vector<KeyElement>& elements, const std::string& name) {
  return std::any_of(elements.begin(), elements.end(),
                     [&](const KeyElement& e) { return e.name == name; });
}

void CollectAttributes(const Operand& operand, std::set<std::string>* names) {
  if (operand.kind == Operand::Kind::kPath) names->insert(operand.path.elements.front().name);
  for (const Operand& arg : operand.args) CollectAttributes(arg, names);
}

// The top-level attributes `condition` reads.
void CollectAttributes(const Condition& condition, std::set<std::string>* names) {
  for (const Operand& operand : condition.operands) CollectAttributes(operand, names);
  for (const Condition& child : condition.children) CollectAttributes(child, names);
}

// What one OR branch reads: its partitions, whether a sort key condition
// narrows them, and whether it filters on attributes outside the key.
struct BranchShape {
  std::vector<KeyRange> ranges;
  bool sort_range = false;
  bool non_key_filter = false;
};

BranchShape ShapeOf(const Condition& branch, const KeySchema& key) {
  BranchShape shape;
  shape.ranges = PlanConjunction(branch, key);
  for (const KeyRange& range : shape.ranges) {
    shape.sort_range = shape.sort_range || range.sort.op != Op::kNone;
  }
  std::set<std::string> names;
  CollectAttributes(branch, &names);
  for (const std::string& name : names) {
    bool is_key = std::any_of(key.hash.begin(), key.hash.end(),
                              [&](const KeyElement& e) { return e.name == name; }) ||
                  std::any_of(key.range.begin(), key.range.end(),
                              [&](const KeyElement& e) { return e.name == name; });
    shape.non_key_filter = shape.non_key_filter || !is_key;
  }
  return shape;
}

bool SharePartition(const BranchShape& a, const BranchShape& b) {
  for (const KeyRange& x : a.ranges) {
    for (const KeyRange& y : b.ranges) {
      if (x.partition == y.partition) return true;
    }
  }
  return false;
}

}  // namespace

Status CheckBranchesDoNotOverlap(const Condition& where, const KeySchema& key) {
  std::vector<const Condition*> disjuncts;
  Disjuncts(where, &disjuncts);
  if (disjuncts.size() < 2) return Status::Ok();
  std::vector<BranchShape> shapes;
  for (const Condition* branch : disjuncts) {
    shapes.push_back(ShapeOf(*branch, key));
    if (shapes.back().ranges.empty()) return Status::Ok();  // a scan: nothing to overlap
  }
  for (size_t i = 0; i < shapes.size(); ++i) {
    for (size_t j = 0; j < shapes.size(); ++j) {
      if (i == j || !shapes[i].sort_range || !shapes[j].non_key_filter) continue;
      if (SharePartition(shapes[i], shapes[j])) {
        return Status::InvalidArgument(
            "Overlapping conditions with range keys are not supported in where clause");
      }
    }
  }
  return Status::Ok();
}

std::vector<KeyRange> PlanKeyRanges(const Condition& where, const KeySchema& key) {
  // Each branch of a top-level OR must pin its partitions, or all is a scan.
  std::vector<const Condition*> branches;
  Disjuncts(where, &branches);
  std::vector<KeyRange> ranges;
  for (const Condition* branch : branches) {
    std::vector<KeyRange> more = PlanConjunction(*branch, key);
    if (more.empty()) return {};
    for (KeyRange& range : more) ranges.push_back(std::move(range));
  }
  ranges = MergePartitions(std::move(ranges));
  if (ranges.size() > kMaxPartitionReads) return {};
  return ranges;
}

Result<bool> ApplyOrderBy(const SelectStatement& select, const KeySchema& key,
                          std::vector<KeyRange>& ranges) {
  if (select.order_by.empty()) return true;
  if (!select.where) {
    return Status::InvalidArgument(
        "Must have WHERE clause in the statement when using ORDER BY clause.");
  }
  bool forward = true;
  std::optional<bool> partitions_descending;
  for (const OrderTerm& term : select.order_by) {
    if (IsElement(key.hash, term.attribute)) {
      if (!partitions_descending) partitions_descending = term.descending;
    } else if (IsElement(key.range, term.attribute)) {
      forward = !term.descending;
    } else {
      return Status::InvalidArgument("Variable reference " + term.attribute +
                                     " in ORDER BY clause must be part of the primary key");
    }
  }
  if (ranges.empty()) {
    return Status::InvalidArgument(
        "Must have at least one non-optional hash key condition in WHERE clause when using "
        "ORDER BY clause.");
  }
  if (ranges.size() > 1 && !partitions_descending) {
    return Status::InvalidArgument(
        "Must have hash key in ORDER BY clause when more than one hash key condition specified "
        "in WHERE clause.");
  }
  if (partitions_descending) {
    bool descending = *partitions_descending;
    std::stable_sort(ranges.begin(), ranges.end(), [&](const auto& a, const auto& b) {
      for (size_t i = 0; i < a.partition.size(); ++i) {
        int order = expr::CompareScalars(a.partition[i], b.partition[i]).value_or(0);
        if (order != 0) return descending ? order > 0 : order < 0;
      }
      return false;
    });
  }
  return forward;
}

Result<KeyedWhere> SplitKey(const Condition& where, const KeySchema& key) {
  std::vector<const Condition*> conjuncts;
  Conjuncts(where, &conjuncts);
  std::vector<const KeyElement*> elements;
  for (const auto& e : key.hash) elements.push_back(&e);
  for (const auto& e : key.range) elements.push_back(&e);
  KeyedWhere result;
  for (const Condition* c : conjuncts) {
    auto term = AsKeyTerm(*c);
    bool is_key = term && term->op == Op::kEq &&
                  std::any_of(elements.begin(), elements.end(),
                              [&](const KeyElement* e) { return e->name == *term->attribute; });
    if (is_key && !result.key.contains(*term->attribute)) {
      result.key.emplace(*term->attribute, term->low);
      continue;
    }
    if (result.rest) {
      Condition both;
      both.kind = Condition::Kind::kAnd;
      both.children.push_back(std::move(*result.rest));
      both.children.push_back(*c);
      result.rest = std::move(both);
    } else {
      result.rest = *c;
    }
  }
  if (result.key.size() != elements.size()) {
    return Status::InvalidArgument(
        "Where clause does not contain a mandatory equality on all key attributes");
  }
  return result;
}

}  // namespace ddb::engine::partiql
