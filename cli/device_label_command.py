"""`starebrain devices label`: tags a person puts on one phone, which queued tasks (`submit --label`) match."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from starebrain.cli.failures import one_line_errors
from starebrain.cli.wiring import EngineFactory

Pairs = Annotated[list[str] | None, typer.Argument(
    help="key=value tags to set (a key already set is replaced); none: print the phone's tags.",
    show_default=False)]
Remove = Annotated[list[str] | None, typer.Option(
    "--remove", "-r", help="Drop the tag with this key (repeatable).", show_default=False)]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the phone's tags as JSON.")]


@one_line_errors
def label(serial: Annotated[str, typer.Argument(help="The phone's serial; it need not be attached.")],
          pairs: Pairs = None, remove: Remove = None, json_out: JsonOpt = False) -> None:
    """Set, remove or print one phone's tags; a daemon's workers match queued tasks against them.

    Tags live in the store (every host of a farm sees them) and count at the phone's next claim, without restarting the daemon. host, model, android and brand are reserved: the daemon sets them."""  # noqa: E501
    from starebrain.store.device_tags import DeviceTags, check_key, parse_tags

    tags, drop = parse_tags(pairs or []), [check_key(k) for k in remove or []]  # all checked before any write
    with EngineFactory(json_out=json_out) as engine:
        store = DeviceTags(engine.store)
        for key in sorted(set(drop) - set(store.remove_tags(serial, drop))):
            print(f"note: {serial} had no tag {key!r}", file=sys.stderr)
        now = store.set_tags(serial, tags) if tags else store.tags(serial)
    if json_out:
        print(json.dumps({"serial": serial, "tags": now}))
    elif now:
        print(" ".join(f"{k}={v}" for k, v in sorted(now.items())))
    else:
        print(f"{serial} has no tags", file=sys.stderr)
