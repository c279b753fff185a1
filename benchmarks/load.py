"""Many concurrent tables over real WebSockets on loopback: how fast every client hears of a move.

Starts ``oakwood serve`` on a temporary database (bots pausing ``--bot-pace`` before each move, as people
see them; 0 is the worst case, every bot move at once), creates ``--tables`` tables of a person
against bots, and connects one client per table that plays like a brisk person: on each of its turns it
waits ``--think`` seconds, then sends the first legal move. For ``--seconds`` it measures, for every move a
client sends, the time until that client receives the update that includes it (the server stores the move
before it sends any update), and counts errors. Finished games are replaced by new tables, so the load stays
level. Prints tables, moves and messages a second, p50/p95/p99 latency, the server's CPU, and the server's
memory: its resident set (``VmRSS`` in ``/proc/PID/status``) idle before the tables, at its peak and at the end,
with the tables it was given. ``--seats`` sets every seat (``human,expert,expert``: the one person and two
searching bots), for the memory of many tables with bots that keep search trees.

``--expert-tables N`` adds N more tables where searching bots think nearly all the time (``--expert-game``,
``--expert-seats``: S'Quarrels, a person and three experts), played by clients of their own; the latency of
the ``--tables`` people is reported apart from theirs: what a person sees while bots think elsewhere.
``--bot-processes`` is the server's (0: bots search in the server's threads).

``--processes N`` (N > 1) runs N ``oakwood serve --redis`` processes on one store and a throwaway
``redis-server`` (on a Unix socket of the temporary folder): each table is created at one of them in turn and its
client connects to the next one, so most moves cross Redis to the table's owner and back. The CPU and memory
reported are the processes' sum. ``--kill-after S`` kills the first process with SIGKILL after S seconds: the
clients whose connection closes reconnect to the others, and the run reports the time from the SIGKILL to the
last of them hearing its table again (taken over by another process), and how many tables resumed, with where
the time went: when the killed process's leases lapsed in Redis, when the relayed clients were closed with
4010 (their table opened at its new process), and when each group heard its table again. A client refused
for now (``store``, ``moved``, ``unavailable``) sends its move again, as a person clicks again; one that hears
nothing for 30 s is counted as stalled. ``--advertise`` gives each process its own address (``--advertise-url``):
a client that reaches another process is sent to its table's (``moved``) and nothing is relayed; ``--direct``
connects each client to its table's process from the start.

What a run prints beside the servers' CPU: the load generator's own CPU and Redis's (and PostgreSQL's, with
``--postgres``: the tests' throwaway server instead of a SQLite file), since they share the machine's cores.
``--warmup S`` times no move of the first S seconds (the tables' creation); ``--jitter J`` draws each think from
think × [1 − J, 1 + J], so the clients do not stay in step from their common start. With ``--warmup``, the
servers' CPU is also given for the timed window alone, per timed move: what a move costs the servers, the
tables' creation left out. ``--source DIR`` runs the servers from another checkout's ``src`` (a worktree of the
commit before a change), so one client measures both sides of a pair.

    python benchmarks/load.py --tables 200 --seconds 60
    python benchmarks/load.py --tables 300 --seconds 60 --processes 2
    python benchmarks/load.py --tables 100 --seconds 40 --processes 2 --kill-after 15
    python benchmarks/load.py --tables 400 --seconds 45 --warmup 15 --jitter 0.5 --bot-pace 0 --bot-processes 0 \
        --processes 2 --advertise
    python benchmarks/load.py --tables 200 --seconds 120 --game squarrels --seats human,expert,expert,expert
    python benchmarks/load.py --tables 200 --expert-tables 12 --seconds 90
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

ROOT = Path(__file__).resolve().parents[1]
#: A client that hears nothing for this long is stalled (a move never answered): counted, and it stops.
STALL_SECONDS = 30.0
#: The refusals that mean "not now" rather than "not this move": the client sends the move again.
AGAIN = ("store", "moved", "unavailable")


def free_port() -> int:
    """A port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def rss_mb(pid: int) -> float:
    """The resident set of a process now, in MB (``VmRSS`` in Linux's ``/proc/PID/status``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024  # the kernel writes kB
    raise RuntimeError(f"no VmRSS for process {pid}")


class Memory:
    """The server's resident set, sampled every ``every`` seconds in a thread: idle, peak and last."""

    def __init__(self, pid: int, every: float = 0.5) -> None:
        self.pid, self.every = pid, every
        self.idle = self.peak = self.last = rss_mb(pid)
        self.samples: list[tuple[float, float]] = []  # (seconds since start, MB)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._started = time.monotonic()

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            try:
                self.sample()
            except (OSError, RuntimeError):  # the process is gone (--kill-after): its last sample stands
                return

    def sample(self) -> None:
        """Read the resident set once."""
        self.last = rss_mb(self.pid)
        self.peak = max(self.peak, self.last)
        self.samples.append((time.monotonic() - self._started, self.last))

    def __enter__(self) -> Memory:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()
        self.sample()


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds(pid: int) -> float:
    """CPU seconds of a process and of every process below it (PostgreSQL's server and its backends), so far;
    those that ended are not counted (a backend lives as long as its connection: a run's whole)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    total, todo = 0.0, [pid]
    while todo:
        one = todo.pop()
        with contextlib.suppress(OSError, IndexError, ValueError):
            total += cpu_seconds(one)
        todo.extend(children.get(one, []))
    return total


class Load:
    """The clients and what they measured."""

    def __init__(self, bases: list[str], game: str, seats: list[str], think: float, until: float) -> None:
        self.bases, self.game, self.seats, self.think, self.until = bases, game, seats, think, until
        #: whether each client connects to its table's own process rather than to another one
        self.direct = False
        #: how much each think varies, as a share of ``think`` (0: every client thinks exactly ``think``)
        self.jitter = 0.0
        self.latencies: list[float] = []
        #: when latencies start counting (``time.monotonic``): the tables' creation at the start is no steady load
        self.counting_from = 0.0
        #: the servers' CPU seconds (each) when the timed window began (after ``--warmup``)
        self.cpu_at_count: list[float] | None = None
        self.errors: list[str] = []
        self.messages = 0
        self.games = 0
        self.created = 0
        #: the processes killed (indices of ``bases``), and when the kill was
        self.dead: set[int] = set()
        self.killed_at: float | None = None
        #: seconds from the kill to when the killed process's leases lapsed in Redis (its last renewal + the lease)
        self.lapsed_after: float | None = None
        #: seconds from the kill to each table's first update after its client reconnected
        self.resumed: list[float] = []
        #: per table resumed after the kill: how its connection ended ("moved": closed with 4010 by the process
        #: relaying it, once its table was taken over; "lost": its process was killed), seconds from the kill to
        #: that, and seconds from the kill to its first update again
        self.cuts: list[tuple[str, float, float]] = []
        #: connections closed with 4010 (the table moved to another process) and reconnected
        self.moved = 0
        #: connections sent to the table's own process (``--advertise``: ``moved`` with its address, and 4010)
        self.redirected = 0
        #: the first message of each error code (what the server said)
        self.said: dict[str, str] = {}
        #: the clients that heard nothing for :data:`STALL_SECONDS` (what they last saw and sent)
        self.stalls: list[str] = []
        self._turn = 0

    def _next(self, avoid: int | None = None) -> int:
        """The next process (round robin) that is alive and not ``avoid``, if any other is."""
        for _ in range(len(self.bases)):
            self._turn = (self._turn + 1) % len(self.bases)
            if self._turn not in self.dead and (self._turn != avoid or len(self.bases) == 1):
                return self._turn
        return self._turn

    async def table(self, http: httpx.AsyncClient) -> None:
        """Play tables one after another until the time is up."""
        while time.monotonic() < self.until:
            body = {"game": self.game, "players": len(self.seats), "seats": self.seats, "name": "Load"}
            at = self._next()
            try:
                answer = (await http.post(f"{self.bases[at]}/api/tables", json=body)).json()
            except httpx.HTTPError:
                await asyncio.sleep(0.5)  # its process was killed meanwhile: another one takes the next table
                continue
            self.created += 1
            # with several processes the client connects to another one than the table's (relayed through Redis),
            # or with --direct to the table's own process, as a client sent to the table's owner would
            await self.play(answer["table"]["id"], answer["token"], at if self.direct else self._next(avoid=at))

    async def play(self, table_id: str, token: str, at: int) -> None:
        sent_at: dict[int, float] = {}
        cut: float | None = None  # when the connection was cut by a killed process (None: not cut)
        how = "lost"  # how it was cut: "moved" (4010) or "lost" (its process was killed)
        seen: dict[str, Any] | None = None  # the last update's seq and who was to act
        refused: str | None = None  # the last error the client was sent
        move: dict[str, Any] | None = None  # the last move sent (sent again if refused for now)
        redirect: str | None = None  # where the server sent the next connection (the table's own process)
        while time.monotonic() < self.until:
            url = redirect or self.bases[at].replace("http", "ws") + f"/ws/tables/{table_id}"
            redirect = None
            try:
                # a server busy with searching bots answers late (its event loop shares the interpreter with them)
                async with connect(url, max_size=2**22, open_timeout=120) as ws:
                    # a process that sends the client elsewhere may have said so and closed before the hello
                    # goes out: what it said is still read below
                    with contextlib.suppress(ConnectionClosed):
                        await ws.send(json.dumps({"type": "hello", "token": token}))
                    while time.monotonic() < self.until:
                        try:  # every move is answered, and a bot or a clock moves on: silence is a stall
                            text = await asyncio.wait_for(ws.recv(), STALL_SECONDS)
                        except TimeoutError:
                            last = "nothing" if seen is None else f"update {seen['seq']} (to act: {seen['to_act']})"
                            sent = sorted(sent_at) or "none"
                            silent = f"{STALL_SECONDS:g} s silent after {last}, sent {sent}, last error {refused}"
                            self.stalls.append(f"table {table_id}: {silent}")
                            return
                        message: dict[str, Any] = json.loads(text)
                        self.messages += 1
                        if message["type"] == "moved":  # its process has an address of its own: go there
                            redirect = message["url"]
                            self.redirected += 1
                            continue
                        if message["type"] == "error":
                            refused = message["code"]
                            if message["code"] != "stale":
                                self.errors.append(message["code"])
                                self.said.setdefault(message["code"], message.get("message", ""))
                            if message["code"] in AGAIN and move is not None:
                                # refused for now, not for good (the server could not be sure it still
                                # held the table, or could not store the move): a person clicks again
                                await asyncio.sleep(0.5)
                                await ws.send(json.dumps(move))
                            continue
                        now = time.monotonic()
                        seen = {"seq": message["seq"], "to_act": message["observation"].get("to_act")}
                        if cut is not None and self.killed_at is not None:
                            self.resumed.append(now - self.killed_at)
                            self.cuts.append((how, cut - self.killed_at, now - self.killed_at))
                            cut = None
                        for seq in [s for s in sent_at if message["seq"] > s]:
                            asked = sent_at.pop(seq)
                            if asked >= self.counting_from:
                                self.latencies.append(now - asked)
                        if message["observation"]["terminal"]:
                            self.games += 1
                            return
                        if message["legal"] and message["seq"] not in sent_at:
                            # people do not all think for the same time: with --jitter the clients drift apart
                            # rather than sending their moves in the same instant, turn after turn
                            await asyncio.sleep(self.think * random.uniform(1 - self.jitter, 1 + self.jitter))
                            sent_at[message["seq"]] = time.monotonic()
                            move = {"type": "act", "seq": message["seq"], "action": message["legal"][0]["index"]}
                            await ws.send(json.dumps(move))
                    return
            except (ConnectionClosed, InvalidStatus, OSError) as exc:
                moved = isinstance(exc, ConnectionClosed) and exc.rcvd is not None and exc.rcvd.code == 4010
                if redirect is not None:  # sent to the table's own process: at once, as the table page does
                    continue
                if self.killed_at is None and not moved:
                    raise
                if moved:
                    self.moved += 1
                # the process was killed, or the table moved (4010): reconnect as a browser does; a move sent
                # and never answered was never acknowledged, so it is dropped (the next update asks again)
                if cut is None and self.killed_at is not None:
                    cut, how = time.monotonic(), "moved" if moved else "lost"
                sent_at.clear()
                move = None
                if at in self.dead:
                    at = self._next(avoid=at)
                # as the table page does: at once after a 4010 (the table is ready elsewhere), spread over a
                # quarter of a second so a moved process's clients do not all arrive in one instant; else 0.2 s
                await asyncio.sleep(random.uniform(0.05, 0.25) if moved else 0.2)


async def lapse_at(redis_url: str) -> float | None:
    """When (``time.monotonic``) the first process's leases lapse, read just after it was killed: every heartbeat
    renews a process's mark of life and its leases in one go, and the survivors' marks are renewed since, so the
    mark with the least time left is the killed process's."""
    import redis.asyncio as aioredis

    client = aioredis.Redis.from_url(redis_url, decode_responses=True)
    try:
        keys = [key async for key in client.scan_iter(match="oakwood:node:*:alive")]
        async with client.pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.pttl(key)
            sent = time.monotonic()
            left = [int(ms) for ms in await pipe.execute() if int(ms) >= 0]
            answered = time.monotonic()
    finally:
        await client.aclose()
    # Redis read the times left somewhere between the question and the answer (the client's loop is busy)
    return (sent + answered) / 2 + min(left) / 1000 if left else None


async def run(
    args: argparse.Namespace, bases: list[str], servers: list[subprocess.Popen[bytes]], redis_url: str | None
) -> tuple[Load, Load]:
    """The people's tables and the experts' tables, played side by side until ``--seconds`` are up (the first
    process killed after ``--kill-after`` seconds, if given)."""
    until = time.monotonic() + args.seconds
    load = Load(bases, args.game, seats_of(args), args.think, until)
    experts = Load(bases, args.expert_game, args.expert_seats.split(","), args.think, until)
    load.direct = experts.direct = args.direct
    load.jitter = experts.jitter = args.jitter
    load.counting_from = experts.counting_from = time.monotonic() + args.warmup

    async def count_from() -> None:
        # the servers' CPU when timing starts, so that CPU a timed move is not charged with the tables' creation
        await asyncio.sleep(max(0.0, load.counting_from - time.monotonic()))
        load.cpu_at_count = [cpu_seconds(server.pid) for server in servers]

    async def kill() -> None:
        await asyncio.sleep(args.kill_after)
        killed_at = time.monotonic()
        for side in (load, experts):
            side.dead.add(0)
            side.killed_at = killed_at
        servers[0].send_signal(signal.SIGKILL)
        if redis_url is not None:
            lapses = await lapse_at(redis_url)
            load.lapsed_after = None if lapses is None else lapses - killed_at

    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(timeout=30, limits=limits) as http:
        tables = [load.table(http) for _ in range(args.tables)]
        killing = [kill()] if args.kill_after is not None else []
        counting = [count_from()] if args.kill_after is None else []  # (a killed process's CPU is gone with it)
        await asyncio.gather(*tables, *(experts.table(http) for _ in range(args.expert_tables)), *killing, *counting)
    return load, experts


def start_redis(folder: str) -> tuple[subprocess.Popen[bytes], str]:
    """A throwaway ``redis-server`` on a Unix socket in ``folder`` (nothing saved), once it answers; its URL."""
    sock = Path(folder) / "redis.sock"
    command = ["redis-server", "--port", "0", "--unixsocket", str(sock), "--save", "", "--appendonly", "no"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, cwd=folder)
    for _ in range(200):
        if sock.exists():
            return process, f"unix://{sock}"
        time.sleep(0.05)
    process.kill()
    raise SystemExit("redis-server did not start (apt-get install -y redis-server)")


def seats_of(args: argparse.Namespace) -> list[str]:
    """Every seat of a table: ``--seats`` as given, else a person and ``--players - 1`` bots of ``--bots``."""
    if args.seats is None:
        return ["human", *[args.bots] * (args.players - 1)]
    seats = [seat.strip() for seat in args.seats.split(",")]
    if seats.count("human") != 1:
        raise SystemExit("--seats names exactly one human seat (the client plays it; another would never be taken)")
    return seats


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0–1) of ``values`` in milliseconds."""
    return 1000 * statistics.quantiles(values, n=100)[round(q * 100) - 1] if len(values) > 1 else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--game", default="barrell")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bots", default="medium", help="the level of every other seat")
    parser.add_argument(
        "--seats", help="every seat, comma-separated: one 'human' and levels (human,expert,expert); sets the players"
    )
    parser.add_argument("--think", type=float, default=1.0, help="seconds a client waits before each move")
    parser.add_argument("--bot-pace", default="0.8", help="the server's --bot-pace (0.8: as oakwood serve runs)")
    parser.add_argument("--profile", metavar="FILE", help="run the server under cProfile, writing its stats here")
    parser.add_argument("--expert-tables", type=int, default=0, help="tables of searching bots beside the people's")
    parser.add_argument("--expert-game", default="squarrels")
    parser.add_argument("--expert-seats", default="human,expert,expert,expert")
    parser.add_argument("--bot-processes", help="the server's --bot-processes (default: its own, one a core)")
    parser.add_argument("--processes", type=int, default=1, help="server processes (more than 1: with --redis)")
    parser.add_argument("--lease-seconds", default="5", help="the servers' --lease-seconds (with --processes)")
    parser.add_argument("--kill-after", type=float, help="SIGKILL the first process after this many seconds")
    parser.add_argument(
        "--warmup", type=float, default=0.0, help="seconds at the start not timed (the tables' creation)"
    )
    parser.add_argument(
        "--jitter", type=float, default=0.0, help="each think drawn from think × [1 - J, 1 + J] (0: exactly think)"
    )
    parser.add_argument("--postgres", action="store_true", help="a throwaway PostgreSQL store instead of SQLite")
    parser.add_argument(
        "--source",
        metavar="DIR",
        help="run the servers from DIR/src (a worktree of another commit: the same client measures both)",
    )
    parser.add_argument(
        "--advertise",
        action="store_true",
        help="with --processes: each process is given its own address (--advertise-url), and a client reaching "
        "another one is sent there instead of relayed",
    )
    parser.add_argument(
        "--direct", action="store_true", help="with --processes: each client connects to its table's own process"
    )
    args = parser.parse_args()
    if (args.advertise or args.direct) and args.processes < 2:
        raise SystemExit("--advertise and --direct are for --processes 2 or more")
    if args.kill_after is not None and args.processes < 2:
        raise SystemExit("--kill-after needs --processes 2 or more (someone must take the tables over)")
    with tempfile.TemporaryDirectory() as folder:
        source = Path(args.source).resolve() if args.source else ROOT
        env = {**os.environ, "PYTHONPATH": str(source / "src")}
        database = f"sqlite:///{folder}/load.db"
        postgres = None
        if args.postgres:  # the tests' throwaway server (Debian's binaries; or $OAKWOOD_TEST_POSTGRES_URL)
            sys.path.insert(0, str(ROOT))
            from tests.store.postgres import start as start_postgres

            postgres = start_postgres()
            database = postgres.url
        redis: subprocess.Popen[bytes] | None = None
        url: str | None = None
        cluster: list[str] = []
        if args.processes > 1:
            redis, url = start_redis(folder)
            cluster = ["--redis", url, "--lease-seconds", args.lease_seconds]
            subprocess.run(  # the schema first: processes that find an empty database at once would race for it
                [sys.executable, "-c", f"from oakwood.store import open_store; open_store({database!r}).close()"],
                env=env,
                check=True,
            )
        servers: list[subprocess.Popen[bytes]] = []
        bases: list[str] = []
        try:
            for index in range(args.processes):
                # with several processes, one stats file each (FILE.1, FILE.2, ...)
                where = args.profile if args.processes == 1 else f"{args.profile}.{index + 1}"
                profiler = ["-m", "cProfile", "-o", where] if args.profile else []
                port = free_port()
                serve = ["-m", "oakwood.cli.main", "serve", "--port", str(port), "--bot-pace", args.bot_pace]
                if args.bot_processes is not None:
                    serve += ["--bot-processes", args.bot_processes]
                advertise = ["--advertise-url", f"http://127.0.0.1:{port}"] if args.advertise else []
                command = [sys.executable, *profiler, *serve, *cluster, *advertise, "--db", database]
                servers.append(subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL))
                bases.append(f"http://127.0.0.1:{port}")
            for base in bases:
                for _ in range(300):
                    try:
                        httpx.get(f"{base}/api/tables", timeout=1)
                        break
                    except httpx.HTTPError:
                        time.sleep(0.1)
            cpu_before, started = [cpu_seconds(s.pid) for s in servers], time.monotonic()
            own_before = cpu_seconds(os.getpid())
            postmaster = None
            if postgres is not None and postgres.directory is not None:  # a server these runs started
                postmaster = int((postgres.directory / "data" / "postmaster.pid").read_text().split()[0])
            postgres_before = tree_cpu_seconds(postmaster) if postmaster is not None else 0.0
            redis_before = cpu_seconds(redis.pid) if redis is not None else 0.0
            memories = [Memory(server.pid) for server in servers]
            for one in memories:
                one.__enter__()
            try:
                load, experts = asyncio.run(run(args, bases, servers, url))
            finally:
                for one in memories:
                    with contextlib.suppress(Exception):  # a killed process has no /proc entry any more
                        one.__exit__()
            elapsed = time.monotonic() - started
            # the load generator and Redis share the machine's cores with the servers: what they took
            own_cpu = cpu_seconds(os.getpid()) - own_before
            redis_cpu = cpu_seconds(redis.pid) - redis_before if redis is not None else 0.0
            postgres_cpu = tree_cpu_seconds(postmaster) - postgres_before if postmaster is not None else None
            # a killed process's CPU is gone with it: the sum is the survivors'
            cpu = sum(cpu_seconds(s.pid) - b for s, b in zip(servers, cpu_before, strict=True) if s.poll() is None)
            timed_cpu = None
            if load.cpu_at_count is not None and all(s.poll() is None for s in servers):
                timed_cpu = sum(cpu_seconds(s.pid) - b for s, b in zip(servers, load.cpu_at_count, strict=True))
        finally:
            for server in servers:
                if server.poll() is None:
                    server.send_signal(signal.SIGINT)  # a graceful stop (a profiled server writes its stats)
            for server in servers:
                try:
                    server.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    print(f"a server did not stop within 30 s of SIGINT: killed (pid {server.pid})", file=sys.stderr)
                    server.kill()
                    server.wait()
            if redis is not None:
                redis.kill()
                redis.wait()
            if postgres is not None:
                postgres.stop()
    memory = memories[-1]  # the last process (never killed) for the curve; the sum below
    moves = len(load.latencies)
    seats = f"seats {','.join(seats_of(args))}, bot pace {args.bot_pace} s, think {args.think} s"
    print(f"{args.tables} tables of {args.game} ({seats}), {elapsed:.0f} s")
    print(
        f"moves {moves} ({moves / elapsed:.0f}/s), messages received {load.messages} ({load.messages / elapsed:.0f}/s)"
    )
    errors = f"errors {len(load.errors)} {sorted(set(load.errors))}, moved (4010) {load.moved}"
    if args.advertise:
        errors += f", sent to the table's process {load.redirected}"
    print(f"games finished {load.games}, {errors}, stalled {len(load.stalls)}")
    for code, said in sorted(load.said.items()):
        print(f"  {code}: {said}")
    for stall in load.stalls[:10]:
        print(f"  stalled: {stall}")
    p50, p95, p99 = (percentile(load.latencies, q) for q in (0.5, 0.95, 0.99))
    print(f"move to update: p50 {p50:.1f} ms, p95 {p95:.1f} ms, p99 {p99:.1f} ms")
    if args.expert_tables:
        e50, e95 = (percentile(experts.latencies, q) for q in (0.5, 0.95))
        print(
            f"beside {args.expert_tables} tables of {args.expert_game} ({args.expert_seats}, bot processes "
            f"{args.bot_processes or 'default'}): {len(experts.latencies)} moves there, "
            f"{experts.games} games finished, their own move to update p50 {e50:.1f} ms, p95 {e95:.1f} ms"
        )
    if args.processes > 1:
        print(f"{args.processes} processes with --redis (lease {args.lease_seconds} s); clients at another process")
    if load.killed_at is not None:
        last = max(load.resumed, default=float("nan"))
        print(
            f"SIGKILL of process 1 after {args.kill_after:g} s: {len(load.resumed)} tables resumed elsewhere, "
            f"the last {last:.1f} s after the kill (median {statistics.median(load.resumed or [float('nan')]):.1f} s)"
        )
        if load.lapsed_after is not None:
            print(f"  its leases lapsed {load.lapsed_after:.2f} s after the kill (its last heartbeat + the lease)")
        for how in ("moved", "lost"):  # where the time went: the hang-up (the take-over) and the reconnection
            cuts = [(at, back) for kind, at, back in load.cuts if kind == how]
            if cuts:
                said = "closed with 4010 after the take-over" if how == "moved" else "at the killed process"
                print(
                    f"  {len(cuts)} {said}:"
                    f" cut {min(a for a, _ in cuts):.2f}–{max(a for a, _ in cuts):.2f} s after the kill, resumed "
                    f"{min(b for _, b in cuts):.2f}–{max(b for _, b in cuts):.2f} s"
                )
    print(f"server CPU {cpu:.1f} s over {elapsed:.0f} s ({100 * cpu / elapsed:.0f} % of one core)")
    if timed_cpu is not None and moves:
        window = elapsed - args.warmup
        print(
            f"server CPU while timed (after the warmup): {timed_cpu:.1f} s over {window:.0f} s, "
            f"{1000 * timed_cpu / moves:.2f} ms a timed move (bots' moves included)"
        )
    beside = f", Redis {redis_cpu:.1f} s ({100 * redis_cpu / elapsed:.0f} %)" if args.processes > 1 else ""
    if postgres_cpu is not None:
        beside += f", PostgreSQL {postgres_cpu:.1f} s ({100 * postgres_cpu / elapsed:.0f} %)"
    print(f"load generator CPU {own_cpu:.1f} s ({100 * own_cpu / elapsed:.0f} % of one core){beside}")
    grown = memory.last - memory.idle
    print(
        f"server RSS: idle {memory.idle:.0f} MB, peak {memory.peak:.0f} MB, end {memory.last:.0f} MB "
        f"({grown:+.0f} MB, {grown / args.tables:.2f} MB a concurrent table; "
        f"{args.tables} at once, {load.created} created, {load.games} finished)"
    )
    if len(memories) > 1:
        print("RSS per process (end): " + ", ".join(f"{one.last:.0f} MB" for one in memories))
    step = max(1, len(memory.samples) // 8)  # about eight points of the curve: still growing, or level?
    print("RSS over time: " + ", ".join(f"{t:.0f} s {mb:.0f} MB" for t, mb in memory.samples[::step]))


if __name__ == "__main__":
    main()
