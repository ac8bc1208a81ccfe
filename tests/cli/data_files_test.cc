// The file side of the offline data commands: MD5 checksums of export data
// files, gzip and plain line reading, progress lines, and how import
// resolves its paths to data files.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "api/transfer/compression.h"
#include "api/transfer/md5.h"
#include "cli/gzip_file.h"
#include "cli/import_sources.h"
#include "cli/progress.h"

namespace ddb::cli {
namespace {
using api::Md5;
using api::Md5Hex;
using api::Md5Of;
namespace fs = std::filesystem;

class TempDir {
 public:
  TempDir() {
    path_ = fs::temp_directory_path() /
            ("localdynamo-test-" + std::to_string(::getpid()) + "-" + std::to_string(next_++));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  const fs::path& path() const { return path_; }

 private:
  static inline int next_ = 0;
  fs::path path_;
};

void WriteFile(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

std::vector<std::string> ReadLines(const fs::path& path) {
  std::string error;
  auto reader = LineFileReader::Open(path.string(), &error);
  EXPECT_TRUE(reader) << error;
  std::vector<std::string> lines;
  std::string line;
  while (reader && reader->NextLine(&line)) lines.push_back(line);
  if (reader) {
    EXPECT_EQ(reader->error(), "");
  }
  return lines;
}

TEST(Md5Test, Rfc1321Vectors) {
  EXPECT_EQ(Md5Hex(Md5Of("")), "d41d8cd98f00b204e9800998ecf8427e");
  EXPECT_EQ(Md5Hex(Md5Of("abc")), "900150983cd24fb0d6963f7d28e17f72");
  EXPECT_EQ(Md5Hex(Md5Of("message digest")), "f96b697d7cb7938d525a2f31aaf161d0");
  EXPECT_EQ(Md5Hex(Md5Of("12345678901234567890123456789012345678901234567890123456789012345678901"
                         "234567890")),
            "57edf4a22be3c955ac49da2e2107b67a");
}

TEST(Md5Test, PiecewiseUpdatesMatchOneShot) {
  std::string text(1000, 'x');
  for (size_t i = 0; i < text.size(); ++i) text[i] = static_cast<char>('a' + i % 26);
  Md5 md5;
  for (size_t i = 0; i < text.size(); i += 37) md5.Update(std::string_view(text).substr(i, 37));
  EXPECT_EQ(Md5Hex(md5.Finish()), Md5Hex(Md5Of(text)));
}

TEST(LineFileReaderTest, GzipAndPlainReadAlike) {
  TempDir dir;
  std::string error;
  api::GzipCompressor gzip;
  gzip.Add("one\ntwo\r\n");
  gzip.Add("\nthree");
  WriteFile(dir.path() / "a.json.gz", gzip.Finish());
  WriteFile(dir.path() / "a.jsonl", "one\ntwo\r\n\nthree");
  std::vector<std::string> expected = {"one", "two", "", "three"};
  EXPECT_EQ(ReadLines(dir.path() / "a.json.gz"), expected);
  EXPECT_EQ(ReadLines(dir.path() / "a.jsonl"), expected);
  // The gzip file really is gzip: its magic bytes.
  std::ifstream in(dir.path() / "a.json.gz", std::ios::binary);
  EXPECT_EQ(in.get(), 0x1f);
  EXPECT_EQ(in.get(), 0x8b);
}

TEST(LineFileReaderTest, LongLinesAcrossReadChunks) {
  TempDir dir;
  std::string long_line(3 << 20, 'z');  // longer than one read
  WriteFile(dir.path() / "long.jsonl", "a\n" + long_line + "\nb\n");
  std::string error;
  auto reader = LineFileReader::Open((dir.path() / "long.jsonl").string(), &error);
  ASSERT_TRUE(reader);
  std::string line;
  ASSERT_TRUE(reader->NextLine(&line));
  EXPECT_EQ(line, "a");
  ASSERT_TRUE(reader->NextLine(&line));
  EXPECT_EQ(line.size(), long_line.size());
  ASSERT_TRUE(reader->NextLine(&line));
  EXPECT_EQ(line, "b");
  EXPECT_EQ(reader->line_number(), 3u);
  EXPECT_FALSE(reader->NextLine(&line));
}

TEST(LineFileReaderTest, MissingFileFailsToOpen) {
  std::string error;
  EXPECT_FALSE(LineFileReader::Open("/nonexistent/x.json", &error));
  EXPECT_FALSE(error.empty());
}

TEST(ProgressTest, Lines) {
  EXPECT_EQ(GroupThousands(0), "0");
  EXPECT_EQ(GroupThousands(999), "999");
  EXPECT_EQ(GroupThousands(1234567), "1,234,567");
  EXPECT_EQ(FormatProgress("import T", 250000, 2.5, 0.25),
            "import T: 250,000 items, 100,000 items/s, 25%, about 8 s left");
  EXPECT_EQ(FormatProgress("import T", 100, 1, -1), "import T: 100 items, 100 items/s");
  EXPECT_EQ(FormatProgress("import T", 10, 100, 0.5),
            "import T: 10 items, 0 items/s, 50%, about 1:40 left");
}

TEST(ProgressTest, ReportsAtMostOnceASecondThenSummarizes) {
  std::ostringstream out;
  ProgressReporter progress("import T", out, true, false);
  progress.Update(10, 0.1);
  EXPECT_EQ(out.str(), "");  // too soon
  std::this_thread::sleep_for(std::chrono::milliseconds(1050));
  progress.Update(20, 0.5);
  progress.Update(30, 0.6);  // too soon again
  EXPECT_EQ(out.str().rfind("import T: 20 items, ", 0), 0u) << out.str();
  EXPECT_NE(out.str().find(", 50%, about "), std::string::npos) << out.str();
  EXPECT_NE(out.str().find(" s left\n"), std::string::npos) << out.str();
  std::string reported = out.str();
  EXPECT_EQ(std::count(reported.begin(), reported.end(), '\n'), 1);
  progress.Finish(40);
  double most = progress.elapsed_seconds();
  // The summary gives the whole run's time: the 1,050 ms slept plus however
  // long the rest took on this machine (more on a slow one), to a tenth.
  const std::string summary = "\nimport T: 40 items in ";
  size_t at = out.str().find(summary);
  ASSERT_NE(at, std::string::npos) << out.str();
  double shown = std::stod(out.str().substr(at + summary.size()));
  EXPECT_GE(shown, 1.0) << out.str();
  EXPECT_LE(shown, most + 0.05) << out.str();

  std::ostringstream quiet;
  ProgressReporter disabled("import T", quiet, false, false);
  std::this_thread::sleep_for(std::chrono::milliseconds(1050));
  disabled.Update(5, -1);
  EXPECT_EQ(quiet.str(), "");
  disabled.Finish(5);  // the summary is always written
  EXPECT_EQ(quiet.str().rfind("import T: 5 items in ", 0), 0u) << quiet.str();
}

TEST(ImportSourcesTest, ExportDirectoryFromItsManifests) {
  TempDir dir;
  fs::path export_dir = dir.path() / "Music" / "AWSDynamoDB" / "01234567890123-abcdef01";
  WriteFile(export_dir / "manifest-summary.json",
            R"({"version":"2020-06-30","tableArn":"arn:aws:dynamodb:eu-west-1:1:table/Music",)"
            R"("itemCount":3,"outputFormat":"DYNAMODB_JSON","exportType":"FULL_EXPORT"})");
  WriteFile(export_dir / "manifest-files.json",
            R"({"itemCount":2,"dataFileS3Key":"p/AWSDynamoDB/x/data/b.json.gz"})"
            "\n"
            R"({"itemCount":1,"dataFileS3Key":"p/AWSDynamoDB/x/data/a.json.gz"})"
            "\n");
  WriteFile(export_dir / "data" / "a.json.gz", "x");
  WriteFile(export_dir / "data" / "b.json.gz", "x");
  WriteFile(export_dir / "data" / "stray.json.gz", "x");  // not listed: not read
  // From the export's own directory and from the prefix above it alike.
  for (const fs::path& path : {export_dir, dir.path()}) {
    ImportSources sources;
    std::string error;
    ASSERT_TRUE(ResolveImportSources({path.string()}, &sources, &error)) << error;
    EXPECT_EQ(sources.table, "Music");
    EXPECT_EQ(sources.expected_items, 3u);
    EXPECT_TRUE(sources.all_counted);
    ASSERT_EQ(sources.files.size(), 2u);
    EXPECT_EQ(fs::path(sources.files[0].path).filename(), "b.json.gz");
    EXPECT_EQ(fs::path(sources.files[1].path).filename(), "a.json.gz");
  }
}

TEST(ImportSourcesTest, ProblemsAreNamed) {
  TempDir dir;
  ImportSources sources;
  std::string error;
  EXPECT_FALSE(ResolveImportSources({(dir.path() / "nope").string()}, &sources, &error));
  EXPECT_NE(error.find("no such file or directory"), std::string::npos) << error;
  EXPECT_FALSE(ResolveImportSources({dir.path().string()}, &sources, &error));
  EXPECT_NE(error.find("no data files"), std::string::npos) << error;

  fs::path export_dir = dir.path() / "e";
  WriteFile(export_dir / "manifest-summary.json", R"({"outputFormat":"ION"})");
  EXPECT_FALSE(ResolveImportSources({export_dir.string()}, &sources, &error));
  EXPECT_NE(error.find("outputFormat ION is not supported"), std::string::npos) << error;

  WriteFile(export_dir / "manifest-summary.json", R"({"outputFormat":"DYNAMODB_JSON"})");
  WriteFile(export_dir / "manifest-files.json", R"({"dataFileS3Key":"x/data/gone.json.gz"})");
  EXPECT_FALSE(ResolveImportSources({export_dir.string()}, &sources, &error));
  EXPECT_NE(error.find("manifest-files.json:1: "), std::string::npos) << error;
  EXPECT_NE(error.find("gone.json.gz is missing"), std::string::npos) << error;
}

TEST(ImportSourcesTest, PlainDataFilesInNameOrder) {
  TempDir dir;
  WriteFile(dir.path() / "b.jsonl", "");
  WriteFile(dir.path() / "sub" / "a.json", "");
  WriteFile(dir.path() / "notes.txt", "");
  ImportSources sources;
  std::string error;
  ASSERT_TRUE(ResolveImportSources({dir.path().string()}, &sources, &error)) << error;
  ASSERT_EQ(sources.files.size(), 2u);
  EXPECT_EQ(fs::path(sources.files[0].path).filename(), "b.jsonl");
  EXPECT_EQ(fs::path(sources.files[1].path).filename(), "a.json");
  EXPECT_TRUE(sources.table.empty());
  EXPECT_FALSE(sources.all_counted);
}

}  // namespace
}  // namespace ddb::cli
