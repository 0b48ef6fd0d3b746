"""Mid-task replanning: only the remainder is replaced; the rules hold."""

from __future__ import annotations

from starebrain.errors import LlmTimeout
from starebrain.executor.replan_policy import ReplanPolicy
from starebrain.executor.task_executor import INTERRUPTED_REASON
from starebrain.models import AgentStep, LlmPurpose, Press, Selector, StepStatus, Tap, TaskStatus
from tests.executor.conftest import MSG, World
from tests.executor.test_cursor_contract import send_task, sends
from tests.fakes.scripted_planner import ScriptedPlanner


def wrong_name_task():  # step 2 looks for a name the screen does not have
    task = send_task()
    task.steps[1] = task.steps[1].model_copy(update={"action": Tap(selector=Selector(text="Dana W."))})
    return task


def fixed_steps() -> list[AgentStep]:
    return [
        AgentStep(instruction="Open Dana's thread", action=Tap(selector=Selector(text="Dana Whitfield")),
                  target_package=MSG, expect=Selector(resource_id=f"{MSG}:id/compose")),
        AgentStep(instruction="Send it", action=Tap(selector=Selector(content_desc="Send")), target_package=MSG,
                  irreversible=True, expect=Selector(text="Message sent")),
    ]


def test_one_replan_merges_revised_steps_after_the_cursor(world: World) -> None:
    planner = ScriptedPlanner(groundings=[None], replans=[fixed_steps()])
    ex = world.executor(planner=planner)
    task = ex.start(wrong_name_task())
    assert planner.count(LlmPurpose.GROUND) == 1  # one grounding try on this screen first
    assert planner.count(LlmPurpose.REPLAN) == 1
    assert task.replan_count == 1 and len(task.steps) == 3
    assert task.steps[0].status == StepStatus.COMPLETED  # kept exactly, not re-run
    assert [a for a in world.device.actions if a[0] == "open_app"] == [("open_app", MSG)]
    assert task.status == TaskStatus.AWAITING_CONFIRMATION and task.cursor == 2
    request = [c.payload for c in planner.received if c.purpose == LlmPurpose.REPLAN][0]
    assert [s.instruction for s in request.completed_steps] == ["Open Messages"]
    assert "Dana W." in request.failure_reason and "Dana Whitfield" in request.screen_summary
    task = ex.approve(task, decided_by="cli")
    assert task.status == TaskStatus.COMPLETED and sends(world) == 1
    assert [c.purpose for c in world.store.llm_calls(task.id)] == [LlmPurpose.GROUND, LlmPurpose.REPLAN]


def test_same_instruction_failing_twice_is_not_replanned_again(world: World) -> None:
    again = [AgentStep(instruction="Open Dana's thread", action=Tap(selector=Selector(text="Dana W.")),
                       target_package=MSG)]
    planner = ScriptedPlanner(groundings=[None, None, None], replans=[again, again, again])
    task = world.executor(planner=planner).start(wrong_name_task())
    assert task.status == TaskStatus.FAILED
    assert planner.count(LlmPurpose.REPLAN) == 1
    assert "failed 2 times" in task.status_reason


def test_replan_cap_is_respected(world: World) -> None:
    planner = ScriptedPlanner(groundings=[None], replans=[fixed_steps()])
    policy = ReplanPolicy(max_replans=0)
    task = world.executor(planner=planner, policy=policy).start(wrong_name_task())
    assert task.status == TaskStatus.FAILED and "replan limit" in task.status_reason
    assert planner.count(LlmPurpose.REPLAN) == 0


def test_a_confirmed_step_that_fails_is_not_replanned(world: World) -> None:
    planner = ScriptedPlanner(replans=[fixed_steps()])
    ex = world.executor(planner=planner)
    task = ex.start(send_task())
    world.device.screens["thread"].on_tap.clear()
    task = ex.approve(task, decided_by="cli")
    # the tap went out without its effect showing: the person settles it; nothing is replanned
    assert task.status == TaskStatus.AWAITING_CONFIRMATION and task.status_reason == INTERRUPTED_REASON
    assert planner.count(LlmPurpose.REPLAN) == 0


def test_loop_detection_stops_repeating_the_same_action() -> None:
    policy = ReplanPolicy()
    step = AgentStep(instruction="Back", action=Press(key="back"))
    for _ in range(3):
        policy.record_action(step, "samehash")
    assert policy.in_loop()
    policy.record_action(step, "otherhash")
    assert not policy.in_loop()


def test_replan_llm_failure_ends_the_task_cleanly(world: World) -> None:
    planner = ScriptedPlanner(groundings=[None], replans=[LlmTimeout("endpoint timed out after 30s")])
    task = world.executor(planner=planner).start(wrong_name_task())
    assert task.status == TaskStatus.FAILED and "replanning failed" in task.status_reason
    stored = world.store.load_task(task.id)
    assert stored.status == TaskStatus.FAILED and stored.cursor == 1


def test_grounding_picks_an_element_when_the_selector_misses(world: World) -> None:
    planner = ScriptedPlanner(groundings=[Selector(text="Dana Whitfield")])
    task = world.executor(planner=planner).start(wrong_name_task())
    assert task.status == TaskStatus.AWAITING_CONFIRMATION and task.cursor == 3
    assert planner.count(LlmPurpose.GROUND) == 1
    assert "Grounded" in world.recorder.kinds()
