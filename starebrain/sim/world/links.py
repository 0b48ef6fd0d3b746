"""The parts of a link an app's `links` ops read: `{link.to}`, `{link.subject}`, `{link.body}`, `{link.url}`."""

from __future__ import annotations

from urllib.parse import parse_qs, unquote, urlsplit


def link_fields(url: str) -> dict[str, str]:
    """`mailto:a@b.c?subject=S&body=B` -> to, subject, body (and the url, scheme, host and path of any link)."""
    parts = urlsplit(url)
    query = {k.lower(): v[0] for k, v in parse_qs(parts.query).items() if v}
    opaque = not parts.netloc
    return {"url": url, "scheme": parts.scheme.lower(), "host": parts.hostname or "",
            "path": unquote(parts.path), "to": unquote(parts.path) if opaque else "",
            "subject": query.get("subject", ""), "body": query.get("body", query.get("sms_body", ""))}
