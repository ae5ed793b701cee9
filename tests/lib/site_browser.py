#!/usr/bin/python3
"""site_browser: rarsite's site in Debian's headless Chromium, driven over the DevTools protocol
on a pipe (--remote-debugging-pipe: no port, no websocket). Prints TAP lines; exit 0 when all
passed.

usage: site_browser.py SITE_DIR RESULTS_DIR SHOT_DIR

Every page (index, across, runs, each run, history, counts) is loaded; each must log no console
error, no exception, no failed or blocked load, request nothing but file:// (and data:), link
only to files that exist, show every image. index.html is shot at 1280 and 390 px wide (the
headline figure in the first screen, a PNG of many colours); a real mouse move over a known
point of the headline figure must show its value and interval from across-hosts.tsv; a tool's
switch hides its points; the axes' button changes the scale.
"""
import base64
import glob
import json
import os
import select
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import urllib.parse
import zlib

SITE, RESULTS, SHOTS = sys.argv[1], sys.argv[2], sys.argv[3]
fails = 0


def tap(ok, what):
    global fails
    print(("ok - " if ok else "not ok - ") + what)
    if not ok:
        fails += 1
    return ok


class Chromium:
    """One headless Chromium over --remote-debugging-pipe: fd 3 its input, fd 4 its output,
    messages JSON ending in NUL."""

    def __init__(self, profile):
        to_r, self.to_w = os.pipe()
        self.from_r, from_w = os.pipe()
        # The child's fds 3 and 4 must be the pipes: put them at 7 and 8, sh moves them.
        os.dup2(to_r, 7)
        os.dup2(from_w, 8)
        os.close(to_r)
        os.close(from_w)
        cmd = ["/usr/bin/chromium", "--headless", "--no-sandbox", "--disable-gpu",
               "--disable-quic", "--no-first-run", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--disable-extensions",
               "--disable-default-apps", "--mute-audio", "--hide-scrollbars",
               "--user-data-dir=" + profile, "--remote-debugging-pipe", "about:blank"]
        self.proc = subprocess.Popen(["/bin/sh", "-c", 'exec "$@" 3<&7 4>&8 7<&- 8>&-', "sh"] + cmd,
                                     pass_fds=(7, 8), stdout=subprocess.DEVNULL,
                                     stderr=open(os.path.join(profile, "stderr.log"), "w"))
        os.close(7)
        os.close(8)
        self.buf = b""
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None, timeout=30):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.to_w, json.dumps(msg).encode() + b"\0")
        want = self.next_id
        deadline = time.time() + timeout
        while True:
            m = self.read(deadline)
            if m is None:
                raise TimeoutError(method)
            if m.get("id") == want:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            self.events.append(m)

    def read(self, deadline):
        while b"\0" not in self.buf:
            left = deadline - time.time()
            if left <= 0 or not select.select([self.from_r], [], [], left)[0]:
                return None
            chunk = os.read(self.from_r, 1 << 20)
            if not chunk:
                return None
            self.buf += chunk
        raw, self.buf = self.buf.split(b"\0", 1)
        return json.loads(raw)

    def wait_event(self, method, timeout=30):
        deadline = time.time() + timeout
        for i, m in enumerate(self.events):
            if m.get("method") == method:
                del self.events[i]
                return m
        while True:
            m = self.read(deadline)
            if m is None:
                return None
            if m.get("method") == method:
                return m
            self.events.append(m)

    def close(self):
        try:
            self.send("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def png_stats(path):
    """(width, height, distinct colours, share of non-white pixels) of an 8-bit RGB(A) PNG."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6)
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    colours, ink = set(), 0
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        if y % 4 == 0:  # a sample of the lines is enough to count colours and ink
            for x in range(0, stride, bpp * 2):
                px = bytes(line[x:x + 3])
                colours.add(px)
                ink += px != b"\xff\xff\xff"
        prev = line
    sampled = ((h + 3) // 4) * ((w + 1) // 2)
    return w, h, len(colours), ink / sampled


def page_checks(cr, sess, url, name):
    """Loads url; returns the problems seen (a list of strings)."""
    cr.events = []
    cr.send("Page.navigate", {"url": url}, sess)
    if cr.wait_event("Page.loadEventFired", 30) is None:
        return ["no load event in 30 s"]
    # Let DOMContentLoaded's handlers and any late request or log entry arrive.
    ready = cr.send("Runtime.evaluate", {"expression": "new Promise(r => setTimeout(() => "
                                         "r(document.documentElement.getAttribute('data-js')), 200))",
                                         "awaitPromise": True, "returnByValue": True}, sess)
    problems = []
    if ready["result"].get("value") != "ready":
        problems.append("site.js did not run (data-js is %r)" % ready["result"].get("value"))
    for m in cr.events:
        meth, p = m.get("method"), m.get("params", {})
        if meth == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert", "warning"):
            problems.append("console %s: %s" % (p["type"], " ".join(
                str(a.get("value", a.get("description", ""))) for a in p.get("args", []))))
        elif meth == "Runtime.exceptionThrown":
            problems.append("exception: %s" % p["exceptionDetails"].get("text"))
        elif meth == "Log.entryAdded" and p["entry"].get("level") in ("error", "warning"):
            problems.append("log %s: %s" % (p["entry"]["level"], p["entry"].get("text")))
        elif meth == "Network.requestWillBeSent":
            u = p["request"]["url"]
            if not (u.startswith("file://") or u.startswith("data:")):
                problems.append("request leaving the site: %s" % u)
        elif meth == "Network.loadingFailed":
            problems.append("load failed: %s %s" % (p.get("errorText"), p.get("blockedReason", "")))
    res = cr.send("Runtime.evaluate", {"expression": """(() => {
        const bad = [];
        for (const img of document.images)
          if (!img.complete || img.naturalWidth === 0) bad.push('image ' + img.src);
        const links = [...document.querySelectorAll('a[href]')].map(a => a.href);
        const ids = new Set([...document.querySelectorAll('[id]')].map(e => e.id));
        return {bad, links, ids: [...ids]};
      })()""", "returnByValue": True}, sess)["result"]["value"]
    problems += res["bad"]
    here = urllib.parse.urlsplit(url)
    for link in res["links"]:
        u = urllib.parse.urlsplit(link)
        if u.scheme != "file":
            problems.append("link leaving the site: %s" % link)
            continue
        path = urllib.parse.unquote(u.path)
        if not os.path.isfile(path):
            problems.append("broken link: %s" % link)
        elif u.fragment and u.path == here.path and u.fragment not in res["ids"]:
            problems.append("broken anchor: %s" % link)
        elif not os.path.realpath(path).startswith(os.path.realpath(SITE) + os.sep):
            problems.append("link outside the site: %s" % link)
    return problems


def headline_expected():
    """The tooltip the headline figure's sr-cbor per-task point must show, from across-hosts.tsv."""
    rows = [l.rstrip("\n").split("\t") for l in open(os.path.join(RESULTS, "across-hosts.tsv"))]
    head, rows = rows[0], rows[1:]
    col = {c: i for i, c in enumerate(head)}
    for r in rows:
        if r[col["subject"]] == "sr-cbor" and r[col["quantity"]] == "slope_ratio":
            return "sr-cbor · per task (slope ÷ sudo's): %.4g × sudo [%.4g, %.4g]" % (
                float(r[col["mean"]]), float(r[col["mean_lo"]]), float(r[col["mean_hi"]]))
    return None


def main():
    profile = tempfile.mkdtemp(prefix="rarsite-chromium-")
    cr = Chromium(profile)
    started = time.time()
    try:
        tgt = cr.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        sess = cr.send("Target.attachToTarget", {"targetId": tgt, "flatten": True})["sessionId"]
        for d in ("Page", "Runtime", "Network", "Log"):
            cr.send(d + ".enable", {}, sess)
        cr.send("Emulation.setDeviceMetricsOverride",
                {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False}, sess)
        pages = ["index.html", "across.html", "runs.html", "history.html", "counts.html"]
        pages += sorted(os.path.relpath(p, SITE) for p in glob.glob(os.path.join(SITE, "runs/*/index.html")))
        for rel in pages:
            url = "file://" + urllib.parse.quote(os.path.abspath(os.path.join(SITE, rel)))
            problems = page_checks(cr, sess, url, rel)
            tap(not problems, "%s loads: no console error, no failed load, no request or link "
                "outside the site, every image shown%s" % (rel, "".join("\n# " + p for p in problems[:12])))

        index = "file://" + urllib.parse.quote(os.path.abspath(os.path.join(SITE, "index.html")))
        for width, height, mobile in ((1280, 900, False), (390, 844, True)):
            cr.send("Emulation.setDeviceMetricsOverride",
                    {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}, sess)
            cr.send("Page.navigate", {"url": index}, sess)
            cr.wait_event("Page.loadEventFired", 30)
            box = cr.send("Runtime.evaluate", {"expression": """(() => {
                const r = document.querySelector('#fig-home svg.plot').getBoundingClientRect();
                return {top: r.top, bottom: r.bottom, width: r.width, vw: innerWidth, vh: innerHeight};
              })()""", "returnByValue": True}, sess)["result"]["value"]
            shot = cr.send("Page.captureScreenshot", {"format": "png"}, sess)["data"]
            path = os.path.join(SHOTS, "index-%d.png" % width)
            with open(path, "wb") as f:
                f.write(base64.b64decode(shot))
            w, h, colours, ink = png_stats(path)
            tap(w == width and colours >= 8 and ink > 0.03,
                "index.html at %d px: a %dx%d screenshot of %d colours (sampled), %.0f %% not white (%s)"
                % (width, w, h, colours, 100 * ink, path))
            tap(box["top"] < box["vh"] and box["width"] >= 0.8 * min(box["vw"], 1100) - 40,
                "index.html at %d px: the headline figure starts in the first screen (top %.0f of %.0f px, "
                "%.0f px wide)" % (width, box["top"], box["vh"], box["width"]))

        # A real mouse over a known point: sr-cbor's per-task ratio on the headline figure.
        cr.send("Emulation.setDeviceMetricsOverride",
                {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False}, sess)
        cr.send("Page.navigate", {"url": index}, sess)
        cr.wait_event("Page.loadEventFired", 30)
        want = headline_expected()
        pt = cr.send("Runtime.evaluate", {"expression": """(() => {
            const fig = document.getElementById('fig-home');
            const scale = fig.getAttribute('data-scale');
            const pts = [...fig.querySelectorAll('g.scale[data-scale="' + scale + '"] circle.pt')];
            const p = pts.find(c => c.getAttribute('data-tip').startsWith('sr-cbor · per task'));
            if (!p) return null;
            p.scrollIntoView({block: 'center'});
            const r = p.getBoundingClientRect();
            return {x: r.left + r.width / 2, y: r.top + r.height / 2};
          })()""", "returnByValue": True}, sess)["result"].get("value")
        tip = None
        if pt:
            cr.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": pt["x"], "y": pt["y"]}, sess)
            tip = cr.send("Runtime.evaluate", {"expression": """(() => {
                const t = document.querySelector('#fig-home .tip');
                return t.hidden ? null : t.textContent; })()""", "returnByValue": True},
                          sess)["result"].get("value")
        tap(want is not None and tip == want,
            "hovering sr-cbor's per-task point shows %r (across-hosts.tsv: %r)" % (tip, want))

        toggled = cr.send("Runtime.evaluate", {"expression": """(() => {
            const fig = document.getElementById('fig-home');
            const box = fig.querySelector('.controls input[data-series]');
            const k = box.getAttribute('data-series');
            box.click();
            const hidden = [...fig.querySelectorAll('g.series[data-series="' + k + '"]')]
              .every(g => g.getAttribute('display') === 'none' && g.getBoundingClientRect().width === 0);
            box.click();
            const shown = [...fig.querySelectorAll('g.series[data-series="' + k + '"]')]
              .every(g => g.getAttribute('display') === null);
            const before = fig.getAttribute('data-scale');
            fig.querySelector('.scalebtn').click();
            const after = fig.getAttribute('data-scale');
            const visible = [...fig.querySelectorAll('g.scale')].filter(g => g.getBoundingClientRect().width > 0)
              .map(g => g.getAttribute('data-scale'));
            return {hidden, shown, before, after, visible};
          })()""", "returnByValue": True}, sess)["result"]["value"]
        tap(toggled["hidden"] and toggled["shown"],
            "a tool's switch hides its points and shows them again")
        tap(toggled["before"] != toggled["after"] and toggled["visible"] == [toggled["after"]],
            "the axes' button turns %s into %s axes (shown: %s)" % (
                toggled["before"], toggled["after"], toggled["visible"]))
    finally:
        cr.close()
        shutil.rmtree(profile, ignore_errors=True)
    print("# browser: %.1f s" % (time.time() - started))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
