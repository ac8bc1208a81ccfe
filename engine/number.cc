#include "engine/number.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ddb::engine {
namespace {

// Key-encoding first bytes; see the layout in number.h (persisted).
constexpr uint8_t kTagNegative = 0x01;
constexpr uint8_t kTagZero = 0x02;
constexpr uint8_t kTagPositive = 0x03;
constexpr uint8_t kTerminator = 0x00;
constexpr uint8_t kMaxPairByte = 100;  // pair "99" is 99 + 1

// Exponent text is accumulated up to this value and then saturates: far past
// the range check, and exponent * 10 + 9 still fits in int64_t.
constexpr int64_t kExponentSaturation = 1'000'000'000'000'000;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

Status NotANumber(std::string_view text) {
  std::string message(Number::kNotANumberMessage);
  if (!text.empty()) {
    message += ": ";
    message.append(text);
  }
  return Status::InvalidArgument(std::move(message));
}

Status Overflow() { return Status::InvalidArgument(std::string(Number::kOverflowMessage)); }
Status Underflow() { return Status::InvalidArgument(std::string(Number::kUnderflowMessage)); }
Status TooManyDigits() {
  return Status::InvalidArgument(std::string(Number::kTooManyDigitsMessage));
}
Status MalformedKey() { return Status::InvalidArgument("Malformed Number key encoding"); }

// Canonical plain-notation text of d1.d2...dn x 10^exponent.
std::string FormatPlain(bool negative, const std::string& digits, int exponent) {
  if (digits.empty()) return "0";
  std::string text;
  if (negative) text.push_back('-');
  const int count = static_cast<int>(digits.size());
  if (exponent >= count - 1) {
    text += digits;
    text.append(static_cast<size_t>(exponent - (count - 1)), '0');
  } else if (exponent >= 0) {
    const size_t integer_digits = static_cast<size_t>(exponent) + 1;
    text.append(digits, 0, integer_digits);
    text.push_back('.');
    text.append(digits, integer_digits, std::string::npos);
  } else {
    text += "0.";
    text.append(static_cast<size_t>(-exponent - 1), '0');
    text += digits;
  }
  return text;
}

}  // namespace

Number::Number() : text_("0") {}

Number::Number(bool negative, std::string digits, int exponent)
    : negative_(negative && !digits.empty()),
      digits_(std::move(digits)),
      exponent_(digits_.empty() ? 0 : exponent),
      text_(FormatPlain(negative_, digits_, exponent_)) {}

Number Number::Zero() { return Number(); }

Number Number::FromInt64(int64_t value) {
  if (value == 0) return Zero();
  // Magnitude as unsigned, so INT64_MIN needs no special case.
  uint64_t magnitude = value < 0 ? uint64_t{0} - static_cast<uint64_t>(value)
                                 : static_cast<uint64_t>(value);
  std::string reversed;
  while (magnitude > 0) {
    reversed.push_back(static_cast<char>('0' + magnitude % 10));
    magnitude /= 10;
  }
  const int exponent = static_cast<int>(reversed.size()) - 1;
  std::string digits(reversed.rbegin(), reversed.rend());
  while (digits.back() == '0') digits.pop_back();
  return Number(value < 0, std::move(digits), exponent);
}

Result<Number> Number::Parse(std::string_view text) {
  const size_t n = text.size();
  size_t i = 0;
  bool negative = false;
  if (i < n && (text[i] == '+' || text[i] == '-')) {
    negative = text[i] == '-';
    ++i;
  }

  // Mantissa. Digits are indexed across the point; the first non-zero digit's
  // index fixes the exponent. Zeros after it are held back until a non-zero
  // digit follows, so trailing zeros never enter `digits`, and `digits` stops
  // growing past the limit however long the text is.
  int64_t digit_count = 0;
  int64_t integer_digits = -1;  // digits before the point, once it is seen
  int64_t first_nonzero = -1;
  int64_t pending_zeros = 0;
  bool too_many_digits = false;
  std::string digits;
  for (; i < n; ++i) {
    const char c = text[i];
    if (IsDigit(c)) {
      if (c == '0') {
        if (first_nonzero >= 0) ++pending_zeros;
      } else {
        if (first_nonzero < 0) first_nonzero = digit_count;
        if (static_cast<int64_t>(digits.size()) + pending_zeros + 1 > kMaxSignificantDigits) {
          too_many_digits = true;
        } else if (!too_many_digits) {
          digits.append(static_cast<size_t>(pending_zeros), '0');
          digits.push_back(c);
        }
        pending_zeros = 0;
      }
      ++digit_count;
    } else if (c == '.' && integer_digits < 0) {
      integer_digits = digit_count;
    } else {
      break;
    }
  }
  if (digit_count == 0) return NotANumber(text);
  if (integer_digits < 0) integer_digits = digit_count;

  // Exponent.
  int64_t exponent = 0;
  if (i < n) {
    if (text[i] != 'e' && text[i] != 'E') return NotANumber(text);
    ++i;
    bool exponent_negative = false;
    if (i < n && (text[i] == '+' || text[i] == '-')) {
      exponent_negative = text[i] == '-';
      ++i;
    }
    if (i == n) return NotANumber(text);
    for (; i < n; ++i) {
      if (!IsDigit(text[i])) return NotANumber(text);
      if (exponent < kExponentSaturation) exponent = exponent * 10 + (text[i] - '0');
    }
    if (exponent_negative) exponent = -exponent;
  }

  // DynamoDB reads number text as a Java BigDecimal does: an exponent or a
  // scale beyond 32 bits is no number at all, and a zero keeps the exponent
  // its text gives it (0e126 is out of range, as 1e126 is). Inferred from
  // BigDecimal's rules, not captured.
  constexpr int64_t kIntMax = 2147483647, kIntMin = -2147483648LL;
  const int64_t fraction_digits = digit_count - integer_digits;
  if (exponent > kIntMax || exponent < kIntMin || fraction_digits - exponent > kIntMax ||
      fraction_digits - exponent < kIntMin) {
    return NotANumber(text);
  }
  if (first_nonzero < 0) {
    const int64_t zero_exponent = exponent - fraction_digits;
    if (zero_exponent > kMaxExponent) return Overflow();
    if (zero_exponent < kMinExponent) return Underflow();
    return Zero();
  }
  // The first non-zero digit has place value 10^(integer_digits - 1 - index).
  const int64_t adjusted = integer_digits - 1 - first_nonzero + exponent;
  if (adjusted > kMaxExponent) return Overflow();
  if (adjusted < kMinExponent) return Underflow();
  if (too_many_digits) return TooManyDigits();
  return Number(negative, std::move(digits), static_cast<int>(adjusted));
}

int Number::CompareMagnitude(const Number& other) const {
  if (is_zero() || other.is_zero()) {
    return (is_zero() ? 0 : 1) - (other.is_zero() ? 0 : 1);
  }
  if (exponent_ != other.exponent_) return exponent_ < other.exponent_ ? -1 : 1;
  // Same leading place value: digit strings compare lexicographically, a
  // proper prefix being smaller since the rest of the longer one is non-zero.
  const int cmp = digits_.compare(other.digits_);
  return cmp < 0 ? -1 : (cmp > 0 ? 1 : 0);
}

int Number::Compare(const Number& other) const {
  const int sign = is_zero() ? 0 : (negative_ ? -1 : 1);
  const int other_sign = other.is_zero() ? 0 : (other.negative_ ? -1 : 1);
  if (sign != other_sign) return sign < other_sign ? -1 : 1;
  if (sign == 0) return 0;
  const int magnitude = CompareMagnitude(other);
  return sign > 0 ? magnitude : -magnitude;
}

bool Number::operator==(const Number& other) const {
  return negative_ == other.negative_ && exponent_ == other.exponent_ &&
         digits_ == other.digits_;
}

std::strong_ordering Number::operator<=>(const Number& other) const {
  return Compare(other) <=> 0;
}

void Number::AppendKeyEncoding(std::string* out) const {
  if (is_zero()) {
    out->push_back(static_cast<char>(kTagZero));
    return;
  }
  const uint8_t flip = negative_ ? 0xFF : 0x00;
  out->push_back(static_cast<char>(negative_ ? kTagNegative : kTagPositive));
  out->push_back(static_cast<char>(static_cast<uint8_t>(exponent_ - kMinExponent) ^ flip));
  for (size_t i = 0; i < digits_.size(); i += 2) {
    const int first = digits_[i] - '0';
    const int second = i + 1 < digits_.size() ? digits_[i + 1] - '0' : 0;
    out->push_back(static_cast<char>(static_cast<uint8_t>(first * 10 + second + 1) ^ flip));
  }
  out->push_back(static_cast<char>(kTerminator ^ flip));
}

Result<Number> Number::DecodeKey(std::string_view* in) {
  const std::string_view bytes = *in;
  if (bytes.empty()) return MalformedKey();
  const uint8_t tag = static_cast<uint8_t>(bytes[0]);
  if (tag == kTagZero) {
    in->remove_prefix(1);
    return Zero();
  }
  if (tag != kTagNegative && tag != kTagPositive) return MalformedKey();
  const bool negative = tag == kTagNegative;
  const uint8_t flip = negative ? 0xFF : 0x00;
  if (bytes.size() < 2) return MalformedKey();
  const int exponent = (static_cast<uint8_t>(bytes[1]) ^ flip) + kMinExponent;

  std::string digits;
  size_t pos = 2;
  while (true) {
    if (pos >= bytes.size()) return MalformedKey();  // no terminator
    const uint8_t pair = static_cast<uint8_t>(bytes[pos++]) ^ flip;
    if (pair == kTerminator) break;
    if (pair > kMaxPairByte) return MalformedKey();
    if (static_cast<int>(digits.size()) >= kMaxSignificantDigits) return MalformedKey();
    digits.push_back(static_cast<char>('0' + (pair - 1) / 10));
    digits.push_back(static_cast<char>('0' + (pair - 1) % 10));
  }
  if (digits.empty() || digits.front() == '0') return MalformedKey();
  if (digits.back() == '0') digits.pop_back();  // padding of an odd count
  if (digits.back() == '0') return MalformedKey();
  in->remove_prefix(pos);
  return Number(negative, std::move(digits), exponent);
}

size_t Number::SizeInBytes() const {
  // DynamoDB stores base-100 digits aligned on the decimal point, plus one
  // exponent byte and, for negatives, one more byte; zero is the lone exponent
  // byte. This matches sizes measured against DynamoDB (3.14159 -> 5 bytes,
  // 1.5 -> 3, -42 -> 3, 0 -> 1).
  if (is_zero()) return 1;
  auto pair_of = [](int place) { return place >= 0 ? place / 2 : -((-place + 1) / 2); };
  const int pairs = pair_of(exponent_) - pair_of(LowestExponent()) + 1;
  return 1 + static_cast<size_t>(pairs) + (negative_ ? 1 : 0);
}

int Number::LowestExponent() const {
  return exponent_ - static_cast<int>(digits_.size()) + 1;
}

int Number::DigitAt(int position) const {
  const int index = exponent_ - position;
  if (index < 0 || index >= static_cast<int>(digits_.size())) return 0;
  return digits_[static_cast<size_t>(index)] - '0';
}

Result<Number> Number::Add(const Number& a, const Number& b) {
  if (a.is_zero()) return b;
  if (b.is_zero()) return a;

  // Place values lowest..highest cover both operands plus one carry digit;
  // with in-range operands that is at most 125 + 167 + 2 digits.
  const int lowest = std::min(a.LowestExponent(), b.LowestExponent());
  const int highest = std::max(a.exponent_, b.exponent_) + 1;
  const size_t width = static_cast<size_t>(highest - lowest + 1);
  std::vector<int> result(width, 0);  // result[k] has place value lowest + k

  bool negative;
  if (a.negative_ == b.negative_) {
    negative = a.negative_;
    int carry = 0;
    for (size_t k = 0; k < width; ++k) {
      const int position = lowest + static_cast<int>(k);
      const int sum = a.DigitAt(position) + b.DigitAt(position) + carry;
      result[k] = sum % 10;
      carry = sum / 10;
    }
  } else {
    const int cmp = a.CompareMagnitude(b);
    if (cmp == 0) return Zero();
    const Number& larger = cmp > 0 ? a : b;
    const Number& smaller = cmp > 0 ? b : a;
    negative = larger.negative_;
    int borrow = 0;
    for (size_t k = 0; k < width; ++k) {
      const int position = lowest + static_cast<int>(k);
      int difference = larger.DigitAt(position) - smaller.DigitAt(position) - borrow;
      borrow = difference < 0 ? 1 : 0;
      result[k] = difference + 10 * borrow;
    }
  }

  // Non-zero here: equal magnitudes of opposite sign returned above.
  size_t top = width - 1;
  while (result[top] == 0) --top;
  size_t bottom = 0;
  while (result[bottom] == 0) ++bottom;
  const int exponent = lowest + static_cast<int>(top);
  if (exponent > kMaxExponent) return Overflow();
  if (exponent < kMinExponent) return Underflow();
  // DynamoDB fails an inexact sum rather than rounding it, with the overflow
  // text (scylladb test/alternator/test_number.py, "Strangely, DynamoDB says
  // that the error is: Number overflow..." for 1e50 - 1 and 1e50 + 1).
  if (top - bottom + 1 > static_cast<size_t>(kMaxSignificantDigits)) return Overflow();

  std::string digits;
  for (size_t k = top + 1; k-- > bottom;) digits.push_back(static_cast<char>('0' + result[k]));
  return Number(negative, std::move(digits), exponent);
}

Result<Number> Number::Subtract(const Number& a, const Number& b) {
  if (b.is_zero()) return a;
  return Add(a, Number(!b.negative_, b.digits_, b.exponent_));
}

}  // namespace ddb::engine
