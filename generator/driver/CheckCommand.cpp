#include "driver/Commands.h"

#include "driver/SourceLoader.h"
#include "rise/ast/ForeignTypes.h"
#include "rise/infer/Infer.h"
#include "rise/parse/Parser.h"
#include "rise/print/Printer.h"

#include <ostream>

namespace risec::driver {

using namespace risec::rise;

int runCheck(const CheckOptions& opts, std::ostream& out) {
  Program program = parseProgram(loadSource(opts.file));
  if (opts.dump == "parse") {
    out << printProgram(program);
    return 0;
  }
  // Type-check everything before printing anything: no partial output. A
  // foreign declaration of a type no target supports is E0422 here too, as
  // in `eval` and `compile`, whether or not a def uses it.
  for (const auto& f : program.foreigns)
    checkForeignSignature(*f);
  std::vector<TypedDef> defs = inferProgram(program);
  for (const TypedDef& d : defs) {
    if (opts.dump == "infer") {
      PrintOptions po;
      po.showTypes = true;
      out << "def " << d.name << " : " << typeToString(d.type) << " =\n  " << printExpr(d.expr, po)
          << "\n";
    } else {
      out << d.name << " : " << typeToString(d.type) << "\n";
    }
    for (const Precondition& p : d.preconditions)
      out << "  requires " << p.str() << "  (" << p.loc.str() << ")"
          << (p.onlyForNonEmptyResult ? "  or else the result is empty: nothing to compute" : "")
          << "\n";
  }
  return 0;
}

} // namespace risec::driver
