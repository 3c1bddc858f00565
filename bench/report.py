#!/usr/bin/env python3
"""bench/report.py RESULTS_DIR OUT_DIR: turns the Google Benchmark JSON files
written by bench/run into OUT_DIR/latest.json (every raw result + the machine),
OUT_DIR/summary.json (per problem and thread count, the fastest risec variant
and the fastest anchor: the pinned bars that a review sees change),
OUT_DIR/latest.md (the table) and OUT_DIR/latest.gp + latest.dat (gnuplot
script and data of the bar chart latest.png). Standard library only.

Ratios are speedups: anchor time / variant time (> 1: faster than the anchor),
against the anchor with the same thread count. % of limit: achieved GB/s over
the STREAM triad bandwidth for memory-bound problems, achieved GFLOP/s over
the FMA peak for compute-bound ones (arithmetic intensity FLOPs/byte above
peak/bandwidth), both at the variant's thread count. See bench/README.md.

Per-ISA-level results (bench_risec under RISEC_ISA=LEVEL, variants named
VARIANT@LEVEL) are kept out of the kernel table and the bars, which measure
the default run (the dispatchers' choice); they get their own section, "ISA
levels", with OpenBLAS forced to its Haswell kernel (openblas-haswell-*)."""
import datetime
import glob
import json
import os
import platform
import re
import statistics
import subprocess
import sys

VARIANT_ORDER = ["naive", "openblas-serial", "openblas-omp-t1", "openblas-omp-t2", "blis-t1",
                 "blis-t2",
                 "openblas-haswell-serial", "openblas-haswell-omp-t1", "openblas-haswell-omp-t2",
                 "clblast", "clblast-dev", "clblast-tuned", "clblast-tuned-dev", "halide-t1", "halide-t2",
                 "halide-mullapudi2016-t1", "halide-mullapudi2016-t2", "halide-adams2019-t1",
                 "halide-adams2019-t2", "halide-li2018-t1", "halide-li2018-t2", "risec-c", "risec-omp-t1",
                 "risec-omp-t2", "risec-ocl", "risec-ocl-dev"]
# BLAS: the faster of OpenBLAS and BLIS at each size and thread count;
# CLBlast: the faster of its default parameters and those bench/clblast/tune
# found for the device (clblast-tuned), with the same contract (host arrays or
# device buffers); Halide: the fastest of the hand schedule and the three
# autoschedulers
ANCHORS = ["naive", "BLAS", "CLBlast", "Halide"]
HALIDE_AUTOSCHEDULERS = ["mullapudi2016", "adams2019", "li2018"]
KERNEL_ORDER = ["scal", "axpy", "asum", "scan", "maxreduce", "dot", "gemv", "mv", "mm", "transpose", "jacobi1d",
                "jacobi2d", "heat3d", "gaussian", "conv2d", "harris", "nbody", "kmeans",
                "tree_reduce"]
# x86-64 levels (docs/usage.md, "ISA variants") and the /proc/cpuinfo flags each
# needs on top of the level below
ISA_LEVELS = ["x86-64", "x86-64-v2", "x86-64-v3", "x86-64-v4"]
ISA_FLAGS = {"x86-64": [], "x86-64-v2": ["sse4_2", "popcnt", "ssse3"],
             "x86-64-v3": ["avx2", "fma", "bmi2", "movbe"],
             "x86-64-v4": ["avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"]}


def split_level(variant):
    """`VARIANT@LEVEL` (a per-ISA-level run) -> (VARIANT, LEVEL); else (variant, None)."""
    base, _, level = variant.partition("@")
    return base, level or None


def threads(variant):
    """Threads a variant uses: -tN suffix; OpenCL on PoCL uses every core (2)."""
    variant = split_level(variant)[0]
    m = re.search(r"-t(\d+)$", variant)
    if m:
        return int(m.group(1))
    return 2 if variant.startswith("clblast") or variant.endswith(("-ocl", "-ocl-dev")) else 1


def anchor_variant(anchor, t, variant=""):
    """OpenCL on device-resident buffers (-dev) compares with clblast-dev."""
    return {"naive": "naive",
            "OpenBLAS": "openblas-serial" if t == 1 else "openblas-omp-t%d" % t,
            "OpenBLAS-Haswell": ("openblas-haswell-serial" if t == 1
                                 else "openblas-haswell-omp-t%d" % t),
            "CLBlast": "clblast-dev" if variant.endswith("-dev") else "clblast",
            "Halide": "halide-t%d" % t}[anchor]


def anchor_candidates(anchor, t, variant=""):
    """The runs an anchor column stands for; the fastest one present is used."""
    if anchor == "BLAS":
        return [anchor_variant("OpenBLAS", t), "blis-t%d" % t]
    if anchor == "Halide":
        return ["halide-t%d" % t] + ["halide-%s-t%d" % (a, t) for a in HALIDE_AUTOSCHEDULERS]
    if anchor == "CLBlast":
        dev = "-dev" if variant.endswith("-dev") else ""
        return ["clblast" + dev, "clblast-tuned" + dev]
    return [anchor_variant(anchor, t, variant)]


def short_anchor(variant):
    """The name of an anchor run in a cell: blis, openblas, halide (the hand
    schedule) or the autoscheduler, tuned or default (CLBlast's parameters)."""
    parts = variant.split("-")
    if parts[0] == "clblast":
        return "tuned" if "tuned" in parts else "default"
    return parts[1] if parts[0] == "halide" and parts[1] in HALIDE_AUTOSCHEDULERS else parts[0]


def fastest(times, kernel, size, candidates):
    """The fastest error-free run among `candidates` for a problem, or None."""
    runs = [(v, times.get((kernel, size, v))) for v in candidates]
    runs = [(v, r) for v, r in runs if r and not r["error"]]
    return min(runs, key=lambda vr: vr[1]["ms"]) if runs else (None, None)


def summary(table, mach):
    """The pinned bars (issue 22): per problem and thread count, the fastest
    risec variant and the fastest anchor run (any library), their times and
    the ratio, sorted, with the CPU, so that a change in either is a diff."""
    out = {}
    for e in table:
        if e["error"]:
            continue
        key = "%s/%s/t%d" % (e["kernel"], e["size"], e["threads"])
        side = "risec" if e["variant"].startswith("risec") else "anchor"
        if e["variant"] == "naive" and e["kernel"] in ("mm", "scal", "axpy", "asum", "dot",
                                                        "gemv", "mv"):
            continue  # a library exists for these: naive C is no anchor
        best = out.setdefault(key, {}).get(side)
        if not best or e["ms"] < best["ms"]:
            out[key][side] = {"variant": e["variant"], "ms": round(e["ms"], 4)}
    for v in out.values():
        if "risec" in v and "anchor" in v:
            v["ratio"] = round(v["anchor"]["ms"] / v["risec"]["ms"], 2)
    return {"cpu": mach["cpu"], "isa": mach["isa"],
            "problems": dict(sorted(out.items()))}


def sh(cmd):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout.strip()
    except OSError:
        return ""


def isa_level(flags):
    """The highest x86-64 level whose flags (and those of the levels below) the CPU has."""
    if platform.machine() not in ("x86_64", "AMD64"):
        return None
    best = None
    for level in ISA_LEVELS:
        if not all(f in flags for f in ISA_FLAGS[level]):
            break
        best = level
    return best


def isa_summary(flags):
    """E.g. "up to x86-64-v3 (AVX, AVX2, FMA; no AVX-512)"."""
    level = isa_level(flags)
    have = [name for name, f in [("AVX", "avx"), ("AVX2", "avx2"), ("FMA", "fma")] if f in flags]
    avx512 = sorted(f[6:].upper() for f in flags if f.startswith("avx512"))
    have = ", ".join(have) + "; " + ("AVX-512 " + "/".join(avx512) if avx512 else "no AVX-512")
    return "%s (%s)" % ("up to " + level if level else "not x86-64", have)


def machine(contexts):
    cpuinfo = open("/proc/cpuinfo").read() if os.path.exists("/proc/cpuinfo") else ""
    model = re.search(r"model name\s*:\s*(.*)", cpuinfo)
    flags = re.search(r"flags\s*:\s*(.*)", cpuinfo)
    simd = sorted(f for f in (flags.group(1).split() if flags else [])
                  if f.startswith(("avx", "fma", "sse4")))
    ident = [re.search(r"^%s\s*:\s*(.*)$" % k, cpuinfo, re.M) for k in
             ("cpu family", "model", "stepping")]
    openblas = {}
    for c in contexts:  # the core each OpenBLAS run used
        if c.get("openblas_corename"):
            openblas[c["source"]] = c["openblas_corename"]
    versions = {}
    for pkg in ["libopenblas0-serial", "libopenblas0-openmp", "libclblast1", "libhalide14-0",
                "libpocl2", "libbenchmark1debian"]:
        versions[pkg] = sh("dpkg-query -W -f='${Version}' %s 2>/dev/null" % pkg)
    ctx = contexts[0] if contexts else {}
    return {
        "cpu": model.group(1) if model else platform.processor(),
        "cores": os.cpu_count(),
        "mhz": ctx.get("mhz_per_cpu"),
        "caches": ctx.get("caches"),
        "cpu_id": ("family %s, model %s, stepping %s" % tuple(m.group(1) for m in ident)
                   if all(ident) else None),
        "simd_flags": simd,
        "isa": isa_summary(flags.group(1).split() if flags else []),
        "isa_level": isa_level(flags.group(1).split() if flags else []),
        "openblas_cores": openblas,
        "flags": flags.group(1).split() if flags else [],
        "compiler": sh("c++ --version | head -1"),
        "kernel": platform.release(),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "load_average_at_start": [c.get("load_avg") for c in contexts],
        "uptime_at_end": sh("uptime"),
        "versions": versions,
    }


def load(results_dir):
    rows, raw, contexts = [], [], []
    for path in sorted(glob.glob(os.path.join(results_dir, "*.json"))):
        with open(path) as f:
            data = json.load(f)
        source = os.path.basename(path)[:-5]
        contexts.append(dict(data.get("context", {}), source=source))
        for b in data.get("benchmarks", []):
            b["source"] = source
            raw.append(b)
            if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
                continue
            name = b.get("run_name", b["name"]).replace("/real_time", "")
            parts = name.split("/")
            rows.append({"name": name, "parts": parts, "aggregate": b.get("run_type") == "aggregate",
                         "error": b.get("error_message") if b.get("error_occurred") else None,
                         "ms": to_ms(b["real_time"], b.get("time_unit", "ns")),
                         "gflops": b.get("FLOPs", 0) / 1e9, "gbs": b.get("Bytes", 0) / 1e9,
                         "label": b.get("label", "")})
    # with repetitions, keep the median aggregate only
    names_with_median = {r["name"] for r in rows if r["aggregate"]}
    rows = [r for r in rows if r["aggregate"] or r["name"] not in names_with_median]
    return rows, raw, contexts


def to_ms(t, unit):
    return t * {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[unit]


def limits(rows):
    lim = {}
    for r in rows:
        if r["parts"][0] == "limits" and not r["error"]:
            kind, t = r["parts"][1], int(r["parts"][2])
            lim[(kind, t)] = r["gbs"] if kind.startswith("stream") else r["gflops"]
    return lim


def generator(results_dir):
    path = os.path.join(results_dir, "generator.txt")
    if not os.path.exists(path):
        return None
    mode, runs, stages, count, jobs, parallel = None, [], {}, None, None, []
    for line in open(path):
        w = line.split()
        if not w:
            continue
        if w[0] == "mode":
            mode = w[1]
        elif w[0] == "count":
            count = int(w[1])
        elif w[0] == "parallel_ms":
            jobs = int(w[1])
            parallel.append(int(w[2]))
        elif w[0] == "run_ms":
            runs.append(int(w[1]))
        elif line.startswith("risec: time"):
            stages[w[2]] = stages.get(w[2], 0.0) + float(w[3])
    return {"mode": mode, "count": count, "runs_ms": runs, "jobs": jobs, "parallel_ms": parallel,
            "parallel_median_ms": statistics.median(parallel) if parallel else None,
            "median_ms": statistics.median(runs) if runs else None, "stages_ms": stages}


def bars(table, gen):
    """The first performance bar of issue 7, item 4, from this run."""
    def best(kernel, size, threads):
        rows = [e for e in table if e["kernel"] == kernel and e["size"] == size and not e["error"]
                and e["variant"].startswith("risec") and e["threads"] == threads]
        return min(rows, key=lambda e: e["ms"]) if rows else None

    def anchor(kernel, size, variants):
        rows = [e for e in table if (e["kernel"], e["size"]) == (kernel, size)
                and e["variant"] in variants and not e["error"]]
        return min(rows, key=lambda e: e["ms"]) if rows else None

    out = ["", "## Performance bars (issue 7)", "",
           "Best risec variant per problem and thread count against the bar's anchor "
           "(ratio = anchor time / risec time).", "",
           "| bar | problem | best risec variant | ratio | needed | met |", "|---|---|---|---:|---:|---|"]

    def row(bar, kernel, size, threads, av, needed):
        b, a = best(kernel, size, threads), anchor(kernel, size, av)
        if not b or not a:
            out.append("| %s | %s %s | %s | — | %.2f | not measured |" % (
                bar, kernel, size, b["variant"] if b else "none", needed))
            return
        r = a["ms"] / b["ms"]
        out.append("| %s | %s %s | %s | %.2f | %.2f | %s |" % (
            bar, kernel, size, b["variant"], r, needed, "yes" if r >= needed else "**no**"))

    sizes = lambda k: [e["size"] for e in table if e["kernel"] == k and e["variant"] == "naive"]
    for size in sizes("mm"):
        if size.startswith("1024"):
            row("mm >= 50% of BLAS, 1 thread", "mm", size, 1, anchor_candidates("BLAS", 1), 0.5)
            row("mm >= 50% of BLAS, 2 threads", "mm", size, 2, anchor_candidates("BLAS", 2), 0.5)
    for k in ["scal", "axpy", "asum", "dot", "gemv"]:
        for size in sizes(k):
            row("%s >= 80%% of BLAS" % k, k, size, 1, anchor_candidates("BLAS", 1), 0.8)
    for k in ["gaussian", "jacobi2d", "harris"]:
        for size in sizes(k):
            for t in (1, 2):
                row("%s <= 1.5x Halide time, %d thread%s" % (k, t, "s" if t > 1 else ""), k, size,
                    t, anchor_candidates("Halide", t), 1 / 1.5)
    if gen and gen["median_ms"] is not None:
        for label, ms in [("--jobs 1", gen["median_ms"]),
                          ("--jobs %s" % gen.get("jobs"), gen.get("parallel_median_ms"))]:
            if ms is None:
                continue
            ok = gen["mode"] == "generate" and ms < 2000
            out.append("| catalogue generated in < 2 s | %s | — | %.0f ms | 2000 ms | %s |" % (
                "risec generate " + label if gen["mode"] == "generate"
                else "risec compile (no generate)", ms, "yes" if ok else "**no**"))
    return out


def risec_symbol(kernel, variant):
    """The library symbol a risec variant calls: risec-c -> KERNEL_c,
    risec-omp-tN -> KERNEL_openmp, risec:SYMBOL[-tN|-ocl...] -> SYMBOL."""
    if variant.startswith("risec:"):
        return re.sub(r"(-t\d+|-ocl|-ocl-dev)$", "", variant[len("risec:"):])
    return {"risec-c": kernel + "_c", "risec-ocl": kernel + "_opencl"}.get(
        variant, kernel + "_openmp" if variant.startswith("risec-omp") else None)


def isa_levels(levels, table, contexts):
    """One row per (kernel, size, risec variant) with per-level results: the
    rate of each level and its ratio to the best level; the default run (the
    dispatcher's level); the x86-64-v3 level against OpenBLAS forced to Haswell
    and the best level against OpenBLAS's own choice (speedups, same threads)."""
    dispatched = {}
    for c in contexts:  # the default run's choice, recorded by bench_risec
        if c.get("source", "").startswith("risec-t"):
            for k, v in c.items():
                if k.startswith("risec_isa:"):
                    dispatched[k[len("risec_isa:"):]] = v

    def find(kernel, size, variant):
        return next((e for e in table if (e["kernel"], e["size"], e["variant"]) ==
                     (kernel, size, variant) and not e["error"]), None)

    groups = {}
    for e in levels:
        base, level = split_level(e["variant"])
        groups.setdefault((e["kernel"], e["size"], base), {})[level] = e
    rows = []
    for (kernel, size, base), by_level in groups.items():
        ok = {l: e for l, e in by_level.items() if not e["error"]}
        flops = any(e["gflops"] for e in ok.values())
        rate = (lambda e: e["gflops"]) if flops else (lambda e: e["gbs"])
        best = max(ok, key=lambda l: rate(ok[l])) if ok else None
        t = threads(base)
        default = find(kernel, size, base)
        row = {"kernel": kernel, "size": size, "variant": base, "threads": t,
               "unit": "GFLOP/s" if flops else "GB/s",
               "dispatched": dispatched.get(risec_symbol(kernel, base)),
               "default": rate(default) if default else None,
               "levels": {l: {"rate": rate(e) if not e["error"] else None, "ms": e["ms"],
                              "error": e["error"],
                              "to_best": rate(e) / rate(ok[best])
                              if not e["error"] and rate(ok[best]) else None}
                          for l, e in sorted(by_level.items(), key=lambda kv: ISA_LEVELS.index(
                              kv[0]) if kv[0] in ISA_LEVELS else 99)},
               "best": best}
        for key, anchor, level in [("v3_vs_openblas_haswell", "OpenBLAS-Haswell", "x86-64-v3"),
                                   ("best_vs_openblas", "OpenBLAS", best)]:
            a = find(kernel, size, anchor_variant(anchor, t))
            row[anchor] = rate(a) if a else None
            row[key] = a["ms"] / ok[level]["ms"] if a and level in ok else None
        rows.append(row)
    rank = {k: i for i, k in enumerate(KERNEL_ORDER)}
    sizes = {}
    for e in table + levels:  # sizes in the order they were run
        sizes.setdefault((e["kernel"], e["size"]), len(sizes))
    rows.sort(key=lambda r: (rank.get(r["kernel"], len(rank)), sizes[(r["kernel"], r["size"])],
                             risec_symbol(r["kernel"], r["variant"]) or "", r["threads"]))
    return rows


def isa_markdown(rows, mach):
    if not rows:
        return []
    levels = [l for l in ISA_LEVELS if any(l in r["levels"] for r in rows)]
    cores = mach.get("openblas_cores", {})
    own = sorted({c for s, c in cores.items() if "haswell" not in s})
    out = ["", "## ISA levels", "",
           "The risec variants with one function per x86-64 level (`isas:` in their spec), "
           "run once per level that this CPU supports (up to %s), forced with `RISEC_ISA=LEVEL`; "
           "libkernels as users build it (the manifest's flags). Each level: its rate and, in "
           "parentheses, its ratio to the best level. *Default run*: the level the dispatcher "
           "picks and the rate of the kernel table. Ratios to OpenBLAS are speedups (OpenBLAS "
           "time / risec time) at the same thread count (serial build for 1 thread, OpenMP "
           "build for 2): the x86-64-v3 (AVX2) level against OpenBLAS forced to its Haswell "
           "(AVX2) kernel (`OPENBLAS_CORETYPE=Haswell`), the best level against OpenBLAS's own "
           "choice (%s)." % (mach["isa_level"] or "none", ", ".join(own) or "its core"), "",
           "| kernel | size | variant | thr | unit | default run | %s | OpenBLAS | "
           "OpenBLAS-Haswell | x86-64-v3 vs OpenBLAS-Haswell | best level vs OpenBLAS |"
           % " | ".join(levels),
           "|---|---|---|---:|---|---|%s---:|---:|---:|---:|" % ("---:|" * len(levels))]
    for r in rows:
        cells = []
        for l in levels:
            e = r["levels"].get(l)
            cells.append("—" if not e else "**error**" if e["error"] else
                         "%s (%s)" % (fmt(e["rate"], 1), fmt(e["to_best"])))
        default = "%s%s" % (fmt(r["default"], 1),
                            " (%s)" % r["dispatched"] if r["dispatched"] else "")
        best = ("%s (%s)" % (fmt(r["best_vs_openblas"]), r["best"])
                if r["best_vs_openblas"] is not None else "—")
        out.append("| %s | %s | %s | %d | %s | %s | %s | %s | %s | %s | %s |" % (
            r["kernel"], r["size"], r["variant"], r["threads"], r["unit"], default,
            " | ".join(cells), fmt(r["OpenBLAS"], 1), fmt(r["OpenBLAS-Haswell"], 1),
            fmt(r["v3_vs_openblas_haswell"]), best))
    return out


def fmt(x, digits=2):
    return "—" if x is None else ("%.*f" % (digits, x))


def main(results_dir, out_dir):
    rows, raw, contexts = load(results_dir)
    lim = limits(rows)
    mach = machine(contexts)
    gen = generator(results_dir)
    kernels = [r for r in rows if r["parts"][0] != "limits"]
    times = {(r["parts"][0], r["parts"][2], r["parts"][1]): r for r in kernels}
    order = {}
    for r in kernels:  # kernels and sizes in the order they were run
        order.setdefault(r["parts"][0], [])
        if r["parts"][2] not in order[r["parts"][0]]:
            order[r["parts"][0]].append(r["parts"][2])

    table = []
    rank = {k: i for i, k in enumerate(KERNEL_ORDER)}
    for kernel, sizes in sorted(order.items(), key=lambda kv: rank.get(kv[0], len(rank))):
        for size in sizes:
            variants = sorted({v for (k, s, v) in times if k == kernel and s == size},
                              key=lambda v: (VARIANT_ORDER.index(v) if v in VARIANT_ORDER
                                             else 99, v))
            for v in variants:
                r = times[(kernel, size, v)]
                t = threads(v)
                ratios, named = {}, {}
                for a in ANCHORS:
                    cands = anchor_candidates(a, t, v)
                    av, ar = fastest(times, kernel, size, cands)
                    ratios[a] = (None if v in cands or not ar or r["error"]
                                 else ar["ms"] / r["ms"])
                    if len(cands) > 1 and ratios[a] is not None:
                        named[a] = av
                bw, peak = lim.get(("stream-triad", t)), lim.get(("fma-peak", t))
                ai = r["gflops"] / r["gbs"] if r["gbs"] else float("inf")
                bound, pct = None, None
                if bw and peak and not r["error"]:
                    if r["gflops"] == 0 or ai < peak / bw:
                        # DRAM bandwidth does not limit a cache-resident problem
                        bound = "memory"
                        pct = 100 * r["gbs"] / bw if r["label"] != "cache" else None
                    else:
                        bound, pct = "compute", 100 * r["gflops"] / peak
                table.append({"kernel": kernel, "size": size, "variant": v, "threads": t,
                              "ms": r["ms"], "gflops": r["gflops"], "gbs": r["gbs"],
                              "error": r["error"], "ratios": ratios, "anchors_used": named,
                              "bound": bound,
                              "percent_of_limit": pct, "label": r["label"]})
    # the per-level runs have their own section; the table and the bars are
    # the default run's
    levels = [e for e in table if split_level(e["variant"])[1]]
    table = [e for e in table if not split_level(e["variant"])[1]]
    isa_rows = isa_levels(levels, table, contexts)

    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "summary.json"), "w") as f:
        json.dump(summary(table, mach), f, indent=1, sort_keys=True)
        f.write("\n")
    with open(os.path.join(out_dir, "latest.json"), "w") as f:
        json.dump({"machine": mach, "limits": {"%s/t%d" % k: v for k, v in lim.items()},
                   "generator": gen, "table": table, "isa_levels": isa_rows, "raw": raw, "contexts": contexts}, f,
                  indent=1)

    md = ["# Benchmark results", "",
          "Measured by `bench/run%s` on %s (UTC)." % (
              " --quick" if os.environ.get("RISEC_BENCH_QUICK") else "", mach["date"]), ""]
    if os.environ.get("RISEC_BENCH_QUICK"):
        md += ["**A --quick run: cache-resident sizes only, short runs; it checks the harness "
               "and its numbers are not results.**", ""]
    md += [
          "- **CPU**: %s%s, %s cores, %s MHz; SIMD: %s" % (
              mach["cpu"], " (%s)" % mach["cpu_id"] if mach["cpu_id"] else "", mach["cores"],
              mach["mhz"], " ".join(mach["simd_flags"])),
          "- **ISA**: %s" % mach["isa"],
          "- **Compiler**: %s; kernel %s" % (mach["compiler"], mach["kernel"]),
          "- **Load**: %s" % mach["uptime_at_end"],
          "- **Versions**: " + ", ".join("%s %s" % kv for kv in mach["versions"].items()), "",
          "## Machine limits", "",
          "| limit | 1 thread | 2 threads |", "|---|---:|---:|"]
    for kind, unit in [("stream-copy", "GB/s"), ("stream-triad", "GB/s"), ("fma-peak", "GFLOP/s")]:
        md.append("| %s (%s) | %s | %s |" % (kind, unit, fmt(lim.get((kind, 1)), 1),
                                             fmt(lim.get((kind, 2)), 1)))
    md += ["", "## Kernels", "",
           "Ratios are speedups (anchor time / variant time; > 1 is faster than the anchor), "
           "against the anchor at the same thread count (BLAS: the faster of OpenBLAS, serial "
           "build for 1 thread and OpenMP build for 2, and BLIS, named in the cell; CLBlast: "
           "host arrays in and out (device buffers for the -dev variants), the faster of its "
           "default parameters and those tuned for the device (bench/clblast/tune), named in "
           "the cell; Halide: the fastest of the hand schedule and the "
           "Mullapudi2016, Adams2019 and Li2018 autoschedulers, named in the cell). % of limit: GB/s over the "
           "STREAM triad bandwidth (memory-bound) or GFLOP/s over the FMA peak (compute-bound) "
           "at the variant's thread count; not given for memory-bound cache-resident problems, "
           "which DRAM bandwidth does not limit.", "",
           "| kernel | size | variant | thr | time (ms) | GFLOP/s | GB/s | vs naive | vs BLAS "
           "| vs CLBlast | vs Halide | % of limit |",
           "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for e in table:
        if e["error"]:
            md.append("| %s | %s | %s | %d | **%s** | | | | | | | |" % (
                e["kernel"], e["size"], e["variant"], e["threads"], e["error"]))
            continue
        pct = ("— (cache)" if e["bound"] == "memory" else "—") if e["percent_of_limit"] is None else "%.0f%% (%s)" % (
            e["percent_of_limit"], "BW" if e["bound"] == "memory" else "peak")
        md.append("| %s | %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            e["kernel"], e["size"], e["variant"], e["threads"], fmt(e["ms"], 3),
            fmt(e["gflops"]), fmt(e["gbs"]),
            *(fmt(e["ratios"][a]) + (" (%s)" % short_anchor(e["anchors_used"][a])
                                     if a in e["anchors_used"] else "")
              for a in ANCHORS), pct))
    md += bars(table, gen)
    md += isa_markdown(isa_rows, mach)
    if gen:
        what = ("`risec generate specs/*.yaml`" if gen["mode"] == "generate" else
                "`risec compile` of every spec variant (%s processes; `risec generate` was not "
                "available)" % gen.get("count", "?"))
        md += ["", "## Generator", "",
               "%s over the whole catalogue, cold process: median of %d runs **%s ms** "
               "(runs: %s)." % (what, len(gen["runs_ms"]), fmt(gen["median_ms"], 0),
                                ", ".join(str(x) for x in gen["runs_ms"]))]
        if gen["parallel_ms"]:
            md[-1] += (" With `--jobs %d`: median **%s ms** (runs: %s)." % (
                gen["jobs"], fmt(gen["parallel_median_ms"], 0),
                ", ".join(str(x) for x in gen["parallel_ms"])))
        md += ["", "Time per stage, one run with `--time-passes` (`--jobs 1`), summed over "
               "the catalogue:", "",
               "| stage | total ms (--time-passes) |", "|---|---:|"]
        for stage, ms in gen["stages_ms"].items():
            md.append("| %s | %.1f |" % (stage, ms))
    md.append("")
    with open(os.path.join(out_dir, "latest.md"), "w") as f:
        f.write("\n".join(md))

    # bar chart: speedup over naive C of every variant, per problem
    variants = [v for v in VARIANT_ORDER if v != "naive" and "haswell" not in v
                and any(e["variant"] == v for e in table)]
    problems = []
    for e in table:
        if (e["kernel"], e["size"]) not in problems:
            problems.append((e["kernel"], e["size"]))
    with open(os.path.join(out_dir, "latest.dat"), "w") as f:
        f.write("problem " + " ".join(variants) + "\n")
        for k, s in problems:
            vals = []
            for v in variants:
                e = next((e for e in table if (e["kernel"], e["size"], e["variant"]) == (k, s, v)),
                         None)
                r = e["ratios"]["naive"] if e else None
                vals.append("-" if r is None else "%.4g" % r)
            f.write('"%s %s" %s\n' % (k, s, " ".join(vals)))
    cols = len(variants)
    with open(os.path.join(out_dir, "latest.gp"), "w") as f:
        f.write("""set terminal pngcairo size %d,700 noenhanced font ",9"
set output "%s"
set title "Speedup over naive C (time of naive / time of variant), log scale; %s"
set datafile missing "-"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.9 border -1
set logscale y
set yrange [0.01:*]
set grid ytics
set ylabel "speedup over naive C"
set xtics rotate by -60 scale 0
set key outside right top
plot for [i=2:%d] "%s" using i:xtic(1) title columnheader(i)
""" % (max(900, 40 * len(problems) * max(1, cols) // 2), os.path.join(out_dir, "latest.png"),
       mach["cpu"], cols + 1, os.path.join(out_dir, "latest.dat")))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
