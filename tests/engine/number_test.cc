#include "engine/number.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace ddb::engine {
namespace {

// Parses text that must be a valid number.
Number N(std::string_view text) {
  Result<Number> parsed = Number::Parse(text);
  EXPECT_TRUE(parsed.ok()) << "Parse(\"" << text << "\"): " << parsed.status().message();
  return parsed.ok() ? *parsed : Number::Zero();
}

std::string Canonical(std::string_view text) { return N(text).ToString(); }

void ExpectParseError(std::string_view text, std::string_view message,
                      Number::Reading reading = Number::Reading::kCurrent) {
  Result<Number> parsed = Number::Parse(text, reading);
  ASSERT_FALSE(parsed.ok()) << "Parse(\"" << text << "\") = " << parsed->ToString();
  EXPECT_EQ(parsed.status().code(), Status::Code::kInvalidArgument) << text;
  EXPECT_EQ(parsed.status().message(), message) << text;
}

void ExpectArithmeticError(const Result<Number>& result, std::string_view message) {
  ASSERT_FALSE(result.ok()) << "unexpected result " << result->ToString();
  EXPECT_EQ(result.status().code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(result.status().message(), message);
}

std::string Encode(const Number& n) {
  std::string out;
  n.AppendKeyEncoding(&out);
  return out;
}

const std::string kMax = "9.9999999999999999999999999999999999999E+125";
const std::string kThirtyEightNines = "99999999999999999999999999999999999999";

// Varied numbers for the ordering tests: signs, zero, extremes, the same
// digits at different exponents, and prefixes (0.12 vs 0.123).
std::vector<Number> SampleNumbers() {
  const std::string texts[] = {
      "0", "1", "-1", "2", "-2", "9", "10", "11", "99", "100", "101", "1000",
      "0.1", "0.12", "0.123", "0.1230001", "0.13", "0.2", "0.01", "0.012",
      "-0.1", "-0.12", "-0.123", "-0.13", "-0.01", "-0.012",
      "1.5", "15", "150", "0.15", "0.015", "-1.5", "-15", "-150", "-0.15",
      "12345678901234567890123456789012345678", "-12345678901234567890123456789012345678",
      "1234567890123456789012345678901234567.8", "99999999999999999999999999999999999999",
      "1E-130", "-1E-130", "1.5E-130", "2E-130", "1E-129", "9.9E-130", "-9.9E-130",
      "1E125", "-1E125", "9E125", "-9E125", kMax, "-" + kMax,
      "1E38", "1E37", "3.14159", "-3.14159", "3.1416", "2.71828", "1000000007",
      "-1000000007", "123.456", "123.4561", "123.45", "-123.45", "-123.456",
      "0.000001", "-0.000001", "1E-100", "1E-101", "-1E-100"};
  std::vector<Number> out;
  for (const std::string& text : texts) out.push_back(N(text));
  return out;
}

TEST(NumberTest, CanonicalFormStripsTrailingZeros) {
  EXPECT_EQ(Canonical("1.50"), "1.5");
  EXPECT_EQ(Canonical("3.1400"), "3.14");
  EXPECT_EQ(Canonical("1.0"), "1");
  EXPECT_EQ(Canonical("1."), "1");
  EXPECT_EQ(Canonical("100"), "100");
  EXPECT_EQ(Canonical("100.000"), "100");
  EXPECT_EQ(Canonical("0042.1200"), "42.12");
}

TEST(NumberTest, CanonicalFormStripsLeadingZeros) {
  EXPECT_EQ(Canonical("00042"), "42");
  EXPECT_EQ(Canonical("0001.23"), "1.23");
  EXPECT_EQ(Canonical("0.001"), "0.001");
  EXPECT_EQ(Canonical("000.001"), "0.001");
  EXPECT_EQ(Canonical(".123"), "0.123");
  EXPECT_EQ(Canonical("-.5"), "-0.5");
}

TEST(NumberTest, CanonicalFormExpandsExponent) {
  EXPECT_EQ(Canonical("1e3"), "1000");
  EXPECT_EQ(Canonical("1.5E2"), "150");
  EXPECT_EQ(Canonical("1e+5"), "100000");
  EXPECT_EQ(Canonical("1E-3"), "0.001");
  EXPECT_EQ(Canonical("12.34e-1"), "1.234");
  EXPECT_EQ(Canonical("1234e-2"), "12.34");
  EXPECT_EQ(Canonical("-17e5"), "-1700000");
  EXPECT_EQ(Canonical("0.00123e5"), "123");
  EXPECT_EQ(Canonical("1e0000000000000000000000000000003"), "1000");
}

TEST(NumberTest, EveryZeroIsCanonicalZero) {
  for (const char* text : {"0", "-0", "+0", "-0.0", "0.000", ".0", "0.", "00", "0e125",
                           "-0e-130", "0.000e128", "0e-0"}) {
    Number n = N(text);
    EXPECT_EQ(n.ToString(), "0") << text;
    EXPECT_TRUE(n.is_zero()) << text;
    EXPECT_FALSE(n.is_negative()) << text;
    EXPECT_EQ(n, Number::Zero()) << text;
  }
  EXPECT_EQ(Number().ToString(), "0");
}

TEST(NumberTest, PlusSignIsDropped) {
  EXPECT_EQ(Canonical("+3"), "3");
  EXPECT_EQ(Canonical("+1.5"), "1.5");
  EXPECT_EQ(Canonical("+1e2"), "100");
  EXPECT_FALSE(N("+3").is_negative());
  EXPECT_TRUE(N("-3").is_negative());
}

TEST(NumberTest, SmallestMagnitudePrintsWith130Decimals) {
  EXPECT_EQ(Canonical("1E-130"), "0." + std::string(129, '0') + "1");
  EXPECT_EQ(Canonical("-1E-130"), "-0." + std::string(129, '0') + "1");
}

TEST(NumberTest, LargestExponentPrintsAs126Digits) {
  EXPECT_EQ(Canonical("1E+125"), "1" + std::string(125, '0'));
  EXPECT_EQ(Canonical(kMax), std::string(38, '9') + std::string(88, '0'));
  EXPECT_EQ(Canonical("-" + kMax), "-" + std::string(38, '9') + std::string(88, '0'));
}

TEST(NumberTest, CanonicalTextParsesBackToTheSameNumber) {
  for (const Number& n : SampleNumbers()) {
    Number again = N(n.ToString());
    EXPECT_EQ(again, n) << n.ToString();
    EXPECT_EQ(again.ToString(), n.ToString());
  }
}

// Parse keeps canonical text as given and rebuilds any other spelling; the
// two paths must agree on everything a Number answers. "e0" sends the same
// value down the rebuilding path.
TEST(NumberTest, CanonicalTextAndOtherSpellingsAgreeEverywhere) {
  const std::vector<std::string> canonical = {
      "1", "7", "42", "100", "1000000", "-5", "-120", "1.5", "-1.5", "12.34", "-12.34",
      "0.5", "-0.5", "0.0012", "-0.0012", "3.14159", "0.000001", "99.99", "123456.789",
      "12345678901234567890123456789012345678", "0.00000000000000000000000000000000000001"};
  for (const std::string& text : canonical) {
    SCOPED_TRACE(text);
    Number kept = N(text), rebuilt = N(text + "e0");
    EXPECT_EQ(kept.ToString(), text);
    EXPECT_EQ(rebuilt.ToString(), text);
    EXPECT_EQ(kept, rebuilt);
    EXPECT_EQ(kept.Compare(rebuilt), 0);
    EXPECT_EQ(kept.SizeInBytes(), rebuilt.SizeInBytes());
    std::string kept_key, rebuilt_key;
    kept.AppendKeyEncoding(&kept_key);
    rebuilt.AppendKeyEncoding(&rebuilt_key);
    EXPECT_EQ(kept_key, rebuilt_key);
    auto shown = [](const Result<Number>& r) { return r.ok() ? r->ToString() : r.status().message(); };
    EXPECT_EQ(shown(Number::Add(kept, N("1"))), shown(Number::Add(rebuilt, N("1"))));
    EXPECT_EQ(shown(Number::Subtract(N("0.25"), kept)), shown(Number::Subtract(N("0.25"), rebuilt)));
    EXPECT_EQ(shown(Number::Subtract(kept, N("-2"))), shown(Number::Subtract(rebuilt, N("-2"))));
  }
  // Spellings that look plain but are not canonical take the rebuilding path.
  EXPECT_EQ(Canonical("1.50"), "1.5");
  EXPECT_EQ(Canonical("5."), "5");
  EXPECT_EQ(Canonical(".5"), "0.5");
  EXPECT_EQ(Canonical("00.5"), "0.5");
  EXPECT_EQ(Canonical("01"), "1");
  EXPECT_EQ(Canonical("+1.5"), "1.5");
  EXPECT_EQ(Canonical("-0"), "0");
  EXPECT_EQ(Canonical("10.0"), "10");
}

// Plain decimals ("-0.1250", "12.00", "300") are read by a fast path that
// keeps the canonical prefix of the text; "e0" sends the same digits through
// the general one. Both must agree on every generated spelling.
TEST(NumberTest, PlainTextFastPathAgreesWithTheGeneralPath) {
  std::mt19937 rng(7);
  auto digits = [&](int count, bool leading_zero_ok) {
    std::string out;
    for (int i = 0; i < count; ++i) {
      char d = static_cast<char>('0' + rng() % 10);
      if (i == 0 && !leading_zero_ok && d == '0') d = '1';
      out.push_back(rng() % 4 == 0 ? '0' : d);  // plenty of zeros
    }
    return out;
  };
  for (int round = 0; round < 20000; ++round) {
    std::string text = rng() % 2 ? "-" : "";
    text += rng() % 3 == 0 ? "0" : digits(1 + static_cast<int>(rng() % 20), rng() % 5 == 0);
    if (rng() % 4 != 0) text += "." + digits(static_cast<int>(rng() % 25), true);
    SCOPED_TRACE(text);
    auto plain = Number::Parse(text);
    auto general = Number::Parse(text + "e0");
    ASSERT_EQ(plain.ok(), general.ok());
    if (!plain.ok()) {
      EXPECT_EQ(plain.status().message(), general.status().message());
      continue;
    }
    EXPECT_EQ(plain->ToString(), general->ToString());
    EXPECT_EQ(plain->SizeInBytes(), general->SizeInBytes());
    EXPECT_EQ(plain->is_negative(), general->is_negative());
    std::string plain_key, general_key;
    plain->AppendKeyEncoding(&plain_key);
    general->AppendKeyEncoding(&general_key);
    EXPECT_EQ(plain_key, general_key);
    auto shown = [](const Result<Number>& r) { return r.ok() ? r->ToString() : r.status().message(); };
    EXPECT_EQ(shown(Number::Add(*plain, N("0.001"))), shown(Number::Add(*general, N("0.001"))));
  }
}

TEST(NumberTest, MalformedTextIsRejectedWithDynamoMessage) {
  for (const char* text :
       {".", "-", "+", "1e", "1E+", "e5", "abc", "0x10", "Infinity", "-Infinity", "NaN", "-NaN",
        "dog", " 1", "1 ", "1 2", "\t1", "1.2.3", "1..2", "++1", "+-1", "1e+-5", "1e5.5", "1+2",
        "+e2", "1_000", "1,5", "\"42.0\"", "١"}) {
    ExpectParseError(text, std::string(Number::kNotANumberMessage) + ": " + text);
  }
}

TEST(NumberTest, EmptyTextKeepsTheColonOnlyInTheCurrentReading) {
  ExpectParseError("", "The parameter cannot be converted to a numeric value: ");
  ExpectParseError("", "The parameter cannot be converted to a numeric value",
                   Number::Reading::kBigDecimal);
}

TEST(NumberTest, ThirtyEightSignificantDigitsAreAccepted) {
  EXPECT_EQ(Canonical("12345678901234567890123456789012345678"),
            "12345678901234567890123456789012345678");
  EXPECT_EQ(Canonical("3.1415926535897932384626433832795028841"),
            "3.1415926535897932384626433832795028841");
  EXPECT_EQ(Canonical("314159265358979323846.26433832795028841"),
            "314159265358979323846.26433832795028841");
  EXPECT_EQ(Canonical("31415926535897932384626433832795028841e30"),
            "31415926535897932384626433832795028841" + std::string(30, '0'));
  EXPECT_EQ(Canonical("-0.00012345678901234567890123456789012345678"),
            "-0.00012345678901234567890123456789012345678");
}

TEST(NumberTest, ThirtyNineSignificantDigitsAreRejected) {
  const std::string message(Number::kTooManyDigitsMessage);
  EXPECT_EQ(message, "Attempting to store more than 38 significant digits in a Number");
  ExpectParseError("123456789012345678901234567890123456789", message);
  ExpectParseError("-1.23456789012345678901234567890123456789", message);
  ExpectParseError("3.14159265358979323846264338327950288419", message);
  ExpectParseError("314159265358979323846264338327950288419e30", message);
  // Interior zeros are significant.
  ExpectParseError("1" + std::string(37, '0') + "1", message);
  ExpectParseError("9.99999999999999999999999999999999999999E125", message);
}

TEST(NumberTest, LeadingAndTrailingZerosAreNotSignificant) {
  EXPECT_EQ(Canonical("1" + std::string(100, '0')), "1" + std::string(100, '0'));
  EXPECT_EQ(Canonical(std::string(500, '0') + "123"), "123");
  EXPECT_EQ(Canonical("0." + std::string(100, '0') + "5"), "0." + std::string(100, '0') + "5");
  EXPECT_EQ(Canonical("1.5" + std::string(1000, '0')), "1.5");
  EXPECT_EQ(Canonical(std::string(38, '7') + std::string(80, '0') + ".000"),
            std::string(38, '7') + std::string(80, '0'));
}

TEST(NumberTest, MagnitudeAboveRangeOverflows) {
  const std::string message(Number::kOverflowMessage);
  EXPECT_EQ(message,
            "Number overflow. Attempting to store a number with magnitude larger than supported "
            "range");
  for (const char* text : {"1E126", "-1E126", "1E+126", "10E125", "11e125", "0.1e127",
                           "1000000000000000000000000000000000000000000000000000000000000000"
                           "000000000000000000000000000000000000000000000000000000000000000"}) {
    ExpectParseError(text, message);
  }
}

TEST(NumberTest, NonZeroMagnitudeBelowRangeUnderflows) {
  const std::string message(Number::kUnderflowMessage);
  EXPECT_EQ(message,
            "Number underflow. Attempting to store a number with magnitude smaller than "
            "supported range");
  for (const char* text : {"1E-131", "-1E-131", "0.9e-130", "9.9999e-131", "0.01E-129"}) {
    ExpectParseError(text, message);
  }
  ExpectParseError("0." + std::string(130, '0') + "1", message);
}

TEST(NumberTest, RangeBoundariesAreAccepted) {
  for (const std::string& text :
       {kMax, "-" + kMax, std::string("1E-130"), std::string("-1E-130"), std::string("1E125"),
        std::string("-1E125"), std::string("0.1E-129"), std::string("99.99e124"),
        std::string("9.9999999999999999999999999999999999999E-130")}) {
    EXPECT_TRUE(Number::Parse(text).ok()) << text;
  }
}

TEST(NumberTest, ZerosKeepTheExponentTheirTextGives) {
  // As BigDecimal reads them: 0e126 is 0 x 10^126, out of range as 1e126 is.
  ExpectParseError("0e126", std::string(Number::kOverflowMessage));
  ExpectParseError("-0.0e127", std::string(Number::kOverflowMessage));
  ExpectParseError("0e-131", std::string(Number::kUnderflowMessage));
  ExpectParseError("0.0e-130", std::string(Number::kUnderflowMessage));
}

TEST(NumberTest, TheCurrentReadingRangeChecksExponentsThatFitSixtyFourBits) {
  const std::string overflow(Number::kOverflowMessage);
  const std::string underflow(Number::kUnderflowMessage);
  const std::string nan(Number::kNotANumberMessage);
  for (const char* text : {"1e2147483647", "1e2147483648", "1e99999999999", "-1e99999999999",
                           "1e9223372036854775807", "0e126"}) {
    ExpectParseError(text, overflow);
  }
  for (const char* text : {"1e-2147483647", "1e-2147483648", "1e-99999999999", "1e-131",
                           "1e-9223372036854775808", "0.0e-130"}) {
    ExpectParseError(text, underflow);
  }
  for (const std::string& text :
       {std::string("1e9223372036854775808"), std::string("1e-9223372036854775809"),
        std::string("0e99999999999999999999"),
        std::string("1e-99999999999999999999999999999999999999")}) {
    ExpectParseError(text, nan + ": " + text);
  }
  // A long mantissa can bring a large exponent back into range.
  EXPECT_EQ(Canonical("0." + std::string(200, '0') + "1e300"), "1" + std::string(99, '0'));
}

TEST(NumberTest, TheBigDecimalReadingRefusesWideExponentsAndWrapsTheMagnitude) {
  constexpr auto kOlder = Number::Reading::kBigDecimal;
  const std::string overflow(Number::kOverflowMessage);
  const std::string underflow(Number::kUnderflowMessage);
  const std::string nan(Number::kNotANumberMessage);
  ExpectParseError("1e126", overflow, kOlder);
  ExpectParseError("1e2147483646", overflow, kOlder);
  // precision - scale = 1 + 2147483647 wraps to a negative int.
  ExpectParseError("1e2147483647", underflow, kOlder);
  ExpectParseError("10e2147483646", underflow, kOlder);
  ExpectParseError("1e-2147483647", underflow, kOlder);
  // Its scale, 2147483648, is beyond 32 bits.
  ExpectParseError("1e-2147483648", nan + ": 1e-2147483648", kOlder);
  for (const std::string& text :
       {std::string("1e999999999999"), std::string("-1e2147483648"),
        std::string("1e-999999999999"), std::string("-1e-4294967296"),
        std::string("0e99999999999999999999")}) {
    ExpectParseError(text, nan + ": " + text, kOlder);
  }
  // The two readings accept the same numbers.
  for (const char* text : {"1e125", "-9.5e-130", "0e125", "123.45e-3"}) {
    auto current = Number::Parse(text);
    auto older = Number::Parse(text, kOlder);
    ASSERT_TRUE(current.ok() && older.ok()) << text;
    EXPECT_EQ(current->ToString(), older->ToString());
  }
}

TEST(NumberTest, RangeErrorsTakePrecedenceOverDigitCount) {
  const std::string forty_digits(40, '3');
  ExpectParseError(forty_digits + "e200", std::string(Number::kOverflowMessage));
  ExpectParseError(forty_digits + "e-200", std::string(Number::kUnderflowMessage));
}

TEST(NumberTest, FromInt64CoversTheWholeRange) {
  EXPECT_EQ(Number::FromInt64(0).ToString(), "0");
  EXPECT_EQ(Number::FromInt64(-1).ToString(), "-1");
  EXPECT_EQ(Number::FromInt64(1200).ToString(), "1200");
  EXPECT_EQ(Number::FromInt64(std::numeric_limits<int64_t>::max()).ToString(),
            "9223372036854775807");
  EXPECT_EQ(Number::FromInt64(std::numeric_limits<int64_t>::min()).ToString(),
            "-9223372036854775808");
  EXPECT_EQ(Number::FromInt64(1200), N("1.2e3"));
}

TEST(NumberTest, EqualityIgnoresSpelling) {
  EXPECT_EQ(N("1.50"), N("15e-1"));
  EXPECT_EQ(N("001.5"), N("+1.5"));
  EXPECT_EQ(N("100"), N("1E2"));
  EXPECT_NE(N("1.5"), N("-1.5"));
  EXPECT_NE(N("1.5"), N("15"));
}

TEST(NumberTest, CompareOrdersAcrossSignsAndExponents) {
  EXPECT_LT(N("-1").Compare(N("0")), 0);
  EXPECT_GT(N("0").Compare(N("-1E-130")), 0);
  EXPECT_LT(N("0").Compare(N("1E-130")), 0);
  EXPECT_EQ(N("0").Compare(N("-0")), 0);
  EXPECT_LT(N("-" + kMax).Compare(N("-1E125")), 0);
  EXPECT_LT(N("1E-130").Compare(N("1E125")), 0);
  EXPECT_LT(N("9").Compare(N("10")), 0);
  EXPECT_GT(N("-9").Compare(N("-10")), 0);
  EXPECT_LT(N("0.12").Compare(N("0.123")), 0);
  EXPECT_GT(N("-0.12").Compare(N("-0.123")), 0);
  EXPECT_LT(N("1.2").Compare(N("1.2000001")), 0);
  EXPECT_EQ(N("1.2").Compare(N("1.20")), 0);
  EXPECT_TRUE(N("2") > N("1.99999999999999999999999999999999999"));
  EXPECT_TRUE(N("-2") < N("-1.99999999999999999999999999999999999"));
  EXPECT_TRUE(N("3") <= N("3.0"));
}

TEST(NumberTest, CompareAgreesWithSubtraction) {
  const std::vector<Number> numbers = SampleNumbers();
  int checked = 0;
  for (const Number& a : numbers) {
    for (const Number& b : numbers) {
      Result<Number> difference = Number::Subtract(a, b);
      if (!difference.ok()) continue;  // e.g. 1E125 - 1E-130 needs 256 digits
      const int sign = difference->is_zero() ? 0 : (difference->is_negative() ? -1 : 1);
      const int cmp = a.Compare(b);
      EXPECT_EQ(sign, (cmp > 0) - (cmp < 0)) << a.ToString() << " vs " << b.ToString();
      ++checked;
    }
  }
  EXPECT_GT(checked, 1000);
}

TEST(NumberTest, KeyEncodingOrderMatchesCompare) {
  std::vector<Number> by_compare = SampleNumbers();
  ASSERT_GE(by_compare.size(), 60u);
  std::vector<Number> by_encoding = by_compare;
  std::mt19937 shuffle(42);
  std::shuffle(by_encoding.begin(), by_encoding.end(), shuffle);
  std::stable_sort(by_compare.begin(), by_compare.end(),
                   [](const Number& a, const Number& b) { return a.Compare(b) < 0; });
  std::stable_sort(by_encoding.begin(), by_encoding.end(),
                   [](const Number& a, const Number& b) { return Encode(a) < Encode(b); });
  ASSERT_EQ(by_compare.size(), by_encoding.size());
  for (size_t i = 0; i < by_compare.size(); ++i) {
    EXPECT_EQ(by_compare[i].ToString(), by_encoding[i].ToString()) << "position " << i;
  }
  // Pairwise as well: std::string compares as unsigned char (memcmp).
  for (const Number& a : by_compare) {
    for (const Number& b : by_compare) {
      const int cmp = Encode(a).compare(Encode(b));
      EXPECT_EQ((cmp > 0) - (cmp < 0), a.Compare(b)) << a.ToString() << " vs " << b.ToString();
    }
  }
}

TEST(NumberTest, KeyEncodingLayoutIsStable) {
  EXPECT_EQ(Encode(N("0")), std::string("\x02", 1));
  // 1: exponent 0 -> 0x82, digits "1" padded to pair 10 -> 0x0B, terminator.
  EXPECT_EQ(Encode(N("1")), std::string("\x03\x82\x0B\x00", 4));
  EXPECT_EQ(Encode(N("-1")), std::string("\x01\x7D\xF4\xFF", 4));
  // 12.5: exponent 1 -> 0x83, pairs 12 -> 0x0D and 50 -> 0x33.
  EXPECT_EQ(Encode(N("12.5")), std::string("\x03\x83\x0D\x33\x00", 5));
  EXPECT_EQ(Encode(N("1E-130")), std::string("\x03\x00\x0B\x00", 4));
  EXPECT_EQ(Encode(N("1E125")), std::string("\x03\xFF\x0B\x00", 4));
  EXPECT_EQ(Encode(N(kMax)).size(), 2u + 19u + 1u);
}

TEST(NumberTest, KeyEncodingRoundTripsAndSelfDelimits) {
  const std::string suffix("\x00\xFF\x01rest", 7);
  for (const Number& n : SampleNumbers()) {
    std::string bytes = Encode(n) + suffix;
    std::string_view in = bytes;
    Result<Number> decoded = Number::DecodeKey(&in);
    ASSERT_TRUE(decoded.ok()) << n.ToString() << ": " << decoded.status().message();
    EXPECT_EQ(*decoded, n);
    EXPECT_EQ(decoded->ToString(), n.ToString());
    EXPECT_EQ(in, suffix) << n.ToString();
  }
}

TEST(NumberTest, ConcatenatedKeyEncodingsDecodeInSequence) {
  const std::vector<Number> numbers = SampleNumbers();
  std::string bytes;
  for (const Number& n : numbers) n.AppendKeyEncoding(&bytes);
  std::string_view in = bytes;
  for (const Number& n : numbers) {
    Result<Number> decoded = Number::DecodeKey(&in);
    ASSERT_TRUE(decoded.ok());
    EXPECT_EQ(*decoded, n);
  }
  EXPECT_TRUE(in.empty());
}

TEST(NumberTest, DecodeKeyRejectsMalformedBytesAndLeavesInputUnchanged) {
  const std::string cases[] = {
      std::string(),                                   // empty
      std::string("\x04\x82\x0B\x00", 4),              // unknown tag
      std::string("\x00", 1),                          // unknown tag
      std::string("\x03", 1),                          // no exponent
      std::string("\x03\x82", 2),                      // no digits, no terminator
      std::string("\x03\x82\x00", 3),                  // no digits
      std::string("\x03\x82\x0B", 3),                  // no terminator
      std::string("\x03\x82\x66\x00", 4),              // pair byte 102 > 100
      std::string("\x03\x82\x02\x00", 4),              // leading zero digit ("01")
      std::string("\x03\x82\x0B\x01\x00", 5),          // trailing "00" pair
      std::string("\x01\x7D\xF4", 3),                  // negative, no terminator
      std::string("\x01\x7D\xFF", 3),                  // negative, no digits
      std::string("\x03\x82") + std::string(20, '\x0C') + std::string("\x00", 1),  // 40 digits
  };
  for (const std::string& bytes : cases) {
    std::string_view in = bytes;
    Result<Number> decoded = Number::DecodeKey(&in);
    EXPECT_FALSE(decoded.ok()) << "decoded " << decoded->ToString();
    EXPECT_EQ(decoded.status().code(), Status::Code::kInvalidArgument);
    EXPECT_EQ(in.size(), bytes.size());
  }
}

TEST(NumberTest, SizeInBytesCountsDigitPairsAlignedOnTheDecimalPoint) {
  EXPECT_EQ(N("0").SizeInBytes(), 1u);  // zero is the exponent byte alone
  EXPECT_EQ(N("7").SizeInBytes(), 2u);
  EXPECT_EQ(N("12").SizeInBytes(), 2u);
  EXPECT_EQ(N("123").SizeInBytes(), 3u);
  EXPECT_EQ(N("-123").SizeInBytes(), 4u);  // negatives take one more byte
  EXPECT_EQ(N("-42").SizeInBytes(), 3u);
  EXPECT_EQ(N("1234").SizeInBytes(), 3u);
  EXPECT_EQ(N("0042").SizeInBytes(), 2u);
  EXPECT_EQ(N("1.5").SizeInBytes(), 3u);  // "1" and "5" fall in different pairs
  EXPECT_EQ(N("3.14159").SizeInBytes(), 5u);
  EXPECT_EQ(N("1E125").SizeInBytes(), 2u);
  EXPECT_EQ(N("0.0000001").SizeInBytes(), 2u);
  EXPECT_EQ(N("12345678901234567890123456789012345678").SizeInBytes(), 20u);
}

TEST(NumberTest, AddAndSubtractAreExact) {
  EXPECT_EQ(Number::Add(N("0.1"), N("0.2"))->ToString(), "0.3");
  EXPECT_EQ(Number::Add(N("1"), N("10000000000000000000000"))->ToString(),
            "10000000000000000000001");
  EXPECT_EQ(Number::Subtract(N("10000000000000000000000"), N("1"))->ToString(),
            "9999999999999999999999");
  EXPECT_EQ(Number::Add(N(kThirtyEightNines), N("1"))->ToString(), "1" + std::string(38, '0'));
  EXPECT_EQ(Number::Add(N("0.5"), N("0.5"))->ToString(), "1");
  EXPECT_EQ(Number::Add(N("-0.5"), N("0.25"))->ToString(), "-0.25");
  EXPECT_EQ(Number::Subtract(N("1"), N("2"))->ToString(), "-1");
  EXPECT_EQ(Number::Subtract(N("0"), N("5"))->ToString(), "-5");
  EXPECT_EQ(Number::Subtract(N("5"), N("0"))->ToString(), "5");
  EXPECT_EQ(Number::Subtract(N("-1"), N("-3"))->ToString(), "2");
  EXPECT_EQ(Number::Add(N("1.23E-130"), N("1E-130"))->ToString(),
            "0." + std::string(129, '0') + "223");
  EXPECT_EQ(Number::Add(N("9E125"), N("-9E125"))->ToString(), "0");
  EXPECT_EQ(Number::Add(N(kMax), N("0"))->ToString(), N(kMax).ToString());
  EXPECT_EQ(Number::Subtract(N("100.001"), N("0.001"))->ToString(), "100");
}

TEST(NumberTest, SubtractingANumberFromItselfGivesZero) {
  for (const Number& x : SampleNumbers()) {
    Result<Number> difference = Number::Subtract(x, x);
    ASSERT_TRUE(difference.ok()) << x.ToString();
    EXPECT_TRUE(difference->is_zero()) << x.ToString();
    EXPECT_FALSE(difference->is_negative()) << x.ToString();
  }
}

TEST(NumberTest, AddMatchesIntegerArithmetic) {
  std::mt19937_64 random(7);
  std::uniform_int_distribution<int64_t> operand(-100'000'000'000'000'000, 100'000'000'000'000'000);
  std::uniform_int_distribution<int> scale(-30, 30);
  for (int i = 0; i < 2000; ++i) {
    const int64_t x = operand(random);
    const int64_t y = operand(random);
    const std::string exponent = "e" + std::to_string(scale(random));
    const Number a = N(std::to_string(x) + exponent);
    const Number b = N(std::to_string(y) + exponent);
    Result<Number> sum = Number::Add(a, b);
    Result<Number> difference = Number::Subtract(a, b);
    ASSERT_TRUE(sum.ok() && difference.ok());
    EXPECT_EQ(*sum, N(std::to_string(x + y) + exponent)) << x << " + " << y << exponent;
    EXPECT_EQ(*difference, N(std::to_string(x - y) + exponent)) << x << " - " << y << exponent;
    EXPECT_EQ(*sum, *Number::Add(b, a));
  }
}

TEST(NumberTest, ArithmeticNeedingMoreThan38DigitsFailsAsDynamoDbDoes) {
  // DynamoDB fails rather than rounds, and reports it as overflow.
  const std::string message(Number::kOverflowMessage);
  ExpectArithmeticError(Number::Add(N("1E50"), N("1")), message);
  ExpectArithmeticError(Number::Subtract(N("1E50"), N("1")), message);
  ExpectArithmeticError(Number::Add(N("1"), N("1E-40")), message);
  ExpectArithmeticError(Number::Add(N(kThirtyEightNines), N("0.1")), message);
  ExpectArithmeticError(Number::Add(N("1E125"), N("1E-130")), message);
}

TEST(NumberTest, ArithmeticBeyondTheRangeOverflows) {
  const std::string message(Number::kOverflowMessage);
  ExpectArithmeticError(Number::Add(N("9E125"), N("9E125")), message);
  ExpectArithmeticError(Number::Subtract(N("9E125"), N("-9E125")), message);
  ExpectArithmeticError(Number::Add(N("-9E125"), N("-9E125")), message);
  ExpectArithmeticError(Number::Add(N(kMax), N("1E+125")), message);
  ExpectArithmeticError(Number::Add(N("9.9e125"), N("9.9e125")), message);
  EXPECT_TRUE(Number::Add(N("5E125"), N("4.9999999999999999999999999999999999999E125")).ok());
}

TEST(NumberTest, ArithmeticBelowTheRangeUnderflows) {
  const std::string message(Number::kUnderflowMessage);
  ExpectArithmeticError(Number::Subtract(N("1.01E-130"), N("1E-130")), message);
  ExpectArithmeticError(Number::Add(N("-1.001E-130"), N("1E-130")), message);
  EXPECT_EQ(Number::Subtract(N("2E-130"), N("1E-130"))->ToString(), N("1E-130").ToString());
}

}  // namespace
}  // namespace ddb::engine
