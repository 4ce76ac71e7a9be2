#!/usr/bin/env python3
"""Latency of `replay-tool import --follow -`: from writing a line to reading its acknowledgment.

usage: Benchmarks/follow-latency.py [REPLAY_TOOL] [LINES] [PAUSE_MS]
  (default .build/release/replay-tool, 500 lines, 20 ms between lines)

Starts one follower on a new log under /tmp and feeds it through a pipe, as a Kafka consumer or a
webhook receiver would:
  1. single lines, one write each, PAUSE_MS apart: time from the write to the acknowledgment line;
  2. bursts of 100 lines in one write, 200 ms apart: time from the write to the acknowledgment
     covering the burst's last line, and how many groups a burst took;
  3. a flood: 200,000 lines written as fast as the pipe takes them, by another thread: events/s
     from the first write to the last acknowledgment, groups and their mean size, and the largest
     wait of a line (its write to its acknowledgment, each 1,000th line timed).
Prints one table (milliseconds). The follower is a real process; its log is fsynced per group.
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time


def line(i, user=None):
    return ('{"id":"lat-%d","type":"paywall_viewed","user":"%s","time":"2026-01-05T09:00:00Z",'
            '"data":{"context":"settings"}}\n' % (i, user or "u%d" % (i % 1000)))


def percentile(values, p):
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def main():
    tool = sys.argv[1] if len(sys.argv) > 1 else ".build/release/replay-tool"
    lines = int(sys.argv[2]) if len(sys.argv) > 2 else 500
    pause = (float(sys.argv[3]) if len(sys.argv) > 3 else 20.0) / 1000
    folder = tempfile.mkdtemp(prefix="follow-latency-", dir="/tmp")
    log = folder + "/ledger"
    child = subprocess.Popen([tool, "import", "--log", log, "--follow", "-"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
    out = child.stdout
    pending = b""

    def ack():
        nonlocal pending
        while b"\n" not in pending:
            chunk = os.read(out.fileno(), 65536)
            if not chunk:
                raise SystemExit("the follower ended: " + child.stderr.read().decode())
            pending += chunk
        text, pending = pending.split(b"\n", 1)
        return json.loads(text)

    def write(data):
        os.write(child.stdin.fileno(), data.encode())

    n = 0
    write(line(n))
    ack()  # warm-up: the process is up and the log open

    # 1. single lines
    single = []
    for _ in range(lines):
        n += 1
        t0 = time.perf_counter()
        write(line(n))
        a = ack()
        single.append((time.perf_counter() - t0) * 1000)
        assert a["appended"] == 1 and a["lines"] == [n + 1, n + 1], a
        time.sleep(pause)

    # 2. bursts of 100 lines in one write
    bursts, groups_per_burst = [], []
    for _ in range(50):
        first = n + 1
        n += 100
        data = "".join(line(i) for i in range(first, n + 1))
        t0 = time.perf_counter()
        write(data)
        groups = 0
        while True:
            a = ack()
            groups += 1
            if a["lines"][1] == n + 1:
                break
        bursts.append((time.perf_counter() - t0) * 1000)
        groups_per_burst.append(groups)
        time.sleep(0.2)

    # 3. a flood from another thread
    flood = 200_000
    start_line = n + 2  # the stream's line number of the flood's first line
    sent_at = {}
    chunk_lines = 1000

    def producer():
        for base in range(0, flood, chunk_lines):
            data = "".join(line(n + 1 + base + k) for k in range(chunk_lines))
            sent_at[start_line + base] = time.perf_counter()
            write(data)

    t0 = time.perf_counter()
    thread = threading.Thread(target=producer)
    thread.start()
    covered, groups, waits = start_line - 1, 0, []
    while covered < start_line + flood - 1:
        a = ack()
        groups += 1
        now = time.perf_counter()
        for ln in range(a["lines"][0], a["lines"][1] + 1, 1):
            if ln in sent_at:
                waits.append((now - sent_at[ln]) * 1000)
        covered = a["lines"][1]
    elapsed = time.perf_counter() - t0
    thread.join()
    child.stdin.close()
    child.wait(timeout=60)
    shutil.rmtree(folder, ignore_errors=True)

    print("| what | p50 | p90 | p99 | max |")
    print("| --- | --- | --- | --- | --- |")
    print("| one line, write to acknowledgment (%d lines, %g ms apart) | %.2f ms | %.2f ms | %.2f ms | %.2f ms |"
          % (lines, pause * 1000, percentile(single, 50), percentile(single, 90), percentile(single, 99), max(single)))
    print("| a burst of 100 lines in one write, write to the last line's acknowledgment (50 bursts; %.1f groups a burst on average) | %.2f ms | %.2f ms | %.2f ms | %.2f ms |"
          % (statistics.mean(groups_per_burst), percentile(bursts, 50), percentile(bursts, 90), percentile(bursts, 99), max(bursts)))
    print("| a flood of %d lines: a line's write to its acknowledgment (each 1,000th line) | %.1f ms | %.1f ms | %.1f ms | %.1f ms |"
          % (flood, percentile(waits, 50), percentile(waits, 90), percentile(waits, 99), max(waits)))
    print()
    print("flood: %d events in %.2f s = %d events/s durable, %d groups (%.0f events a group on average)"
          % (flood, elapsed, flood / elapsed, groups, flood / groups))
    print("exit status at EOF: %d" % child.returncode)


if __name__ == "__main__":
    main()
