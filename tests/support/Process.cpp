#include "Process.h"

#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace risec::test {

namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

} // namespace

ProcessResult runProcess(const std::vector<std::string>& argv, const std::string& stdinText) {
  // Files rather than pipes: no risk of a deadlock on large outputs.
  static int counter = 0;
  std::string stem = (fs::temp_directory_path() / ("risec-test-" + std::to_string(::getpid()) +
                                                   "-" + std::to_string(++counter)))
                         .string();
  std::string inPath = stem + ".in", outPath = stem + ".out", errPath = stem + ".err";
  std::ofstream(inPath, std::ios::binary) << stdinText;

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, inPath.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, outPath.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, errPath.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::vector<char*> cargv;
  for (const std::string& a : argv)
    cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);

  ProcessResult r;
  pid_t pid = 0;
  int rc = posix_spawn(&pid, cargv[0], &actions, nullptr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc == 0) {
    int status = 0;
    if (waitpid(pid, &status, 0) == pid && WIFEXITED(status))
      r.exitCode = WEXITSTATUS(status);
    r.out = slurp(outPath);
    r.err = slurp(errPath);
  } else {
    r.err = "posix_spawn failed for " + argv[0];
  }
  for (const std::string& p : {inPath, outPath, errPath})
    fs::remove(p);
  return r;
}

} // namespace risec::test
