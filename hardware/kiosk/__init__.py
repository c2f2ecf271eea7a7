"""The kiosk: `zonkcam play`'s table app and its web pages.

`app` (`TableApp`: the camera loop, settled throws scored, the page's state), `umpire` (a
settled throw turned into typed actions), `rolloff` (the W3 roll-off on the page), `view` (what
`/api/state` holds), `page_actions` (what each button does), `web` and `static/` (the web
server: access, PIN, pairing; the pages), `evidence` (the frames throws were read from, pruned),
`demo` (the demo's player) and `review` (the review page of captured throws, `zonkcam review`).
"""
