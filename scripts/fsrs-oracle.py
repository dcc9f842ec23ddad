#!/usr/bin/env python3
"""Generate Anki's FSRS memory states as a test oracle for the Swift FSRS module.

Usage (from the package root; needs the PyPI package `anki`, nothing else):

    python3 scripts/fsrs-oracle.py [--seed 20250611] [--count 300] [--output PATH]
    python3 scripts/fsrs-oracle.py --day-rule [--seed 20261127] [--count 200] [--output PATH]

It builds random review histories from a fixed seed, writes them into a throw-away Anki
collection as cards plus revlog rows (deck preset with the default FSRS-6 parameters), asks
Anki's Rust backend for each card's memory state (`Collection.compute_memory_state`) and writes
Tests/Domains/FSRSTests/Fixtures/anki-memory-states.json. Same seed + same Anki version => same file.

How Anki turns a revlog into an FSRS history (rslib `scheduler/fsrs/params.rs`,
`reviews_for_fsrs`; `memory_state.rs`), and how this script respects it:
  * The history starts at the first entry of the last contiguous run of Learning-type
    (type 0) entries; anything earlier is dropped. If there is no Learning entry at all, Anki
    seeds the first state from the SM-2 ease/interval instead of w0..w3 -- so every history
    here starts with type 0 rows, and only the leading same-day rows are type 0.
  * Rows with ease 0 (manual/reset/rescheduled) and cram rows (type 3, factor 0) are dropped;
    none are written here.
  * delta_t between rows is in whole days: floor((next_day_at - revlog_secs) / 86400) of the
    earlier row minus that of the later row, next_day_at being the collection's next 4 am
    rollover. Rows are placed at next_day_at - (days_ago + 1) days + 1 h + i minutes, so
    delta_t equals the generated elapsed days exactly, whatever the time zone.
  * delta_t == 0 (same day) uses fsrs-rs's short-term formula for every rating, Again
    included; the first row gives S0 = w[G-1], D0 clamped to [1, 10].

With --day-rule the histories are review *times* instead of whole days: reviews at any hour,
gaps of a few hours to weeks, many of them across a day's start, in a collection whose day
starts at 4 am in Asia/Ho_Chi_Minh (TZ is set for Anki's backend; the zone has had no daylight
saving since 1975, so Anki's fixed 86,400-second days from its next cutoff are calendar days).
Anki then counts the elapsed days itself, by its own rule, and the fixture
(Tests/Domains/FSRSTests/Fixtures/anki-day-rule.json) holds the times and Anki's memory state.
The product's LocalDays must give the same elapsed days, hence the same states.
"""

import argparse
import json
import os
import random
import sys
import tempfile
import time

DAY_RULE_ZONE, DAY_RULE_HOUR = "Asia/Ho_Chi_Minh", 4
# The day-rule histories end before this moment (2026-09-21), whenever the script runs, so the
# same seed gives the same file; Anki counts days from its next cutoff, any later one will do.
DAY_RULE_END = 1_790_000_000
if "--day-rule" in sys.argv:
    # Before Anki loads: its backend reads the local zone when it computes the day's cutoff.
    os.environ["TZ"] = DAY_RULE_ZONE
    time.tzset()

from anki.collection import Collection
import anki.buildinfo

DEFAULT_WEIGHTS = [
    0.212, 1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722, 0.1666,
    0.796, 1.4835, 0.0614, 0.2629, 1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658,
    0.1542,
]
DAY = 86400
# Keeps every revlog timestamp after 1970 (ids are epoch milliseconds).
MAX_SPAN_DAYS = 18000

REVLOG_LEARN, REVLOG_REVIEW, REVLOG_RELEARN = 0, 1, 2


def fixed_histories():
    """Hand-picked edge cases, kept first so failures are easy to read."""
    cases = [
        # Published fsrs-rs vector: S 53.62691, D 6.3574867.
        ([1, 3, 3, 3, 3, 3], [0, 0, 1, 3, 8, 21]),
        ([1], [0]), ([2], [0]), ([3], [0]), ([4], [0]),
        # Same-day Again until stability reaches its 0.001 floor.
        ([1] * 30, [0] * 30),
        # Same-day passes: the short-term factor is floored at 1 for ratings >= 2.
        ([3] * 12, [0] * 12),
        ([4] * 12, [0] * 12),
        ([2] * 12, [0] * 12),
        # Long Easy chain with long gaps: stability toward its 36500 ceiling, D to 1.
        ([4] * 10, [0, 30, 200, 900, 2500, 4000, 4000, 3000, 2000, 1000]),
        # Lapses every time: difficulty toward 10.
        ([1] * 15, [0] + [1] * 14),
        # Lapse then same-day relearning steps, like Anki's relearning.
        ([3, 3, 3, 1, 3, 3, 3], [0, 0, 2, 10, 0, 0, 5]),
    ]
    return [{"ratings": r, "elapsedDays": e} for r, e in cases]


def random_history(rng):
    length = rng.choice([rng.randint(1, 6), rng.randint(2, 15), rng.randint(10, 30)])
    p_again = rng.choice([0.05, 0.15, 0.3])
    p_hard = rng.choice([0.05, 0.15])
    p_easy = rng.choice([0.05, 0.15, 0.3])
    p_same_day = rng.choice([0.0, 0.2, 0.4])
    ratings, elapsed = [], []
    total = 0
    for i in range(length):
        u = rng.random()
        if u < p_again:
            rating = 1
        elif u < p_again + p_hard:
            rating = 2
        elif u < p_again + p_hard + p_easy:
            rating = 4
        else:
            rating = 3
        if i == 0:
            days = 0
        elif rng.random() < p_same_day:
            days = 0
        else:
            days = rng.choice([
                rng.randint(1, 3), rng.randint(1, 10), rng.randint(5, 40),
                rng.randint(20, 200), rng.randint(100, 1500),
            ])
        days = min(days, MAX_SPAN_DAYS - total)
        total += days
        ratings.append(rating)
        elapsed.append(days)
    return {"ratings": ratings, "elapsedDays": elapsed}


def revlog_rows(history, card_index, next_day_at):
    """(id, type, ease, ivl) rows for one history; see the module docstring for the layout."""
    ratings, elapsed = history["ratings"], history["elapsedDays"]
    day_of = []
    day = 0
    for d in elapsed:
        day += d
        day_of.append(day)
    last_day = day_of[-1]
    rows = []
    learning = True
    for i, (rating, d) in enumerate(zip(ratings, day_of)):
        if i > 0 and elapsed[i] > 0:
            learning = False
        if learning:
            kind = REVLOG_LEARN
        elif i > 0 and ratings[i - 1] == 1 and elapsed[i] == 0:
            kind = REVLOG_RELEARN
        else:
            kind = REVLOG_REVIEW
        days_ago = last_day - d
        secs = next_day_at - (days_ago + 1) * DAY + 3600 + i * 60
        # +card_index ms keeps ids unique across cards reviewed at the same second.
        rows.append((secs * 1000 + card_index, kind, rating))
    return rows


def timed_history(rng, end):
    """Ratings at epoch seconds ending before `end`: gaps of hours (around a day's start) to weeks."""
    length = rng.randint(2, 12)
    gaps = [0]
    for _ in range(length - 1):
        gaps.append(rng.choice([
            rng.uniform(0.05, 6), rng.uniform(2, 30), rng.uniform(20, 80),
            rng.uniform(1, 12) * 24 + rng.uniform(0, 24), rng.uniform(10, 60) * 24,
        ]) * 3600)
    start = end - sum(gaps) - rng.uniform(0, 90) * 86400
    times, t = [], start
    for gap in gaps:
        t += gap
        times.append(int(t))
    ratings = [rng.choices([1, 2, 3, 4], weights=[15, 10, 60, 15])[0] for _ in times]
    return {"ratings": ratings, "times": times}


def timed_revlog_rows(history, card_index, next_day_at):
    """Leading rows on the first review's Anki day are Learning rows, the rest Review rows
    (Relearning after a same-day Again), as Anki writes them."""
    day = lambda t: -((next_day_at - t) // DAY)  # Anki's day number relative to its next cutoff
    rows, learning = [], True
    first_day = day(history["times"][0])
    for i, (t, rating) in enumerate(zip(history["times"], history["ratings"])):
        if day(t) != first_day:
            learning = False
        if learning:
            kind = REVLOG_LEARN
        elif history["ratings"][i - 1] == 1 and day(t) == day(history["times"][i - 1]):
            kind = REVLOG_RELEARN
        else:
            kind = REVLOG_REVIEW
        rows.append((t * 1000 + card_index, kind, rating))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--day-rule", action="store_true", help="histories of review times, Anki counting the days")
    parser.add_argument("--seed", type=int)
    parser.add_argument("--count", type=int, help="random histories (plus fixed cases without --day-rule)")
    parser.add_argument("--output")
    args = parser.parse_args()
    fixtures = os.path.join(here, "..", "Tests", "Domains", "FSRSTests", "Fixtures")
    default_seed, default_count = (20261127, 200) if args.day_rule else (20250611, 300)
    args.seed = default_seed if args.seed is None else args.seed
    args.count = default_count if args.count is None else args.count
    args.output = args.output or os.path.join(fixtures, "anki-day-rule.json" if args.day_rule else "anki-memory-states.json")

    rng = random.Random(args.seed)
    if args.day_rule:
        histories = []
    else:
        histories = fixed_histories() + [random_history(rng) for _ in range(args.count)]
    if len(histories) >= 1000:
        sys.exit("at most 999 histories: the card index is folded into revlog ids as milliseconds")

    with tempfile.TemporaryDirectory() as tmp:
        col = Collection(os.path.join(tmp, "oracle.anki2"))
        try:
            conf = col.decks.config_dict_for_deck_id(1)
            conf["fsrsParams6"] = DEFAULT_WEIGHTS
            col.decks.update_config(conf)
            weights_used = col.decks.config_dict_for_deck_id(1)["fsrsParams6"]
            if len(weights_used) != 21:
                sys.exit(f"Anki did not keep the FSRS-6 parameters: {weights_used!r}")

            if args.day_rule:
                col.set_config("rollover", DAY_RULE_HOUR)
            next_day_at = col.sched.day_cutoff
            if args.day_rule:
                if next_day_at <= DAY_RULE_END:
                    sys.exit("the machine's clock is before the day-rule histories' end")
                histories = [timed_history(rng, DAY_RULE_END) for _ in range(args.count)]
            model = col.models.by_name("Basic")
            card_ids = []
            for index, history in enumerate(histories):
                note = col.new_note(model)
                note["Front"] = f"oracle {index}"
                note["Back"] = " ".join(map(str, history["ratings"]))
                col.add_note(note, 1)
                cid = note.card_ids()[0]
                card_ids.append(cid)
                rows = (timed_revlog_rows if args.day_rule else revlog_rows)(history, index, next_day_at)
                for rid, kind, ease in rows:
                    col.db.execute(
                        "insert into revlog (id, cid, usn, ease, ivl, lastIvl, factor, time, type)"
                        " values (?, ?, -1, ?, ?, 0, 2500, 5000, ?)",
                        rid, cid, ease, -600 if kind != REVLOG_REVIEW else 1, kind,
                    )
                # A graduated card, so nothing about the card row itself hints "new".
                col.db.execute(
                    "update cards set type = 2, queue = 2, ivl = 1, due = 0, reps = ?, lapses = 0"
                    " where id = ?",
                    len(history["ratings"]), cid,
                )

            for history, cid in zip(histories, card_ids):
                state = col.compute_memory_state(cid)
                if state.stability is None or state.difficulty is None:
                    sys.exit(f"Anki returned no memory state for {history!r}")
                history["stability"] = state.stability
                history["difficulty"] = state.difficulty
                decay = state.decay
        finally:
            col.close()

    if args.day_rule:
        description = (f"FSRS memory states computed by Anki's Rust backend for reviews at the times below"
                       f" (epoch seconds), Anki counting the days itself: a day starts at {DAY_RULE_HOUR} am"
                       f" in {DAY_RULE_ZONE}.")
    else:
        description = ("FSRS memory states computed by Anki's Rust backend (fsrs-rs) for the review"
                       " histories below; elapsedDays[i] is whole days since review i-1 (elapsedDays[0] = 0).")
    fixture = {
        "description": description,
        "regenerate": "python3 scripts/fsrs-oracle.py"
        + (" --day-rule" if args.day_rule else "")
        + (f" --seed {args.seed}" if args.seed != default_seed else "")
        + (f" --count {args.count}" if args.count != default_count else ""),
        "ankiVersion": anki.buildinfo.version,
        **({"timeZone": DAY_RULE_ZONE, "dayStartsAt": DAY_RULE_HOUR} if args.day_rule else {}),
        "seed": args.seed,
        "weights": weights_used,
        "decay": decay,
        "histories": histories,
    }
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    with open(args.output, "w", encoding="utf-8") as out:
        # One history per line: small, and diffs stay readable when Anki changes.
        out.write("{\n")
        keys = [k for k in fixture if k != "histories"]
        for key in keys:
            out.write(f"  {json.dumps(key)}: {json.dumps(fixture[key])},\n")
        out.write('  "histories": [\n')
        for i, history in enumerate(histories):
            sep = "," if i + 1 < len(histories) else ""
            out.write(f"    {json.dumps(history)}{sep}\n")
        out.write("  ]\n}\n")
    print(f"wrote {len(histories)} histories (anki {anki.buildinfo.version}) to {os.path.relpath(args.output)}")


if __name__ == "__main__":
    main()
