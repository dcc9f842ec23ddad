"""Ports for the servers the scripts and browser tests start: one helper, shared.

Python scripts import it (`sys.path` gets this folder); shell scripts run it (`python3
scripts/lib/ports.py` prints one port per line, as many as asked)."""
import socket
import sys


def free_port():
    """A port no program listens on now (the kernel's choice), for a server that takes its port
    from a command line or a config."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


if __name__ == "__main__":
    for _ in range(int(sys.argv[1]) if len(sys.argv) > 1 else 1):
        print(free_port())
