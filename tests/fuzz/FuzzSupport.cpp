#include "FuzzSupport.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <typeinfo>

namespace risec::fuzz {

void finding(const std::string& what) {
  std::fprintf(stderr, "risec-fuzz finding: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

void checkDiagnostic(const CompileError& e, const char* stage) {
  const std::string& c = e.code();
  bool codeOk = c.size() == 5 && c[0] == 'E';
  for (std::size_t i = 1; codeOk && i < c.size(); ++i)
    codeOk = std::isdigit(static_cast<unsigned char>(c[i])) != 0;
  if (!codeOk)
    finding(std::string(stage) + ": a diagnostic without a valid code (`" + c +
            "`): " + e.message());
  if (!e.location().known())
    finding(std::string(stage) + ": a diagnostic without a source location [" + c +
            "]: " + e.message());
}

void unexpectedException(const char* stage) {
  try {
    throw;
  } catch (const InternalError& e) {
    finding(std::string(stage) + ": internal error: " + e.what());
  } catch (const std::exception& e) {
    finding(std::string(stage) + ": exception " + typeid(e).name() + ": " + e.what());
  } catch (...) {
    finding(std::string(stage) + ": an exception that is no std::exception");
  }
}

std::string sourceDir() {
  return RISEC_SOURCE_DIR;
}

std::uint64_t inputHash(const std::uint8_t* data, std::size_t size) {
  std::uint64_t h = 14695981039346656037ull;
  for (std::size_t i = 0; i < size; ++i)
    h = (h ^ data[i]) * 1099511628211ull;
  return h;
}

} // namespace risec::fuzz
