#include "server/signature_verifier.h"

#include "server/sigv4.h"

namespace ddb::server {
namespace {

std::string_view HeaderValue(const sigv4::Headers& headers, std::string_view lowercase_name) {
  for (const auto& [name, value] : headers) {
    if (name == lowercase_name) return value;
  }
  return {};
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return text;
}

// The signing time: X-Amz-Date, else the Date header. Sets `*signed_at`
// to the X-Amz-Date form the messages quote.
std::optional<api::ApiError> SigningTime(const sigv4::Headers& headers, int64_t* seconds,
                                         std::string* signed_at) {
  std::string_view amz_date = HeaderValue(headers, "x-amz-date");
  if (!amz_date.empty()) {
    auto parsed = sigv4::ParseAmzDate(amz_date);
    if (!parsed) return api::ApiError::MalformedSignatureDate(amz_date);
    *seconds = *parsed;
  } else {
    auto parsed = sigv4::ParseHttpDate(HeaderValue(headers, "date"));
    if (!parsed) return api::ApiError::MalformedSignatureDate(HeaderValue(headers, "date"));
    *seconds = *parsed;
  }
  *signed_at = sigv4::FormatAmzDate(*seconds);
  return std::nullopt;
}

std::optional<api::ApiError> CheckSkew(int64_t signed_seconds, std::string_view signed_at,
                                       int64_t now_seconds) {
  constexpr int kMinutes = SignatureVerifier::kAllowedSkewMinutes;
  constexpr int64_t kSkew = kMinutes * 60;
  if (signed_seconds < now_seconds - kSkew) {
    return api::ApiError::SignatureExpired(signed_at, sigv4::FormatAmzDate(now_seconds - kSkew),
                                           sigv4::FormatAmzDate(now_seconds), kMinutes);
  }
  if (signed_seconds > now_seconds + kSkew) {
    return api::ApiError::SignatureNotYetCurrent(
        signed_at, sigv4::FormatAmzDate(now_seconds + kSkew), sigv4::FormatAmzDate(now_seconds),
        kMinutes);
  }
  return std::nullopt;
}

}  // namespace

std::optional<api::ApiError> SignatureVerifier::Verify(const HttpRequest& request,
                                                       int64_t now_seconds) const {
  sigv4::Authorization auth = sigv4::ParseAuthorization(request.authorization);
  api::ApiError::MissingSignatureParts missing;
  missing.credential = auth.access_key.empty();
  missing.signature = auth.signature.empty();
  missing.signed_headers = auth.signed_headers.empty();
  missing.date = HeaderValue(request.headers, "x-amz-date").empty() &&
                 HeaderValue(request.headers, "date").empty();
  if (missing.credential || missing.signature || missing.signed_headers || missing.date) {
    return api::ApiError::IncompleteSignature(missing, request.authorization);
  }

  int64_t signed_seconds = 0;
  std::string signed_at;
  if (auto error = SigningTime(request.headers, &signed_seconds, &signed_at)) return error;
  if (auto error = CheckSkew(signed_seconds, signed_at, now_seconds)) return error;
  if (auth.service != kService) return api::ApiError::CredentialWrongService(kService);

  auto secret = secrets_.find(auth.access_key);
  if (secret == secrets_.end()) return api::ApiError::UnrecognizedClient();

  // The client signed the X-Amz-Date text itself (or the Date header's
  // value when it had none): the string to sign quotes it as sent.
  std::string_view amz_date = HeaderValue(request.headers, "x-amz-date");
  std::string date_text = amz_date.empty() ? signed_at : std::string(Trim(amz_date));
  std::string canonical =
      sigv4::CanonicalRequest(request.method, request.target, request.headers,
                              auth.signed_headers, sigv4::Sha256Hex(request.body));
  std::string to_sign = sigv4::StringToSign(date_text, auth.Scope(), canonical);
  std::string key = sigv4::SigningKey(secret->second, auth.date, auth.region, auth.service);
  if (!sigv4::ConstantTimeEquals(sigv4::Sign(key, to_sign), auth.signature)) {
    return api::ApiError::InvalidSignature();
  }
  return std::nullopt;
}

bool ParseCredentialsFile(std::string_view text, Secrets* out, std::string* error) {
  int line_number = 0;
  while (!text.empty()) {
    size_t newline = text.find('\n');
    std::string_view line = Trim(text.substr(0, newline));
    text = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
    ++line_number;
    if (line.empty() || line.front() == '#') continue;
    size_t blank = line.find_first_of(" \t");
    std::string_view key = line.substr(0, blank);
    std::string_view secret =
        blank == std::string_view::npos ? std::string_view() : Trim(line.substr(blank));
    if (secret.empty() || secret.find_first_of(" \t") != std::string_view::npos) {
      *error = "line " + std::to_string(line_number) + ": expected ACCESS_KEY SECRET";
      return false;
    }
    (*out)[std::string(key)] = std::string(secret);
  }
  return true;
}

bool ParseCredentialsList(std::string_view text, Secrets* out, std::string* error) {
  int entry_number = 0;
  while (!text.empty()) {
    ++entry_number;
    size_t comma = text.find(',');
    std::string_view entry = Trim(text.substr(0, comma));
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    if (entry.empty()) continue;
    size_t colon = entry.find(':');
    if (colon == 0 || colon == std::string_view::npos || colon + 1 == entry.size()) {
      // The entry itself is not quoted: it may hold a secret.
      *error = "entry " + std::to_string(entry_number) + ": expected key:secret";
      return false;
    }
    (*out)[std::string(entry.substr(0, colon))] = std::string(entry.substr(colon + 1));
  }
  return true;
}

}  // namespace ddb::server
