// SigV4 arithmetic against AWS's published vectors (the Signature Version 4
// test suite's get-vanilla, get-vanilla-query-order-key-case, get-utf8,
// get-space, post-vanilla and post-vanilla-query, and the S3 guide's
// "GET Object" example), and the verifier's decisions and answers.
#include <gtest/gtest.h>

#include <string>

#include "server/signature_verifier.h"
#include "server/sigv4.h"

namespace ddb::server {
namespace {

// The test suite's credentials, date and scope.
constexpr char kSuiteSecret[] = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";
constexpr char kSuiteDate[] = "20150830T123600Z";
const std::string kEmptyHash = sigv4::Sha256Hex("");

std::string SuiteSignature(std::string_view method, std::string_view target) {
  sigv4::Headers headers = {{"host", "example.amazonaws.com"}, {"x-amz-date", kSuiteDate}};
  std::string canonical =
      sigv4::CanonicalRequest(method, target, headers, "host;x-amz-date", kEmptyHash);
  std::string to_sign =
      sigv4::StringToSign(kSuiteDate, "20150830/us-east-1/service/aws4_request", canonical);
  return sigv4::Sign(sigv4::SigningKey(kSuiteSecret, "20150830", "us-east-1", "service"),
                     to_sign);
}

TEST(SigV4Test, Sha256OfTheEmptyString) {
  EXPECT_EQ(kEmptyHash, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(SigV4Test, GetVanillaCanonicalRequestAndSignature) {
  sigv4::Headers headers = {{"host", "example.amazonaws.com"}, {"x-amz-date", kSuiteDate}};
  EXPECT_EQ(sigv4::CanonicalRequest("GET", "/", headers, "host;x-amz-date", kEmptyHash),
            "GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\n"
            "host;x-amz-date\n" + kEmptyHash);
  EXPECT_EQ(SuiteSignature("GET", "/"),
            "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
}

TEST(SigV4Test, QueryParametersAreSorted) {
  EXPECT_EQ(SuiteSignature("GET", "/?Param2=value2&Param1=value1"),
            "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500");
}

TEST(SigV4Test, PathsAreEncodedOnce) {
  EXPECT_EQ(SuiteSignature("GET", "/%E1%88%B4"),
            "8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85");
  EXPECT_EQ(SuiteSignature("GET", "/example space/"),
            "652487583200325589f1fba4c7e578f72c47cb61beeca81406b39ddec1366741");
}

TEST(SigV4Test, PostVanillaAndAnEmptyQueryValue) {
  EXPECT_EQ(SuiteSignature("POST", "/"),
            "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b");
  EXPECT_EQ(SuiteSignature("POST", "/?Param1=value1"),
            "28038455d6de14eafc1f9222cf5aa6f1a96197d7deb8263271d420d138af7f11");
}

TEST(SigV4Test, S3GuideGetObjectExample) {
  sigv4::Headers headers = {{"host", "examplebucket.s3.amazonaws.com"},
                            {"range", "bytes=0-9"},
                            {"x-amz-content-sha256", kEmptyHash},
                            {"x-amz-date", "20130524T000000Z"}};
  std::string canonical = sigv4::CanonicalRequest(
      "GET", "/test.txt", headers, "host;range;x-amz-content-sha256;x-amz-date", kEmptyHash);
  EXPECT_EQ(sigv4::Sha256Hex(canonical),
            "7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972");
  std::string to_sign =
      sigv4::StringToSign("20130524T000000Z", "20130524/us-east-1/s3/aws4_request", canonical);
  std::string key = sigv4::SigningKey("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "20130524",
                                      "us-east-1", "s3");
  EXPECT_EQ(sigv4::Sign(key, to_sign),
            "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
}

TEST(SigV4Test, HeaderValuesAreTrimmedAndRepeatsJoined) {
  sigv4::Headers headers = {{"my-header", "  a   b  "}, {"my-header", "c"}, {"host", "h"}};
  EXPECT_EQ(sigv4::CanonicalRequest("GET", "/", headers, "host;my-header", "x"),
            "GET\n/\n\nhost:h\nmy-header:a b,c\n\nhost;my-header\nx");
}

TEST(SigV4Test, ParsesTheAuthorizationHeader) {
  auto auth = sigv4::ParseAuthorization(
      "AWS4-HMAC-SHA256 Credential=AKID/20240101/eu-west-3/dynamodb/aws4_request, "
      "SignedHeaders=host;x-amz-date,Signature=abc");
  EXPECT_TRUE(auth.algorithm_ok);
  EXPECT_EQ(auth.access_key, "AKID");
  EXPECT_EQ(auth.Scope(), "20240101/eu-west-3/dynamodb/aws4_request");
  EXPECT_EQ(auth.signed_headers, "host;x-amz-date");
  EXPECT_EQ(auth.signature, "abc");
  EXPECT_FALSE(sigv4::ParseAuthorization("AWS4-HMAC-SHA256X Credential=a").algorithm_ok);
  EXPECT_TRUE(sigv4::ParseAuthorization("AWS4-HMAC-SHA256 Credential=a/b").access_key.empty());
}

TEST(SigV4Test, AmzDatesRoundTrip) {
  EXPECT_EQ(sigv4::ParseAmzDate("20150830T123600Z"), 1440938160);
  EXPECT_EQ(sigv4::FormatAmzDate(1440938160), "20150830T123600Z");
  EXPECT_EQ(sigv4::ParseHttpDate("Sun, 30 Aug 2015 12:36:00 GMT"), 1440938160);
  EXPECT_FALSE(sigv4::ParseAmzDate("2015-08-30T12:36:00Z"));
  EXPECT_FALSE(sigv4::ParseAmzDate("20151330T123600Z"));
}

// --- SignatureVerifier ------------------------------------------------------

constexpr int64_t kNow = 1440938160;  // 20150830T123600Z

// A DynamoDB request signed with `secret` at `amz_date`.
HttpRequest Signed(std::string_view access_key, std::string_view secret,
                   std::string_view amz_date, std::string_view service = "dynamodb") {
  HttpRequest request;
  request.method = "POST";
  request.target = "/";
  request.body = R"({"TableName":"t"})";
  request.headers = {{"host", "localhost:8000"},
                     {"content-type", "application/x-amz-json-1.0"},
                     {"x-amz-date", std::string(amz_date)},
                     {"x-amz-target", "DynamoDB_20120810.DescribeTable"}};
  std::string signed_headers = "content-type;host;x-amz-date;x-amz-target";
  std::string date(amz_date.substr(0, 8));
  std::string scope = date + "/us-east-1/" + std::string(service) + "/aws4_request";
  std::string canonical = sigv4::CanonicalRequest(request.method, request.target, request.headers,
                                                  signed_headers, sigv4::Sha256Hex(request.body));
  std::string signature =
      sigv4::Sign(sigv4::SigningKey(secret, date, "us-east-1", service),
                  sigv4::StringToSign(amz_date, scope, canonical));
  request.authorization = "AWS4-HMAC-SHA256 Credential=" + std::string(access_key) + "/" + scope +
                          ", SignedHeaders=" + signed_headers + ", Signature=" + signature;
  return request;
}

SignatureVerifier Verifier() { return SignatureVerifier(Secrets{{"AKID", "secret"}}); }

TEST(SignatureVerifierTest, AcceptsTheRightSecret) {
  EXPECT_EQ(Verifier().Verify(Signed("AKID", "secret", kSuiteDate), kNow), std::nullopt);
}

TEST(SignatureVerifierTest, RejectsAWrongSecretAndATamperedBody) {
  auto wrong = Verifier().Verify(Signed("AKID", "other", kSuiteDate), kNow);
  ASSERT_TRUE(wrong);
  EXPECT_EQ(wrong->short_type(), "InvalidSignatureException");
  EXPECT_EQ(wrong->http_status, 400);
  HttpRequest tampered = Signed("AKID", "secret", kSuiteDate);
  tampered.body = R"({"TableName":"u"})";
  EXPECT_EQ(Verifier().Verify(tampered, kNow)->short_type(), "InvalidSignatureException");
}

TEST(SignatureVerifierTest, RejectsAnUnknownKey) {
  auto error = Verifier().Verify(Signed("NOPE", "secret", kSuiteDate), kNow);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->type, "com.amazon.coral.service#UnrecognizedClientException");
  EXPECT_EQ(error->message, "The security token included in the request is invalid.");
}

TEST(SignatureVerifierTest, AllowsFifteenMinutesOfSkewEachWay) {
  EXPECT_EQ(Verifier().Verify(Signed("AKID", "secret", "20150830T122100Z"), kNow), std::nullopt);
  EXPECT_EQ(Verifier().Verify(Signed("AKID", "secret", "20150830T125100Z"), kNow), std::nullopt);
  auto expired = Verifier().Verify(Signed("AKID", "secret", "20150830T122059Z"), kNow);
  ASSERT_TRUE(expired);
  EXPECT_EQ(expired->message,
            "Signature expired: 20150830T122059Z is now earlier than 20150830T122100Z "
            "(20150830T123600Z - 15 min.)");
  auto early = Verifier().Verify(Signed("AKID", "secret", "20150830T125101Z"), kNow);
  ASSERT_TRUE(early);
  EXPECT_EQ(early->short_type(), "InvalidSignatureException");
  EXPECT_EQ(early->message,
            "Signature not yet current: 20150830T125101Z is still later than 20150830T125100Z "
            "(20150830T123600Z + 15 min.)");
}

TEST(SignatureVerifierTest, NamesTheMissingParts) {
  HttpRequest request = Signed("AKID", "secret", kSuiteDate);
  request.authorization = "AWS4-HMAC-SHA256 Credential=AKID/20150830/us-east-1/dynamodb/aws4_request";
  request.headers.erase(request.headers.begin() + 2);  // x-amz-date
  auto error = Verifier().Verify(request, kNow);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->short_type(), "IncompleteSignatureException");
  EXPECT_EQ(error->message,
            "Authorization header requires 'Signature' parameter. Authorization header requires "
            "'SignedHeaders' parameter. Authorization header requires existence of either a "
            "'X-Amz-Date' or a 'Date' header. Authorization=" + request.authorization);
}

TEST(SignatureVerifierTest, RequiresTheDynamoDbService) {
  auto error = Verifier().Verify(Signed("AKID", "secret", kSuiteDate, "s3"), kNow);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message, "Credential should be scoped to correct service: 'dynamodb'. ");
}

TEST(CredentialsTest, ReadsFilesAndLists) {
  Secrets secrets;
  std::string error;
  EXPECT_TRUE(ParseCredentialsFile("# team keys\n\nAKID1 s1\n  AKID2\ts/2+x  \n", &secrets,
                                   &error));
  EXPECT_TRUE(ParseCredentialsList("k3:s3, k4:a:b", &secrets, &error));
  EXPECT_EQ(secrets, (Secrets{{"AKID1", "s1"}, {"AKID2", "s/2+x"}, {"k3", "s3"}, {"k4", "a:b"}}));
  EXPECT_FALSE(ParseCredentialsFile("AKID1 s1\nlonely\n", &secrets, &error));
  EXPECT_EQ(error, "line 2: expected ACCESS_KEY SECRET");
  EXPECT_FALSE(ParseCredentialsList("k:s,nocolon", &secrets, &error));
  EXPECT_EQ(error, "entry 2: expected key:secret");
}

}  // namespace
}  // namespace ddb::server
