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

// Exponent magnitudes past this are far outside the range whatever the
// mantissa; range arithmetic uses the exponent clamped to it.
constexpr int64_t kExponentClamp = 1'000'000'000'000'000;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

Status NotANumber(std::string_view text, Number::Reading reading) {
  std::string message(Number::kNotANumberMessage);
  if (!text.empty() || reading == Number::Reading::kCurrent) {
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

Number::Number(bool negative, const std::string& digits, int exponent)
    : negative_(negative && !digits.empty()),
      digit_count_(static_cast<int>(digits.size())),
      exponent_(digits.empty() ? 0 : exponent),
      text_(FormatPlain(negative_, digits, exponent_)) {
  size_bytes_ = ComputeSize(negative_, digit_count_, exponent_);
}

void Number::AdoptCanonical(std::string_view canonical, bool negative, int digit_count,
                            int exponent) {
  negative_ = negative;
  digit_count_ = digit_count;
  exponent_ = exponent;
  text_.assign(canonical);
  size_bytes_ = ComputeSize(negative_, digit_count_, exponent_);
}

Number Number::Negated() const {
  Number negated;
  negated.AdoptCanonical(negative_ ? text_.substr(1) : "-" + text_, !negative_, digit_count_,
                         exponent_);
  return negated;
}

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
  return Number(value < 0, digits, exponent);
}

Result<Number> Number::Parse(std::string_view text, Reading reading) {
  Number number;
  DDB_RETURN_IF_ERROR(ParseInto(text, &number, reading));
  return number;
}

bool Number::TryAdoptPlain(std::string_view text, Number* out) {
  // Plain text is at most 40 characters here, so its exponent is far inside
  // the range; only the count of significant digits needs checking.
  if (text.size() > 40) return false;
  const char* at = text.data();
  const char* end = at + text.size();
  const bool negative = at < end && *at == '-';
  if (negative) ++at;
  if (at == end) return false;
  auto is_digit = [](char c) { return static_cast<unsigned char>(c - '0') <= 9; };
  // Trailing zeros after the point, and then a bare point, are not
  // significant: without them the text is canonical ("0.500" -> "0.5").
  auto fraction_end = [&](const char* point) {
    const char* last = end;
    while (last > point + 1 && last[-1] == '0') --last;
    return last == point + 1 ? point : last;
  };
  int digit_count = 0;
  int exponent = 0;
  const char* canonical_end = end;
  if (*at == '0') {  // below 1: "0." then digits, not all zero
    if (end - at < 3 || at[1] != '.') return false;
    const char* first = at + 2;
    while (first < end && *first == '0') ++first;
    for (const char* c = first; c < end; ++c) {
      if (!is_digit(*c)) return false;
    }
    canonical_end = fraction_end(at + 1);
    if (canonical_end <= first) return false;  // zero: the general path
    digit_count = static_cast<int>(canonical_end - first);
    exponent = -static_cast<int>(first - (at + 2)) - 1;
  } else {
    const char* point = at;  // where the integer digits end
    while (point < end && is_digit(*point)) ++point;
    if (point == at) return false;
    exponent = static_cast<int>(point - at) - 1;
    if (point < end) {
      if (*point != '.' || point + 1 == end) return false;  // "5." is for the general path
      for (const char* c = point + 1; c < end; ++c) {
        if (!is_digit(*c)) return false;
      }
      canonical_end = fraction_end(point);
    }
    if (canonical_end == point) {  // an integer ("500", "5.00"): trailing zeros are place value
      const char* last = point;
      while (last[-1] == '0') --last;
      digit_count = static_cast<int>(last - at);
    } else {
      digit_count = static_cast<int>(canonical_end - at) - 1;
    }
  }
  if (digit_count > kMaxSignificantDigits) return false;
  out->AdoptCanonical(std::string_view(text.data(), static_cast<size_t>(canonical_end - text.data())),
                      negative, digit_count, exponent);
  return true;
}

Status Number::ParseInto(std::string_view text, Number* out, Reading reading) {
  if (TryAdoptPlain(text, out)) return Status::Ok();
  const size_t n = text.size();
  size_t i = 0;
  bool negative = false;
  if (i < n && (text[i] == '+' || text[i] == '-')) {
    negative = text[i] == '-';
    ++i;
  }
  const size_t mantissa_start = i;

  // Mantissa: integer digits, then optionally a point and fraction digits,
  // in one pass. Digits are indexed across the point; the first non-zero
  // digit's index fixes the exponent, the last one's the count of
  // significant digits.
  int64_t index = 0;
  int64_t first_nonzero = -1;  // -1: the mantissa is all zeros
  int64_t last_nonzero = -1;
  auto scan_digits = [&] {
    for (; i < n && IsDigit(text[i]); ++i, ++index) {
      if (text[i] == '0') continue;
      if (first_nonzero < 0) first_nonzero = index;
      last_nonzero = index;
    }
  };
  scan_digits();
  const int64_t integer_digits = index;
  const bool has_point = i < n && text[i] == '.';
  if (has_point) {
    ++i;
    scan_digits();
  }
  const int64_t digit_count = index;
  if (digit_count == 0) return NotANumber(text, reading);
  const size_t mantissa_end = i;

  // Exponent: its magnitude in full while it fits 64 bits (`exponent_fits`),
  // clamped for the range arithmetic.
  int64_t exponent = 0;
  bool exponent_fits = true;
  const bool has_exponent = i < n;
  if (has_exponent) {
    if (text[i] != 'e' && text[i] != 'E') return NotANumber(text, reading);
    ++i;
    bool exponent_negative = false;
    if (i < n && (text[i] == '+' || text[i] == '-')) {
      exponent_negative = text[i] == '-';
      ++i;
    }
    if (i == n) return NotANumber(text, reading);
    uint64_t magnitude = 0;
    const uint64_t limit = exponent_negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
    for (; i < n; ++i) {
      if (!IsDigit(text[i])) return NotANumber(text, reading);
      const uint64_t digit = static_cast<uint64_t>(text[i] - '0');
      if (exponent_fits && magnitude > (limit - digit) / 10) exponent_fits = false;
      if (exponent_fits) magnitude = magnitude * 10 + digit;
    }
    exponent = static_cast<int64_t>(std::min<uint64_t>(magnitude, kExponentClamp));
    if (exponent_negative) exponent = -exponent;
  }
  const int64_t fraction_digits = digit_count - integer_digits;

  // The magnitude: the place value of the first non-zero digit
  // (`adjusted`), or a zero's written exponent, range-checked.
  int64_t adjusted = 0;
  if (reading == Reading::kCurrent) {
    if (!exponent_fits) return NotANumber(text, reading);
    adjusted = first_nonzero < 0 ? exponent - fraction_digits
                                 : integer_digits - 1 - first_nonzero + exponent;
  } else {
    // BigDecimal: exponent and scale (fraction digits - exponent) are ints;
    // precision - scale is int arithmetic, which wraps.
    constexpr int64_t kIntMax = 2147483647, kIntMin = -2147483648LL;
    if (!exponent_fits || exponent > kIntMax || exponent < kIntMin ||
        fraction_digits - exponent > kIntMax || fraction_digits - exponent < kIntMin) {
      return NotANumber(text, reading);
    }
    const int64_t scale = fraction_digits - exponent;
    if (first_nonzero < 0) {
      adjusted = -scale;
    } else {
      const int64_t precision = digit_count - first_nonzero;
      adjusted = static_cast<int64_t>(static_cast<int32_t>(
                     static_cast<uint32_t>(static_cast<uint64_t>(precision - scale)))) -
                 1;
    }
  }
  if (adjusted > kMaxExponent) return Overflow();
  if (adjusted < kMinExponent) return Underflow();
  if (first_nonzero < 0) {
    *out = Zero();
    return Status::Ok();
  }
  const int64_t significant = last_nonzero - first_nonzero + 1;
  if (significant > kMaxSignificantDigits) return TooManyDigits();

  // Text already in canonical form, as clients mostly send it ("-0.125",
  // "42", "3.5"), is kept as it is: no '+', no exponent, and either an
  // integer without leading zeros, or a point with a non-zero last digit and
  // one integer digit that is non-zero or, below 1, a lone "0".
  const std::string_view mantissa = text.substr(mantissa_start, mantissa_end - mantissa_start);
  bool canonical = !has_exponent && text[0] != '+';
  if (canonical && !has_point) {
    canonical = first_nonzero == 0;
  } else if (canonical) {
    canonical = mantissa.back() != '0' && mantissa.back() != '.' &&
                (adjusted >= 0 ? first_nonzero == 0 : integer_digits == 1);
  }
  if (canonical) {
    out->AdoptCanonical(text, negative, static_cast<int>(significant), static_cast<int>(adjusted));
    return Status::Ok();
  }
  std::string digits;
  digits.reserve(static_cast<size_t>(significant));
  for (int64_t index = 0; char c : mantissa) {
    if (c == '.') continue;
    if (index >= first_nonzero && index <= last_nonzero) digits.push_back(c);
    ++index;
  }
  *out = Number(negative, digits, static_cast<int>(adjusted));
  return Status::Ok();
}

int Number::CompareMagnitude(const Number& other) const {
  if (is_zero() || other.is_zero()) {
    return (is_zero() ? 0 : 1) - (other.is_zero() ? 0 : 1);
  }
  if (exponent_ != other.exponent_) return exponent_ < other.exponent_ ? -1 : 1;
  // Same leading place value: digit strings compare lexicographically, a
  // proper prefix being smaller since the rest of the longer one is non-zero.
  const int common = std::min(digit_count_, other.digit_count_);
  for (int index = 0; index < common; ++index) {
    const int a = Digit(index), b = other.Digit(index);
    if (a != b) return a < b ? -1 : 1;
  }
  return digit_count_ == other.digit_count_ ? 0 : (digit_count_ < other.digit_count_ ? -1 : 1);
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
  return text_ == other.text_;  // canonical: equal numbers, equal text
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
  for (int i = 0; i < digit_count_; i += 2) {
    const int first = Digit(i);
    const int second = i + 1 < digit_count_ ? Digit(i + 1) : 0;
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
  return Number(negative, digits, exponent);
}

uint8_t Number::ComputeSize(bool negative, int digit_count, int exponent) {
  // DynamoDB stores base-100 digits aligned on the decimal point, plus one
  // exponent byte and, for negatives, one more byte; zero is the lone exponent
  // byte. This matches sizes measured against DynamoDB (3.14159 -> 5 bytes,
  // 1.5 -> 3, -42 -> 3, 0 -> 1). At most 1 + 20 + 1.
  if (digit_count == 0) return 1;
  // The pair holding place value 10^p is floor(p / 2): an arithmetic shift.
  const int lowest = exponent - digit_count + 1;
  const int pairs = (exponent >> 1) - (lowest >> 1) + 1;
  return static_cast<uint8_t>(1 + pairs + (negative ? 1 : 0));
}

int Number::LowestExponent() const {
  return exponent_ - digit_count_ + 1;
}

int Number::Digit(int index) const {
  // Canonical text: "[-]I...I[.F...F]" when exponent_ >= 0, the point after
  // the first exponent_ + 1 digits; "[-]0.0...0F...F" below 1, the digits
  // after "0." and -exponent_ - 1 zeros.
  int at = (negative_ ? 1 : 0) + index;
  if (exponent_ < 0) {
    at += 1 - exponent_;
  } else if (index > exponent_) {
    at += 1;
  }
  return text_[static_cast<size_t>(at)] - '0';
}

int Number::DigitAt(int position) const {
  const int index = exponent_ - position;
  if (index < 0 || index >= digit_count_) return 0;
  return Digit(index);
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
  return Number(negative, digits, exponent);
}

Result<Number> Number::Subtract(const Number& a, const Number& b) {
  if (b.is_zero()) return a;
  return Add(a, b.Negated());
}

}  // namespace ddb::engine
