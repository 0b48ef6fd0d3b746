"""What opening a link may set off, judged from the URL alone (before and at act time).

A VIEW intent hands the URL to whichever app claims it: a `tel:` link dials, an `sms:` or `mailto:` link
with a body puts a written message one tap from being sent, `market:` and `.apk` links install, payment
schemes and bank hosts move money. Those go to the person; a scheme we do not know is asked about too.
Opening is the whole action: what the opened app shows is judged by the next step's guard.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

SEND_SCHEMES = ("tel", "sms", "smsto", "mms", "mmsto", "mailto")
INSTALL_SCHEMES = ("market", "intent", "package")
MONEY_SCHEMES = ("upi", "paytm", "phonepe", "gpay", "tez", "paypal", "venmo", "cashapp", "bitcoin", "ethereum",
                 "lightning", "bank", "payto", "zelle", "revolut", "wise")
PLAIN_SCHEMES = ("http", "https", "geo", "maps")
MONEY_HOSTS = ("paypal.com", "paypal.me", "pay.google.com", "venmo.com", "cash.app", "wise.com", "revolut.me",
               "buy.stripe.com", "checkout.stripe.com", "pay.amazon.com", "zellepay.com")
INSTALL_HOSTS = ("play.google.com", "apkpure.com", "f-droid.org")
_BODY_KEYS = ("body", "sms_body", "text")


@dataclass(frozen=True)
class LinkRisk:
    """Why opening the link needs the person ("" when opening it is harmless) and its group."""

    group: str = ""  # "send", "install", "money", "unknown scheme" or ""
    why: str = ""

    @property
    def needs_person(self) -> bool:
        return bool(self.group)


def judge_link(url: str) -> LinkRisk:
    """The risk of opening `url` with a VIEW intent."""
    scheme = url.split(":", 1)[0].lower()
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    path = parts.path.lower()
    if scheme in MONEY_SCHEMES or _host_in(host, MONEY_HOSTS) or (scheme in ("http", "https") and "bank" in host):
        return LinkRisk("money", f"it opens a payment or bank link ({scheme}:{' ' + host if host else ''})")
    if scheme in INSTALL_SCHEMES or path.endswith(".apk") or _host_in(host, INSTALL_HOSTS):
        return LinkRisk("install", f"it opens an app store or installer link ({scheme}:)")
    if scheme == "tel":
        return LinkRisk("send", "it dials a number (tel:)")
    if scheme in SEND_SCHEMES and _has_body(parts.query):
        return LinkRisk("send", f"it opens a message with its text written, one tap from being sent ({scheme}:)")
    if scheme not in PLAIN_SCHEMES + SEND_SCHEMES:
        return LinkRisk("unknown scheme", f"the app that handles {scheme}: links is unknown")
    return LinkRisk()


def _host_in(host: str, hosts: tuple[str, ...]) -> bool:
    return any(host == h or host.endswith("." + h) for h in hosts)


def _has_body(query: str) -> bool:
    fields = parse_qs(query, keep_blank_values=False)
    return any(k.lower() in _BODY_KEYS and any(v.strip() for v in vals) for k, vals in fields.items())
