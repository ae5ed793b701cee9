# check_fit.py FITS.tsv AXIS RESULTS.json...: an independent weighted least squares (numpy) of
# each series of rarbench results (y = rarbench's estimate, sigma = its 95 % half-width / 1.96, as
# rarplot takes them; AXIS nb_roles*nb_tasks is the product), compared with rarplot's fits.tsv;
# exit 1 beyond 1e-6 relative. Every other nb_* parameter must be constant along AXIS.
import json, sys, math
import numpy as np
res = [r for path in sys.argv[3:] for r in json.load(open(path))["results"]]
axis = sys.argv[2]
fits = {}
for line in open(sys.argv[1]).read().splitlines()[1:]:
    f = line.split("\t")
    fits[(f[0], f[1])] = (float(f[5]), float(f[7]) / 1e3)
series = {}
for r in res:
    p = r["parameters"]
    series.setdefault((p["subject"], p["format"]), []).append(r)
worst = 0.0
for key, rs in series.items():
    def xof(p):
        if axis == "nb_roles*nb_tasks":
            return float(p["nb_roles"]) * float(p["nb_tasks"])
        return float(p[axis])
    x = np.array([xof(r["parameters"]) for r in rs])
    # rarbench's own estimate of each point, weighted by its 95 % interval's half-width / 1.96
    y = np.array([r["rarbench"]["estimate"] * 1e3 for r in rs])
    s = np.array([max((r["rarbench"]["ci95"][1] - r["rarbench"]["ci95"][0]) / 2 * 1e3, 1e-9 * r["rarbench"]["estimate"] * 1e3) / 1.959964 for r in rs])
    w = 1 / s
    A = np.vstack([np.ones_like(x), x]).T
    coef, *_ = np.linalg.lstsq(A * w[:, None], y * w, rcond=None)
    a, b = fits[key]
    ra, rb = abs(coef[0] - a) / abs(a), abs(coef[1] - b) / abs(b)
    worst = max(worst, ra, rb)
    print(f"# {key[0]:8s} n={len(rs):2d} numpy: {coef[0]:.6f} ms + {coef[1]*1e3:.6f} us  rarplot: {a:.6f} + {b*1e3:.6f}  rel.diff {ra:.1e} {rb:.1e}")
print(f"# largest relative difference: {worst:.2e}")
sys.exit(0 if worst < 1e-6 else 1)
