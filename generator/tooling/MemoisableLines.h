// The lines of an emitted file whose formatting libFormat may be asked for
// once and reused: long, simple statements inside a code block. Formatting
// such a line costs libFormat a search over its line breaks (tens of ms for
// the 800-character expressions of a fused stencil), and the C, OpenMP and
// OpenCL variants of a kernel repeat the same statements.
//
// A line qualifies only when its formatting can depend on nothing but its own
// text: it is longer than the column limit (shorter lines are cheap anyway),
// is one whole statement on one line (it ends with `;`, the line before it
// ends with `;`, `{` or `}`, no parenthesis or bracket is open across it), it
// lies directly in a code block (the innermost `{` follows `)`, `else` or
// `do`, and is not a `switch`'s), it is indented by exactly its brace depth, and it has no braces,
// comments, string or character literals, preprocessor lines or line
// continuations.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace risec::tooling {

/// One line of the text: [begin, end), without its newline.
struct LineExtent {
  std::size_t begin = 0, end = 0;
};

/// The qualifying lines of `code`, in order.
std::vector<LineExtent> memoisableLines(const std::string& code, unsigned columnLimit,
                                        unsigned indentWidth);

} // namespace risec::tooling
