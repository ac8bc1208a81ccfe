// Number: DynamoDB's Number type as an exact decimal.
//
// A DynamoDB number has at most 38 significant digits and a magnitude of zero
// or between 1E-130 and 9.9999999999999999999999999999999999999E+125, either
// sign. Leading and trailing zeros are not significant, so "1.50", "15e-1" and
// "001.5" are the same number. A Number is its canonical text (ToString)
// with a sign, the count of its significant digits d1...dn (no leading or
// trailing zeros; none for zero) and the decimal exponent of the first, so
// value = d1.d2d3...dn x 10^exponent; the digits are read from the text. No
// floating point is used anywhere: parsing, printing, comparison and the
// UpdateExpression arithmetic (SET a = b + c, ADD) are exact, and, as in
// DynamoDB, a result that does not fit is an error rather than being rounded.
//
// Thread safety: Number is an immutable value; const methods may be called
// concurrently on one object, and distinct objects are independent.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/status.h"

namespace ddb::engine {

class Number {
 public:
  static constexpr int kMaxSignificantDigits = 38;
  static constexpr int kMaxExponent = 125;   // 9.99...E+125
  static constexpr int kMinExponent = -130;  // 1E-130

  // DynamoDB's ValidationException texts: "The parameter cannot be converted
  // to a numeric value: <text>" for text that is no number (captured in four
  // regions, 2026-10; "A value provided cannot be converted into a number" is
  // DynamoDB Local's wording, not the service's).
  static constexpr std::string_view kNotANumberMessage =
      "The parameter cannot be converted to a numeric value";
  static constexpr std::string_view kTooManyDigitsMessage =
      "Attempting to store more than 38 significant digits in a Number";
  static constexpr std::string_view kOverflowMessage =
      "Number overflow. Attempting to store a number with magnitude larger than "
      "supported range";
  static constexpr std::string_view kUnderflowMessage =
      "Number underflow. Attempting to store a number with magnitude smaller "
      "than supported range";

  // Zero.
  Number();

  // DynamoDB reads numbers in two layers, which accept the same numbers but
  // word refusals differently; the operation decides which one checks its
  // values (api/value_layers.h). Captured in four regions, 2026-10.
  //   kCurrent     the exponent is read in full as a 64-bit integer and
  //                range-checked ("1e2147483648" overflows); beyond 64 bits
  //                the text is not a number. "" is "...numeric value: ".
  //   kBigDecimal  as Java's BigDecimal reads text: an exponent or a scale
  //                beyond 32 bits is not a number, the magnitude is counted
  //                in 32-bit arithmetic that wraps ("1e2147483647" is an
  //                underflow), and "" is "...numeric value" without a colon.
  enum class Reading { kCurrent, kBigDecimal };

  // Parses DynamoDB number text: an optional sign (+ or -), digits with at
  // most one optional '.', and at least one digit, then optionally e or E, an
  // optional sign and at least one digit. Nothing else, whitespace included.
  // Returns the number, or Status::InvalidArgument with, in this order of
  // precedence: kNotANumberMessage and ": <text>" for text of another shape
  // ("", ".", "1e", "0x10", "NaN", " 1"); kOverflowMessage for a magnitude
  // above the range; kUnderflowMessage for a non-zero magnitude below
  // 1E-130; kTooManyDigitsMessage for more than 38 significant digits. A
  // zero's exponent counts ("0e126" overflows, "0.0e-130" underflows; "-0.0"
  // is zero). `reading` changes only the texts of refusals (above).
  static Result<Number> Parse(std::string_view text, Reading reading = Reading::kCurrent);
  // Parse, into *out (unchanged on error): for builders of long lists of
  // numbers, which would otherwise move each parsed Number twice.
  static Status ParseInto(std::string_view text, Number* out,
                          Reading reading = Reading::kCurrent);

  // Returns zero.
  static Number Zero();

  // Returns the Number equal to `value`; every int64_t fits, so this never
  // fails.
  static Number FromInt64(int64_t value);

  // Returns the canonical text, which is what DynamoDB returns to clients:
  // plain notation (no exponent), a single "0" before the point when the
  // magnitude is below 1, no trailing zeros after the point, no trailing '.',
  // no '+', and "0" for every zero. "1.50" -> "1.5", "1e3" -> "1000",
  // "-0.0" -> "0", "1E-130" -> "0." + 129 zeros + "1".
  const std::string& ToString() const { return text_; }

  // Returns <0, 0 or >0 as *this is numerically less than, equal to or greater
  // than `other`.
  int Compare(const Number& other) const;
  bool operator==(const Number& other) const;
  std::strong_ordering operator<=>(const Number& other) const;

  // Appends an order-preserving, self-delimiting encoding of the number to
  // *out: comparing two encodings bytewise as unsigned (memcmp) gives the same
  // order as Compare, and a decoder knows where an encoding ends, so other key
  // bytes may follow it.
  //
  // Byte layout (do not change: persisted in stored keys):
  //   zero:      0x02
  //   positive:  0x03, E, P1 ... Pk, 0x00
  //   negative:  0x01, ~E, ~P1 ... ~Pk, 0xFF   (~ is bitwise NOT)
  // where E = exponent + 130 (0x00 for 1E-130 up to 0xFF for E+125), and the
  // significant digits d1 d2 ... dn are taken two at a time, a lone last digit
  // padded with 0, each pair stored as Pi = 10 * first + second + 1 (0x01 to
  // 0x65). The terminator 0x00 sorts below every pair byte, so 0.12 sorts
  // before 0.123; k <= 19, so an encoding is at most 23 bytes. Inverting every
  // byte of a negative reverses the order of magnitudes.
  void AppendKeyEncoding(std::string* out) const;

  // Decodes one encoding written by AppendKeyEncoding from the front of *in
  // and advances *in past it, leaving any following bytes. Returns the number,
  // or Status::InvalidArgument when the bytes are not exactly such an
  // encoding (unknown first byte, truncated, a pair byte out of range, a
  // leading or trailing zero digit, more than 38 digits); *in is then
  // unchanged.
  static Result<Number> DecodeKey(std::string_view* in);

  // Returns the number's contribution to DynamoDB item size ("approximately
  // 1 byte per two significant digits, plus 1 byte"): one byte per pair of
  // digits aligned on the decimal point, plus 1, plus 1 for negatives; zero
  // is 1 byte. So 7 is 2 bytes, 123 is 3, 1.5 is 3, -42 is 3.
  size_t SizeInBytes() const { return size_bytes_; }

  // Returns a + b, or a - b, exactly. The result must itself be a valid
  // DynamoDB number, otherwise Status::InvalidArgument with kOverflowMessage
  // (magnitude above the range, or more than 38 significant digits needed:
  // DynamoDB reports an inexact sum such as 1E50 + 1 as overflow; see
  // scylladb test/alternator/test_number.py::test_update_expression_plus_
  // imprecise) or kUnderflowMessage (non-zero magnitude below 1E-130).
  static Result<Number> Add(const Number& a, const Number& b);
  static Result<Number> Subtract(const Number& a, const Number& b);

  bool is_negative() const { return negative_; }
  bool is_zero() const { return digit_count_ == 0; }

 private:
  // REQUIRES: `digits` is empty (then negative is false) or has 1 to 38
  // decimal digits with no leading or trailing '0'; kMinExponent <= exponent
  // <= kMaxExponent.
  Number(bool negative, const std::string& digits, int exponent);
  // Becomes `canonical`, text already in ToString's form whose significant
  // digits number `digit_count` and start at place value 10^exponent.
  void AdoptCanonical(std::string_view canonical, bool negative, int digit_count, int exponent);

  // ParseInto's fast path: plain decimal text (an optional '-', digits, at
  // most one point, no exponent) that is canonical but perhaps for trailing
  // zeros after the point, as clients mostly send numbers. Adopts the
  // canonical part of it and returns true; false, *out unchanged, for any
  // other text (zero among it), which the general path reads.
  static bool TryAdoptPlain(std::string_view text, Number* out);

  // The same magnitude, the other sign. REQUIRES: !is_zero().
  Number Negated() const;
  // Compares |*this| with |other|.
  int CompareMagnitude(const Number& other) const;
  // Exponent of the last significant digit. REQUIRES: !is_zero().
  int LowestExponent() const;
  // The significant digit at `index` (0 is the first), read from text_.
  // REQUIRES: 0 <= index < digit_count_.
  int Digit(int index) const;
  // The decimal digit at place value 10^position of the magnitude (0..9).
  int DigitAt(int position) const;

  // The canonical text is the only copy of the digits (a Number is one string
  // to build and move); the digits are read from it by place value.
  // SizeInBytes, computed once: an item's size is taken several times on
  // each write.
  static uint8_t ComputeSize(bool negative, int digit_count, int exponent);

  bool negative_ = false;
  uint8_t size_bytes_ = 1;  // SizeInBytes (zero: 1)
  int digit_count_ = 0;     // significant digits, first and last non-zero
  int exponent_ = 0;        // place value of the first significant digit
  std::string text_;        // canonical text
};

}  // namespace ddb::engine
