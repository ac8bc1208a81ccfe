# Homebrew formula: builds localdynamo from source with the project's CMake
# build against Homebrew's RocksDB, Boost, RapidJSON and OpenSSL.
#   brew install --build-from-source ./Formula/localdynamo.rb
# or as a tap of this repository:
#   brew tap localdynamo/localdynamo <repository URL> && brew install localdynamo
# Not tested on macOS by this project's CI, which runs on Linux: what CI does
# check is that the sources compile with Clang and libc++ (scripts/clang_check.sh)
# and that the macOS-only code paths are the documented system calls.
# The URLs below name the project's public repository: change them to where
# it is published.
class Localdynamo < Formula
  desc "Local DynamoDB-compatible server: streams, TTL, transactions, preloaded models"
  homepage "https://github.com/localdynamo/localdynamo"
  url "https://github.com/localdynamo/localdynamo.git", branch: "main"
  version "0.1.0"
  license "MIT"
  head "https://github.com/localdynamo/localdynamo.git", branch: "main"

  depends_on "cmake" => :build
  depends_on "rapidjson" => :build
  depends_on "boost"
  depends_on "openssl@3"
  depends_on "rocksdb"

  def install
    system "cmake", "-S", ".", "-B", "build", "-DLOCALDYNAMO_TESTS=OFF",
           "-DLOCALDYNAMO_STATIC=OFF", *std_cmake_args
    system "cmake", "--build", "build", "--target", "localdynamo"
    bin.install "build/localdynamo"
    # The preloaded models, where the binary looks for them (bin/../share/localdynamo/fixtures).
    (share/"localdynamo").install "fixtures"
  end

  service do
    run [opt_bin/"localdynamo", "--data-dir", var/"localdynamo"]
    keep_alive true
    working_dir var
  end

  test do
    assert_match "localdynamo #{version}", shell_output("#{bin}/localdynamo --version")
    port = free_port
    pid = spawn bin/"localdynamo", "--in-memory", "--port", port.to_s
    begin
      sleep 2
      assert_match "ecommerce", shell_output("curl -s -X POST " \
        "-H 'X-Amz-Target: DynamoDB_20120810.ListTables' " \
        "-H 'Content-Type: application/x-amz-json-1.0' -d '{}' http://127.0.0.1:#{port}/")
    ensure
      Process.kill("TERM", pid)
      Process.wait(pid)
    end
  end
end
