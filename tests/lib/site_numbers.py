#!/usr/bin/python3
"""site_numbers: the site's numbers are the published ones. Every table rarsite draws from a
published TSV names its file (data-src) and gives each cell's bytes (data-raw), row and column;
each must equal the published file's cell, and the number shown must be that cell to 4
significant digits. Every row of every fits.tsv and of across-hosts.tsv must be shown. Prints
TAP lines; exit 0 when all passed.

usage: site_numbers.py SITE_DIR RESULTS_DIR
"""
import glob
import html.parser
import os
import sys

SITE, RESULTS = sys.argv[1], sys.argv[2]
fails = 0


def tap(ok, what):
    global fails
    print(("ok - " if ok else "not ok - ") + what)
    if not ok:
        fails += 1


class Tables(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.cells = []  # (src, row, col, raw, shown, numeric)
        self.src = None
        self.cell = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self.src = a.get("data-src")
        elif tag == "td" and self.src and "data-raw" in a:
            self.cell = [self.src, int(a["data-row"]), a["data-col"], a["data-raw"], "",
                         "n" in (a.get("class") or "").split()]

    def handle_endtag(self, tag):
        if tag == "table":
            self.src = None
        elif tag == "td" and self.cell is not None:
            self.cells.append(tuple(self.cell))
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell[4] += data


def published(src):
    """The published file a site path names: runs/RUN/EXP/F -> RESULTS/RUN/EXP/F."""
    rel = src[len("runs/"):] if src.startswith("runs/") else src
    return os.path.join(RESULTS, rel)


def read_tsv(path):
    lines = [l.rstrip("\n").rstrip("\r") for l in open(path, encoding="utf-8")]
    lines = [l for l in lines if l and not l.startswith("#")]
    head = lines[0].split("\t")
    return head, [l.split("\t") for l in lines[1:]]


def main():
    tables = {}
    shown_rows = {}
    checked = bad = 0
    problems = []
    for page in sorted(glob.glob(os.path.join(SITE, "*.html")) + glob.glob(os.path.join(SITE, "runs/*/index.html"))):
        p = Tables()
        p.feed(open(page, encoding="utf-8").read())
        for src, row, col, raw, shown, numeric in p.cells:
            if src not in tables:
                tables[src] = read_tsv(published(src))
            head, rows = tables[src]
            shown_rows.setdefault(src, set()).add(row)
            checked += 1
            want = rows[row][head.index(col)] if row < len(rows) and col in head else None
            ok = raw == want
            if ok and numeric:
                try:
                    ok = shown == "%.4g" % float(raw)
                except ValueError:
                    ok = shown == raw
            if not ok:
                bad += 1
                if len(problems) < 10:
                    problems.append("%s: %s row %d %s: page %r / %r, file %r" % (
                        os.path.relpath(page, SITE), src, row, col, raw, shown, want))
    tap(checked > 0 and bad == 0, "%d cells of %d published tables equal their files (%d differ)%s" % (
        checked, len(tables), bad, "".join("\n# " + p for p in problems)))
    wanted = ["across-hosts.tsv"] + sorted(
        "runs/" + os.path.relpath(f, RESULTS) for f in glob.glob(os.path.join(RESULTS, "*/*/fits.tsv")))
    for src in wanted:
        head, rows = read_tsv(published(src))
        missing = set(range(len(rows))) - shown_rows.get(src, set())
        tap(not missing, "%s: all %d rows on the site%s" % (
            src, len(rows), "" if not missing else " (missing rows %s)" % sorted(missing)[:10]))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
