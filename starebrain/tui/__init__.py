"""`starebrain tui`: a Textual browser of task history (imported only by that command; never by resume)."""
