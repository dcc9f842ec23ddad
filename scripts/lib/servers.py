"""`vocab serve` for the scripts and the browser tests: one way to start it, know its address, wait
until it answers and stop it, shared by the doc-example check (refresh-readme), the browser walk
(Tests/Browser/webapp.py) and the benchmarks, so that they start the server as the Swift tests'
TestServer does: on 127.0.0.1, on a port the server itself chose (port 0, read back from its
"listening" log line, so no other program can take it in between), ready once /healthz answers."""
import os
import re
import subprocess
import time
import urllib.request

from ports import free_port


class VocabServer:
    """One `vocab serve` process. `args` are more serve options (`--log-level`, a database);
    `prefix` runs the server under another program (valgrind); `env` is its environment (its
    VOCAB_HOME). After a stop, start() listens on the same port again, as a restarted server would,
    so that a page that went offline finds it where it was."""

    def __init__(self, binary, env=None, args=(), prefix=(), log=None, port=0, deadline=60):
        self.binary, self.env, self.args, self.prefix = binary, env, list(args), list(prefix)
        self.log = log or os.path.join(os.environ.get("TMPDIR", "/tmp"), f"vocab-serve-{os.getpid()}-{id(self)}.log")
        self.port, self.deadline, self.process = port, deadline, None

    @property
    def address(self):
        return f"127.0.0.1:{self.port}"

    @property
    def url(self):
        return f"http://{self.address}"

    def start(self):
        """Starts the server and returns its address (host:port) once /healthz answers."""
        self.launch()
        return self.ready()

    def launch(self):
        """Starts the process without waiting for it (work can be done while it boots; ready()
        waits)."""
        if not self.port and any(self.args[i + 1] in ("warning", "error", "critical")
                                 for i, a in enumerate(self.args[:-1]) if a == "--log-level"):
            # Quieter than the "listening" line (notice): the port is chosen here instead.
            self.port = free_port()
        with open(self.log, "a") as log:
            self.process = subprocess.Popen(self.prefix + [self.binary, "serve", "--host", "127.0.0.1", "--port", str(self.port), *self.args],
                                            env=self.env, stdout=subprocess.DEVNULL, stderr=log)

    def ready(self):
        """The address (host:port) once the launched server answers /healthz."""
        end = time.monotonic() + self.deadline
        while time.monotonic() < end:
            if self.process.poll() is not None:
                raise RuntimeError(f"vocab serve exited ({self.process.returncode}):\n{self.read_log()}")
            if not self.port:
                found = re.findall(r"listening url=http://127\.0\.0\.1:(\d+)", self.read_log())
                self.port = int(found[-1]) if found else 0
            if self.port:
                try:
                    with urllib.request.urlopen(f"{self.url}/healthz", timeout=5):
                        return self.address
                except OSError:
                    pass
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"vocab serve did not answer /healthz within {self.deadline} s:\n{self.read_log()}")

    def read_log(self):
        try:
            with open(self.log, encoding="utf-8", errors="replace") as f:
                return f.read()
        except FileNotFoundError:
            return ""

    def stop(self, wait=30):
        """SIGTERM, on which the server stops once its requests are answered; then SIGKILL."""
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(wait)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *_):
        self.stop()
