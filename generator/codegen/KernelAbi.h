// The interface of one generated kernel: the parameters a caller passes, in
// ABI order, and what it may expect back. The emitters fill it
// (codegen/c/EmitPrologue.cpp, EmitOpenCLKernel.cpp); headers, host
// wrappers (templates/) and the library manifest (kernels.json) are made
// from it, so that they can never disagree with the code they describe.
#pragma once

#include "codegen/Target.h"
#include "rise/infer/Infer.h"
#include "rise/types/Type.h"

#include <string>
#include <vector>

namespace risec::codegen {

struct AbiParam {
  enum class Role {
    Output,    ///< the result (one pointer per component of a pair of arrays)
    Size,      ///< a Nat size parameter, `int`
    Input,     ///< an input array (pointer) or scalar (by value)
    Temporary, ///< OpenCL: a global-memory temporary the host allocates
  };
  Role role = Role::Input;
  std::string name;     ///< the C parameter name
  std::string riseName; ///< the RISE binder it comes from (`output` for the result)
  std::string cType;    ///< the element type as printed in C: `float`, `int32_t`, a pair struct
  bool array = false;   ///< passed as a pointer to `count` elements
  rise::Type riseType;  ///< the RISE data type of this parameter (a component for split pairs)
  rise::Nat count;      ///< arrays: the number of elements, over the size parameters
  std::string countC;   ///< arrays: `count` as a C expression over the size parameters' C names
};

/// `output`, `size`, `input` or `temporary`: the role as headers and the
/// manifest name it.
inline const char* roleName(AbiParam::Role r) {
  switch (r) {
  case AbiParam::Role::Output:
    return "output";
  case AbiParam::Role::Size:
    return "size";
  case AbiParam::Role::Input:
    return "input";
  case AbiParam::Role::Temporary:
    return "temporary";
  }
  return "?";
}

struct KernelAbi {
  std::string symbol; ///< the C function (and OpenCL kernel) name
  Target target = Target::C;
  std::string entry;                             ///< the RISE def
  rise::Type riseType;                           ///< the def's RISE type
  std::vector<AbiParam> params;                  ///< in ABI order
  std::vector<rise::Precondition> preconditions; ///< on the size parameters
  /// OpenCL: the kernel contains barriers, so every work-group must be
  /// complete (the global size a multiple of the local size).
  bool usesBarriers = false;
  /// OpenCL: the kernels, in launch order, one per phase of the program
  /// (docs/dpia.md, "Kernel phases"); `parallel` is false for a phase
  /// without a parallel map (launched as one work-item). One kernel named
  /// `symbol` unless the program has several phases.
  struct Kernel {
    std::string name;
    bool parallel = true;
  };
  std::vector<Kernel> kernels;

  /// The parameters with role `r`, in ABI order.
  std::vector<const AbiParam*> withRole(AbiParam::Role r) const {
    std::vector<const AbiParam*> out;
    for (const AbiParam& p : params)
      if (p.role == r)
        out.push_back(&p);
    return out;
  }
};

} // namespace risec::codegen
