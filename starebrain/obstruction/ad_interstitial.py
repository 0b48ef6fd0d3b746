"""A full-screen test ad: the Google Mobile Ads SDK's interstitial, whose creative is a WebView exposing nothing."""

from __future__ import annotations

from starebrain.models.selector import Selector
from starebrain.obstruction.clearing import visible_target
from starebrain.obstruction.kinds import BackClearance, Obstruction, ObstructionKind
from starebrain.snapshot import ScreenSnapshot
from starebrain.snapshot.node import WEBVIEW
from starebrain.snapshot.text import normalize_text
from starebrain.snapshot.windows import WindowKind

# The Mobile Ads SDK's AdActivity (com.google.android.gms.ads.AdActivity) shows an interstitial as a WebView filling
# the app's window, and marks every test creative with its own "Test Ad" badge over it. Its close control is drawn
# inside the creative, so the dump holds nothing to tap; AdActivity closes the ad on back, and tapping the WebView
# would open the advertiser.
_TEST_AD_BADGE = "test ad"
# The creative fills most of the window (it may leave the system bars' insets).
_MIN_SHARE = 0.6


def ad_interstitial(snap: ScreenSnapshot, target: Selector | None = None) -> Obstruction | None:
    """OVERLAY closed with back when the top app window is a WebView creative under the SDK's test-ad badge alone."""
    top = snap.top_window
    if top is None or top.kind is not WindowKind.APP or visible_target(snap, target) is not None:
        return None
    nodes = [n for n in snap.by_window[top.index] if n.visible]
    area = max(top.bounds.area, 1)
    creative = next((n for n in nodes if n.short_class == WEBVIEW and n.bounds.area >= _MIN_SHARE * area), None)
    if creative is None or snap.children(creative):
        return None
    labels = {normalize_text(n.text or n.content_desc).lower() for n in nodes if n.text or n.content_desc}
    others = [n for n in nodes if n is not creative and (n.clickable or n.editable or n.scrollable)]
    if labels != {_TEST_AD_BADGE} or others:
        return None
    return Obstruction(ObstructionKind.OVERLAY, "a full-screen test ad (the Mobile Ads SDK's interstitial); "
                       "back closes it", BackClearance())
