"""The engine builder: one place assembles every collaborator, with the session's own guard everywhere."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from starebrain.agent.guarded_grounding import GuardedGrounding
from starebrain.config import load_settings
from starebrain.engine import build_engine
from starebrain.store import Store
from tests.executor.conftest import messaging_world
from tests.fakes.scripted_planner import ScriptedPlanner

TASKS = "com.google.android.apps.tasks"


def _profiles_dir(tmp_path: Path) -> Path:
    """An override folder that files the Tasks app under banking."""
    folder = tmp_path / "profiles"
    folder.mkdir()
    packaged = resources.files("starebrain.device_profiles").joinpath("categories.yaml").read_text(encoding="utf-8")
    (folder / "categories.yaml").write_text(packaged.replace(f"{TASKS}: tasks", f"{TASKS}: banking"))
    return folder


def test_a_planner_brings_guarded_grounding_and_a_replanner_with_the_sessions_guard(tmp_path: Path) -> None:
    settings = load_settings(home=tmp_path, profiles_dir=_profiles_dir(tmp_path))
    planner = ScriptedPlanner()
    with Store.open(settings=settings) as store, build_engine(settings, store, "fake-1", planner=planner,
                                                              connect=lambda serial, permit: messaging_world()) \
            as session:
        executor = session.executor
        assert executor is not None and executor.replanner is not None
        assert isinstance(executor.runner.planner, GuardedGrounding) and executor.runner.planner.planner is planner
        assert executor.runner.planner.guard is executor.guard
        assert executor.replanner.guard is executor.guard  # type: ignore[attr-defined]
        assert executor.guard.profiles.category_of(TASKS) == "banking"  # type: ignore[attr-defined]
        assert executor.runner.observers  # the context tracker sees every look


def test_without_a_planner_nothing_grounds_or_replans(tmp_path: Path) -> None:
    settings = load_settings(home=tmp_path)
    with Store.open(settings=settings) as store:
        with build_engine(settings, store, "fake-1", connect=lambda serial, permit: messaging_world()) as session:
            assert session.executor is not None
            assert session.executor.planner is None and session.executor.replanner is None
            assert session.executor.runner.planner is None
            assert store.lease_of("fake-1") is not None  # the phone is leased while the session is open
        assert store.lease_of("fake-1") is None
