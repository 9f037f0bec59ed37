#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""A hostile HTTP client for lattop's --listen server, on loopback only, bounded in connections
and in time, stopping by itself.

  flood PORT COUNT SECONDS RATE
      hold COUNT connections to 127.0.0.1:PORT for SECONDS: a quarter silent, a quarter
      sending a long unfinished head at once (about 5 KB: it fills the server's request
      memory), a quarter trickling an unfinished head a byte a second, a quarter asking for
      /metrics and never reading the answer (a 1 KB receive buffer). Each lives 2 to 9 s and is
      then renewed, as is any the server closes; at most RATE connects a second. Prints one
      JSON line of figures at the end.
  deadline PORT LIMIT
      open one silent, one unfinished and one trickling connection and print, a line each
      ("silent 5.04"), after how many seconds the server closed it (None: still open after
      LIMIT seconds).
"""
import errno
import json
import random
import resource
import selectors
import socket
import sys
import time

HOST = "127.0.0.1"  # loopback only, whatever the arguments
HEAD = b"GET /metrics HTTP/1.1\r\nHost: flood\r\n"
FAT = HEAD + b"".join(b"X-Pad-%d: %s\r\n" % (i, b"p" * 1000) for i in range(5))
KINDS = ("silent", "fat", "trickle")  # the ones `deadline` opens
FLOOD_KINDS = KINDS + ("reader",)
WHOLE = b"GET /metrics HTTP/1.1\r\nHost: flood\r\n\r\n"


def raise_nofile(need):
    """Raise the soft open-file limit to what need connections take (up to the hard one)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = need + 64
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, hard), hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0] >= want


class Conn:
    """One connection and what it has sent."""

    def __init__(self, port, kind, now):
        self.kind, self.sent, self.t0 = kind, 0, now
        self.end = now + random.uniform(2, 9)
        self.next = now + 1
        self.s = socket.socket()
        if kind == "reader":
            self.s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        self.s.setblocking(False)
        rc = self.s.connect_ex((HOST, port))
        if rc not in (0, errno.EINPROGRESS):
            self.s.close()
            raise OSError(rc, "connect")

    def send(self, data):
        """Send what the socket takes; False once the server closed it."""
        try:
            self.sent += self.s.send(data)
        except BlockingIOError:
            pass
        except OSError as e:
            return e.errno in (errno.ENOTCONN, errno.EAGAIN)
        return True


def closed_by_server(c):
    """True when the server ended the connection (EOF or reset)."""
    try:
        return c.s.recv(4096) == b""  # an answer (431, 408) is read and dropped
    except BlockingIOError:
        return False
    except OSError:
        return True


def step(c, now):
    """Write what this connection's kind writes now; False when the server closed it."""
    if c.kind == "fat" and c.sent < len(FAT):
        return c.send(FAT[c.sent:])
    if c.kind == "reader" and c.sent < len(WHOLE):
        return c.send(WHOLE[c.sent:])
    if c.kind == "trickle" and now >= c.next and c.sent < len(HEAD) - 1:
        c.next = now + 1
        return c.send(HEAD[c.sent:c.sent + 1])
    return True


def flood(port, count, seconds, rate):
    port, count, seconds, rate = int(port), int(count), float(seconds), float(rate)
    if not raise_nofile(count):
        print(json.dumps({"error": f"open-file limit below {count + 64}"}))
        return 2
    sel = selectors.DefaultSelector()
    conns, st = set(), {"connects": 0, "closed_by_server": 0, "renewed": 0, "held_max": 0,
                        "connect_errors": 0}
    t_end = time.monotonic() + seconds
    budget, last = 0.0, time.monotonic()
    while (now := time.monotonic()) < t_end:
        budget = min(rate, budget + (now - last) * rate)
        last = now
        while len(conns) < count and budget >= 1:
            budget -= 1
            try:
                c = Conn(port, FLOOD_KINDS[st["connects"] % 4], now)
            except OSError:
                st["connect_errors"] += 1
                break
            st["connects"] += 1
            conns.add(c)
            if c.kind != "reader":  # a reader never reads: its end is seen at renewal
                sel.register(c.s, selectors.EVENT_READ, c)
        st["held_max"] = max(st["held_max"], len(conns))
        for key, _ in sel.select(timeout=0.05):
            c = key.data
            if c in conns and closed_by_server(c):
                st["closed_by_server"] += 1
                conns.discard(c)
                sel.unregister(c.s)
                c.s.close()
        now = time.monotonic()
        for c in list(conns):
            if not step(c, now) or now >= c.end:
                st["renewed" if now >= c.end else "closed_by_server"] += 1
                conns.discard(c)
                if c.kind != "reader":
                    sel.unregister(c.s)
                c.s.close()
    for c in conns:
        c.s.close()
    print(json.dumps(st), flush=True)
    return 0


def deadline(port, limit):
    """Seconds until the server closed a silent, an unfinished and a trickling connection."""
    port, limit = int(port), float(limit)
    t0 = time.monotonic()
    conns = {k: socket.create_connection((HOST, port), timeout=5) for k in KINDS}
    conns["fat"].sendall(FAT)
    closed, sent = {}, 0
    for s in conns.values():
        s.setblocking(False)
    while len(closed) < len(conns) and time.monotonic() - t0 < limit:
        now = time.monotonic() - t0
        if "trickle" not in closed and now >= sent * 0.5 and sent < len(HEAD) - 1:
            try:
                conns["trickle"].send(HEAD[sent:sent + 1])
            except OSError:
                pass
            sent += 1
        for k, s in conns.items():
            if k in closed:
                continue
            try:
                if s.recv(4096) == b"":
                    closed[k] = round(time.monotonic() - t0, 2)
            except BlockingIOError:
                pass
            except OSError:
                closed[k] = round(time.monotonic() - t0, 2)
        time.sleep(0.02)
    for s in conns.values():
        s.close()
    for k in KINDS:
        print(k, closed.get(k))
    return 0


if __name__ == "__main__":
    sys.exit(globals()[sys.argv[1]](*sys.argv[2:]))
