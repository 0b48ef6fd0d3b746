"""The report's inline stylesheet (no network, no external files)."""

from __future__ import annotations

CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;background:#f6f7f9;color:#1d232b}
header,main,footer,nav{margin:0 auto;padding:16px 32px;max-width:1800px}
header{background:#fff;border-bottom:1px solid #dde1e6}
h1{font-size:20px;margin:0 0 6px} h2{font-size:16px;margin:24px 0 8px}
.meta{color:#5b6673;font-size:13px} .meta span{margin-right:16px}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-weight:600;font-size:12px}
.COMPLETED,.SUCCEEDED,.APPROVED,.passed{background:#dcf5e3;color:#146c2e}
.FAILED,.DENIED,.failed,.error{background:#fde2e1;color:#a4161a}
.CANCELLED,.SKIPPED,.INTERRUPTED,.flaky{background:#fff0c2;color:#7a5400}
.PENDING,.IN_PROGRESS,.AWAITING_CONFIRMATION,.RUNNING{background:#e3ecfb;color:#1f4fa3}
.banner{margin:12px 0;padding:10px 14px;border-radius:6px;background:#fff0c2;border:1px solid #e8c766}
.reason{margin:8px 0;padding:8px 12px;border-left:4px solid #a4161a;background:#fff}
nav{display:flex;gap:18px;flex-wrap:wrap;background:#fff;border-bottom:1px solid #dde1e6;padding-top:8px;
padding-bottom:8px;position:sticky;top:0;z-index:1} nav a{color:#1f4fa3;text-decoration:none}
.summary{display:grid;grid-template-columns:repeat(auto-fill,minmax(230px,1fr));gap:10px;margin:0}
.summary div{background:#fff;border:1px solid #dde1e6;border-radius:8px;padding:8px 12px}
.summary dt{color:#5b6673;font-size:12px} .summary dd{margin:2px 0 0;font-weight:600}
.step{background:#fff;border:1px solid #dde1e6;border-radius:8px;margin:10px 0;padding:12px 16px;
display:grid;grid-template-columns:minmax(300px,1fr) minmax(0,3fr);gap:20px;align-items:start}
.step.confirmed{border-left:6px solid #1f4fa3;background:#f3f7ff} .step.confirmed.DENIED{border-left-color:#a4161a}
.decision{margin:8px 0;padding:6px 10px;border-radius:6px;background:#e3ecfb;font-size:13px}
.step h3{font-size:15px;margin:0 0 4px} .step .action{font-family:ui-monospace,monospace;color:#5b6673;font-size:12px}
.attempts{display:flex;flex-wrap:wrap;gap:12px}
.attempt{border:1px solid #e4e7eb;border-radius:6px;padding:8px;width:240px;font-size:13px}
.attempt.after{background:#f7faf7} .final img{max-width:360px;border:1px solid #ccd;border-radius:4px}
@media (max-width:900px){.step{grid-template-columns:1fr}}
.attempt img{width:100%;border:1px solid #ccd;border-radius:4px;display:block;margin-top:6px}
.attempt .missing{color:#8a94a0;font-style:italic}
.retry{color:#7a5400;font-weight:600}
ul{margin:4px 0;padding-left:20px} table{border-collapse:collapse;width:100%;background:#fff}
th,td{border:1px solid #dde1e6;padding:4px 8px;text-align:left;font-size:13px;vertical-align:top}
th{background:#eef1f4} footer{color:#8a94a0;font-size:12px}
"""
