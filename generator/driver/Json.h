// A minimal JSON value for writing the library manifest (kernels.json).
// Objects keep their keys sorted (std::map), so that the printed text never
// depends on insertion order; numbers are integers.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace risec::driver {

class Json {
public:
  using Array = std::vector<Json>;
  using Object = std::map<std::string, Json>;

  Json() = default; ///< null
  Json(bool b) : kind_(Kind::Bool), bool_(b) {}
  Json(std::int64_t i) : kind_(Kind::Int), int_(i) {}
  Json(int i) : kind_(Kind::Int), int_(i) {}
  Json(std::string s) : kind_(Kind::String), string_(std::move(s)) {}
  Json(const char* s) : kind_(Kind::String), string_(s) {}
  Json(Array a) : kind_(Kind::Array), array_(std::move(a)) {}
  Json(Object o) : kind_(Kind::Object), object_(std::move(o)) {}

  /// Pretty-printed with two-space indentation and a final newline.
  std::string print() const;

private:
  void print(std::string& out, int indent) const;

  // Plain members rather than std::variant: GCC 12 warns falsely
  // (-Wmaybe-uninitialized) about variants in initializer lists.
  enum class Kind { Null, Bool, Int, String, Array, Object } kind_ = Kind::Null;
  bool bool_ = false;
  std::int64_t int_ = 0;
  std::string string_;
  Array array_;
  Object object_;
};

/// `s` as a JSON string literal, quotes included.
std::string jsonQuote(const std::string& s);

} // namespace risec::driver
