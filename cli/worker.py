"""`chronicle worker`: an RQ worker on the configured Redis."""

from __future__ import annotations

import argparse
import os

from service.config import Settings


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("worker", help="run an RQ worker for background jobs")
    parser.add_argument("--redis-url", help="Redis to work on (default: $REDIS_URL)")
    parser.add_argument("--queue", help="queue name (default: $CHRONICLE_QUEUE or chronicle)")
    parser.add_argument("--burst", action="store_true", help="stop when the queue is empty")
    parser.add_argument(
        "--sweep-every",
        type=float,
        default=float(os.environ.get("CHRONICLE_SWEEP_EVERY_S", "30")),
        help="seconds between sweeps that re-queue games stuck closing (0: no sweeper)",
    )
    parser.add_argument(
        "--fork-per-job",
        action="store_true",
        help="run each job in a forked child (RQ's default; slower: no warm game cache)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    url = args.redis_url or settings.redis_url
    if not url:
        print("chronicle worker: set REDIS_URL or pass --redis-url")
        return 2
    os.environ["REDIS_URL"] = url
    from service.rulesets import load_all_and_settle
    from workers.queue import queue, urgent_queue
    from workers.schedulers import ForkingWorker, InProcessWorker
    from workers.scheduling import start_sweeper, start_table_watch

    q = queue(url, args.queue or settings.queue)
    os.environ["CHRONICLE_QUEUE"] = q.name  # the queue this worker's own jobs hand work to
    if args.sweep_every > 0 and not args.burst:
        start_sweeper(url, q.name, args.sweep_every)
    tick = float(os.environ.get("CHRONICLE_TABLE_WATCH_S", "1"))
    if tick > 0 and not args.burst:
        start_table_watch(tick)
    # Jobs are short (an epoch close, a snapshot) and safe to run twice: run them in this
    # process, whose game cache stays warm, instead of forking a child for each.
    load_all_and_settle()
    kind = ForkingWorker if args.fork_per_job else InProcessWorker
    worker = kind([urgent_queue(url, q.name), q], connection=q.connection)
    keeper = None
    if not args.burst:
        from workers.schedulers import free_dead_locks, keep_a_scheduler

        free_dead_locks(q.connection, [queue.name for queue in worker.queues])
        keeper = keep_a_scheduler(worker)
    try:
        worker.work(burst=args.burst, with_scheduler=True)
    finally:
        if keeper is not None:
            keeper.stop()
    return 0
