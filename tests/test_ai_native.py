"""The compiled search modules (`hearts.ai.native`): the same results as their source, card
for card, and never an out-of-date build.

The comparisons need the compiled modules, which `make` builds; where they could not be
built (no C compiler) they are skipped, except in CI (HEARTS_REQUIRE_NATIVE=1), where a
missing build fails."""

from __future__ import annotations

import dataclasses
import doctest
import importlib.util
import itertools
import json
import os
import random
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from hearts import Round
from hearts.ai import native, passing, racing, rollout, sampling
from hearts.ai.search import _position
from hearts.ai.tracking import Knowledge, fold, queen_shy
from test_ai_search import RULES, rounds_in_play

COMPILED = {"rollout": rollout, "sampling": sampling, "racing": racing, "passing": passing}


def source_of(name: str) -> ModuleType:
    """The module run from its source, under another name (its relative imports work)."""
    spec = importlib.util.spec_from_file_location(
        f"hearts.ai._source_{name}", native.HERE / f"{name}.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def sources() -> dict[str, ModuleType]:
    if not all(native.compiled(module) for module in COMPILED.values()):
        if os.environ.get("HEARTS_REQUIRE_NATIVE") == "1":
            pytest.fail("the search modules are not compiled (scripts/build_native.py)")
        pytest.skip("the search modules are not compiled here: nothing to compare")
    return {name: source_of(name) for name in COMPILED}


@pytest.mark.parametrize("name", sorted(COMPILED))
def test_the_compiled_modules_doctests_pass_on_their_source(name: str) -> None:
    # Collection skips these modules (conftest.py): importing one finds its compiled copy.
    result = doctest.testmod(source_of(name))
    assert result.failed == 0
    if name == "sampling":
        assert result.attempted > 0


def test_the_modules_the_search_uses_are_the_compiled_ones_when_built() -> None:
    wanted = os.environ.get("HEARTS_NATIVE") != "0"
    for name, module in COMPILED.items():
        assert native.compiled(module) == (wanted and native.is_current(name)), name
    if os.environ.get("HEARTS_REQUIRE_NATIVE") == "1":
        assert all(native.compiled(module) for module in COMPILED.values())


def as_source(pos: Any, source: ModuleType) -> Any:
    fields = {f.name: getattr(pos, f.name) for f in dataclasses.fields(source.Position)}
    return source.Position(**{k: v.copy() if isinstance(v, list) else v for k, v in fields.items()})


def known_start(rnd: Any) -> Any:
    """The search's position for the seat to play, with every hand (and a kitty) known."""
    view = rnd.view(rnd.turn)
    rules = view.rules
    start = _position(view, Knowledge.from_view(view))
    start.hands = [rnd.hand_mask(s) for s in range(rules.players)]
    start.kitty = rnd.kitty if rules.kitty and rnd.kitty_taker is None else 0
    return start


@pytest.mark.parametrize("rules", RULES, ids=lambda r: str(r.players))
def test_compiled_playouts_play_the_sources_cards(
    rules: Any, sources: dict[str, ModuleType]
) -> None:
    source = sources["rollout"]
    rng = random.Random(12)
    played = 0
    for seed in range(3):
        for rnd in rounds_in_play(rules, seed):
            start = known_start(rnd)
            for shooter in (-1, rnd.turn, (rnd.turn + 1) % rules.players):
                numbers = rollout.draw_numbers(rng, rollout.numbers_needed(start))
                noise = rng.choice([0.0, rollout.NOISE, 0.5])
                policies = ("medium", "fitted", "learned", "valued")
                for scored_only, policy in itertools.product((False, True), policies):
                    ours: list[int] = []
                    theirs: list[int] = []
                    table, source_table = rollout.Table.of(rules), source.Table.of(rules)
                    if policy == "fitted":  # the lead fitted to the search's (`fitted_leads`)
                        table, source_table = (
                            table.with_fitted_leads(),
                            source_table.with_fitted_leads(),
                        )
                    elif policy == "learned":  # the learned policy (`with_learned_policy`)
                        table, source_table = (
                            table.with_learned_policy(),
                            source_table.with_learned_policy(),
                        )
                    elif policy == "valued":  # fitted to the values (a second weights file)
                        name = rollout.VALUED_WEIGHTS_FILE.name
                        table, source_table = (
                            table.with_learned_policy(name),
                            source_table.with_learned_policy(name),
                        )
                    a = rollout.play_numbers(
                        table, start.copy(), numbers, shooter, noise, rnd.turn, ours, scored_only
                    )
                    b = source.play_numbers(
                        source_table, as_source(start, source), numbers, shooter, noise,
                        rnd.turn, theirs, scored_only,
                    )  # fmt: skip
                    assert ours == theirs
                    assert dataclasses.astuple(a) == dataclasses.astuple(b)
                    played += 1
    assert played > 50


@pytest.mark.parametrize("rules", RULES, ids=lambda r: str(r.players))
def test_compiled_candidates_score_as_the_source_scores_them(
    rules: Any, sources: dict[str, ModuleType]
) -> None:
    """`play_candidates` and its `Scorer` (moons, the game's end, a style) alike."""
    source = sources["rollout"]
    rng = random.Random(14)
    for seed in range(2):
        for rnd in rounds_in_play(rules, seed):
            view = rnd.view(rnd.turn)
            start = known_start(rnd)
            legal = [f for f in range(52) if view.legal_mask >> f & 1]
            candidates = [(face, plan) for face in legal for plan in (-1, rnd.turn)]
            totals = tuple(rng.choice([0, 40, 90, 99]) for _ in range(rules.players))
            taste = (rng.choice([0.0, 5.0, -1.5]), rng.choice([0.0, 2.0, -2.0]))
            numbers_seed = rng.getrandbits(32)
            values = []
            for module in (rollout, source):
                table = module.Table.of(rules)
                scorer = module.Scorer(table, totals, rnd.turn, *taste)
                numbers = module.SharedNumbers(random.Random(numbers_seed), 20)
                begin = start if module is rollout else as_source(start, source)
                values.append(
                    module.play_candidates(
                        table, begin, rnd.turn, candidates, numbers, 0.06, scorer
                    )
                )
            assert values[0] == values[1]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: str(r.players))
def test_the_compiled_sampler_deals_the_sources_deals(
    rules: Any, sources: dict[str, ModuleType]
) -> None:
    source = sources["sampling"]
    for seed in range(2):
        for rnd in rounds_in_play(rules, seed):
            view = rnd.view(rnd.turn)
            know = Knowledge.from_view(view)
            kitty = view.kitty_size if rules.kitty and view.kitty_taker is None else 0
            shy = queen_shy(view)
            ours = sampling.Sampler(know, view.hand_sizes, kitty, shy)
            theirs = source.Sampler(know, view.hand_sizes, kitty, shy)
            rng_ours, rng_theirs = random.Random(seed), random.Random(seed)
            for _ in range(25):
                assert ours.sample(rng_ours) == theirs.sample(rng_theirs)
            assert rng_ours.random() == rng_theirs.random()


def test_the_compiled_race_drops_what_the_source_drops(sources: dict[str, ModuleType]) -> None:
    source = sources["racing"]
    rng = random.Random(13)
    for _ in range(300):
        count = rng.randint(2, 60)
        rows = [[rng.gauss(0, 4) + rng.choice([0, 0.5, 3]) for _ in range(count)] for _ in "abcd"]
        z, prior = rng.choice([1.0, 2.5]), rng.choice([(0.0, 0.0), (8.0, 3.0)])
        ours = [racing.Arm(-1, face, list(v)) for face, v in enumerate(rows)]
        theirs = [source.Arm(-1, face, list(v)) for face, v in enumerate(rows)]
        racing.race(ours, z, prior=prior)
        source.race(theirs, z, prior=prior)
        assert [a.active for a in ours] == [a.active for a in theirs]
        assert racing.clearly_better(ours[0], ours[1], 0.5, z) == source.clearly_better(
            theirs[0], theirs[1], 0.5, z
        )


def test_the_compiled_pass_is_the_sources(sources: dict[str, ModuleType]) -> None:
    """Medium's pass (`pass_faces`, its `pass_danger`) and the searched pass's results."""
    source = sources["passing"]
    rng = random.Random(15)
    deck = list(range(52))
    for _ in range(300):
        hand = sum(1 << f for f in rng.sample(deck, rng.choice([10, 13, 17])))
        direction = rng.choice(["left", "right", "across", "scatter"])
        count = rng.choice([2, 3, 4])
        assert passing.pass_faces(hand, direction, count) == source.pass_faces(
            hand, direction, count
        )
        face = rng.choice([f for f in deck if hand >> f & 1])
        assert passing.pass_danger(hand, face, direction) == source.pass_danger(
            hand, face, direction
        )
    searched = 0
    for rules in RULES:
        for seed in range(3):
            rnd = Round.deal(rules, seed=seed, hand_number=seed)
            view = rnd.view(0)
            if rnd.phase != "passing" or not passing.can_search_pass(view):
                continue
            hand = fold(view.hand_mask)
            candidates = passing.pass_candidates(
                hand, view.pass_direction, view.cards_to_pass, None
            )
            assert candidates == source.pass_candidates(
                hand, view.pass_direction, view.cards_to_pass, None
            )
            results = []
            for module in (passing, source):
                arms = module.evaluate_passes(
                    view, candidates, random.Random(seed), 200, 10, 2.0, None,
                    lambda pos: float(pos.points[0] + 0.5 * pos.points[1]),
                )  # fmt: skip
                results.append([(a.face, a.active, a.values) for a in arms])
            assert results[0] == results[1]
            searched += 1
    assert searched >= 3


def test_a_build_older_than_its_source_is_never_used(tmp_path: Path) -> None:
    """`is_current` holds a build to the source hash it recorded; `use_current` loads the
    source of any module whose build does not match, before the build can be imported."""
    folder = tmp_path / "ai"
    folder.mkdir()
    (folder / "mod.py").write_text("VALUE = 1\n")
    assert not native.is_current("mod", folder, {})  # no build at all
    (folder / f"mod{native.SUFFIXES[0]}").write_bytes(b"")  # a build (its content unread)
    recorded = {"mod": native.source_hash("mod", folder)}
    (folder / "native.json").write_text(json.dumps(recorded))
    assert native.is_current("mod", folder)
    (folder / "mod.py").write_text("VALUE = 2\n")  # edited since
    assert not native.is_current("mod", folder)
    (folder / "native.json").write_text("{damaged")
    assert not native.is_current("mod", folder)
    assert native.read_manifest(folder / "native.json") == {}


def test_an_edited_module_runs_from_its_source(tmp_path: Path) -> None:
    """In a copy of the package with a build whose source was edited since, the import
    finds the source (with a warning), not the build, and the other modules' sources too."""
    if not native.compiled(racing):
        pytest.skip("no build to shadow the source")
    package = tmp_path / "hearts"
    shutil.copytree(native.HERE.parent, package, ignore=shutil.ignore_patterns("__pycache__"))
    edited = package / "ai" / "racing.py"
    edited.write_text(edited.read_text() + "\nEDITED = True\n")
    script = (
        "import warnings\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    import hearts.ai.racing as r\n"
        "from hearts.ai import native, passing, rollout\n"
        "print(*[w.message for w in caught], sep='\\n')\n"
        "print(native.compiled(passing), native.compiled(rollout))\n"
        "print(r.__file__, getattr(r, 'EDITED', False))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True
    ).stdout
    assert "hearts.ai.racing: the compiled copy is missing or older than the source" in out
    assert out.strip().endswith("racing.py True")
    assert "False False" in out  # the others run from source too: all or nothing


def test_a_wheel_built_after_the_build_carries_it(tmp_path: Path) -> None:
    """`make wheel` (pip wheel in this environment): with the modules compiled and current,
    the wheel holds them and is tagged for this platform, and installed elsewhere it plays
    with them; without a build it is pure Python and plays from the sources."""
    root = native.HERE.parents[2]
    if not (root / "pyproject.toml").is_file():
        pytest.skip("not a checkout: no project to build a wheel of")
    built = all(native.is_current(name) for name in native.MODULES)
    shipped = any(native.compiled_file(name) for name in native.MODULES)  # `make wheel`: built
    pip = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation"]
    subprocess.run(
        [*pip, "--wheel-dir", str(tmp_path / "dist"), str(root)],
        capture_output=True,
        check=True,
        cwd=tmp_path,
    )
    (wheel,) = (tmp_path / "dist").glob("hearts-*.whl")
    assert wheel.name.endswith("-none-any.whl") != shipped, wheel.name
    with zipfile.ZipFile(wheel) as archive:
        # The learned playout policy's weights are package data (`rollout.WEIGHTS_FILE`).
        assert "hearts/ai/playout_weights.json" in archive.namelist()
        assert "hearts/ai/playout_weights_valued.json" in archive.namelist()
        # The score sheet's font for names Helvetica cannot print, and its license.
        assert "hearts/fonts/DejaVuSans-Bold.ttf" in archive.namelist()
        assert "hearts/fonts/LICENSE-DejaVu.txt" in archive.namelist()
        archive.extractall(tmp_path / "installed")
    script = (
        "from hearts import Round, Rules\n"
        "from hearts.ai import make_player, native, passing, racing, rollout, sampling\n"
        "rnd = Round.deal(Rules(), seed=3, hand_number=0)\n"
        "card = make_player('hard', seed=1, budget=40).choose_pass(rnd.view(0))\n"
        "print([native.compiled(m) for m in (passing, racing, rollout, sampling)])\n"
        "print(rollout.__file__, len(card))\n"
        "from hearts import sheets\n"
        "sheet = sheets.score_sheet_pdf(names=['Ольга'])\n"
        "print(sheets.UNICODE_FONT_FILE, b'/FontFile2' in sheet)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "installed")}
    env.pop("HEARTS_NATIVE", None)
    lines = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True
    ).stdout.splitlines()
    assert lines[0] == str([built] * len(native.MODULES))
    assert lines[1].startswith(str(tmp_path / "installed" / "hearts" / "ai" / "rollout"))
    assert lines[1].endswith(" 3")
    # A name in Cyrillic prints in the font the wheel carries.
    assert lines[2] == f"{tmp_path / 'installed' / 'hearts' / 'fonts' / 'DejaVuSans-Bold.ttf'} True"
