"""The delivery worker of ``larp serve`` (issue 35): sends the outbox's events after their commit.

One dispatcher thread does all the database work with one connection: it claims each webhook's
oldest due delivery (:func:`larp.webhooks.outbox.claim_jobs`), hands the HTTP exchange to a small
pool of sending threads (``WEBHOOK_THREADS``, which touch no database), and writes each answer's
meaning when it comes back (:func:`larp.webhooks.outbox.finish`). A webhook with a delivery in
flight is not claimed again by this process, and no other process can claim it while the lease
holds, so each webhook gets one delivery at a time, in order; a slow or failing webhook occupies
one sending thread and delays only itself.

It wakes when an event is committed in this process (:func:`larp.webhooks.outbox.wake_workers`),
when an answer comes back, and every ``WEBHOOK_POLL_SECONDS`` (other processes' events, retries
coming due). Nothing it does ever waits on or for a narrator's request. Logged lines name the
webhook and the event, never the URL.
"""

from __future__ import annotations

import logging
import os
import queue
import socket
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import Any, Callable

from larp.db import db
from larp.models import utcnow
from larp.webhooks import outbox
from larp.webhooks.messages import DELIVERED, classify
from larp.webhooks.outbox import Job, Policy
from larp.webhooks.sending import Answer, post

log = logging.getLogger("larp.webhooks")

#: How often delivered events older than a week are purged (seconds).
PURGE_EVERY = 3600.0


def worker_name() -> str:
    """A name for this process's worker, unique among processes sharing a database (host, pid, random)."""
    return f"{socket.gethostname()[:30]}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class DeliveryWorker:
    """Sends the outbox's deliveries in the background (see the module docstring).

    Args:
        config: the app's configuration (``WEBHOOK_*``; :meth:`larp.webhooks.outbox.Policy.from_config`).
        now: the clock (naive UTC; tests pass their own).
        poster: the sending function (:func:`larp.webhooks.sending.post`; tests may wrap it).
    """

    def __init__(self, config: Any, *, now: Callable[[], datetime] = utcnow, poster: Callable[..., Answer] = post):
        policy = Policy.from_config(config)
        # A claim must outlast the longest exchange (twice the timeout) and the writing of its answer,
        # or a slow answer would be sent twice.
        self.policy = Policy(**{**policy.__dict__, "lease": max(policy.lease, 3 * policy.timeout)})
        self.threads = max(1, int(config.get("WEBHOOK_THREADS", 4)))
        self.poll = float(config.get("WEBHOOK_POLL_SECONDS", 2.0))
        self.name = worker_name()
        self.now = now
        self.poster = poster
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._answers: queue.Queue[tuple[Job, Answer]] = queue.Queue()
        self._in_flight: set[int] = set()
        self._pool: ThreadPoolExecutor | None = None
        self._thread: threading.Thread | None = None
        self._last_purge = 0.0

    def send(self, job: Job) -> Answer:
        """One HTTP exchange for ``job`` (no database)."""
        return self.poster(job.url, job.body, job.headers, local_network=job.local_network,
                           timeout=self.policy.timeout, max_answer=self.policy.max_answer)

    def record(self, job: Job, answer: Answer) -> str:
        """Write what ``answer`` means for ``job`` (the caller holds a connection); returns the delivery's state."""
        outcome = classify(answer)
        state = outbox.finish(job, outcome, answer.status, self.name, self.now(), self.policy)
        if outcome.state != DELIVERED:
            log.warning("webhook %r (#%d): event %s %s: %s", job.webhook_name, job.webhook_id, job.event_id,
                        "will be tried again" if state == outbox.PENDING else state, outcome.error)
        return state

    def run_once(self) -> int:
        """Claim what is due, send it in this thread, and record the answers; returns how many were sent.
        For tests and tools (the running worker does the same with its sending threads)."""
        jobs = outbox.claim_jobs(self.name, self.now(), self.policy, limit=self.threads)
        for job in jobs:
            self.record(job, self.send(job))
        return len(jobs)

    def start(self) -> None:
        """Start the dispatcher thread and the sending threads (daemons: they end with the process)."""
        self._pool = ThreadPoolExecutor(max_workers=self.threads, thread_name_prefix="larp-webhook-send")
        outbox.register_waker(self._wake)
        self._thread = threading.Thread(target=self._loop, name="larp-webhooks", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the threads (a delivery in flight is finished or, if its process ends first, taken over
        by another worker after its lease)."""
        self._stop.set()
        self._wake.set()
        outbox.unregister_waker(self._wake)
        if self._thread is not None:
            self._thread.join(timeout)
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)

    def _sent(self, job: Job, future) -> None:
        try:
            answer = future.result()
        except Exception as exc:  # noqa: BLE001 - the sending function said nothing: treated as no answer
            answer = Answer(None, error=f"Sending failed ({type(exc).__name__}).")
        self._answers.put((job, answer))
        self._wake.set()

    def _step(self) -> None:
        with db.connection_context():
            while True:
                try:
                    job, answer = self._answers.get_nowait()
                except queue.Empty:
                    break
                try:
                    self.record(job, answer)
                except Exception:
                    self._answers.put((job, answer))  # the database is busy: written at the next step
                    raise
                self._in_flight.discard(job.webhook_id)
            if time.monotonic() - self._last_purge > PURGE_EVERY:
                self._last_purge = time.monotonic()
                outbox.purge(self.now())
            room = self.threads - len(self._in_flight)
            if room <= 0:
                return
            for job in outbox.claim_jobs(self.name, self.now(), self.policy, skip=self._in_flight, limit=room):
                self._in_flight.add(job.webhook_id)
                assert self._pool is not None
                future = self._pool.submit(self.send, job)
                future.add_done_callback(lambda f, job=job: self._sent(job, f))

    def _loop(self) -> None:
        while not self._stop.is_set():
            self._wake.clear()
            try:
                self._step()
            except Exception as exc:  # noqa: BLE001 - a busy or unreachable database: try again at the next poll
                log.warning("webhook worker: %s: %s", type(exc).__name__, str(exc)[:200])
            self._wake.wait(self.poll)


def start_worker(app: Any) -> DeliveryWorker | None:
    """Start the delivery worker for ``app`` (``larp serve``) unless ``WEBHOOK_WORKER`` is false;
    the worker is kept in ``app.extensions["larp.webhooks"]``."""
    if not app.config.get("WEBHOOK_WORKER", True):
        return None
    worker = DeliveryWorker(app.config)
    worker.start()
    app.extensions["larp.webhooks"] = worker
    return worker
