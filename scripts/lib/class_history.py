"""A year of a class's practice, for benchmarks: review rows as vocab writes them (the card JSON
of LearnerCoding.cardJSON, Again for about one answer in six, a few words said well), spread over
the days of a school year, for the children already in the database, on either engine.

The rows are written as a file of the previous schema version would hold them, without the
running totals; vocab counts the totals when it next opens the database (user.sqlite step 6,
PostgreSQL learners step 4), the upgrade every install made before takes. So the totals a
benchmark reads are the ones vocab's own code counted.

    statements = year_of_reviews(items_by_child, reviews=100_000, now=time.time())
"""
import random

CARD = '{{"due":{due},"lapses":{lapses},"phase":"{phase}","reps":{reps},"scheduledDays":{days}}}'


def year_of_reviews(items_by_child, reviews, now, seed=1):
    """SQL statements (one transaction's worth, as text both engines run) adding `reviews` rows
    shared out among the children: {learner id: [item ids]}."""
    rng = random.Random(seed)
    children = sorted(items_by_child)
    per_child = reviews // len(children)
    extra = reviews - per_child * len(children)
    rows = []
    for n, child in enumerate(children):
        items = items_by_child[child]
        count = per_child + (1 if n < extra else 0)
        # About five school days in seven, at an hour after school (UTC+7, as in Hanoi).
        days = [d for d in range(365, 0, -1) if rng.random() < 0.7]
        seen = {}
        for i in range(count):
            day = days[i * len(days) // count]
            at = now - day * 86_400 + 9 * 3600 + (i % 40) * 20 + rng.random()
            item = rng.choice(items)
            reps = seen.get(item, 0)
            phase = "new" if reps == 0 else "learning" if reps == 1 else "review"
            rating = rng.choices([1, 2, 3, 4], weights=[16, 10, 64, 10])[0]
            seen[item] = reps + 1
            before = CARD.format(due=at, lapses=0, phase=phase, reps=reps, days=max(0, reps - 1))
            after = CARD.format(due=at + 86_400 * (reps + 1), lapses=0, phase="review", reps=reps + 1, days=reps + 1)
            client = f"'said-{child}-{i}'" if rng.random() < 0.03 else "NULL"
            rows.append(f"({child}, {item}, {at:.3f}, {rating}, {min(day, 30)}, '{before}', '{after}', {client})")
    statements = []
    for start in range(0, len(rows), 1000):
        statements.append("INSERT INTO reviews(learner_id, item_id, reviewed_at, rating, elapsed_days, before, after, client_id) VALUES\n"
                          + ",\n".join(rows[start:start + 1000]) + ";")
    return statements


# What a database of the version before the running totals holds: no totals tables, and the
# version that says they are still to be counted.
BEFORE_TOTALS = {
    "sqlite": ["DROP TABLE review_slots;", "DROP TABLE review_items;", "PRAGMA user_version = 5;"],
    "postgres": ["DROP TABLE review_slots, review_items;",
                 "DELETE FROM schema_migrations WHERE component = 'learners' AND version = 4;"],
}

CHILD_ITEMS = "SELECT i.learner_id, i.id FROM items i JOIN learners l ON l.id = i.learner_id WHERE l.name LIKE '#%' ORDER BY i.id;"
