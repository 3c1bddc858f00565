// A readable text form of DPIA phrases and programs (`risec compile
// --dump=dpia`, `--dump=imperative`): primitives are printed fully applied
// with their type-level arguments first, commands one per line.
#pragma once

#include "dpia/Program.h"

#include <string>

namespace risec::dpia {

std::string printPhrase(const Phrase& p);
/// The program's signature and its functional body (`imperative` false) or
/// its imperative command (`imperative` true).
std::string printProgram(const Program& p, bool imperative);

} // namespace risec::dpia
