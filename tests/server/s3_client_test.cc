// The S3 client's signing (S3Authorization) against the S3 guide's "GET
// Object" example, whole header included; the end-to-end runs against a
// real S3 server are tests/e2e/test_export_import_s3.py (whose server
// checks the access key, not the signature).
#include "server/s3_client.h"

#include <gtest/gtest.h>

namespace ddb::server {
namespace {

TEST(S3ClientTest, SignsAsTheS3GuidesGetObjectExample) {
  S3Credentials credentials{"AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                            "", "us-east-1"};
  std::string empty_hash = sigv4::Sha256Hex("");
  sigv4::Headers headers = {{"host", "examplebucket.s3.amazonaws.com"},
                            {"range", "bytes=0-9"},
                            {"x-amz-content-sha256", empty_hash},
                            {"x-amz-date", "20130524T000000Z"}};
  EXPECT_EQ(S3Authorization("GET", "/test.txt", headers,
                            "host;range;x-amz-content-sha256;x-amz-date", empty_hash,
                            "20130524T000000Z", credentials),
            "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/"
            "aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
            "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
}

TEST(S3ClientTest, AnEncodedKeyIsSignedAsSent) {
  // An object key's reserved characters travel %-encoded; the canonical URI
  // is that same encoding, not a second one.
  EXPECT_EQ(sigv4::UriEncode("a b/c+d.json", true), "a%20b/c%2Bd.json");
  sigv4::Headers headers = {{"host", "h"}};
  EXPECT_EQ(sigv4::CanonicalRequest("GET", "/bucket/a%20b/c%2Bd.json", headers, "host", "x"),
            "GET\n/bucket/a%20b/c%2Bd.json\n\nhost:h\n\nhost\nx");
}

TEST(S3ClientTest, EndpointMustBePlainHttp) {
  std::string error;
  EXPECT_EQ(MakeS3ObjectStore("https://s3.amazonaws.com", {}, &error), nullptr);
  EXPECT_NE(error.find("http://"), std::string::npos);
  EXPECT_NE(MakeS3ObjectStore("http://127.0.0.1:9000", {}, &error), nullptr);
}

}  // namespace
}  // namespace ddb::server
