// localdynamo check: every table file's checksums, then every table's and
// backup's items and index entries checked against each other, offline and
// read-only (engine/integrity/integrity_check.h). Exit 0 when clean, 1 when damage or
// an inconsistency was found, 2 when the directory cannot be checked.
#include <iostream>

#include "cli/data_commands.h"
#include "cli/integrity_output.h"
#include "engine/integrity/integrity_check.h"

namespace ddb::cli {

int RunCheck(const CheckOptions& options) {
  auto report = engine::CheckDataDir(options.data_dir);
  if (!report.ok()) {
    std::cerr << "localdynamo check: " << report.status().message() << "\n";
    return 2;
  }
  std::cout << "localdynamo check: " << options.data_dir << "\n";
  PrintCheck(*report, /*all_tables=*/true, std::cout);
  std::cout << "result: " << Verdict(*report) << "\n";
  return report->clean() ? 0 : 1;
}

}  // namespace ddb::cli
