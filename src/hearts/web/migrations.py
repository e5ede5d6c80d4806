"""The schema's versions, applied in place with yoyo-migrations (the steps are the SQL files in
`hearts/web/schema/`, one per version, each naming the one it follows).

Both stores run `upgrade` when they open: steps not yet applied to that database are applied
in order, each in its own transaction, and recorded in yoyo's own table. yoyo takes a lock in
the database while it works, so several processes starting at once apply each step once.
A database made before migrations (today's SQLite files) takes the first step unchanged,
since it creates only what is missing, and keeps every game.
"""

from __future__ import annotations

from pathlib import Path

SCHEMA = Path(__file__).parent / "schema"


def yoyo_uri(target: str | Path) -> str:
    """yoyo's name for a store: a SQLite file path, or a postgresql:// URL (psycopg 3)."""
    if isinstance(target, Path):
        return f"sqlite:///{target}"
    for prefix in ("postgresql://", "postgres://"):
        if target.startswith(prefix):
            return "postgresql+psycopg://" + target[len(prefix) :]
    return target


def upgrade(target: str | Path) -> list[str]:
    """Apply the steps `target` lacks; the ids of those applied."""
    from yoyo import get_backend, read_migrations

    backend = get_backend(yoyo_uri(target))
    try:
        migrations = read_migrations(str(SCHEMA))
        with backend.lock():
            pending = backend.to_apply(migrations)
            backend.apply_migrations(pending)
        return [migration.id for migration in pending]
    finally:
        connection = getattr(backend, "_connection", None)
        if connection is not None:
            connection.close()


def applied(target: str | Path) -> list[str]:
    """The ids of the steps `target` has, in order."""
    from yoyo import get_backend, read_migrations

    backend = get_backend(yoyo_uri(target))
    try:
        migrations = read_migrations(str(SCHEMA))
        return [
            m.id for m in migrations if m.id not in {p.id for p in backend.to_apply(migrations)}
        ]
    finally:
        connection = getattr(backend, "_connection", None)
        if connection is not None:
            connection.close()
