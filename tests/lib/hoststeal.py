#!/usr/bin/python3
"""hoststeal.py: a host taking the CPU from a VM, staged without a hypervisor.

    hoststeal.py PID [ON_MS [OFF_MS [BOUND_S]]]

Waits for rarbench PID's sweep cgroup (src/sweep/sweepcg.h: <cgroup2 mount>/rarperf-sweep-PID,
which holds rarbench and everything it starts) and then, until the cgroup is gone, PID has
exited or BOUND_S (default 600) passed, freezes it for ON_MS (default 8) every ON_MS + OFF_MS
(default 12 off): cgroup v2's freezer stops every task of it, as a hypervisor stops a vCPU.
A frozen task is not runnable, so its wait is no run delay in /proc/PID/schedstat, no CPU
time and no steal: like the host of issue 51, it is invisible to the guest's accounts, and
only the wall time grows. The cgroup is always left thawed (on exit, SIGTERM or SIGINT).
Prints one line at the end: how many times it froze the cgroup and for how long in all.
"""
import os
import signal
import sys
import time

MOUNT = "/sys/fs/cgroup"


def cgroup2_mount():
    with open("/proc/self/mountinfo") as f:
        for line in f:
            left, _, right = line.partition(" - ")
            if right.split(" ")[0] == "cgroup2":
                return left.split(" ")[4]
    return MOUNT


def write(path, text):
    try:
        with open(path, "w") as f:
            f.write(text)
        return True
    except OSError:
        return False


def main():
    if len(sys.argv) < 2 or not sys.argv[1].isdigit():
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    pid = int(sys.argv[1])
    on_s = float(sys.argv[2] if len(sys.argv) > 2 else 8) / 1000
    off_s = float(sys.argv[3] if len(sys.argv) > 3 else 12) / 1000
    bound = time.monotonic() + float(sys.argv[4] if len(sys.argv) > 4 else 600)
    freeze = os.path.join(cgroup2_mount(), "rarperf-sweep-%d" % pid, "cgroup.freeze")
    state = {"frozen": False}

    def thaw(*_):
        if state["frozen"]:
            write(freeze, "0")
            state["frozen"] = False

    def stop(*_):
        thaw()
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    while not os.path.exists(freeze):
        if time.monotonic() > bound or not os.path.exists("/proc/%d" % pid):
            print("hoststeal: no cgroup %s appeared" % os.path.dirname(freeze))
            return 1
        time.sleep(0.01)
    n, total = 0, 0.0
    try:
        while time.monotonic() < bound and os.path.exists("/proc/%d" % pid):
            t0 = time.monotonic()
            if not write(freeze, "1"):
                break  # the sweep removed its cgroup: done
            state["frozen"] = True
            time.sleep(on_s)
            thaw()
            total += time.monotonic() - t0
            n += 1
            time.sleep(off_s)
    finally:
        thaw()
    print("hoststeal: froze %s %d times, %.1f s in all" % (os.path.dirname(freeze), n, total))
    return 0


if __name__ == "__main__":
    sys.exit(main())
