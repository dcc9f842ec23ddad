#!/usr/bin/env python3
"""Two commands run in turn, N pairs, their order swapped every other pair, so that whatever else
the machine does (other work, a CPU's clock changing) falls on both alike: a whole-process
comparison that hyperfine's one-command-then-the-other can get wrong by 30 % on a shared
machine. Prints each command's median wall and CPU time and the median of the pairs' ratios.

Usage: paired.py N NAME_A 'ARG|ARG|...' NAME_B 'ARG|ARG|...'   (arguments split on |)"""
import os
import statistics
import sys
import time


def run(argv):
    null = os.open("/dev/null", os.O_WRONLY)
    start = time.perf_counter_ns()
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, null, 1)])
    _, status, usage = os.wait4(pid, 0)
    wall = (time.perf_counter_ns() - start) / 1e6
    os.close(null)
    if status != 0:
        sys.exit(f"{argv[0]} failed with status {status}")
    return wall, (usage.ru_utime + usage.ru_stime) * 1000


def main():
    n, name_a, a, name_b, b = int(sys.argv[1]), sys.argv[2], sys.argv[3].split("|"), sys.argv[4], sys.argv[5].split("|")
    for _ in range(20):
        run(a)
        run(b)
    walls_a, walls_b, cpus_a, cpus_b, ratios = [], [], [], [], []
    for i in range(n):
        if i % 2 == 0:
            x, y = run(a), run(b)
        else:
            y, x = run(b), run(a)
        walls_a.append(x[0])
        walls_b.append(y[0])
        cpus_a.append(x[1])
        cpus_b.append(y[1])
        ratios.append(x[0] / y[0])
    med = statistics.median
    print(f"paired, {n} pairs in turn: {name_a} median {med(walls_a):.2f} ms (CPU {med(cpus_a):.2f} ms), "
          f"{name_b} {med(walls_b):.2f} ms (CPU {med(cpus_b):.2f} ms)")
    print(f"ratio {name_a}/{name_b} (median of the pairs' ratios): {med(ratios):.2f}x")


if __name__ == "__main__":
    main()
