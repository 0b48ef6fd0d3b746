"""The one error tree of StareBrain.

StareBrainError                       exit 1  (unexpected; should not escape as such)
├── BadInput                          exit 2  the person gave us something we cannot use
│   ├── FlowInvalid                           a flow file that does not parse or validate
│   ├── ProfileInvalid                        a device_profiles YAML with errors
│   ├── ConfigInvalid                         settings / environment that do not validate
│   └── TaskNotFound                          no task with that id
├── TaskStateError                    exit 2  the task is not in a state that allows this
│   └── CancelRequested               exit 9  the person cancelled the task this process drives
├── DeviceError                               anything between us and the phone
│   ├── DeviceNotFound                exit 4  no such serial attached
│   ├── DeviceOffline                 exit 5  the phone went away (unplugged, adb died)
│   ├── DeviceBusy                    exit 6  another process holds this phone's lease
│   ├── UiServerGone                  exit 5  the on-device uiautomator server crashed
│   ├── DeviceTimeout                 exit 5  a device call exceeded its timeout
│   ├── HierarchyInvalid              exit 5  the phone's hierarchy dump is not uiautomator XML
│   └── ActionOutcomeUnknown          exit 5  an action was sent but no answer came back: it may
│                                             have happened; never re-send it blindly
├── StepFailed                        exit 1  the step could not be done on this screen
│   └── ElementNotFound                       a selector resolved to nothing (not infra!)
├── StaleWrite                        exit 6  the task changed (or the phone changed hands) since we
│   │                                         read it: nothing was overwritten
│   └── LeaseLost                             this process's device lease was taken over; it stops
│                                             before its next action
├── StoreError                        exit 7  the database cannot be used
│   ├── DatabaseLocked                        another writer holds it past busy_timeout
│   │   └── DatabaseUnavailable               the PostgreSQL server cannot be reached right now
│   ├── DatabaseReadOnly                      the file or its folder is not writable
│   └── SchemaTooNew                          written by a newer StareBrain
└── LlmError                          exit 8  the planning endpoint failed us
    ├── LlmTimeout
    ├── LlmUnavailable                        connection refused, 5xx, 429 after retries
    └── PlanInvalid                           output that does not validate after repair

Library errors are translated at the boundary (`raise DeviceOffline(...) from exc`).
"""

from __future__ import annotations


class StareBrainError(Exception):
    """Base of every error StareBrain raises on purpose."""

    exit_code = 1

    def __init__(self, message: str, *, task_id: str | None = None, step_id: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.task_id = task_id
        self.step_id = step_id

    def __str__(self) -> str:
        return self.message


class BadInput(StareBrainError):
    exit_code = 2


class FlowInvalid(BadInput):
    pass


class ProfileInvalid(BadInput):
    pass


class ConfigInvalid(BadInput):
    pass


class TaskNotFound(BadInput):
    pass


class TaskStateError(StareBrainError):
    exit_code = 2


class CancelRequested(TaskStateError):
    """Raised at a step boundary of a driver whose task the person cancelled from elsewhere."""

    exit_code = 9


class DeviceError(StareBrainError):
    exit_code = 5


class DeviceNotFound(DeviceError):
    exit_code = 4


class DeviceOffline(DeviceError):
    exit_code = 5


class DeviceBusy(DeviceError):
    exit_code = 6


class UiServerGone(DeviceError):
    exit_code = 5


class DeviceTimeout(DeviceError):
    exit_code = 5


class HierarchyInvalid(DeviceError):
    exit_code = 5


class ActionOutcomeUnknown(DeviceError):
    """An action (tap, type, press, ...) may or may not have reached the phone."""

    exit_code = 5


class StepFailed(StareBrainError):
    exit_code = 1


class ElementNotFound(StepFailed):
    pass


class StaleWrite(StareBrainError):
    """A compare-and-set write found a newer version of the task: the stale copy is dropped."""

    exit_code = 6


class LeaseLost(StaleWrite):
    """Another process holds this device's lease now (fencing token changed)."""


class StoreError(StareBrainError):
    exit_code = 7


class DatabaseLocked(StoreError):
    pass


class DatabaseReadOnly(StoreError):
    pass


class DatabaseUnavailable(DatabaseLocked):
    """The database server cannot be reached right now (restarting, network); retried like a lock."""


class SchemaTooNew(StoreError):
    pass


class LlmError(StareBrainError):
    exit_code = 8


class LlmTimeout(LlmError):
    pass


class LlmUnavailable(LlmError):
    pass


class PlanInvalid(LlmError):
    pass


# Exit codes that are not errors, documented beside the error ones (README "Exit codes").
EXIT_OK = 0
EXIT_TASK_FAILED = 1
EXIT_AWAITING_CONFIRMATION = 3
EXIT_CANCELLED = 9
EXIT_INTERRUPTED = 130
