#!/usr/bin/env python3
"""bench/readme.py LATEST_MD README_MD

Embeds the report of a full `bench/run` (bench/results/latest.md, written by
bench/report.py) in README.md: everything between the lines
`<!-- bench/run: begin -->` and `<!-- bench/run: end -->` is replaced by the
report's machine description, its bars, its tables of limits, kernels and
generator times, headings moved one level down. The report of a --quick run
is refused: its numbers are not results. bench/run calls this after
report.py; it can also be run by hand on a kept report."""
import sys

BEGIN = "<!-- bench/run: begin -->"
END = "<!-- bench/run: end -->"


def section(md_lines, title):
    """The lines of `## title` up to the next `## ` heading."""
    out, inside = [], False
    for line in md_lines:
        if line.startswith("## "):
            inside = line[3:].strip() == title
            if not inside:
                continue
        if inside:
            out.append(line)
    return out


def embed(report, readme):
    lines = report.splitlines()
    if any("A --quick run" in l for l in lines):
        raise SystemExit("bench/readme.py: a --quick report is not embedded in the README")
    intro = [l for l in lines[1:] if not l.startswith("## ")]
    intro = intro[: next((i for i, l in enumerate(intro) if l.startswith("| ")), len(intro))]
    body = ["<!-- Written by bench/run (bench/readme.py) from bench/results/latest.md; "
            "do not edit by hand. -->"]
    while intro and not intro[0].strip():
        intro.pop(0)
    while intro and not intro[-1].strip():
        intro.pop()
    body += intro + [""]
    for title in ["Performance bars (issue 7)", "ISA levels", "Machine limits", "Generator",
                  "Kernels"]:
        part = section(lines, title)
        if not part:
            continue
        part[0] = "#" + part[0]  # ## -> ###
        if title == "Kernels":
            # the long table folds away; the bars above summarise it
            head = [l for l in part if not l.startswith("|")]
            table = [l for l in part if l.startswith("|")]
            part = [l for l in head if l.strip()] + [
                "", "<details><summary>Every kernel, size and variant (%d rows)</summary>" %
                (len(table) - 2), ""] + table + ["", "</details>"]
        body += [l for l in part] + [""]
    start, end = readme.find(BEGIN), readme.find(END)
    if start < 0 or end < start:
        raise SystemExit("bench/readme.py: README has no %s ... %s block" % (BEGIN, END))
    return readme[: start + len(BEGIN)] + "\n" + "\n".join(body).rstrip() + "\n" + readme[end:]


def main(report_path, readme_path):
    with open(report_path) as f:
        report = f.read()
    with open(readme_path) as f:
        readme = f.read()
    updated = embed(report, readme)
    with open(readme_path, "w") as f:
        f.write(updated)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
