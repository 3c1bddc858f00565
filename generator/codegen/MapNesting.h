// The map nesting tree of a RISE program (mapping-parallelism-constraints.txt
// §4.2, Figure 3 and Table 3), the input of the legality checks of the
// parallel back ends (codegen/opencl/MappingLegality.h,
// codegen/openmp/Legality.h; docs/dpia.md, "Legality of parallel mappings").
//
//   NestedMaps(m), OuterMaps(m)   MapNode::children / parent, nestedMaps(), outerMaps()
//   MapNestingChains              chains(): every path from a root map to a leaf map
//   usesPrivateMemory,            MemoryStore::writers (the maps that write a
//   usesLocalMemory               temporary) and MapNode::inputs (the temporaries
//                                 whose elements a map iterates over)
//
// A map is nested in another when it is inside that map's function. A
// temporary is every `toMem`, `toPrivate`, `toLocal`, `toGlobal`,
// `oclToMem(a)`, the accumulator of every sequential reduction or scan and
// the double buffers of `iterate` (private in OpenCL) and `oclIterate(a)`. The
// maps that write a temporary are those that produce the stored value: a map
// whose result is stored (through views such as join or zip), and the maps
// that produce its elements inside its function. Reductions are not maps: the
// paper's chains contain maps only.
#pragma once

#include "rise/ast/Expr.h"

#include <memory>
#include <string>
#include <vector>

namespace risec::codegen {

enum class MemorySpace { Global, Local, Private, Unknown };

/// How a map distributes its iterations (the level of the paper's Table 2).
enum class MapDomain { Sequential, Global, WorkGroup, Local, OpenMP };

struct MemoryStore;

/// One map of the program: a node of the map nesting tree.
struct MapNode {
  rise::Expr prim;                          ///< the map primitive: diagnostics point here
  rise::Prim kind = rise::Prim::Map;        ///< map, mapSeq, mapPar, mapGlobal, ...
  MapDomain domain = MapDomain::Sequential; ///< derived from kind
  int dim = -1;              ///< the OpenCL dimension; -1 for other maps or a non-constant one
  rise::Expr input;          ///< the mapped array (null for a partial application)
  MapNode* parent = nullptr; ///< the map whose function this map is in
  std::vector<MapNode*> children;
  std::vector<const MemoryStore*> inputs; ///< temporaries the mapped array is (part of)

  bool parallel() const { return domain != MapDomain::Sequential; }
  /// `mapGlobal(0)`, `mapSeq`, ... as written in RISE.
  std::string label() const;
  /// `mapGlobal(0)` at f.rise:3:5
  std::string labelAt() const;
};

/// A temporary: where a value is stored, and which maps write it.
struct MemoryStore {
  rise::Expr at;                 ///< the toMem/toLocal/... primitive, or the reduction
  MemorySpace space;             ///< where the temporary lives
  bool accumulator = false;      ///< the accumulator of a reduction or scan
  const MapNode* enclosing;      ///< the innermost map whose function holds it, or null
  std::vector<MapNode*> writers; ///< the maps writing it, outermost first
  rise::Expr op;                 ///< accumulator: the reduction's operator
  std::string accumulatorName;   ///< accumulator: the operator's first parameter, or ""

  /// "`toLocal` at f.rise:2:5", "the temporary stored at f.rise:2:5" (toMem),
  /// "the accumulator of `reduceSeq` at f.rise:2:5"
  std::string description() const;
};

class MapNesting {
public:
  /// Builds the tree of `program`. In the OpenCL back end a plain `toMem`
  /// (written, or inserted by lowerToC) is a private temporary: pass
  /// `plainToMem` accordingly. After lowerToC a remaining `map` is a view
  /// (its ViewMap repair), not a loop: pass `lowered` to treat it as one.
  static MapNesting build(const rise::Expr& program, MemorySpace plainToMem, bool lowered = false);

  /// Every map, in walk order: a map after the maps of its input and before
  /// the maps in its function (source order for pipelines).
  std::vector<const MapNode*> maps() const;
  std::vector<const MemoryStore*> stores() const;
  /// OuterMaps(m), innermost first.
  static std::vector<const MapNode*> outerMaps(const MapNode& m);
  /// NestedMaps(m), in source order.
  static std::vector<const MapNode*> nestedMaps(const MapNode& m);
  /// MapNestingChains: from a root map to a leaf, in source order.
  std::vector<std::vector<const MapNode*>> chains() const;

private:
  friend class MapNestingBuilder;
  std::vector<std::unique_ptr<MapNode>> maps_;
  std::vector<std::unique_ptr<MemoryStore>> stores_;
};

std::string memorySpaceName(MemorySpace s);

} // namespace risec::codegen
