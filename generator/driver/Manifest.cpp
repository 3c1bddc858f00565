#include "driver/Manifest.h"

#include "driver/Json.h"

namespace risec::driver {

using namespace risec::rise;

namespace {

Json parameter(const codegen::AbiParam& p) {
  Json::Object o{{"name", p.name},
                 {"rise_name", p.riseName},
                 {"role", codegen::roleName(p.role)},
                 {"c_type", p.cType},
                 {"array", p.array},
                 {"rise_type", p.riseType ? typeToString(p.riseType) : std::string("Nat")}};
  if (p.array) {
    o["count"] = natToString(p.count);
    o["count_c"] = p.countC;
  }
  return o;
}

Json preconditions(const std::vector<Precondition>& ps) {
  Json::Array a;
  for (const Precondition& p : refusingPreconditions(ps))
    a.push_back(Json::Object{{"condition", p.str()}, {"reason", p.reason}});
  return a;
}

/// The value of `n` for one `check:` entry.
Json evaluated(const Nat& n, const KernelSpec& spec, const CheckSizes& check) {
  auto value = natEvaluate(n, [&](const NatVarInfo& v) -> std::optional<std::int64_t> {
    for (const DepBinder& b : spec.sizeParameters)
      if (b.nat->id == v.id)
        return check.sizes.at(b.name());
    return std::nullopt;
  });
  return value ? Json(*value) : Json();
}

Json sizes(const std::vector<Nat>& ns) {
  Json::Array a;
  for (const Nat& n : ns)
    a.push_back(natToString(n));
  return a;
}

Json launch(const LaunchConfig& l, const KernelSpec& spec) {
  Json::Array perCheck;
  for (const CheckSizes& c : spec.checks) {
    Json::Array global, local;
    for (const Nat& n : l.global)
      global.push_back(evaluated(n, spec, c));
    for (const Nat& n : l.local)
      local.push_back(evaluated(n, spec, c));
    perCheck.push_back(Json::Object{{"global", global}, {"local", local}});
  }
  return Json::Object{{"global", sizes(l.global)}, {"local", sizes(l.local)}, {"checks", perCheck}};
}

Json variant(const GeneratedVariant& v, const KernelSpec& spec) {
  const codegen::KernelAbi& abi = v.abi();
  Json::Array files, params;
  Json::Object compileFlags; // every C file (not .h, not .cl) -> its compiler flags
  for (const codegen::OutputFile& f : v.files)
    files.push_back(f.name);
  for (const auto& [file, flags] : v.compileFlags) {
    Json::Array a;
    for (const std::string& f : flags)
      a.push_back(f);
    compileFlags[file] = a;
  }
  for (const codegen::AbiParam& p : abi.params)
    params.push_back(parameter(p));
  Json::Object o{{"symbol", abi.symbol},
                 {"target", std::string(codegen::targetName(abi.target))},
                 {"strategy", v.strategyName.empty() ? Json() : Json(v.strategyName)},
                 {"header", abi.symbol + ".h"},
                 {"files", files},
                 {"compile_flags", compileFlags},
                 {"rise_type", typeToString(abi.riseType)},
                 {"parameters", params},
                 {"preconditions", preconditions(abi.preconditions)}};
  if (!v.isaFunctions.empty()) { // the functions behind the dispatcher SYMBOL
    Json::Array isas;
    for (const IsaFunction& f : v.isaFunctions)
      isas.push_back(Json::Object{{"isa", f.level},
                                  {"symbol", f.result.files.abi.symbol},
                                  {"source", f.result.files.abi.symbol + ".c"}});
    o["isas"] = isas;
    o["selected_isa"] = abi.symbol + "_selected_isa";
  }
  if (abi.target == codegen::Target::OpenCL) {
    o["uses_barriers"] = abi.usesBarriers;
    o["launch"] = v.spec->launch ? launch(*v.spec->launch, spec) : Json();
  }
  return o;
}

Json kernel(const GeneratedKernel& k) {
  const KernelSpec& spec = *k.spec;
  Json::Array sizeNames, checks;
  for (const DepBinder& b : spec.sizeParameters)
    sizeNames.push_back(b.name());
  for (const CheckSizes& c : spec.checks) {
    Json::Object o;
    for (const auto& [name, value] : c.sizes)
      o[name] = value;
    checks.push_back(o);
  }
  Json::Object variants;
  for (const GeneratedVariant& v : k.variants)
    variants[v.abi().symbol] = variant(v, spec);
  return Json::Object{
      {"spec", k.specName},       {"source", k.sourceName},
      {"entry", spec.entry},      {"doc", spec.doc},
      {"header", k.headerName()}, {"rise_type", typeToString(spec.typedEntry.type)},
      {"sizes", sizeNames},       {"preconditions", preconditions(spec.typedEntry.preconditions)},
      {"checks", checks},         {"variants", variants}};
}

} // namespace

std::string manifestJson(const GeneratedLibrary& library, const std::string& version) {
  Json::Object kernels;
  for (const GeneratedKernel& k : library.kernels)
    kernels[k.spec->kernel] = kernel(k);
  return Json(Json::Object{{"format", 1},
                           {"generator", "risec " + version},
                           {"library", library.name},
                           {"header", library.name + ".h"},
                           {"kernels", kernels}})
      .print();
}

} // namespace risec::driver
